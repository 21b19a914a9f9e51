"""How deep a JSON value may nest before the runner refuses it, and where it nests too deep.

Everything in the suite and in a reply is shallow (a case is about ten levels deep); the
comparison of values recurses. A case nested more than MAX_DEPTH levels deep is refused when
its file is loaded, with a pointer; so is an adapter's reply, found from its text as it is read
(:func:`may_nest_too_deep`, at C speed: walking every parsed reply in Python would cost about as
much as judging it). Neither ends the run with a RecursionError.
"""

from __future__ import annotations

from typing import Any

from camelup.io.gate import nesting_exceeds
from camelup.io.jsonio import nested_deeper, pointer

MAX_DEPTH = 64


def too_deep(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """The JSON pointer of the first array or object of ``value`` (parsed JSON) nested more
    than ``limit`` levels deep, or None (measured by :func:`camelup.io.jsonio.nested_deeper`)."""
    return _path_to_depth(value, limit) if nested_deeper(value, limit - 1) else None


def may_nest_too_deep(text: bytes, level: int, limit: int = MAX_DEPTH) -> bool:
    """Whether a value ``level`` levels below the root of the JSON text ``text`` may nest more
    than ``limit`` levels deep (as :func:`too_deep` counts): False is certain, from the text's
    brackets outside strings (:func:`camelup.io.gate.nesting_exceeds`, at C speed), so that a
    document with nothing that deep is not walked value by value."""
    # too_deep finds a container ``limit`` levels below the value: ``limit + level`` below the
    # root, where nesting_exceeds' running count of open brackets reaches ``limit + level + 1``.
    return nesting_exceeds(text, limit + level)


def _path_to_depth(value: Any, limit: int) -> str:
    """The pointer of the first container ``limit`` levels deep (one is known to exist)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, where = stack.pop()
        if len(where) >= limit:
            return pointer(*where)
        members = node.items() if isinstance(node, dict) else enumerate(node)
        stack.extend(
            (member, (*where, key)) for key, member in members if isinstance(member, dict | list)
        )
    raise AssertionError("no container that deep")


def depth_message(limit: int = MAX_DEPTH) -> str:
    return f"nested more than {limit} levels deep (the runner compares at most {limit})"


def too_deep_reply(reply: Any, where: str | None = None) -> str:
    """Why a reply nested too deep is malformed, and where (``where``, or found here)."""
    where = where if where is not None else too_deep(reply)
    at = f" at {where}" if where is not None else ""
    return f"malformed reply: nested more than {MAX_DEPTH} levels deep{at}"

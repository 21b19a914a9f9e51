"""How deep a JSON value may nest before the runner refuses it, and where it nests too deep.

Everything in the suite and in a reply is shallow (a case is about ten levels deep); the
comparison of values recurses, so a value nested hundreds of levels deep, in a case file or in
an adapter's reply, is refused here first instead of ending the run with a RecursionError.
"""

from __future__ import annotations

from typing import Any

from camelup.io.jsonio import pointer

MAX_DEPTH = 64


def too_deep(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """The JSON pointer of the first array or object of ``value`` nested more than ``limit``
    levels deep, or None. Iterative, so any depth the JSON parser accepted can be measured."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            members: Any = node.items()
        elif isinstance(node, list):
            members = enumerate(node)
        else:
            continue
        if len(where) >= limit:
            return pointer(*where)
        stack.extend((member, (*where, key)) for key, member in members)
    return None


def depth_message(limit: int = MAX_DEPTH) -> str:
    return f"nested more than {limit} levels deep (the runner compares at most {limit})"

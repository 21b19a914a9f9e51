"""Reading JSON text from outside: case files, expectations files, schema files, adapter lines.

:func:`parse_json` is the one place where the conformance tooling turns text (or UTF-8 bytes)
into JSON values. Whatever is wrong with the text becomes a :class:`JSONInputError` with one
line of explanation (and, for a string that cannot be written as UTF-8, the JSON pointer of
the string), never a traceback: not JSON (with line and column), not UTF-8, nested too deeply,
an integer of more digits than Python converts, or a lone surrogate escape (``"\\ud800"``), which
no UTF-8 output (a report, a terminal, a pipe to an adapter) can carry.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


class JSONInputError(ValueError):
    """The text is not JSON this runner reads; ``message`` says why in one line, ``pointer``
    (RFC 6901, ``""`` for the whole document) says where when it can."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.message} at {self.pointer}" if self.pointer else self.message


def _shown(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def escape(token: str | int) -> str:
    """One JSON-pointer reference token, escaped (RFC 6901); a lone surrogate in it is written
    as its ``\\uXXXX`` escape, so that the pointer can always be printed."""
    return _SURROGATE.sub(_shown, str(token).replace("~", "~0").replace("/", "~1"))


def pointer(*tokens: str | int) -> str:
    """The JSON pointer of ``tokens`` (``""`` for none: the whole document)."""
    return "".join("/" + escape(t) for t in tokens)


_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def lone_surrogate(value: Any) -> tuple[str, str] | None:
    """The JSON pointer and the ``\\uXXXX`` escape of the first lone surrogate in a string (a
    key or a value) of ``value``, or None. Iterative: as deep as the parser went."""
    try:  # the common case, at C speed: nothing that UTF-8 cannot encode
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return None
    except (UnicodeEncodeError, ValueError, RecursionError, TypeError):
        pass  # find where, below
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, where = stack.pop()
        if isinstance(node, str):
            found = _SURROGATE.search(node)
            if found:
                return where, _shown(found)
        elif isinstance(node, dict):
            items = list(node.items())
            for key, member in reversed(items):
                stack.append((member, where + pointer(key)))
            for key, _ in items:
                found = _SURROGATE.search(key)
                if found:
                    return where + pointer(key), _shown(found)
        elif isinstance(node, list):
            stack.extend((member, f"{where}/{i}") for i, member in reversed(list(enumerate(node))))
    return None


def printable(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape: safe to print and
    to encode as UTF-8 (a file name read with ``surrogateescape``, a message quoting a value)."""
    return _SURROGATE.sub(_shown, text)


def surrogate_message(escape: str) -> str:
    return f"a lone surrogate {escape} in a string (no UTF-8 text can hold it)"


def parse_json(data: str | bytes, *, allow_surrogates: bool = False) -> Any:
    """The JSON value of ``data`` (bytes must be UTF-8); raises :class:`JSONInputError`.

    A string holding a lone surrogate is refused unless ``allow_surrogates``: then the caller
    looks for them itself (:func:`lone_surrogate`), to refuse only the part of the document
    that holds one.
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise JSONInputError(
            f"not JSON (line {error.lineno}, column {error.colno}): {error.msg}"
        ) from None
    except UnicodeDecodeError as error:
        raise JSONInputError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    except RecursionError:
        raise JSONInputError("not JSON this runner reads: nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more digits than Python converts
        raise JSONInputError(f"not JSON this runner reads: {error!s:.100}") from None
    # A lone surrogate can only come from a \uD8xx-style escape or from text that already holds
    # one, so a regex over the text spares the walk over the value in the common case.
    maybe = not allow_surrogates and _MAYBE_SURROGATE.search(text) is not None
    found = lone_surrogate(value) if maybe else None
    if found is not None:
        where, shown = found
        raise JSONInputError(f"not JSON this runner reads: {surrogate_message(shown)}", where)
    return value

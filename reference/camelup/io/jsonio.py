"""Reading JSON text from outside, and JSON pointers: one reader and one pointer builder.

:func:`parse_json` is the one place where camelup turns text (or UTF-8 bytes) into JSON values:
states, case files, expectations files, schema files, adapter and runner lines. Whatever is wrong
with the text becomes a :class:`JSONInputError` with one line of explanation and, where it can
say, the JSON pointer of the offending place; never a traceback:

* not JSON (with line and column), or not UTF-8 (with the byte offset);
* a key twice in one object (``{"expect": ..., "expect": ...}`` would silently drop the first);
* ``NaN``, ``Infinity`` or ``-Infinity``, which Python reads but JSON does not have, and a
  number too large for a double (``1e400``), which Python reads as ``Infinity``;
* an integer of more digits than Python converts;
* nesting deeper than ``max_depth``, or than :data:`camelup.io.gate.MAX_NESTING` whatever
  ``max_depth`` says: that bound is checked on the text before anything else, so the parser
  never runs out of stack whatever else is wrong with the document;
* unless ``allow_surrogates``, a lone surrogate escape (``"\\ud800"``), which no UTF-8 output (a
  report, a terminal, a pipe to an adapter) can carry;
* with ``integers_only``, a number with a fraction or an exponent (``4.0``, ``1e2``): the
  schemas of case files and states have integers only, and JSON Schema's ``integer`` accepts
  ``4.0``; a file someone wrote must say ``4`` (an adapter's reply may say ``4.0``).

:func:`pointer` is :func:`camelup.model.errors.pointer`, the one builder of JSON pointers (RFC
6901: ``~`` as ``~0``, ``/`` as ``~1``), made printable.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from camelup.io.gate import MAX_NESTING, InputRefused, nesting_exceeds, read_path
from camelup.model.errors import pointer as json_pointer

__all__ = [
    "JSONInputError",
    "find",
    "lone_surrogate",
    "may_hold_surrogate",
    "nested_deeper",
    "parse_json",
    "pointer",
    "printable",
    "read_json_file",
    "surrogate_message",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class JSONInputError(ValueError):
    """The text is not JSON camelup reads; ``message`` says why in one line, ``pointer``
    (RFC 6901, ``""`` for the whole document) says where when it can."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        return f"{self.message} at {self.pointer}" if self.pointer else self.message


# ------------------------------------------------------------------------------ JSON pointers


def _shown(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def pointer(*tokens: str | int) -> str:
    """The JSON pointer of ``tokens`` (``""`` for none: the whole document), printable: the
    model's one pointer builder, with a lone surrogate written as its escape."""
    return printable(json_pointer(*tokens))


def printable(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape: safe to print and
    to encode as UTF-8 (a file name read with ``surrogateescape``, a message quoting a value)."""
    return _SURROGATE.sub(_shown, text)


def surrogate_message(escape: str) -> str:
    return f"a lone surrogate {escape} in a string (no UTF-8 text can hold it)"


def find(value: Any, found: Callable[[Any, int], str | None]) -> tuple[str, str, Any] | None:
    """The pointer of the first node (keys before their values, in document order) for which
    ``found(node, depth)`` says something, what it said, and the node. Iterative: as deep as
    the parser went."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        said = found(node, depth)
        if said is not None:
            return where, said, node
        if isinstance(node, dict):
            items = list(node.items())
            for key, _ in items:
                said = found(key, depth + 1)
                if said is not None:
                    return where + pointer(key), said, key
            stack.extend((v, where + pointer(k), depth + 1) for k, v in reversed(items))
        elif isinstance(node, list):
            stack.extend((v, f"{where}/{i}", depth + 1) for i, v in reversed(list(enumerate(node))))
    return None


def _surrogate_in(node: Any, depth: int) -> str | None:
    if isinstance(node, str):
        hit = _SURROGATE.search(node)
        return _shown(hit) if hit else None
    return None


def may_hold_surrogate(text: str | bytes) -> bool:
    """Whether the JSON text ``text`` may hold a lone surrogate: False is certain. One can
    only come from a \\uD8xx-style escape or from text that already holds one (not ASCII), so a
    regex over the text spares the walk over the value (:func:`lone_surrogate`) in the common
    case, and two scans at C speed spare the regex in the commonest (the regex is slower)."""
    if isinstance(text, bytes):  # UTF-8 cannot hold a surrogate: an escape is the one way
        return _SURROGATE_ESCAPE.search(text) is not None
    return ("\\u" in text or not text.isascii()) and _MAYBE_SURROGATE.search(text) is not None


def lone_surrogate(value: Any) -> tuple[str, str] | None:
    """The JSON pointer and the ``\\uXXXX`` escape of the first lone surrogate in a string (a
    key or a value) of ``value``, or None."""
    try:  # the common case, at C speed: nothing that UTF-8 cannot encode
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return None
    except (UnicodeEncodeError, ValueError, RecursionError, TypeError):
        pass  # find where, below
    found = find(value, _surrogate_in)
    return None if found is None else (found[0], found[1])


# ---------------------------------------------------------------------------------- reading


class _Refused(Exception):
    """Raised by the parser's hooks on the fast path; the slow path then finds where."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Refused
    return out


def _refuse(text: str) -> Any:
    """A parser hook for what is never read (NaN, Infinity; where only integers are read, a
    number with a fraction or an exponent)."""
    raise _Refused


class _Marked(dict[str, Any]):
    """An object of the slow path, remembering the first key it had twice."""

    twice: str | None = None


class _Constant:
    def __init__(self, name: str) -> None:
        self.name = name


class _LongInteger:
    def __init__(self, digits: str) -> None:
        self.digits = len(digits.lstrip("-"))


def _marked(pairs: list[tuple[str, Any]]) -> _Marked:
    out = _Marked()
    for key, member in pairs:
        if key in out and out.twice is None:
            out.twice = key
        out[key] = member
    return out


class _Fraction:
    def __init__(self, text: str) -> None:
        self.text = text


class _Infinite:
    """A number too large for a double, which Python reads as Infinity."""


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused
    return value


def _marked_finite(text: str) -> float | _Infinite:
    value = float(text)
    return _Infinite() if math.isinf(value) else value


def _integer(digits: str) -> Any:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts
        return _LongInteger(digits)


def _defect(node: Any, depth: int) -> str | None:
    if isinstance(node, _Marked) and node.twice is not None:
        return f"duplicate key {printable(repr(node.twice))} (twice in one object)"
    if isinstance(node, _Constant):
        return f"{node.name} is not a JSON number"
    if isinstance(node, _LongInteger):
        return f"an integer of {node.digits} digits (more than this reader converts)"
    if isinstance(node, _Infinite):
        return "a number too large for a double (read as Infinity, not a JSON number)"
    if isinstance(node, _Fraction):
        return f"{printable(node.text[:40])} is not an integer (this document has integers only)"
    return None


def _where_refused(text: str, integers_only: bool) -> JSONInputError:
    """The first duplicate key, non-number constant, over-long integer, infinite number or
    (``integers_only``) number with a fraction of ``text``, with its pointer: the text is
    read again with hooks that mark them instead of raising."""
    value = json.loads(
        text,
        object_pairs_hook=_marked,
        parse_constant=_Constant,
        parse_int=_integer,
        parse_float=_Fraction if integers_only else _marked_finite,
    )
    found = find(value, _defect)
    if found is None:  # pragma: no cover - the fast path refused what the slow one accepts
        return JSONInputError("not JSON this reader reads")
    where, message, node = found
    if isinstance(node, _Marked):  # point at the key's second occurrence
        where += pointer(str(node.twice))
    return JSONInputError(f"not JSON this reader reads: {message}", where)


def nested_deeper(value: Any, limit: int) -> bool:
    """Whether arrays or objects nest in ``value`` (parsed JSON) more than ``limit`` levels
    below the root. Iterative, so any depth the JSON parser accepted can be measured: one pass
    per level over the containers only, in comprehensions (a stack of every node cost a third
    of the loading of a 20,000-case suite); the pointer is found only when they do."""
    level = [value] if isinstance(value, dict | list) else []
    for _ in range(limit + 1):
        below: list[Any] = []
        for node in level:
            members = node.values() if type(node) is dict else node
            below += [m for m in members if type(m) is dict or type(m) is list]
        if not below:
            return False
        level = below
    return True


def _too_deep(limit: int) -> Callable[[Any, int], str | None]:
    def check(node: Any, depth: int) -> str | None:
        if depth > limit and isinstance(node, dict | list):
            return f"nested more than {limit} levels deep"
        return None

    return check


def parse_json(
    data: str | bytes,
    *,
    allow_surrogates: bool = False,
    max_depth: int | None = None,
    integers_only: bool = False,
) -> Any:
    """The JSON value of ``data`` (bytes must be UTF-8); raises :class:`JSONInputError`.

    A string holding a lone surrogate is refused unless ``allow_surrogates``: then the caller
    looks for them itself (:func:`lone_surrogate`), to refuse only the part of the document
    that holds one. ``max_depth`` bounds the nesting of arrays and objects (the root is at
    depth 0) for documents whose values are walked freely, such as the expected values of a
    case file; without it, the parser's own limit applies. ``integers_only`` refuses a
    number with a fraction or an exponent, where it is.
    """
    if nesting_exceeds(data):
        raise JSONInputError(
            f"not JSON this reader reads: nested too deeply (more than {MAX_NESTING} levels)"
        )
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_refuse,
            # Called for numbers with a fraction or an exponent only: a number beyond a double
            # (1e400) is refused there, with no scan of the whole text for one.
            parse_float=_refuse if integers_only else _finite,
        )
    except _Refused:
        raise _where_refused(text, integers_only) from None
    except json.JSONDecodeError as error:
        raise JSONInputError(
            f"not JSON (line {error.lineno}, column {error.colno}): {error.msg}"
        ) from None
    except UnicodeDecodeError as error:
        raise JSONInputError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    except RecursionError:
        raise JSONInputError("not JSON this reader reads: nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise _where_refused(text, integers_only) from None
    if max_depth is not None and nested_deeper(value, max_depth):
        deep = find(value, _too_deep(max_depth))
        if deep is not None:
            raise JSONInputError(f"not JSON this reader reads: {deep[1]}", deep[0])
    if not allow_surrogates and may_hold_surrogate(text):
        found = lone_surrogate(value)
        if found is not None:
            where, shown = found
            raise JSONInputError(f"not JSON this reader reads: {surrogate_message(shown)}", where)
    return value


def read_json_file(path: Path, **options: Any) -> Any:
    """The JSON value of the file at ``path`` (see :func:`parse_json` for ``options``); a file
    the gate refuses (:func:`camelup.io.gate.read_path`: not a regular file, too large) or
    that cannot be read is a :class:`JSONInputError` too."""
    try:
        data = read_path(path)
    except InputRefused as error:
        raise JSONInputError(str(error)) from None
    return parse_json(data, **options)

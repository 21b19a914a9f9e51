"""The one gate every input from outside passes: files, standard input and adapter lines.

What a hostile or careless user can hand camelup is refused here, before any other check, so
that the order of the defects in a document never matters and nothing downstream meets them:

* a path that is not a regular file (a FIFO would block forever, ``/dev/zero`` never ends, a
  directory or a symlink loop cannot be read): refused from ``fstat`` on a descriptor opened
  without blocking, so neither the check nor the open can hang;
* more than :data:`MAX_INPUT_BYTES` bytes (a file, or standard input): refused from the file's
  size, and never read past the bound (a file may grow while it is read);
* arrays and objects nested more than :data:`MAX_NESTING` levels: refused from the text alone
  (:func:`nesting_exceeds`, at C speed, no recursion), so that neither the JSON parser nor
  anything walking the parsed value can run out of stack.

Every refusal is an :class:`InputRefused` with one line saying why; the command line turns it
into exit code 3 (:mod:`camelup.io.exits`).
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable
from itertools import accumulate, repeat
from pathlib import Path

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_NESTING",
    "InputMissing",
    "InputRefused",
    "nesting_exceeds",
    "read_input",
    "read_path",
    "read_stdin",
]

MAX_INPUT_BYTES = 64 << 20  # the suite's largest file is under 100 KiB; a state, under 10 KiB
# Deep enough for any document camelup reads (a case is about ten levels deep, an expected
# value at most 64), shallow enough that the C parser and a walk over the value stay far below
# Python's recursion limit (1000) wherever they are called from.
MAX_NESTING = 512
_CHUNK = 1 << 20

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputRefused(ValueError):
    """An input camelup will not read: ``str(error)`` says why, in one line."""


class InputMissing(InputRefused):
    """The path names nothing (or a folder on the way is missing): a bad path, not bad data."""


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_path(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer returns at once (fstat then refuses it)
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError) as error:
        raise InputMissing(f"cannot read: {_reason(error)}") from None
    except OSError as error:
        raise InputRefused(f"cannot read: {_reason(error)}") from None
    except (RuntimeError, ValueError) as error:  # a NUL byte in the name
        raise InputRefused(f"cannot read: {error}") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise InputRefused(f"cannot read: {_kind(status.st_mode)}, not a regular file")
        if status.st_size > limit:
            raise InputRefused(f"cannot read: {_too_big(limit)} ({status.st_size} bytes)")
        os.set_blocking(descriptor, True)
        with os.fdopen(descriptor, "rb", closefd=False) as stream:
            return _bounded(stream.read, limit)
    except OSError as error:
        raise InputRefused(f"cannot read: {_reason(error)}") from None
    finally:
        os.close(descriptor)


def read_stdin(limit: int = MAX_INPUT_BYTES) -> bytes:
    """Standard input's bytes, at most ``limit`` of them (a pipe, a file or a terminal)."""
    stream = sys.stdin
    buffer = getattr(stream, "buffer", None) if stream is not None else None
    if buffer is None or stream is None or stream.closed:
        raise InputRefused("cannot read standard input: it is closed")
    try:
        if stat.S_ISDIR(os.fstat(stream.fileno()).st_mode):
            raise InputRefused("cannot read standard input: it is a folder")
    except (OSError, ValueError, AttributeError):
        pass  # not a real descriptor (a test's replacement): read it as it is
    try:
        return _bounded(buffer.read, limit)
    except (OSError, ValueError) as error:
        raise InputRefused(f"cannot read standard input: {_reason(error)}") from None


def read_input(name: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """``-`` is standard input, any other name a path: the bytes, through the gate."""
    return read_stdin(limit) if name == "-" else read_path(Path(name), limit)


def _bounded(read: Callable[[int], bytes], limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise InputRefused(f"cannot read: {_too_big(limit)}")
        chunks.append(chunk)


def _too_big(limit: int) -> str:
    return f"larger than {limit >> 20} MiB, the most camelup reads"


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


# Strings first (their brackets are text, not nesting), then all but the brackets.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')
_PAIRS = bytes.maketrans(b"[{]}", b"(())")  # one kind of pair: each pass removes one level
_STEPS = bytes.maketrans(b"()", b"\x02\x00")
# Passes removing the innermost pairs before the running count takes over, in a text of at
# most _PASSING brackets: a pass costs less than the count while the text is shallow (a state
# nests about ten levels), and the count is linear in the text where the passes are not.
_PASSES = 16
_PASSING = 1 << 16


def _brackets(raw: bytes) -> bytes:
    """The brackets of ``raw`` outside strings. Without a backslash no quote is escaped, so
    the strings lie between the quotes taken pairwise: the text is cut down to brackets and
    quotes first, two quotes side by side dropped (a string with no bracket, or the gap between
    two strings: either way what lies on both sides is on the same side of the quotes), and
    the brackets of the strings left dropped by a split (a fifth of the regex's time on the
    suite, which has no backslash)."""
    if b"\\" in raw:
        return _STRING.sub(b"", raw).translate(None, _NOT_BRACKET)
    structure = raw.translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' not in structure:
        return structure
    return b"".join(structure.split(b'"')[::2])


def nesting_exceeds(data: str | bytes, limit: int = MAX_NESTING) -> bool:
    """Whether the JSON text ``data`` nests arrays and objects more than ``limit`` levels deep
    (the root's members are one level down), from its brackets outside strings, at C speed (no
    recursion, no Python loop over the text): a few passes remove the innermost pairs, a level
    each, then a running sum measures what is left. Text that is not JSON may count as deep,
    which only changes why it is refused."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = _brackets(raw).translate(_PAIRS)
    passes = min(limit, _PASSES) if len(brackets) <= _PASSING else 0
    for _ in range(passes):
        if not brackets:
            return False
        brackets = brackets.replace(b"()", b"")
    steps = brackets.translate(_STEPS)  # b"\x02" opens, b"\x00" closes
    return max(accumulate(map(int.__sub__, steps, repeat(1))), default=0) > limit - passes

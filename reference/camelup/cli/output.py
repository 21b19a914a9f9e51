"""Standard output that may fail: closed (``>&-``), full (``> /dev/full``), or a pipe whose
reader went away (``| head -1``). Each write error becomes one :class:`OutputError`, which
``main`` turns into a quiet exit (broken pipe) or one line on stderr, never an internal error.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO, cast


class OutputError(Exception):
    """Standard output cannot be written; ``errno`` and ``strerror`` say why."""

    def __init__(self, number: int, strerror: str) -> None:
        super().__init__(strerror)
        self.errno = number
        self.strerror = strerror

    @property
    def broken_pipe(self) -> bool:
        return self.errno == errno.EPIPE


class _Guarded:
    """Wraps ``sys.stdout``: the same stream, with write errors raised as OutputError."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _target(self) -> TextIO:
        if self._stream is None:  # Python sets sys.stdout to None when fd 1 is closed
            raise OutputError(errno.EBADF, "standard output is closed")
        return self._stream

    def write(self, text: str) -> int:
        try:
            return self._target().write(text)
        except OSError as error:
            raise OutputError(error.errno or errno.EIO, error.strerror or str(error)) from None

    def flush(self) -> None:
        try:
            self._target().flush()
        except OSError as error:
            raise OutputError(error.errno or errno.EIO, error.strerror or str(error)) from None

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._target(), name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """``sys.stdout`` guarded in this block."""
    original = sys.stdout
    sys.stdout = cast(TextIO, _Guarded(original))
    try:
        yield
    finally:
        sys.stdout = original


def silence_stdout() -> None:
    """After a write error: point the process's stdout at /dev/null, so that the flush at exit
    does not report the same error again (only for the real stdout, not a captured one)."""
    stream = sys.__stdout__
    if stream is None or not isinstance(sys.stdout, _Guarded) or sys.stdout._stream is not stream:
        return
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)

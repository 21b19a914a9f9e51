"""The one way camelup writes a file it was asked for: reports, findings, boards, exports, sites.

A file is written to a temporary file beside its target and renamed over it once complete, so
a reader never sees half a report, and a full disk or an interruption leaves the old file (or
none) and no temporary behind. A target that exists and is not a regular file (``/dev/stdout``,
``/dev/full``, a FIFO) cannot be renamed over: it is written in place.

Every failure is an :class:`OutputRefused` with one line naming the path and its documented
exit code (:mod:`camelup.io.exits`): 2 for a path that cannot name an output (a missing folder,
a folder where a file is wanted), 74 for a place that cannot be written (read-only, full).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from camelup.io import exits

__all__ = ["OutputRefused", "check_folder", "make_folder", "open_output", "write_output"]

# A path that cannot name what was asked for: the user's mistake (exit 2), not the disk's.
_BAD_PATH = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG, errno.ELOOP})


class OutputRefused(Exception):
    """A file or folder camelup was asked to write cannot be; ``exit_code`` is 2 or 74."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _refused(path: Path, error: OSError) -> OutputRefused:
    code = exits.USAGE if error.errno in _BAD_PATH else exits.OUTPUT
    reason = error.strerror or str(error)
    if error.errno == errno.ENOENT:
        reason = "no such folder"
    return OutputRefused(f"{path}: cannot write: {reason}", code)


def _in_place(path: Path) -> bool:
    """Whether ``path`` is something to write into rather than replace (a device, a FIFO)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:  # renaming over it would replace the link, not write
            raise _refused(path, error) from None
        return False
    except ValueError:
        return False
    if stat.S_ISDIR(mode):
        raise OutputRefused(f"{path}: cannot write: it is a folder", exits.USAGE)
    return not stat.S_ISREG(mode)


@contextlib.contextmanager
def open_output(path: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream for ``path`` (UTF-8 text unless ``binary``): renamed over it when the block
    ends, and removed instead when the block raises (the exception goes on). Write errors are
    OutputRefused."""
    mode, encoding = ("wb", None) if binary else ("w", "utf-8")
    if _in_place(path):
        try:
            with path.open(mode, encoding=encoding) as stream:
                yield stream
        except OSError as error:
            raise _refused(path, error) from None
        return
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
        )
    except OSError as error:
        raise _refused(path, error) from None
    try:
        with os.fdopen(descriptor, mode, encoding=encoding) as stream:
            yield stream
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except OSError as error:
        _remove(temporary)
        raise _refused(path, error) from None
    except BaseException:
        _remove(temporary)
        raise


def write_output(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole, or not at all (see :func:`open_output`)."""
    with open_output(path, binary=isinstance(data, bytes)) as stream:
        stream.write(data)


def make_folder(path: Path) -> None:
    """Create the folder ``path`` and its parents (a folder already there is fine)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputRefused(f"{path}: cannot write: not a folder", exits.USAGE) from None
    except OSError as error:
        raise _refused(path, error) from None


def check_folder(path: Path) -> None:
    """Refuse (OutputRefused), before the work that fills it, a folder ``path`` that cannot
    be made: a folder is made and removed at once in the nearest folder that exists."""
    if path.is_dir():
        return
    nearest = next((p for p in path.parents if p.exists()), Path("."))
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".camelup-", dir=nearest))
    except OSError as error:
        raise _refused(path, error) from None


def _remove(temporary: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask

"""A cache on disk of work derived from inputs, for the next process: safe to lose, never stale.

Judging the bundled suite (parsing 44 case files, checking each case against its schema and
loading each given position with the rules) takes about a second, and every ``camelup`` process
that reads the suite did it again. An entry is found by a key that the caller derives from every
byte of its input and from :func:`code_fingerprint`, the bytes of camelup's own code and schemas:
a changed input or a changed camelup has another key, so an entry is never served for them.

The folder is ``$CAMELUP_CACHE_DIR`` when it is set (empty: no cache), else ``camelup`` in the
user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``; ``~/Library/Caches`` on macOS,
``%LOCALAPPDATA%`` on Windows). An entry is a pickle, which runs code when it is read, so a
folder that another user can write to is not used. Whatever goes wrong (no folder, a full disk,
a truncated or foreign entry) is a miss: the work is done again, and nothing is said.
Two processes that race write the same bytes, each to a file of its own renamed into place.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib.util
import os
import pickle
import stat
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from camelup.io.resources import PACKAGE, schema_directory

__all__ = [
    "CACHE_ENV",
    "cache_directory",
    "code_fingerprint",
    "fingerprint",
    "kind_folder",
    "recall",
    "remember",
]

CACHE_ENV = "CAMELUP_CACHE_DIR"
MAX_ENTRIES = 256  # of a kind: far more than the suite's files, so old code's entries go first

# The libraries whose behaviour is part of a judgement (the schema checks, the structuring).
_LIBRARIES = ("attr", "cattrs", "jsonschema", "jsonschema_rs", "referencing")


def cache_directory() -> Path | None:
    """Where the entries live, or None when caching is off (``CAMELUP_CACHE_DIR`` empty)."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "camelup"


@cache
def code_fingerprint() -> bytes:
    """A digest of what decides a judgement besides the input: every file of the camelup
    package (its code, and in a wheel its schemas), the schemas of a checkout, the Python
    version, and the installed files of the libraries camelup judges with (their path, size
    and time: an upgrade rewrites them). Read once per process (about 15 ms)."""
    return fingerprint(PACKAGE, schema_directory())


def fingerprint(*folders: Path) -> bytes:
    """:func:`code_fingerprint` of the files of ``folders`` (``__pycache__`` aside)."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(sys.version.encode())
    for folder in folders:
        for root, names, files in os.walk(folder):
            names[:] = sorted(n for n in names if n != "__pycache__")
            for name in sorted(files):
                path = Path(root) / name
                digest.update(f"\0{path.relative_to(folder)}\0".encode("utf-8", "surrogateescape"))
                digest.update(path.read_bytes())
    for library in _LIBRARIES:  # found, not imported: the key is the same imported or not
        spec = importlib.util.find_spec(library)
        where = spec.origin if spec is not None else None
        if where is not None and os.path.isfile(where):
            status = os.stat(where)
            digest.update(f"\0{where}\0{status.st_size}\0{status.st_mtime_ns}".encode())
    return digest.digest()


def kind_folder(kind: str) -> Path | None:
    """The folder of the entries of ``kind``, made if missing; None if it cannot be used: not
    a folder of this user's, or one that another user can write to."""
    base = cache_directory()
    if base is None:
        return None
    folder = base / kind
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        status = folder.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode) or status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    if hasattr(os, "getuid") and status.st_uid != os.getuid():
        return None
    return folder


def recall(kind: str, key: bytes) -> Any | None:
    """The value remembered under ``key``, or None."""
    folder = kind_folder(kind)
    if folder is None:
        return None
    collecting = gc.isenabled()
    try:
        data = (folder / key.hex()).read_bytes()
        # No collection while thousands of objects are made, none of them garbage: the
        # collector's passes took two thirds of reading the suite's entries.
        gc.disable()
        return pickle.loads(data)
    except Exception:  # missing, truncated, or written by another camelup: a miss
        return None
    finally:
        if collecting:
            gc.enable()


def remember(kind: str, key: bytes, value: Any) -> None:
    """Keep ``value`` under ``key`` (atomically: a reader sees the whole entry or none), and
    drop the oldest entries of ``kind`` beyond :data:`MAX_ENTRIES`."""
    folder = kind_folder(kind)
    if folder is None:
        return
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        descriptor, name = tempfile.mkstemp(dir=folder, prefix=".new-")
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        os.replace(name, folder / key.hex())
        _prune(folder)
    except OSError:  # a full disk, a folder emptied by another process: no entry
        Path(name).unlink(missing_ok=True)


def _prune(folder: Path) -> None:
    """Beyond MAX_ENTRIES, the oldest go, down to three quarters of it (so that the next
    writes do not prune again); another process may be pruning too."""
    entries = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(entries) <= MAX_ENTRIES:
        return
    ages = []
    for entry in entries:
        with contextlib.suppress(OSError):
            ages.append((entry.stat().st_mtime_ns, entry))
    ages.sort()
    for _, old in ages[: len(ages) - MAX_ENTRIES * 3 // 4]:
        old.unlink(missing_ok=True)

"""The generated pages in a docs folder: written (with the pages no longer generated removed),
or compared byte for byte with a fresh build, for ``camelup docs build`` and its ``--check``."""

from __future__ import annotations

import tempfile
from pathlib import Path

from camelup.tools.docs.pages import GENERATED_FOLDERS, build_pages

__all__ = ["stale_files", "write_pages"]


def write_pages(folder: Path) -> list[Path]:
    """Write the generated files below ``folder``, removing generated files that are no
    longer produced; returns the files whose content changed."""
    pages = build_pages()
    changed = []
    for sub in GENERATED_FOLDERS:
        for old in sorted((folder / sub).rglob("*")):
            relative = old.relative_to(folder).as_posix()
            if old.is_file() and old.suffix in (".md", ".svg") and relative not in pages:
                old.unlink()
                changed.append(old)
    for relative, text in pages.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            changed.append(path)
    return changed


def stale_files(folder: Path) -> list[str]:
    """The generated files of ``folder`` that differ from a fresh build into a temporary
    folder: missing, changed, or no longer generated."""
    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch)
        write_pages(fresh)
        problems = []
        for sub in GENERATED_FOLDERS:
            ours = {
                p.relative_to(folder).as_posix() for p in (folder / sub).rglob("*") if p.is_file()
            }
            theirs = {
                p.relative_to(fresh).as_posix() for p in (fresh / sub).rglob("*") if p.is_file()
            }
            for name in sorted(ours | theirs):
                if name not in ours:
                    problems.append(f"{name}: missing")
                elif name not in theirs:
                    problems.append(f"{name}: no longer generated")
                elif (folder / name).read_bytes() != (fresh / name).read_bytes():
                    problems.append(f"{name}: stale")
        return problems

"""The ``--spec`` folder of the spec verbs."""

from __future__ import annotations

import argparse
from pathlib import Path

from camelup.cli.common import UsageError


def add_spec(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec", metavar="DIR", help="the spec folder (default: the bundled one)")


def spec_directory(option: str | None, *, rulings: bool = False) -> Path:
    """The folder of ``--spec`` (default: the bundled spec). UsageError when it is not a
    folder, or, with ``rulings``, has no rulings register (not a spec folder at all)."""
    from camelup.io.resources import spec_directory as bundled

    if option is None:
        return bundled()
    directory = Path(option)
    if not directory.is_dir():
        raise UsageError(f"--spec {option}: no such folder")
    if rulings and not (directory / "rulings.md").is_file():
        raise UsageError(f"--spec {option}: not a spec folder (it has no rulings.md)")
    return directory

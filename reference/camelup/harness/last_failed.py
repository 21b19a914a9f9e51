"""``--last-failed``: the IDs of the cases that failed or errored, kept between runs in
``.camelup-lastfailed.json`` in the working directory (a file to read, delete or commit-ignore).

After each ``run``, the file holds the cases that failed or errored in that run, plus those
recorded before that the run did not run again (as pytest's ``--lf`` keeps them); cases that
now pass or are skipped leave it. It is written when it exists or when there is a failure to
record, so a clean run in a fresh folder leaves nothing behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from camelup.io.gate import InputMissing, InputRefused, read_path
from camelup.io.jsonio import JSONInputError, parse_json

if TYPE_CHECKING:
    from camelup.harness.runner import RunReport
    from camelup.harness.suite import Case

FILE = ".camelup-lastfailed.json"


def path() -> Path:
    """The record of the working directory."""
    return Path.cwd() / FILE


def recorded() -> tuple[set[str], str | None]:
    """The recorded IDs, and a warning when the file exists but cannot be used."""
    file = path()
    try:
        data = parse_json(read_path(file))
    except InputMissing:
        return set(), None
    except (InputRefused, JSONInputError) as error:
        return set(), f"{FILE}: {getattr(error, 'strerror', None) or error}; ignored"
    failed = data.get("failed") if isinstance(data, dict) else None
    if not isinstance(failed, list) or not all(isinstance(i, str) for i in failed):
        return set(), f'{FILE}: not a {{"failed": [case IDs]}} object; ignored'
    return set(failed), None


def only_failed(cases: Sequence[Case], ids: set[str]) -> list[Case]:
    return [case for case in cases if case.id in ids]


def update(report: RunReport, before: set[str]) -> str | None:
    """Record the report's failures; a warning when the file cannot be written."""
    ran = {r.case.id for r in report.results}
    failed = {r.case.id for r in report.results if r.verdict in ("failed", "errored")}
    now = (before - ran) | failed
    file = path()
    if not now and not file.exists():
        return None
    text = json.dumps({"failed": sorted(now)}, indent=1) + "\n"
    try:
        temporary = file.with_name(file.name + ".tmp")
        temporary.write_text(text, "utf-8")
        os.replace(temporary, file)
    except OSError as error:
        return f"{FILE}: cannot write: {error.strerror or error}"
    return None

"""Expectation files: an implementer's known failures and skips, kept outside the suite.

TOML::

    [[xfail]]
    id = "crazy.select.only-carrier/"     # a case ID, or a prefix of IDs
    reason = "exception 1 not implemented yet"
    issue = "https://example.org/issues/12"   # optional

    [[skip]]
    id = "whirlwind.*"
    reason = "no whirlwind module"

JSON: the same structure, ``{"xfail": [{"id", "reason", "issue"?}], "skip": [...]}``.

An ``id`` matches a case ID equal to it, or below it at a ``.`` or ``/`` boundary, or any ID
starting with it when it ends with ``*``. When several entries match, the longest ``id`` wins.
A skipped case is not sent to the adapter. An expected failure that fails, or that the adapter
itself reports as errored, counts as skipped ("xfail"); one that passes is reported as an "xpass"
(and fails the run under ``--strict``). A case on which the adapter breaks the protocol stays
errored whatever the file says.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import attrs

from camelup.conformance.nesting import MAX_DEPTH
from camelup.conformance.suite import display_path, prefix_matches
from camelup.io import schemas
from camelup.io.jsonio import JSONInputError, read_json_file

Status = Literal["xfail", "skip"]
STATUSES: tuple[Status, ...] = ("xfail", "skip")


class ExpectationsError(Exception):
    """The expectations file cannot be used; the message names the file and pointer."""


@attrs.frozen
class Expectation:
    id: str
    status: Status
    reason: str
    issue: str | None
    where: str  # file#pointer of the entry

    def describe(self) -> str:
        return self.reason + (f" ({self.issue})" if self.issue else "")


@attrs.frozen
class Expectations:
    entries: tuple[Expectation, ...] = ()

    def lookup(self, case_id: str) -> Expectation | None:
        """The most specific entry matching ``case_id``."""
        best: Expectation | None = None
        for entry in self.entries:
            if prefix_matches(case_id, entry.id) and (best is None or len(entry.id) > len(best.id)):
                best = entry
        return best

    def unused(self, case_ids: Iterable[str]) -> list[Expectation]:
        """Entries that match none of ``case_ids`` (stale, or a typo)."""
        ids = list(case_ids)
        return [e for e in self.entries if not any(prefix_matches(i, e.id) for i in ids)]


def load_expectations(path: Path) -> Expectations:
    """Read a ``.toml`` or ``.json`` expectations file (by its suffix; TOML otherwise)."""
    name = display_path(path)
    data: Any
    if path.suffix.lower() == ".json":
        try:
            data = read_json_file(path, max_depth=MAX_DEPTH)
        except JSONInputError as error:
            where = f"#{error.pointer}" if error.pointer else ""
            raise ExpectationsError(f"{name}{where}: {error.message}") from None
    else:
        try:
            data = tomllib.loads(path.read_bytes().decode("utf-8"))
        except OSError as error:
            raise ExpectationsError(f"{name}: cannot read: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise ExpectationsError(f"{name}: not UTF-8 text: {error.reason}") from None
        except tomllib.TOMLDecodeError as error:
            raise ExpectationsError(f"{name}: not TOML: {error}") from None
    return parse_expectations(data, name)


def parse_expectations(data: Any, name: str) -> Expectations:
    """The entries of an expectations file, after ``expectations.schema.json``."""
    violation = schemas.check("expectations", data)
    if violation is not None:
        raise ExpectationsError(f"{name}#{violation.pointer}: {violation.message}")
    entries = [
        Expectation(item["id"], status, item["reason"], item.get("issue"), f"{name}#/{status}/{i}")
        for status in STATUSES
        for i, item in enumerate(data.get(status, ()))
    ]
    return Expectations(tuple(entries))

"""Expectation files: an implementer's known failures and skips, kept outside the suite.

TOML::

    [[xfail]]
    id = "crazy.select.only-carrier/"     # a case ID, or a prefix of IDs
    reason = "exception 1 not implemented yet"
    issue = "https://example.org/issues/12"   # optional

    [[skip]]
    id = "whirlwind.*"
    reason = "no whirlwind module"

    [[fuzz]]                             # read by `camelup conformance fuzz` only
    clause = "money.floor"               # a clause, a prefix at a . boundary, or ending with *
    pointer = "/players/*/money"          # optional: the finding's first differing field
    reason = "no zero floor yet"

JSON: the same structure, ``{"xfail": [{"id", "reason", "issue"?}], "skip": [...], "fuzz": [...]}``.

An ``id`` matches a case ID equal to it, or below it at a ``.`` or ``/`` boundary, or any ID
starting with it when it ends with ``*``. When several entries match, the longest ``id`` wins.
A skipped case is not sent to the adapter. An expected failure that fails, or that the adapter
itself reports as errored, counts as skipped ("xfail"); one that passes is reported as an "xpass"
(and fails the run under ``--strict``). A case on which the adapter breaks the protocol stays
errored whatever the file says.

A fuzz finding (:mod:`camelup.harness.fuzz`) is named by its clause and its field (the
first differing state pointer, indices and spaces as ``*``). It is known when a ``fuzz`` entry's
``clause`` matches its clause (by the ``id`` rules above) and the entry has no ``pointer`` or the
same one; or else when an ``xfail`` or ``skip`` entry's ``id`` matches its clause, or starts with
it: ``crazy.select.only-carrier/racing-between`` makes every fuzz finding of
``crazy.select.only-carrier`` known, since the case ID's first part is its primary clause.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import attrs

from camelup.harness.nesting import MAX_DEPTH
from camelup.harness.suite import display_path, prefix_matches
from camelup.io import schemas
from camelup.io.gate import InputRefused, read_path
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
class KnownFinding:
    """A ``fuzz`` entry: a disagreement the fuzzer is to report as known."""

    clause: str
    pointer: str | None
    reason: str
    issue: str | None
    where: str

    def describe(self) -> str:
        return self.reason + (f" ({self.issue})" if self.issue else "")


@attrs.frozen
class Expectations:
    entries: tuple[Expectation, ...] = ()
    findings: tuple[KnownFinding, ...] = ()

    def lookup(self, case_id: str) -> Expectation | None:
        """The most specific entry matching ``case_id``."""
        best: Expectation | None = None
        for entry in self.entries:
            if prefix_matches(case_id, entry.id) and (best is None or len(entry.id) > len(best.id)):
                best = entry
        return best

    def known_finding(self, clause: str, field: str) -> Expectation | KnownFinding | None:
        """The entry that makes a fuzz finding of ``clause`` at ``field`` known (the module
        docstring says how), the most specific one first."""
        fitting = [
            f
            for f in self.findings
            if prefix_matches(clause, f.clause) and f.pointer in (None, field)
        ]
        if fitting:
            return max(fitting, key=lambda f: (f.pointer is not None, len(f.clause)))
        by_case = [e for e in self.entries if prefix_matches(clause, e.id.split("/", 1)[0])]
        return max(by_case, key=lambda e: len(e.id), default=None)

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
            data = tomllib.loads(read_path(path).decode("utf-8"))
        except InputRefused as error:
            raise ExpectationsError(f"{name}: {error}") from None
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
    findings = [
        KnownFinding(
            item["clause"],
            item.get("pointer"),
            item["reason"],
            item.get("issue"),
            f"{name}#/fuzz/{i}",
        )
        for i, item in enumerate(data.get("fuzz", ()))
    ]
    return Expectations(tuple(entries), tuple(findings))

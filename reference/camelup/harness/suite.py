"""Loading the conformance suite: case files, cases, checks, and the filters that select cases.

Loading never raises on content: every defect of a case file becomes a :class:`Problem` naming
the file and the JSON pointer, the defective case is left out, and the rest of the suite stays
usable. The gate is the published schema (``case-file.schema.json``, the suite's own when its
folder has one): the file's envelope, then each case. What a schema cannot say is checked next:
a check's ``after`` within the case's steps, and the given position, which must load with the
codec (a state possible under the rules, of the case's ruleset) unless the case expects it
refused. The deeper checks (the clause registry, the reference passing every case) are
:mod:`camelup.harness.validate`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

import attrs

from camelup.harness.nesting import depth_message, may_nest_too_deep, too_deep
from camelup.io import cache
from camelup.io.gate import InputRefused, read_path
from camelup.io.jsonio import (
    JSONInputError,
    lone_surrogate,
    may_hold_surrogate,
    parse_json,
    pointer,
    printable,
    surrogate_message,
)
from camelup.io.resources import conformance_directory
from camelup.io.schemas import SchemaFileError, Schemas, Violation, bundled
from camelup.model.errors import CamelUpError

CASE_SCHEMA = "case-file#/$defs/case"
CASE_LEVEL = 2  # a case of a case file: the root object, its "cases" array, the case

Match = Literal["sequence", "subsequence"]


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (printable: a byte of
    the name that is not UTF-8 is shown as an escape)."""
    try:
        return printable(str(path.resolve().relative_to(Path.cwd().resolve())))
    except (ValueError, OSError, RuntimeError):  # not below it, or a symlink loop
        return printable(str(path))


@attrs.frozen
class Problem:
    """A defect of the suite, located by file and JSON pointer (all three printable: a message
    may quote a value of the file)."""

    file: str = attrs.field(converter=printable)
    pointer: str = attrs.field(converter=printable)
    message: str = attrs.field(converter=printable)

    def __str__(self) -> str:
        return (
            f"{self.file}#{self.pointer}: {self.message}"
            if self.pointer
            else f"{self.file}: {self.message}"
        )


# What each kind of check needs of an adapter (``needs``): a capability it must declare, or
# ENGINE, any game engine (not an odds solver); the member of the reply it asks for at its
# moment (``asks``) from an adapter that declares the capability of that name. Its ``label``
# names it in a timeline.
ENGINE = "engine"
STATE_AFTER_REFUSAL = "state_after_refusal"  # a refused step's entry holds the state after it


@attrs.frozen
class StateCheck:
    after: int
    values: Mapping[str, Any]  # JSON pointer into the state -> the value it must have
    index: int
    clause: str | None = None  # the clause the check judges; None: the case's primary clause
    needs: ClassVar[str] = ENGINE
    asks: ClassVar[str | None] = None

    @property
    def label(self) -> str:
        return "state " + ", ".join(p or "/" for p in self.values)


@attrs.frozen
class EventsCheck:
    after: int
    events: tuple[Mapping[str, Any], ...]
    match: Match
    index: int
    clause: str | None = None
    needs: ClassVar[str] = "events"
    asks: ClassVar[str | None] = None

    @property
    def label(self) -> str:
        return f"events ({self.match}, {len(self.events)} expected)"


@attrs.frozen
class ErrorCheck:
    """Step ``after`` is refused with ``code``. ``clause`` is the clause the refusal is for: the
    one a refusal must name (capability ``error_clauses``), and so the clause the check judges."""

    after: int
    code: str
    clause: str | None
    index: int
    needs: ClassVar[str] = ENGINE
    asks: ClassVar[str | None] = None

    @property
    def label(self) -> str:
        return f"error {self.code}"


@attrs.frozen
class LegalActionsCheck:
    """The legal actions at ``after``: exactly ``actions`` (``exact``), or else a set that
    includes every action of ``actions`` and none of ``excluded``."""

    after: int
    actions: tuple[Mapping[str, Any], ...]
    index: int
    clause: str | None = None
    exact: bool = True
    excluded: tuple[Mapping[str, Any], ...] = ()
    needs: ClassVar[str] = "legal_actions"
    asks: ClassVar[str | None] = "legal_actions"

    @property
    def label(self) -> str:
        if self.exact:
            return f"legal actions ({len(self.actions)} expected)"
        return f"legal actions ({len(self.actions)} included, {len(self.excluded)} excluded)"


@attrs.frozen
class OddsCheck:
    """The exact odds of the leg from the given position (capability ``odds``): each listed
    racing camel's probability of each place (first to last), the probability that the race
    ends in the leg, and the number of outcome sequences; probabilities are ``"n/d"`` strings,
    compared as fractions."""

    after: int
    odds: Mapping[str, Any]
    index: int
    clause: str | None = None
    needs: ClassVar[str] = "odds"
    asks: ClassVar[str | None] = "odds"

    @property
    def label(self) -> str:
        return "odds " + ", ".join(self.odds)


@attrs.frozen
class RankingCheck:
    """The racing camels in race order at ``after``, first to last: the runner ranks the track
    the adapter reports by the reference's ranking rule (crazy camels are not ranked)."""

    after: int
    ranking: tuple[str, ...]
    index: int
    clause: str | None = None
    needs: ClassVar[str] = ENGINE
    asks: ClassVar[str | None] = "ranking"  # the adapter's own ranking, besides its track's

    @property
    def label(self) -> str:
        return "ranking " + " > ".join(self.ranking)


@attrs.frozen
class UnchangedCheck:
    """Step ``after`` was refused and left the position exactly as it was before the step
    (capability ``state_after_refusal``: the adapter reports its state after a refusal)."""

    after: int
    index: int
    clause: str | None = None
    needs: ClassVar[str] = STATE_AFTER_REFUSAL
    asks: ClassVar[str | None] = None
    label: ClassVar[str] = "unchanged by the refusal"


Check = (
    StateCheck
    | EventsCheck
    | ErrorCheck
    | LegalActionsCheck
    | OddsCheck
    | RankingCheck
    | UnchangedCheck
)


@attrs.frozen
class Case:
    """One case of the suite, as written in its file (checks parsed, the rest kept as JSON)."""

    id: str
    description: str
    clauses: tuple[str, ...]
    source: Mapping[str, Any]
    ruling: str | None
    ruleset: Mapping[str, Any]
    given: Mapping[str, Any]
    steps: tuple[Mapping[str, Any], ...]
    checks: tuple[Check, ...]
    area: str
    file: str
    index: int
    raw: Mapping[str, Any] = attrs.field(eq=False, repr=False)

    @property
    def pointer(self) -> str:
        return pointer("cases", self.index)

    @property
    def where(self) -> str:
        return f"{self.file}#{self.pointer}"

    @property
    def primary_clause(self) -> str:
        return self.clauses[0]

    def clause_of(self, check: Check) -> str:
        """The clause ``check`` judges: its own, else the case's primary clause."""
        return check.clause or self.primary_clause

    @property
    def edition(self) -> str:
        return str(self.ruleset.get("edition", "?"))

    @property
    def modules(self) -> tuple[str, ...]:
        return tuple(self.ruleset.get("modules", ()))

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(self.ruleset.get("variants", ()))

    def ruleset_label(self) -> str:
        """``second+whirlwind (whirlwind-second-edition), 4 players``."""
        label = "+".join((self.edition, *self.modules))
        if self.variants:
            label += f" ({', '.join(self.variants)})"
        return f"{label}, {self.ruleset.get('players', '?')} players"

    def wire(
        self,
        legal_actions_after: Iterable[int] = (),
        odds_after: Iterable[int] = (),
        ranking_after: Iterable[int] = (),
    ) -> dict[str, Any]:
        """The case as sent to an adapter: never its description, sources or expectations.
        ``want.odds_after`` and ``want.ranking_after`` are there only when wanted (capabilities
        ``odds`` and ``ranking``)."""
        want: dict[str, Any] = {"legal_actions_after": sorted(set(legal_actions_after))}
        if odds_after:
            want["odds_after"] = sorted(set(odds_after))
        if ranking_after:
            want["ranking_after"] = sorted(set(ranking_after))
        return {
            "id": self.id,
            "ruleset": self.ruleset,
            "given": self.given,
            "steps": list(self.steps),
            "want": want,
        }


@attrs.frozen
class Suite:
    """The cases that loaded, and the problems of those that did not."""

    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]
    files: tuple[str, ...]
    schemas: Path | None = None  # the folder of the schemas the files were checked against

    def find(self, case_id: str) -> Case | None:
        for case in self.cases:
            if case.id == case_id:
                return case
        return None


def suite_directory() -> Path:
    """Where the bundled suite lives: inside an installed wheel, or at the root of a checkout."""
    return conformance_directory()


def schema_folder(suite: Path | None = None) -> Path:
    """The schemas of a suite folder when it has its own, else the bundled ones."""
    if suite is not None and (suite / "schema" / "case-file.schema.json").is_file():
        return suite / "schema"
    return bundled().directory


def case_files(directory: Path) -> list[Path]:
    """The case files of a suite folder: ``cases/`` and ``generated/``, or every ``*.json`` of a
    folder that has neither (``schema/`` excluded)."""
    roots = [directory / name for name in ("cases", "generated") if (directory / name).is_dir()]
    if not roots:
        return sorted(
            p for p in directory.rglob("*.json") if "schema" not in p.relative_to(directory).parts
        )
    return sorted(p for root in roots for p in root.rglob("*.json"))


def load_suite(
    directory: Path | None = None, files: Sequence[Path] | None = None, schemas: Path | None = None
) -> Suite:
    """Load every case file of ``directory`` (default: the bundled suite), or just ``files``,
    against the schemas of ``schemas`` (default: :func:`schema_folder` of ``directory``)."""
    if files is None:
        folder = directory if directory is not None else suite_directory()
        if not folder.is_dir():
            return Suite((), (Problem(display_path(folder), "", "no such suite folder"),), ())
        files = case_files(folder)
    folder_schemas = schemas if schemas is not None else schema_folder(directory)
    cases: list[Case] = []
    problems: list[Problem] = []
    seen: dict[str, Case] = {}
    try:
        gate = bundled() if folder_schemas == bundled().directory else Schemas(folder_schemas)
    except SchemaFileError as unusable:  # no case can be judged without its schemas
        problem = Problem(display_path(folder_schemas), "", str(unusable))
        return Suite((), (problem,), tuple(display_path(p) for p in files), folder_schemas)
    for path in files:
        loaded, found = load_case_file(path, gate)
        problems.extend(found)
        for case in loaded:
            first = seen.get(case.id)
            if first is not None:
                problems.append(
                    Problem(
                        case.file,
                        pointer("cases", case.index, "id"),
                        f"duplicate case ID {case.id} (first at {first.where})",
                    )
                )
                continue
            seen[case.id] = case
            cases.append(case)
    files_shown = tuple(display_path(p) for p in files)
    return Suite(tuple(cases), tuple(problems), files_shown, folder_schemas)


# Case files read against the bundled schemas, by (name shown, digest of the bytes): a file is
# parsed and judged once per process however many commands or tests load the suite (a load of
# the whole suite costs a second), and a changed file, whatever its time stamp, is read anew.
# Across processes, the judgement is kept on disk (camelup.io.cache), under the same key and
# the fingerprint of camelup's code.
Judged = tuple[tuple[Case, ...], tuple[Problem, ...]]
_LOADED: dict[tuple[str, bytes], Judged] = {}
_LOADED_FILES = 512  # far more than the suite has: a bound, not a policy


def load_case_file(path: Path, gate: Schemas | None = None) -> tuple[list[Case], list[Problem]]:
    """The well-formed cases of one file and the problems of the others."""
    name = display_path(path)
    gate = gate or bundled()
    try:
        data = read_path(path)
    except InputRefused as refused:
        return [], [Problem(name, "", str(refused))]
    if gate is not bundled():  # a suite's own schemas, read afresh by each load: no reuse
        return _case_file(data, name, gate)
    key = (name, hashlib.blake2b(data, digest_size=16).digest())
    loaded = _LOADED.get(key)
    if loaded is None:
        loaded = _LOADED[key] = _judged(data, name, key[1], gate)
        if len(_LOADED) > _LOADED_FILES:
            del _LOADED[next(iter(_LOADED))]
    return list(loaded[0]), list(loaded[1])


def _judged(data: bytes, name: str, data_digest: bytes, gate: Schemas) -> Judged:
    """The cases and problems of a case file, from the cache on disk when this camelup (the
    same code and schemas) judged the same bytes (``data_digest``) under the same name."""
    digest = hashlib.blake2b(cache.code_fingerprint(), digest_size=20)
    digest.update(data_digest + name.encode("utf-8", "surrogateescape"))
    key = digest.digest()
    kept = cache.recall("suite", key)
    if isinstance(kept, tuple) and len(kept) == 2:
        return kept
    cases, problems = _case_file(data, name, gate)
    judged = (tuple(cases), tuple(problems))
    cache.remember("suite", key, judged)
    return judged


def _case_file(data: bytes, name: str, gate: Schemas) -> tuple[list[Case], list[Problem]]:
    # A lone surrogate, and a case nested too deeply, are refused case by case, below: the
    # other cases of the file stay usable.
    try:
        document = parse_json(data, allow_surrogates=True, integers_only=True)
    except JSONInputError as error:
        return [], [Problem(name, error.pointer, error.message)]
    raw_cases = document.get("cases") if isinstance(document, dict) else None
    envelope = {**document, "cases": []} if isinstance(raw_cases, list) else document
    found = lone_surrogate(envelope)
    if found is not None:
        return [], [Problem(name, found[0], surrogate_message(found[1]))]
    violation = gate.check("case-file", envelope)
    if violation is not None:
        return [], [Problem(name, violation.pointer, _said(violation))]
    assert isinstance(raw_cases, list)
    cases: list[Case] = []
    problems: list[Problem] = []
    # Each case is walked for depth and for surrogates only where the file's text says one
    # may be there: the two walks were a fifth of the loading of the suite, which has neither.
    may_be_deep = may_nest_too_deep(data, CASE_LEVEL)
    surrogates = may_hold_surrogate(data)
    for index, raw in enumerate(raw_cases):
        deep = too_deep(raw) if may_be_deep else None
        if deep is not None:  # compared recursively later: refused here, with where it is
            problems.append(Problem(name, pointer("cases", index) + deep, depth_message()))
            continue
        try:
            cases.append(_case(raw, document["area"], name, index, gate, surrogates))
        except _Defect as defect:
            problems.append(Problem(name, pointer("cases", index) + defect.pointer, defect.message))
    return cases, problems


def parse_case(raw: Any, area: str, file: str, index: int = 0) -> Case:
    """One case from its JSON (as in a case file); ValueError names the first defect."""
    try:
        return _case(raw, area, file, index, bundled())
    except _Defect as defect:
        raise ValueError(f"{defect.pointer or '/'}: {defect.message}") from None


class _Defect(Exception):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.pointer = where
        self.message = message


def _said(violation: Violation) -> str:
    return violation.message + (f" [{violation.clause}]" if violation.clause else "")


def _case(
    raw: Any, area: str, file: str, index: int, gate: Schemas, surrogates: bool = True
) -> Case:
    """``surrogates``: whether ``raw`` may hold a lone surrogate (False: its text holds none)."""
    found = lone_surrogate(raw) if surrogates else None  # no report or pipe could carry it
    if found is not None:
        raise _Defect(found[0], surrogate_message(found[1]))
    violation = gate.check(CASE_SCHEMA, raw)
    if violation is not None:
        raise _Defect(violation.pointer, _said(violation))
    steps = tuple(raw["steps"])
    checks = tuple(_check(check, number, len(steps)) for number, check in enumerate(raw["expect"]))
    if "state" not in raw["given"] and any(isinstance(c, OddsCheck) for c in checks):
        message = "a case with an odds check gives a state, so that a solver without an engine"
        message += " can run it"
        raise _Defect("/given", message)
    refused = {c.after for c in checks if isinstance(c, ErrorCheck)}
    for check in checks:
        if isinstance(check, UnchangedCheck) and check.after not in refused:
            message = f"an unchanged check needs an error check of step {check.after}"
            raise _Defect(pointer("expect", check.index), message)
        if isinstance(check, RankingCheck):
            _ranking_camels(check, raw["ruleset"]["edition"])
    if 0 not in refused:
        _given_position(raw)
    return Case(
        id=raw["id"],
        description=raw["description"],
        clauses=tuple(raw["clauses"]),
        source=raw["source"],
        ruling=raw.get("ruling"),
        ruleset=raw["ruleset"],
        given=raw["given"],
        steps=steps,
        checks=checks,
        area=area,
        file=file,
        index=index,
        raw=raw,
    )


def _check(raw: Mapping[str, Any], index: int, steps: int) -> Check:
    """One check of a case (its shape is the schema's): the kind is the key it holds."""
    after = int(raw["after"])
    if after > steps:
        where = pointer("expect", index, "after")
        raise _Defect(where, f"after must be from 0 to {steps} (the number of steps)")
    clause = raw.get("clause")
    if "state" in raw:
        return StateCheck(after, raw["state"], index, clause)
    if "events" in raw:
        return EventsCheck(after, tuple(raw["events"]), raw.get("match", "sequence"), index, clause)
    if "error" in raw:  # its clause is the refusal's, inside "error"
        return ErrorCheck(after, raw["error"]["code"], raw["error"].get("clause"), index)
    if "odds" in raw:
        return OddsCheck(after, raw["odds"], index, clause)
    if "ranking" in raw:
        return RankingCheck(after, tuple(raw["ranking"]), index, clause)
    if "unchanged" in raw:
        return UnchangedCheck(after, index, clause)
    actions = raw["legal_actions"]
    if isinstance(actions, list):
        return LegalActionsCheck(after, tuple(actions), index, clause)
    included, excluded = actions.get("includes", []), actions.get("excludes", [])
    return LegalActionsCheck(after, tuple(included), index, clause, False, tuple(excluded))


def _ranking_camels(check: RankingCheck, edition: str) -> None:
    """A ranking lists every racing camel of the edition once, and nothing else."""
    from camelup.model.ruleset import RACING_CAMELS, Edition

    racing = {camel.value for camel in RACING_CAMELS[Edition(edition)]}
    if set(check.ranking) != racing:
        message = (
            f"a ranking lists the {edition} edition's racing camels: {', '.join(sorted(racing))}"
        )
        raise _Defect(pointer("expect", check.index, "ranking"), message)


def _given_position(raw: Mapping[str, Any]) -> None:
    """The ruleset and the given position load with the codec: a case whose position the
    rules refuse is an invalid case (unless it expects the refusal), not a verdict on an
    implementation."""
    from camelup.io.codec import ruleset_from_json, setup_from_json, state_from_json, to_json

    try:  # the case followed its schema, and so its members theirs
        ruleset = ruleset_from_json(raw["ruleset"], "/ruleset", checked=True)
        if "state" in raw["given"]:
            state = state_from_json(raw["given"]["state"], "/given/state", checked=True)
            if state.ruleset != ruleset:
                message = f"the state's ruleset {to_json(state.ruleset)} is not the case's"
                raise _Defect("/given/state/ruleset", message)
        else:
            setup_from_json(raw["given"]["setup"], "/given/setup", checked=True)
    except CamelUpError as error:
        message = f"{error.code}: {error.message} [{error.clause}]"
        raise _Defect(error.pointer or "", message) from None


# ----------------------------------------------------------------------------------- filters


def prefix_matches(value: str, prefix: str) -> bool:
    """``value`` is ``prefix`` or lies below it: at a ``.`` or ``/`` boundary, or anywhere after a
    prefix written with a trailing ``*``."""
    if prefix.endswith("*"):
        return value.startswith(prefix[:-1])
    if value == prefix:
        return True
    if not value.startswith(prefix) or not prefix:
        return False
    return prefix[-1] in "./" or value[len(prefix)] in "./"


def select(
    cases: Iterable[Case],
    rulesets: Sequence[str] = (),
    clauses: Sequence[str] = (),
    ids: Sequence[str] = (),
) -> Iterator[Case]:
    """The cases that pass every given filter (each filter matches any of its values).

    ``rulesets``: an edition, module or variant name of the case's ruleset; ``clauses``: a
    prefix of one of its clauses; ``ids``: its ID or a prefix of it.
    """
    for case in cases:
        if rulesets and not set(rulesets) & {case.edition, *case.modules, *case.variants}:
            continue
        if clauses and not any(prefix_matches(c, p) for c in case.clauses for p in clauses):
            continue
        if ids and not any(prefix_matches(case.id, p) for p in ids):
            continue
        yield case

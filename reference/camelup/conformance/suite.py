"""Loading the conformance suite: case files, cases, checks, and the filters that select cases.

Loading is fast and never raises on content: every defect of a case file becomes a
:class:`Problem` naming the file and the JSON pointer, the defective case is left out, and the
rest of the suite stays usable. The deeper checks (JSON Schema, the clause registry, the codec,
the reference passing every case) are :mod:`camelup.conformance.validate`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from camelup.io.jsonio import (
    JSONInputError,
    lone_surrogate,
    parse_json,
    pointer,
    printable,
    surrogate_message,
)
from camelup.resources import conformance_directory

CASE_ID = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+/[a-z0-9][a-z0-9-]*$")
CASE_KEYS = frozenset(
    {
        "id",
        "description",
        "clauses",
        "source",
        "ruling",
        "ruleset",
        "given",
        "steps",
        "expect",
        "comment",
    }
)
REQUIRED_CASE_KEYS = (
    "id",
    "description",
    "clauses",
    "source",
    "ruleset",
    "given",
    "steps",
    "expect",
)
CHECK_KINDS = ("state", "events", "error", "legal_actions", "odds")
FRACTION = re.compile(r"^-?(0|[1-9][0-9]*)/[1-9][0-9]*$")  # an exact probability, "n/d"
ODDS_KEYS = ("places", "race_end", "sequences")

Match = Literal["sequence", "subsequence"]


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it (printable: a byte of
    the name that is not UTF-8 is shown as an escape)."""
    try:
        return printable(str(path.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
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


@attrs.frozen
class StateCheck:
    after: int
    values: Mapping[str, Any]  # JSON pointer into the state -> the value it must have
    index: int


@attrs.frozen
class EventsCheck:
    after: int
    events: tuple[Mapping[str, Any], ...]
    match: Match
    index: int


@attrs.frozen
class ErrorCheck:
    after: int
    code: str
    clause: str | None
    index: int


@attrs.frozen
class LegalActionsCheck:
    after: int
    actions: tuple[Mapping[str, Any], ...]
    index: int


@attrs.frozen
class OddsCheck:
    """The exact odds of the leg from the given position (capability ``odds``): each listed
    racing camel's probability of each place (first to last), the probability that the race
    ends in the leg, and the number of outcome sequences; probabilities are ``"n/d"`` strings,
    compared as fractions."""

    after: int
    odds: Mapping[str, Any]
    index: int


Check = StateCheck | EventsCheck | ErrorCheck | LegalActionsCheck | OddsCheck


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
        self, legal_actions_after: Iterable[int] = (), odds_after: Iterable[int] = ()
    ) -> dict[str, Any]:
        """The case as sent to an adapter: never its description, sources or expectations.
        ``want.odds_after`` is there only when odds are wanted (capability ``odds``)."""
        want: dict[str, Any] = {"legal_actions_after": sorted(set(legal_actions_after))}
        if odds_after:
            want["odds_after"] = sorted(set(odds_after))
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

    def find(self, case_id: str) -> Case | None:
        for case in self.cases:
            if case.id == case_id:
                return case
        return None


def suite_directory() -> Path:
    """Where the bundled suite lives: inside an installed wheel, or at the root of a checkout."""
    return conformance_directory()


def case_files(directory: Path) -> list[Path]:
    """The case files of a suite folder: ``cases/`` and ``generated/``, or every ``*.json`` of a
    folder that has neither (``schema/`` excluded)."""
    roots = [directory / name for name in ("cases", "generated") if (directory / name).is_dir()]
    if not roots:
        return sorted(
            p for p in directory.rglob("*.json") if "schema" not in p.relative_to(directory).parts
        )
    return sorted(p for root in roots for p in root.rglob("*.json"))


def load_suite(directory: Path | None = None, files: Sequence[Path] | None = None) -> Suite:
    """Load every case file of ``directory`` (default: the bundled suite), or just ``files``."""
    if files is None:
        folder = directory if directory is not None else suite_directory()
        if not folder.is_dir():
            return Suite((), (Problem(display_path(folder), "", "no such suite folder"),), ())
        files = case_files(folder)
    cases: list[Case] = []
    problems: list[Problem] = []
    seen: dict[str, Case] = {}
    for path in files:
        loaded, found = load_case_file(path)
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
    return Suite(tuple(cases), tuple(problems), tuple(display_path(p) for p in files))


def read_json(path: Path, *, allow_surrogates: bool = False) -> tuple[Any, Problem | None]:
    """The JSON content of ``path``, or a problem naming where it breaks (the line and column,
    or the JSON pointer of a string no UTF-8 output can hold)."""
    name = display_path(path)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return None, Problem(name, "", f"cannot read: {getattr(error, 'strerror', None) or error}")
    try:
        return parse_json(text, allow_surrogates=allow_surrogates), None
    except JSONInputError as error:
        return None, Problem(name, error.pointer, error.message)


def load_case_file(path: Path) -> tuple[list[Case], list[Problem]]:
    """The well-formed cases of one file and the problems of the others."""
    name = display_path(path)
    data, problem = read_json(path, allow_surrogates=True)  # refused case by case, below
    if problem is not None:
        return [], [problem]
    if not isinstance(data, dict):
        return [], [Problem(name, "", "a case file must be a JSON object")]
    found = lone_surrogate({k: v for k, v in data.items() if k != "cases"})
    if found is not None:
        return [], [Problem(name, found[0], surrogate_message(found[1]))]
    problems: list[Problem] = []
    area = data.get("area")
    if not isinstance(area, str) or not area:
        problems.append(Problem(name, "/area", 'a case file needs an "area" string'))
        area = path.stem
    raw_cases = data.get("cases")
    if not isinstance(raw_cases, list):
        return [], [*problems, Problem(name, "/cases", 'a case file needs a "cases" array')]
    cases: list[Case] = []
    for index, raw in enumerate(raw_cases):
        try:
            cases.append(_case(raw, area, name, index))
        except _Defect as defect:
            problems.append(Problem(name, pointer("cases", index) + defect.pointer, defect.message))
    return cases, problems


def parse_case(raw: Any, area: str, file: str, index: int = 0) -> Case:
    """One case from its JSON (as in a case file); ValueError names the first defect."""
    try:
        return _case(raw, area, file, index)
    except _Defect as defect:
        raise ValueError(f"{defect.pointer or '/'}: {defect.message}") from None


class _Defect(Exception):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.pointer = where
        self.message = message


def _need(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise _Defect(where, message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _case(raw: Any, area: str, file: str, index: int) -> Case:
    _need(isinstance(raw, dict), "", "a case must be a JSON object")
    found = lone_surrogate(raw)  # no report, terminal or adapter pipe could carry it
    if found is not None:
        raise _Defect(found[0], surrogate_message(found[1]))
    for key in raw:
        _need(key in CASE_KEYS, pointer(key), f"unknown key {key!r}")
    for key in REQUIRED_CASE_KEYS:
        _need(key in raw, pointer(key), f"missing key {key!r}")
    case_id = raw["id"]
    _need(
        isinstance(case_id, str) and bool(CASE_ID.match(case_id)),
        "/id",
        f"malformed case ID {case_id!r} (expected <clause>/<slug>)",
    )
    _need(
        isinstance(raw["description"], str) and bool(raw["description"].strip()),
        "/description",
        "the description must be a non-empty string",
    )
    clauses = raw["clauses"]
    _need(
        isinstance(clauses, list) and bool(clauses) and all(isinstance(c, str) for c in clauses),
        "/clauses",
        "clauses must be a non-empty array of clause IDs",
    )
    source = raw["source"]
    _need(isinstance(source, dict), "/source", "the source must be an object")
    for key in ("kind", "ref"):
        _need(isinstance(source.get(key), str), pointer("source", key), f"{key} must be a string")
    ruling = raw.get("ruling")
    _need(ruling is None or isinstance(ruling, str), "/ruling", "the ruling must be a string")
    _ruleset(raw["ruleset"])
    given = raw["given"]
    _need(
        isinstance(given, dict) and len(given) == 1 and ("state" in given or "setup" in given),
        "/given",
        'given must be {"state": ...} or {"setup": ...}',
    )
    steps = raw["steps"]
    _need(isinstance(steps, list), "/steps", "steps must be an array")
    for number, step in enumerate(steps):
        _need(
            isinstance(step, dict) and set(step) == {"action"} and isinstance(step["action"], dict),
            pointer("steps", number),
            'a step must be {"action": {...}}',
        )
    expect = raw["expect"]
    _need(
        isinstance(expect, list) and bool(expect),
        "/expect",
        "expect must be a non-empty array of checks",
    )
    checks = tuple(_check(c, i, len(steps)) for i, c in enumerate(expect))
    _need(
        "state" in given or not any(isinstance(c, OddsCheck) for c in checks),
        "/given",
        "a case with an odds check gives a state, so that a solver without an engine can run it",
    )
    return Case(
        id=case_id,
        description=raw["description"],
        clauses=tuple(clauses),
        source=raw["source"],
        ruling=ruling,
        ruleset=raw["ruleset"],
        given=given,
        steps=tuple(steps),
        checks=checks,
        area=area,
        file=file,
        index=index,
        raw=raw,
    )


def _ruleset(ruleset: Any) -> None:
    """The members a case's ruleset needs to be selected, labelled and matched against an
    adapter's declared support. Their values (an unknown edition, a player count the edition
    does not allow, ...) are the codec's to judge: a case may expect such a ruleset refused."""
    _need(isinstance(ruleset, dict), "/ruleset", "the ruleset must be an object")
    _need(
        isinstance(ruleset.get("edition"), str),
        "/ruleset/edition",
        "the edition must be a string (first or second)",
    )
    _need(_is_int(ruleset.get("players")), "/ruleset/players", "players must be an integer")
    for key in ("modules", "variants"):
        items = ruleset.get(key)
        _need(isinstance(items, list), pointer("ruleset", key), f"{key} must be an array")
        for number, item in enumerate(items):
            _need(isinstance(item, str), pointer("ruleset", key, number), f"{key} must be strings")


def _check(raw: Any, index: int, steps: int) -> Check:
    where = pointer("expect", index)
    _need(isinstance(raw, dict), where, "a check must be a JSON object")
    kinds = [k for k in CHECK_KINDS if k in raw]
    _need(len(kinds) == 1, where, f"a check has exactly one of {', '.join(CHECK_KINDS)}")
    kind = kinds[0]
    allowed = {"after", kind} | ({"match"} if kind == "events" else set())
    for key in raw:
        _need(key in allowed, where + pointer(key), f"unknown key {key!r} in a {kind} check")
    after = raw.get("after")
    _need(
        _is_int(after) and 0 <= after <= steps,
        where + "/after",
        f"after must be an integer from 0 to {steps} (the number of steps)",
    )
    body = raw[kind]
    if kind == "state":
        _need(
            isinstance(body, dict) and bool(body),
            where + "/state",
            "a state check maps JSON pointers to values",
        )
        for key in body:
            _need(
                key == "" or key.startswith("/"),
                where + "/state" + pointer(key),
                f"{key!r} is not a JSON pointer",
            )
        return StateCheck(after, body, index)
    if kind == "events":
        _need(
            after >= 1, where + "/after", "an events check looks at a step: after must be 1 or more"
        )
        _need(
            isinstance(body, list)
            and all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in body),
            where + "/events",
            'events must be an array of objects with a "type"',
        )
        match = raw.get("match", "sequence")
        _need(
            match in ("sequence", "subsequence"),
            where + "/match",
            'match must be "sequence" or "subsequence"',
        )
        return EventsCheck(after, tuple(body), match, index)
    if kind == "error":
        _need(
            isinstance(body, dict) and isinstance(body.get("code"), str),
            where + "/error",
            'an error check needs {"code": ...}',
        )
        for key in body:
            _need(
                key in ("code", "clause"), where + "/error" + pointer(key), f"unknown key {key!r}"
            )
        clause = body.get("clause")
        _need(
            clause is None or isinstance(clause, str),
            where + "/error/clause",
            "the clause must be a string",
        )
        return ErrorCheck(after, body["code"], clause, index)
    if kind == "odds":
        return _odds_check(body, after, where, index)
    _need(
        isinstance(body, list) and all(isinstance(a, dict) for a in body),
        where + "/legal_actions",
        "legal_actions must be an array of actions",
    )
    return LegalActionsCheck(after, tuple(body), index)


def _odds_check(body: Any, after: int, where: str, index: int) -> OddsCheck:
    where += "/odds"
    _need(after == 0, where, "an odds check looks at the given position: after must be 0")
    _need(
        isinstance(body, dict) and bool(body) and all(k in ODDS_KEYS for k in body),
        where,
        f"odds must be an object with some of {', '.join(ODDS_KEYS)}",
    )
    places = body.get("places", {})
    _need(isinstance(places, dict), where + "/places", "places map racing camels to arrays")
    for camel, row in places.items():
        _need(
            isinstance(row, list) and all(isinstance(p, str) and FRACTION.match(p) for p in row),
            where + pointer("places", camel),
            'a camel\'s places are an array of exact fractions "n/d", first place first',
        )
    if "race_end" in body:
        race_end = body["race_end"]
        _need(
            isinstance(race_end, str) and bool(FRACTION.match(race_end)),
            where + "/race_end",
            'race_end must be an exact fraction "n/d"',
        )
    if "sequences" in body:
        _need(
            _is_int(body["sequences"]) and body["sequences"] >= 0,
            where + "/sequences",
            "sequences must be a whole number",
        )
    return OddsCheck(after, body, index)


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

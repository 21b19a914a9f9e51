"""The suite checks itself: ``camelup conformance validate`` and ``camelup conformance coverage``.

``validate``: every file follows ``schema/case-file.schema.json``; case IDs are unique and start
with their primary clause (recorded games: ``generated.<family>/<seed>``); every clause, ruling
and variant exists in the spec registry and fits the case's rule set; rulesets, given positions
and actions load with the codec (an invalid ruleset only in a case expecting it refused at 0);
and the bundled reference passes every case. ``coverage``: clause x cases x implementation
sites; a must-clause implemented by the engine with no case is a gap.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from camelup.conformance.suite import (
    Case,
    ErrorCheck,
    LegalActionsCheck,
    Problem,
    Suite,
    display_path,
    read_json,
)
from camelup.io.jsonio import pointer
from camelup.model.errors import CamelUpError
from camelup.spec.registry import Registry, load_registry

SCHEMA_BASE = "https://camelup.invalid/schema/"
GENERATED_PREFIX = "generated."


def schema_directory(suite: Path | None = None) -> Path:
    """The schemas of a suite folder when it has its own, else the bundled ones."""
    if suite is not None and (suite / "schema" / "case-file.schema.json").is_file():
        return suite / "schema"
    from camelup.resources import schema_directory as bundled

    return bundled()


class SchemaFileError(Exception):
    """A schema file of the suite cannot be used; ``problem`` names the file and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _schema_file(path: Path) -> dict[str, Any]:
    contents, problem = read_json(path)
    if problem is None and not isinstance(contents, dict):
        problem = Problem(display_path(path), "", "a JSON Schema must be a JSON object")
    if problem is not None:
        raise SchemaFileError(problem)
    assert isinstance(contents, dict)
    return contents


# Not camelup.io.codec.schema_validator: that one knows only the value schemas (ruleset, setup,
# roll, state, action, event) of the bundled folder, while the suite checks itself against
# case-file and protocol, and against a suite folder's own schema/ when it has one.
@functools.cache
def schema_validator(directory: Path, name: str) -> Any:
    """A Draft 2020-12 validator for ``<name>.schema.json`` resolving refs between the files;
    SchemaFileError when a schema file is missing or not JSON."""
    import referencing

    jsonschema = importlib.import_module("jsonschema")  # untyped; imported only here
    resources = []
    for path in sorted(directory.glob("*.schema.json")):
        contents = _schema_file(path)
        uri = contents.get("$id", SCHEMA_BASE + path.name)
        resources.append((uri, referencing.Resource.from_contents(contents)))
    registry: Any = referencing.Registry().with_resources(resources)
    schema = _schema_file(directory / f"{name}.schema.json")
    return jsonschema.Draft202012Validator(schema, registry=registry)


def schema_problems(files: Sequence[Path], names: Sequence[str], directory: Path) -> list[Problem]:
    """One problem per case (or per file-level defect) that breaks the case-file schema."""
    best_match = importlib.import_module("jsonschema.exceptions").best_match
    try:
        validator = schema_validator(directory, "case-file")
    except SchemaFileError as unusable:
        return [unusable.problem]
    problems: list[Problem] = []
    for path, name in zip(files, names, strict=True):
        data, problem = read_json(path, allow_surrogates=True)  # as the loader reads it
        if problem is not None:
            continue  # already reported by the loader
        groups: dict[tuple[Any, ...], list[Any]] = {}
        for error in validator.iter_errors(data):
            where = tuple(error.absolute_path)
            groups.setdefault(where[:2] if where[:1] == ("cases",) else where[:1], []).append(error)
        for errors in groups.values():
            error = best_match(errors)
            message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
            problems.append(Problem(name, pointer(*error.absolute_path), f"schema: {message}"))
    return problems


def registry_problems(case: Case, registry: Registry) -> list[Problem]:
    """Clauses, rulings and variants unknown to the spec, or that do not fit the case."""
    out: list[Problem] = []

    def add(where: str, message: str) -> None:
        out.append(Problem(case.file, case.pointer + where, message))

    # A recorded game (`camelup conformance generate`) checks every clause its events name, so
    # no clause is more its subject than another: its ID names the ruleset family and the seed
    # instead (generated.<family>/<seed>), which only source kind "generated" may use.
    recorded = case.id.startswith(GENERATED_PREFIX)
    if recorded and case.source.get("kind") != "generated":
        add("/id", f'only a case of source kind "generated" may have an ID {GENERATED_PREFIX}...')
    elif not recorded and not case.id.startswith(case.primary_clause + "/"):
        add("/id", f"the ID must start with the primary clause {case.primary_clause}/")
    in_play = {case.edition, *case.modules}
    for index, clause_id in enumerate(case.clauses):
        if clause_id not in registry.clause_ids:
            add(f"/clauses/{index}", f"unknown clause {clause_id}")
            continue
        clause = registry.clause(clause_id)
        if not clause.rule_sets & in_play:
            add(
                f"/clauses/{index}",
                f"clause {clause_id} applies to {', '.join(sorted(clause.rule_sets))},"
                f" not to {'+'.join(sorted(in_play))}",
            )
        if clause.variant is not None and clause.variant not in case.variants:
            add(
                f"/clauses/{index}",
                f"clause {clause_id} holds only under the variant {clause.variant},"
                " which the ruleset does not select",
            )
    known_rulings = {r.id for r in registry.rulings}
    if case.ruling is not None and case.ruling not in known_rulings:
        add("/ruling", f"unknown ruling {case.ruling}")
    if case.source.get("kind") == "ruling" and case.source.get("ref") not in known_rulings:
        add("/source/ref", f"unknown ruling {case.source.get('ref')}")
    for index, variant in enumerate(case.variants):
        if variant not in registry.variants:
            add(f"/ruleset/variants/{index}", f"unknown variant {variant}")
    return out


def codec_problems(case: Case) -> list[Problem]:
    """Everything the codec refuses to load, except what the case expects to be refused."""
    from camelup.io.codec import (
        action_from_json,
        ruleset_from_json,
        setup_from_json,
        state_from_json,
        to_json,
    )

    out: list[Problem] = []
    refused = {c.after for c in case.checks if isinstance(c, ErrorCheck)}

    def load(function: Any, value: Any, where: str) -> Any:
        try:
            return function(value, case.pointer + where)
        except CamelUpError as error:
            out.append(Problem(case.file, error.pointer or case.pointer + where, str(error)))
            return None

    if 0 in refused:
        # The given ruleset, setup or state is expected to be refused (an invalid ruleset is
        # allowed only here): nothing after it can be judged, so nothing else may be asked.
        if case.steps:
            out.append(
                Problem(
                    case.file,
                    case.pointer + "/steps",
                    "a case whose given position is refused (error at 0) can have no steps",
                )
            )
        for check in case.checks:
            if not (isinstance(check, ErrorCheck) and check.after == 0):
                out.append(
                    Problem(
                        case.file,
                        f"{case.pointer}/expect/{check.index}",
                        "a case whose given position is refused (error at 0) has no other checks",
                    )
                )
    else:
        ruleset = load(ruleset_from_json, case.ruleset, "/ruleset")
        if "state" in case.given:
            state = load(state_from_json, case.given["state"], "/given/state")
            if state is not None and ruleset is not None and state.ruleset != ruleset:
                out.append(
                    Problem(
                        case.file,
                        case.pointer + "/given/state/ruleset",
                        f"the state's ruleset {to_json(state.ruleset)} is not the case's",
                    )
                )
        else:
            load(setup_from_json, case.given["setup"], "/given/setup")
    for index, step in enumerate(case.steps):
        if index + 1 not in refused:
            load(action_from_json, step["action"], f"/steps/{index}/action")
    for check in case.checks:
        if isinstance(check, LegalActionsCheck):
            for index, action in enumerate(check.actions):
                load(action_from_json, action, f"/expect/{check.index}/legal_actions/{index}")
    return out


def reference_problems(cases: Sequence[Case]) -> list[Problem]:
    """Every case the bundled reference does not pass, with its first mismatch."""
    from camelup.conformance.protocol import InProcessReference
    from camelup.conformance.runner import run_cases

    out = []
    report = run_cases(cases, InProcessReference())
    for result in report.results:
        if result.verdict == "passed":
            continue
        detail = result.mismatches[0].summary if result.mismatches else result.reason
        more = f" (and {len(result.mismatches) - 1} more)" if len(result.mismatches) > 1 else ""
        verb = {"failed": "fails", "errored": "errors on it", "skipped": "skips it"}[result.verdict]
        out.append(
            Problem(result.case.file, result.case.pointer, f"the reference {verb}: {detail}{more}")
        )
    return out


def _has_problem(case: Case, problems: Iterable[Problem]) -> bool:
    return any(
        p.file == case.file
        and (p.pointer == case.pointer or p.pointer.startswith(case.pointer + "/"))
        for p in problems
    )


def validate_suite(suite: Suite, files: Sequence[Path], schemas: Path) -> list[Problem]:
    """Every problem of the suite, sorted by file and pointer.

    The reference runs only the cases that the loader, the schema and the codec accept (a case
    with an unknown clause still runs): what it would say about the others adds nothing, and a
    case of the wrong shape must not cost the problems already found.
    """
    registry = load_registry()
    malformed = [*suite.problems, *schema_problems(files, suite.files, schemas)]
    for case in suite.cases:
        malformed.extend(codec_problems(case))
    problems = [*malformed, *(p for c in suite.cases for p in registry_problems(c, registry))]
    runnable = [case for case in suite.cases if not _has_problem(case, malformed)]
    problems.extend(reference_problems(runnable))
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda p: (p.file, _sort_pointer(p.pointer)))


def _sort_pointer(pointer: str) -> tuple[Any, ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pointer.split("/"))


# ------------------------------------------------------------------------------------ coverage


@attrs.frozen
class CoverageRow:
    clause: str
    number: str
    level: str
    code: str
    rule_sets: tuple[str, ...]
    cases: tuple[str, ...]
    sites: tuple[str, ...]

    @property
    def gap(self) -> bool:
        """A must-clause the engine implements and no case checks."""
        return self.level == "must" and self.code == "engine" and not self.cases


def coverage(cases: Sequence[Case]) -> list[CoverageRow]:
    """Clause x hand-written cases x implementation sites, in spec order."""
    import camelup.engine  # noqa: F401  (imports every rules module, which registers the sites)
    from camelup.trace import sites

    registry = load_registry()
    by_clause: dict[str, list[str]] = {}
    for case in cases:
        if case.source.get("kind") == "generated":
            continue  # recorded games pin regressions; coverage counts cases written from rules
        for clause in case.clauses:
            by_clause.setdefault(clause, []).append(case.id)
    site_names: dict[str, list[str]] = {}
    for site in sites():
        site_names.setdefault(site.clause, []).append(
            f"{Path(site.file).name}:{site.line} {site.qualname}"
        )
    return [
        CoverageRow(
            clause=c.id,
            number=c.number,
            level=c.level,
            code="engine" if c.is_code else "none",
            rule_sets=tuple(sorted(c.rule_sets)),
            cases=tuple(by_clause.get(c.id, ())),
            sites=tuple(site_names.get(c.id, ())),
        )
        for c in registry.clauses
    ]

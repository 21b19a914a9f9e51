"""The suite checks itself: ``camelup conformance validate`` and ``camelup conformance coverage``.

``validate``: what the loader checks (every case follows ``schema/case-file.schema.json``, its
given position loads with the codec, unique case IDs); IDs that start with their primary clause
(recorded games: ``generated.<family>/<seed>``); every clause, ruling and variant exists in the
spec registry and fits the case's rule set; a case expecting its given position refused has
nothing else to check; and the bundled reference passes every case. ``coverage``: clause x
cases x checks x implementation sites; a must-clause implemented by the engine that no check
judges is a gap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from camelup.harness.suite import Case, ErrorCheck, Problem, Suite, load_suite
from camelup.spec.registry import Registry, load_registry

GENERATED_PREFIX = "generated."


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

    def check_clause(where: str, clause_id: str) -> None:
        if clause_id not in registry.clause_ids:
            add(where, f"unknown clause {clause_id}")
            return
        clause = registry.clause(clause_id)
        if not clause.rule_sets & in_play:
            add(
                where,
                f"clause {clause_id} applies to {', '.join(sorted(clause.rule_sets))},"
                f" not to {'+'.join(sorted(in_play))}",
            )
        if clause.variant is not None and clause.variant not in case.variants:
            add(
                where,
                f"clause {clause_id} holds only under the variant {clause.variant},"
                " which the ruleset does not select",
            )

    for index, clause_id in enumerate(case.clauses):
        check_clause(f"/clauses/{index}", clause_id)
    for check in case.checks:
        if check.clause is not None:  # an error check's is its refusal's, inside "error"
            inside = "/error/clause" if isinstance(check, ErrorCheck) else "/clause"
            check_clause(f"/expect/{check.index}{inside}", check.clause)
    known_rulings = {r.id for r in registry.rulings}
    if case.ruling is not None and case.ruling not in known_rulings:
        add("/ruling", f"unknown ruling {case.ruling}")
    if case.source.get("kind") == "ruling" and case.source.get("ref") not in known_rulings:
        add("/source/ref", f"unknown ruling {case.source.get('ref')}")
    for index, variant in enumerate(case.variants):
        if variant not in registry.variants:
            add(f"/ruleset/variants/{index}", f"unknown variant {variant}")
    return out


def refusal_problems(case: Case) -> list[Problem]:
    """A case whose given position is expected to be refused (an error at 0) can judge nothing
    after it, so it may have no steps and no other check."""
    if not any(isinstance(c, ErrorCheck) and c.after == 0 for c in case.checks):
        return []
    out = []
    if case.steps:
        message = "a case whose given position is refused (error at 0) can have no steps"
        out.append(Problem(case.file, case.pointer + "/steps", message))
    for check in case.checks:
        if not (isinstance(check, ErrorCheck) and check.after == 0):
            message = "a case whose given position is refused (error at 0) has no other checks"
            out.append(Problem(case.file, f"{case.pointer}/expect/{check.index}", message))
    return out


def reference_problems(cases: Sequence[Case]) -> list[Problem]:
    """Every case the bundled reference does not pass, with its first mismatch."""
    from camelup.harness.protocol import InProcessReference
    from camelup.harness.runner import run_cases

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
    """Every problem of the suite (loaded again when it was not checked against ``schemas``),
    sorted by file and pointer.

    The reference runs only the cases that the loader accepts and that have no refusal problem
    (a case with an unknown clause still runs): what it would say about the others adds nothing,
    and a case of the wrong shape must not cost the problems already found.
    """
    if suite.schemas != schemas:
        suite = load_suite(files=files, schemas=schemas)
    registry = load_registry()
    malformed = list(suite.problems)
    for case in suite.cases:
        malformed.extend(refusal_problems(case))
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
    """One clause: the cases that list it, the checks that judge it (``named``: naming it
    themselves; ``by_default``: checks without a clause of cases whose primary clause it is),
    each check as ``<case ID>#/expect/<index>``, and where the engine implements it."""

    clause: str
    number: str
    level: str
    code: str
    rule_sets: tuple[str, ...]
    cases: tuple[str, ...]
    sites: tuple[str, ...]
    named: tuple[str, ...] = ()
    by_default: tuple[str, ...] = ()

    @property
    def checks(self) -> int:
        return len(self.named) + len(self.by_default)

    @property
    def gap(self) -> bool:
        """A must-clause the engine implements that no check judges (a case listing it among
        its clauses is not enough)."""
        return self.level == "must" and self.code == "engine" and not self.checks


def coverage(cases: Sequence[Case]) -> list[CoverageRow]:
    """Clause x hand-written cases x implementation sites, in spec order."""
    from camelup.play.sites import engine_sites

    registry = load_registry()
    by_clause: dict[str, list[str]] = {}
    named: dict[str, list[str]] = {}
    by_default: dict[str, list[str]] = {}
    for case in cases:
        if case.source.get("kind") == "generated":
            continue  # recorded games pin regressions; coverage counts cases written from rules
        for clause in case.clauses:
            by_clause.setdefault(clause, []).append(case.id)
        for check in case.checks:
            ref = f"{case.id}#/expect/{check.index}"
            if check.clause is not None:
                named.setdefault(check.clause, []).append(ref)
            else:
                by_default.setdefault(case.primary_clause, []).append(ref)
    site_names: dict[str, list[str]] = {}
    for site in engine_sites():
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
            named=tuple(named.get(c.id, ())),
            by_default=tuple(by_default.get(c.id, ())),
        )
        for c in registry.clauses
    ]

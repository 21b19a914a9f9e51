"""``camelup conformance mutants``: how many wrong rule implementations the suite rejects.

Each mutant of :mod:`camelup.conformance.mutants` is applied in this process (and undone after),
and the whole suite runs against the patched reference engine in-process. A mutant is
**killed** when at least one case fails or errors, and the kill **names the right clause** when
one of those cases lists the mutated clause among its clauses. Before any mutant the suite runs
once unpatched: a suite the reference does not pass says nothing about mutants. Exit code 1 when
any mutant survives (or the unpatched run fails), 2 for an unknown mutant name, 3 for an invalid
suite. ``--jobs N`` spreads the mutants over N processes.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from camelup.conformance.mutants import Mutant
    from camelup.conformance.suite import Case

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INVALID = 0, 1, 2, 3
HELP = (
    "run the suite against every mutant (a plausible wrong rule implementation); fail if one"
    " survives"
)


@attrs.frozen
class Verdict:
    """What the suite made of one mutant."""

    name: str
    clause: str
    description: str
    failing: tuple[str, ...]  # the IDs of the cases that failed or errored
    named_right: bool  # a failing case lists the mutated clause
    complete: bool = True  # False: the run stopped at the first failing case (--first-kill)

    @property
    def killed(self) -> bool:
        return bool(self.failing)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--mutant",
        action="append",
        default=[],
        metavar="NAME",
        help="run only this mutant (repeatable; default: the whole catalogue)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="run the mutants in N processes"
    )
    parser.add_argument(
        "--suite", metavar="DIR", help="the suite folder (default: the bundled conformance/)"
    )
    parser.add_argument(
        "--first-kill",
        action="store_true",
        help="stop each mutant at its first failing case, trying the cases that cite the mutated"
        " clause first (fast, for CI; a case count is not reported)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only survivors, kills that do not name the mutated clause, and the totals",
    )
    parser.add_argument(
        "--list", action="store_true", help="list the catalogue (name, clause, mistake) and exit"
    )
    parser.set_defaults(run=run)


def judge(mutant: Mutant, cases: Sequence[Case], first_kill: bool = False) -> Verdict:
    """Run ``cases`` against the in-process reference with ``mutant`` applied.

    ``first_kill``: stop at the first failing case, trying the cases that cite the mutated
    clause first (the verdict then lists that one case; a survivor still runs them all).
    """
    from camelup.conformance.mutants import applied
    from camelup.conformance.protocol import InProcessReference
    from camelup.conformance.runner import run_cases

    def failing(batch: Sequence[Case]) -> list[Case]:
        report = run_cases(batch, InProcessReference())
        return [r.case for r in report.results if r.verdict in ("failed", "errored")]

    with applied(mutant):
        if not first_kill:
            found = failing(cases)
        else:
            citing = [c for c in cases if mutant.clause in c.clauses]
            others = [c for c in cases if mutant.clause not in c.clauses]
            found = []
            for case in (*citing, *others):
                found = failing([case])
                if found:
                    break
    return Verdict(
        mutant.name,
        mutant.clause,
        mutant.description,
        tuple(c.id for c in found),
        any(mutant.clause in c.clauses for c in found),
        complete=not first_kill,
    )


_WORKER_CASES: list[Case] = []  # each worker process loads the suite once


def _judge_in_worker(name: str, suite: str | None, first_kill: bool) -> Verdict:
    from camelup.conformance.mutants import CATALOGUE
    from camelup.conformance.suite import load_suite

    if not _WORKER_CASES:
        _WORKER_CASES.extend(load_suite(Path(suite) if suite else None).cases)
    return judge(CATALOGUE[name], _WORKER_CASES, first_kill)


def judge_all(
    names: Sequence[str],
    cases: Sequence[Case],
    jobs: int = 1,
    suite: str | None = None,
    first_kill: bool = False,
) -> list[Verdict]:
    """One verdict per mutant, in the order of ``names``."""
    from camelup.conformance.mutants import CATALOGUE

    if jobs <= 1 or len(names) <= 1:
        return [judge(CATALOGUE[name], cases, first_kill) for name in names]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        count = len(names)
        return list(pool.map(_judge_in_worker, names, [suite] * count, [first_kill] * count))


def chapter_of(clause: str) -> str:
    """The spec chapter file of ``clause`` (``06-tiles``), or ``?`` for an unknown clause."""
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if clause not in registry.clause_ids:
        return "?"
    return Path(registry.clause(clause).file).stem


def run(options: argparse.Namespace) -> int:
    from camelup.conformance.mutants import CATALOGUE
    from camelup.conformance.protocol import InProcessReference
    from camelup.conformance.runner import run_cases
    from camelup.conformance.suite import load_suite

    def fail(code: int, message: str) -> int:
        print(f"camelup conformance mutants: {message}", file=sys.stderr)
        return code

    unknown = [name for name in options.mutant if name not in CATALOGUE]
    if unknown:
        return fail(EXIT_USAGE, f"no such mutant: {', '.join(unknown)}")
    if options.jobs < 1:
        return fail(EXIT_USAGE, "--jobs must be at least 1")
    if options.list:
        for mutant in CATALOGUE.values():
            print(f"{mutant.name:40} {mutant.clause:30} {mutant.description}")
        return EXIT_OK
    suite = load_suite(Path(options.suite) if options.suite else None)
    if suite.problems:
        for problem in suite.problems:
            print(problem, file=sys.stderr)
        return fail(EXIT_INVALID, f"{len(suite.problems)} problem(s) in the suite files")
    baseline = run_cases(suite.cases, InProcessReference())
    if baseline.exit_code:
        return fail(
            EXIT_FAILED, f"the unpatched reference fails the suite: {baseline.summary_line()}"
        )
    names = list(dict.fromkeys(options.mutant)) or list(CATALOGUE)
    verdicts = judge_all(names, suite.cases, options.jobs, options.suite, options.first_kill)
    chapters: Counter[str] = Counter()
    for verdict in verdicts:
        chapter = chapter_of(verdict.clause)
        chapters[chapter] += 1
        if verdict.killed:
            status = "killed"
            detail = f"by {len(verdict.failing)} case(s)" if verdict.complete else "by a case"
            detail += ", right clause" if verdict.named_right else ", NOT naming the clause"
        else:
            status, detail = "SURVIVED", "no case fails"
        if options.quiet and verdict.killed and verdict.named_right:
            continue
        print(f"{status:8}  {verdict.name:40} {verdict.clause:28} {detail}")
        if not verdict.killed:
            print(f"          {verdict.description}")
    killed = [v for v in verdicts if v.killed]
    right = [v for v in killed if v.named_right]
    print("mutants per chapter: " + ", ".join(f"{c} {n}" for c, n in sorted(chapters.items())))
    print(
        f"mutants: {len(verdicts)}, killed {len(killed)} ({_percent(len(killed), len(verdicts))}),"
        f" survived {len(verdicts) - len(killed)};"
        f" kills naming the mutated clause {len(right)}/{len(killed)}"
        f" ({_percent(len(right), len(killed))})"
    )
    return EXIT_OK if len(killed) == len(verdicts) else EXIT_FAILED


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"

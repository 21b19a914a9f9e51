"""``camelup conformance mutants``: how many wrong rule implementations the suite rejects.

Each mutant of :mod:`camelup.harness.mutants` is applied in this process (and undone after),
and the whole suite runs against the patched reference engine in-process. A mutant is
**killed** when at least one case fails or errors, and the kill **names the right clause** when
a failing check of one of those cases names the mutated clause (the clause its report shows: the
check's own, else the case's primary clause). Before any mutant the suite runs
once unpatched: a suite the reference does not pass says nothing about mutants. Exit code 1 when
any mutant survives (or the unpatched run fails). ``--jobs N`` spreads the mutants over N
processes.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from camelup.cli import signals
from camelup.cli.common import UsageError, Verb, error_line
from camelup.cli.conformance import shared
from camelup.io import exits

if TYPE_CHECKING:
    from camelup.harness.mutants import Mutant
    from camelup.harness.runner import CaseResult
    from camelup.harness.suite import Case

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
    named_right: bool  # a failing check's clause (what the report shows) is the mutated clause
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
    shared.add_suite(parser)
    parser.add_argument(
        "--first-kill",
        action="store_true",
        help="stop each mutant at its first failing case naming the mutated clause, trying the"
        " cases with a check judging it first (fast, for CI; a case count is not reported)",
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="print only survivors, kills that do not name the mutated clause, and the totals",
    )
    parser.add_argument(
        "--list", action="store_true", help="list the catalogue (name, clause, mistake) and exit"
    )


def judge(mutant: Mutant, cases: Sequence[Case], first_kill: bool = False) -> Verdict:
    """Run ``cases`` against the in-process reference with ``mutant`` applied.

    ``first_kill``: stop at the first failing case whose failure names the mutated clause,
    trying the cases with a check judging that clause first, and only if none fails the others
    (the verdict then lists one case; a survivor still runs them all).
    """
    from camelup.harness.mutants import applied
    from camelup.harness.protocol import InProcessReference
    from camelup.harness.runner import run_cases

    def failing(batch: Sequence[Case]) -> list[CaseResult]:
        report = run_cases(batch, InProcessReference())
        return [r for r in report.results if r.verdict in ("failed", "errored")]

    def judges(case: Case) -> bool:  # a failure of the case can name the mutated clause
        return any(case.clause_of(check) == mutant.clause for check in case.checks)

    with applied(mutant):
        if not first_kill:
            found = failing(cases)
        else:
            found = []
            for case in (c for c in cases if judges(c)):
                failed = failing([case])
                if failed and _names(failed[0], mutant.clause):
                    found = failed
                    break
                found = found or failed  # a kill, naming another clause: look further
            for case in () if found else (c for c in cases if not judges(c)):
                found = failing([case])
                if found:
                    break
    return Verdict(
        mutant.name,
        mutant.clause,
        mutant.description,
        tuple(r.case.id for r in found),
        any(_names(r, mutant.clause) for r in found),
        complete=not first_kill,
    )


def _names(result: CaseResult, clause: str) -> bool:
    """Whether a failing check of ``result`` names ``clause``, as its report does (a case that
    errored, with no check judged, is shown under its primary clause)."""
    if not result.mismatches:
        return result.case.primary_clause == clause
    return any(m.clause == clause for m in result.mismatches)


_WORKER_CASES: list[Case] = []  # each worker process loads the suite once


def _judge_in_worker(name: str, suite: str | None, first_kill: bool) -> Verdict:
    from camelup.harness.mutants import CATALOGUE
    from camelup.harness.suite import load_suite

    if not _WORKER_CASES:
        _WORKER_CASES.extend(load_suite(Path(suite) if suite else None).cases)
    return judge(CATALOGUE[name], _WORKER_CASES, first_kill)


def judged(
    names: Sequence[str],
    cases: Sequence[Case],
    jobs: int = 1,
    suite: str | None = None,
    first_kill: bool = False,
) -> Iterator[Verdict]:
    """One verdict per mutant, in the order of ``names``, as each is judged. A signal stops
    it at once (as an Interrupted): a mutant whose run the signal cut short is not judged."""
    from camelup.harness.mutants import CATALOGUE

    if jobs <= 1 or len(names) <= 1:
        for name in names:
            verdict = judge(CATALOGUE[name], cases, first_kill)
            if signals.current.received is not None:  # the runner stopped early: no verdict
                raise signals.current.received
            yield verdict
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool: ProcessPoolExecutor | None = None
    try:
        with exits.signals_held():  # never half-way through starting the workers
            pool = ProcessPoolExecutor(jobs, context, initializer=exits.quiet_worker)
            futures = [pool.submit(_judge_in_worker, name, suite, first_kill) for name in names]
        for future in futures:
            yield future.result()
    except BaseException:  # a signal (held, it comes as the block ends), a worker's error
        if pool is not None:  # the other verdicts are not wanted: end the workers at once
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def judge_all(
    names: Sequence[str],
    cases: Sequence[Case],
    jobs: int = 1,
    suite: str | None = None,
    first_kill: bool = False,
) -> list[Verdict]:
    """One verdict per mutant, in the order of ``names``."""
    return list(judged(names, cases, jobs, suite, first_kill))


def chapter_of(clause: str) -> str:
    """The spec chapter file of ``clause`` (``06-tiles``), or ``?`` for an unknown clause."""
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if clause not in registry.clause_ids:
        return "?"
    return Path(registry.clause(clause).file).stem


@attrs.frozen
class MutantsOptions:
    mutants: tuple[str, ...]
    jobs: int
    suite: str | None
    first_kill: bool
    quiet: bool
    list: bool

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> MutantsOptions:
        from camelup.harness.mutants import CATALOGUE

        unknown = [name for name in namespace.mutant if name not in CATALOGUE]
        if unknown:
            raise UsageError(f"no such mutant: {', '.join(unknown)}")
        if namespace.jobs < 1:
            raise UsageError("--jobs must be at least 1")
        return cls(
            tuple(dict.fromkeys(namespace.mutant)),
            namespace.jobs,
            namespace.suite,
            namespace.first_kill,
            namespace.quiet,
            namespace.list,
        )


def handle(options: MutantsOptions) -> int:
    from camelup.harness.mutants import CATALOGUE
    from camelup.harness.protocol import InProcessReference
    from camelup.harness.runner import run_cases

    if options.list:
        for mutant in CATALOGUE.values():
            print(f"{mutant.name:40} {mutant.clause:30} {mutant.description}")
        return exits.OK
    suite = shared.load(options.suite)
    if suite.problems:
        shared.report_problems(suite)
        error_line(shared.PREFIX, f"{len(suite.problems)} problem(s) in the suite files")
        return exits.INVALID_SUITE
    baseline = run_cases(suite.cases, InProcessReference())
    if baseline.exit_code:
        message = f"the unpatched reference fails the suite: {baseline.summary_line()}"
        error_line(shared.PREFIX, message)
        return exits.FAILED
    names = list(options.mutants) or list(CATALOGUE)
    verdicts: list[Verdict] = []
    interrupted: exits.Interrupted | None = None
    try:
        for verdict in judged(names, suite.cases, options.jobs, options.suite, options.first_kill):
            verdicts.append(verdict)
    except KeyboardInterrupt as error:  # the verdicts so far are printed all the same
        interrupted = exits.interruption(error)
    with signals.current.deferred():
        _print_verdicts(verdicts, options.quiet)
        if interrupted is not None:
            error_line(
                shared.PREFIX,
                f"mutants interrupted ({interrupted.signal_name}):"
                f" {len(verdicts)} of {len(names)} judged",
            )
            return interrupted.exit_code
    killed = sum(v.killed for v in verdicts)
    return exits.OK if killed == len(verdicts) else exits.FAILED


def _print_verdicts(verdicts: Sequence[Verdict], quiet: bool) -> None:
    chapters: Counter[str] = Counter()
    for verdict in verdicts:
        chapters[chapter_of(verdict.clause)] += 1
        if verdict.killed:
            status = "killed"
            detail = f"by {len(verdict.failing)} case(s)" if verdict.complete else "by a case"
            detail += ", right clause" if verdict.named_right else ", NOT naming the clause"
        else:
            status, detail = "SURVIVED", "no case fails"
        if quiet and verdict.killed and verdict.named_right:
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


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


VERB = Verb(
    name="mutants",
    summary=HELP,
    example="camelup conformance mutants --first-kill --quiet\n"
    "camelup conformance mutants --mutant leg-floor-per-ticket --mutant tile-on-space-one\n"
    "camelup conformance run --adapter 'python -m camelup.adapter --mutant leg-no-floor'",
    exit_codes=(
        (exits.OK, "every mutant is killed"),
        (exits.FAILED, "a mutant survives, or the unpatched reference fails the suite"),
        (exits.USAGE, "usage error: bad option, no such mutant, no such folder"),
        (exits.INVALID_SUITE, "invalid suite or case file"),
    ),
    add_arguments=add_arguments,
    options=MutantsOptions.from_namespace,
    handle=handle,
    details="Each mutant (camelup.harness.mutants) is applied in this process and undone"
    " after it; a mutant is killed when a case fails or errors, and the kill names the right"
    " clause when a failing check of one of those cases names the mutated clause (as the"
    " report does).",
)

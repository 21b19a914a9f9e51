"""What the suite makes of each mutant (``camelup conformance mutants``).

Each mutant is applied in this process (and undone after), and the suite runs against the
patched reference engine in-process. A mutant is **killed** when at least one case fails or
errors, and the kill **names the right clause** when a failing check of one of those cases names
the mutated clause (the clause its report shows: the check's own, else the case's primary
clause). Before any mutant the suite runs once unpatched: a suite the reference does not pass
says nothing about mutants.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import attrs

from camelup.harness.mutation.apply import Mutant, applied, check
from camelup.harness.mutation.catalogue import CATALOGUE
from camelup.harness.protocol import InProcessReference
from camelup.harness.runner import CaseResult, run_cases
from camelup.harness.suite import Case, load_suite
from camelup.io import exits


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


def judge(mutant: Mutant, cases: Sequence[Case], first_kill: bool = False) -> Verdict:
    """Run ``cases`` against the in-process reference with ``mutant`` applied.

    ``first_kill``: stop at the first failing case whose failure names the mutated clause,
    trying the cases with a check judging that clause first, and only if none fails the others
    (the verdict then lists one case; a survivor still runs them all).
    """

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
    """One verdict per mutant, in the order of ``names``, as each is judged (so that a signal
    loses none of those already given)."""
    if jobs <= 1 or len(names) <= 1:
        for name in names:
            yield judge(CATALOGUE[name], cases, first_kill)
        return
    pool = exits.worker_pool(jobs)  # started with the signals held, quiet workers
    try:
        judge_one = functools.partial(_judge_in_worker, suite=suite, first_kill=first_kill)
        yield from pool.imap(judge_one, names)
    except BaseException:  # a signal, a worker's error: the other verdicts are not wanted
        pool.terminate()
        raise
    pool.close()
    pool.join()


def chapter_of(clause: str) -> str:
    """The spec chapter file of ``clause`` (``06-tiles``), or ``?`` for an unknown clause."""
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if clause not in registry.clause_ids:
        return "?"
    return Path(registry.clause(clause).file).stem


@attrs.frozen
class MutationReport:
    """The verdicts on the mutants, or why none was given (the reference fails the suite)."""

    verdicts: tuple[Verdict, ...]
    baseline_failure: str | None = None  # the unpatched run's summary, when it fails
    interrupted: exits.Interrupted | None = None  # the signal that stopped the run early
    wanted: int = 0  # how many mutants were to be judged

    @property
    def all_killed(self) -> bool:
        return (
            self.baseline_failure is None
            and self.interrupted is None
            and all(v.killed for v in self.verdicts)
        )

    def lines(self, quiet: bool = False) -> Iterator[str]:
        """One line per mutant (``quiet``: only those not killed naming their clause), then the
        mutants per chapter and the totals."""
        chapters: Counter[str] = Counter()
        for verdict in self.verdicts:
            chapters[chapter_of(verdict.clause)] += 1
            if verdict.killed:
                status = "killed"
                detail = f"by {len(verdict.failing)} case(s)" if verdict.complete else "by a case"
                detail += ", right clause" if verdict.named_right else ", NOT naming the clause"
            else:
                status, detail = "SURVIVED", "no case fails"
            if quiet and verdict.killed and verdict.named_right:
                continue
            yield f"{status:8}  {verdict.name:40} {verdict.clause:28} {detail}"
            if not verdict.killed:
                yield f"          {verdict.description}"
        killed = [v for v in self.verdicts if v.killed]
        right = [v for v in killed if v.named_right]
        total = len(self.verdicts)
        yield "mutants per chapter: " + ", ".join(f"{c} {n}" for c, n in sorted(chapters.items()))
        yield (
            f"mutants: {total}, killed {len(killed)} ({_percent(len(killed), total)}),"
            f" survived {total - len(killed)};"
            f" kills naming the mutated clause {len(right)}/{len(killed)}"
            f" ({_percent(len(right), len(killed))})"
        )


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def run_mutants(
    cases: Sequence[Case],
    names: Sequence[str] = (),
    jobs: int = 1,
    suite: str | None = None,
    first_kill: bool = False,
    stopped: Callable[[], BaseException | None] = lambda: None,
) -> MutationReport:
    """The suite ``cases`` (loaded from ``suite``) run against each named mutant (every one
    when ``names`` is empty), once the unpatched reference is seen to pass it.

    ``stopped`` tells whether a signal arrived (the runner then returns early, so the verdict
    it gave is not one): the report keeps the verdicts given before it.

    Raises :class:`~camelup.harness.mutation.apply.StaleMutant` for a row that no longer
    matches its rule, before anything is run, and KeyError for an unknown name.
    """
    chosen = list(names) or list(CATALOGUE)
    for name in chosen:
        check(CATALOGUE[name])
    baseline = run_cases(cases, InProcessReference())
    if baseline.interrupted is not None:  # stopped before any mutant: not a failing reference
        return MutationReport((), None, baseline.interrupted, len(chosen))
    if baseline.exit_code:
        return MutationReport((), baseline.summary_line(), wanted=len(chosen))
    verdicts: list[Verdict] = []
    try:
        for verdict in judged(chosen, cases, jobs, suite, first_kill):
            if (signal := stopped()) is not None:  # the runner stopped early: no verdict
                raise signal
            verdicts.append(verdict)
    except KeyboardInterrupt as error:  # the verdicts so far are kept all the same
        return MutationReport(tuple(verdicts), None, exits.interruption(error), len(chosen))
    return MutationReport(tuple(verdicts), wanted=len(chosen))

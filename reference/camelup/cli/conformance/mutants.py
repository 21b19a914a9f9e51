"""``camelup conformance mutants``: how many wrong rule implementations the suite rejects.

The mutants and their verdicts are :mod:`camelup.harness.mutation`'s; this verb parses, runs
them and prints. Exit code 1 when any mutant survives (or the unpatched run fails). ``--jobs N``
spreads the mutants over N processes.
"""

from __future__ import annotations

import argparse

import attrs

import camelup.cli.conformance.shared as shared
import camelup.cli.signals as signals
from camelup.cli.common import InvalidSuite, Refused, UsageError, Verb, error_line, options_from
from camelup.io import exits

HELP = (
    "run the suite against every mutant (a plausible wrong rule implementation); fail if one"
    " survives"
)


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


@attrs.frozen
class MutantsOptions:
    mutants: tuple[str, ...]
    jobs: int
    suite: str | None
    first_kill: bool
    quiet: bool
    list: bool


def _mutant_names(namespace: argparse.Namespace) -> tuple[str, ...]:
    from camelup.harness.mutation.catalogue import CATALOGUE

    unknown = [name for name in namespace.mutant if name not in CATALOGUE]
    if unknown:
        raise UsageError(f"no such mutant: {', '.join(unknown)}")
    return tuple(dict.fromkeys(namespace.mutant))


def _jobs(namespace: argparse.Namespace) -> int:
    if namespace.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return int(namespace.jobs)


def handle(options: MutantsOptions) -> int:
    from camelup.harness.mutation import StaleMutant
    from camelup.harness.mutation.catalogue import CATALOGUE
    from camelup.harness.mutation.verdict import run_mutants

    if options.list:
        for mutant in CATALOGUE.values():
            print(f"{mutant.name:40} {mutant.clause:30} {mutant.description}")
        return exits.OK
    suite = shared.load(options.suite)
    if suite.problems:
        shared.report_problems(suite)
        raise InvalidSuite(f"{len(suite.problems)} problem(s) in the suite files")
    try:
        report = run_mutants(
            suite.cases,
            options.mutants,
            options.jobs,
            options.suite,
            options.first_kill,
            stopped=lambda: signals.current.received,
        )
    except StaleMutant as stale:
        raise Refused(str(stale), exits.INTERNAL) from None
    if report.baseline_failure is not None:
        raise Refused(f"the unpatched reference fails the suite: {report.baseline_failure}")
    with signals.current.deferred():  # the verdicts given are printed whole, even on a signal
        for line in report.lines(options.quiet):
            print(line)
        if report.interrupted is not None:
            message = (
                f"mutants interrupted ({report.interrupted.signal_name}):"
                f" {len(report.verdicts)} of {report.wanted} judged"
            )
            error_line(shared.PREFIX, message)
            return report.interrupted.exit_code
    return exits.OK if report.all_killed else exits.FAILED


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
    options=options_from(MutantsOptions, mutants=_mutant_names, jobs=_jobs),
    handle=handle,
    details="Each mutant (camelup.harness.mutation) is applied in this process and undone"
    " after it; a mutant is killed when a case fails or errors, and the kill names the right"
    " clause when a failing check of one of those cases names the mutated clause (as the"
    " report does).",
)

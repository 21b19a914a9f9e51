"""``camelup conformance coverage``: clause x cases x checks x implementation sites.

A clause is judged by the checks that name it and by the checks without a clause of the cases
whose primary clause it is; a must-clause the engine implements that no check judges is a gap."""

from __future__ import annotations

import argparse
import sys

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import Verb, options_from, say
from camelup.io import exits


@attrs.frozen
class CoverageOptions:
    suite: str | None
    format: str
    missing: bool
    families: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_suite(parser)
    parser.add_argument(
        "--format", choices=("human", "markdown", "jsonl"), default="human", help="output format"
    )
    parser.add_argument(
        "--missing",
        action="store_true",
        help="show only must-clauses that no check judges (by name, or as its case's primary"
        " clause)",
    )
    parser.add_argument(
        "--families",
        action="store_true",
        help="show the movement families instead: for each clause their events name, the number"
        " of family cases of each situation class (moving unit x what it meets)",
    )


def handle(options: CoverageOptions) -> int:
    from camelup.harness import coverage_report
    from camelup.harness.validate import coverage as rows_of
    from camelup.spec.registry import load_registry

    suite = shared.load(options.suite)
    shared.report_problems(suite)
    # JSON lines are escaped by json.dumps already; the tables may quote text from the suite.
    emit = print if options.format == "jsonl" else say
    if options.families:
        from camelup.harness.families import clause_matrix

        matrix = clause_matrix(suite.cases)
        for line in coverage_report.families_lines(matrix, options.format):
            emit(line)
        if options.format == "human":
            print(coverage_report.families_summary(matrix), file=sys.stderr)
        return exits.INVALID_SUITE if suite.problems else exits.OK
    rows = rows_of(suite.cases)
    gaps = [r for r in rows if r.gap]
    for line in coverage_report.coverage_lines(gaps if options.missing else rows, options.format):
        emit(line)
    for line in coverage_report.gap_lines(gaps, load_registry()):
        print(line, file=sys.stderr)
    print(coverage_report.coverage_summary(rows), file=sys.stderr)
    if suite.problems:
        return exits.INVALID_SUITE
    return exits.FAILED if gaps else exits.OK


VERB = Verb(
    name="coverage",
    summary="clause x cases x checks x implementation sites; fail on a must-clause no check judges",
    example="camelup conformance coverage --missing\n"
    "camelup conformance coverage --families\n"
    "camelup conformance coverage --format markdown > coverage.md",
    exit_codes=(
        (exits.OK, "every must-clause the engine implements is judged by a check"),
        (exits.FAILED, "a must-clause implemented by the engine is judged by no check (on stderr)"),
        (exits.USAGE, "usage error: bad option, no such folder"),
        (exits.INVALID_SUITE, "some case files could not be read (listed on stderr)"),
    ),
    add_arguments=add_arguments,
    options=options_from(CoverageOptions),
    handle=handle,
)

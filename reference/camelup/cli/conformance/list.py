"""``camelup conformance list``: the selected cases, one line each (or JSON lines)."""

from __future__ import annotations

import argparse

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import Verb, options_from, say
from camelup.io import exits


@attrs.frozen
class ListOptions:
    suite: str | None
    filters: shared.Filters
    format: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_suite(parser)
    shared.add_filters(parser)
    parser.add_argument(
        "--format", choices=("human", "jsonl"), default="human", help="output format"
    )


def handle(options: ListOptions) -> int:
    from camelup.harness.case_text import case_lines

    suite = shared.load(options.suite)
    shared.report_problems(suite)
    cases = options.filters.select(suite.cases)
    # JSON lines are escaped by json.dumps already; the table may quote text from the suite.
    emit = print if options.format == "jsonl" else say
    for line in case_lines(cases, options.format):
        emit(line)
    return exits.INVALID_SUITE if suite.problems else exits.OK


VERB = Verb(
    name="list",
    summary="list the selected cases",
    example="camelup conformance list --clause tile. --ruleset second\n"
    "camelup conformance list --format jsonl | head -3",
    exit_codes=(
        (exits.OK, "the cases are listed"),
        (exits.USAGE, "usage error: bad option, no such folder"),
        (
            exits.INVALID_SUITE,
            "some case files could not be read (listed on stderr); the others are listed",
        ),
    ),
    add_arguments=add_arguments,
    options=options_from(ListOptions, filters=shared.Filters.from_namespace),
    handle=handle,
)

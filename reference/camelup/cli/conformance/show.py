"""``camelup conformance show ID``: one case with the text of its clauses and its ruling."""

from __future__ import annotations

import argparse

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import Verb, options_from, say
from camelup.io import exits


@attrs.frozen
class ShowOptions:
    suite: str | None
    case_id: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id",
        metavar="ID",
        help="a case ID, e.g. turn.order/not-your-turn (`camelup conformance list` lists them)",
    )
    shared.add_suite(parser)


def handle(options: ShowOptions) -> int:
    from camelup.harness.case_text import case_text
    from camelup.spec.registry import load_registry

    suite = shared.load(options.suite)
    case = shared.find(suite, options.case_id)
    for block in case_text(case, load_registry()):
        say(block)
    return exits.OK


VERB = Verb(
    name="show",
    summary="one case with the text of its clauses and its ruling",
    example="camelup conformance show turn.order/not-your-turn",
    exit_codes=(
        (exits.OK, "the case is shown"),
        (exits.USAGE, "usage error: bad option, no such folder, no case with that ID"),
        (exits.INVALID_SUITE, "no case with that ID, and some case files could not be read"),
    ),
    add_arguments=add_arguments,
    options=options_from(ShowOptions, case_id=lambda namespace: namespace.id),
    handle=handle,
)

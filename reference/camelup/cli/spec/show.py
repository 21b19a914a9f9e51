"""``camelup spec show ID``: one clause, its text, sources and rulings."""

from __future__ import annotations

import argparse

import attrs

from camelup.cli.common import UsageError, Verb, options_from, say
from camelup.io import exits


@attrs.frozen
class ShowOptions:
    clause: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id",
        metavar="ID",
        help="a clause ID, e.g. tile.land.backward (`camelup spec trace` lists them)",
    )


def handle(options: ShowOptions) -> int:
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if options.clause not in registry.clause_ids:  # an unknown name is a usage error
        near = sorted(c for c in registry.clause_ids if options.clause and options.clause in c)
        hint = f" (did you mean {', '.join(near[:3])}?)" if near else ""
        raise UsageError(f"no clause {options.clause!r}{hint}")
    clause = registry.clause(options.clause)
    say(f"{clause.number} {clause.id}  [{', '.join(sorted(clause.rule_sets))}; {clause.level}]")
    if clause.variant:
        say(f"variant: {clause.variant}")
    say(clause.text)
    say(f"sources: {clause.sources}")
    for ruling in registry.rulings_for(clause.id):
        say(f"ruling {ruling.id}: {ruling.title}")
    return exits.OK


VERB = Verb(
    name="show",
    summary="one clause with its text, sources and rulings",
    example="camelup spec show tile.land.backward",
    exit_codes=(
        (exits.OK, "the clause is shown"),
        (exits.USAGE, "usage error: bad option, no clause with that ID"),
    ),
    add_arguments=add_arguments,
    options=options_from(ShowOptions, clause=lambda namespace: namespace.id),
    handle=handle,
)

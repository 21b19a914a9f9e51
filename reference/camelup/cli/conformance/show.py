"""``camelup conformance show ID``: one case with the text of its clauses and its ruling."""

from __future__ import annotations

import argparse
import json
import textwrap

import attrs

from camelup.cli.common import Verb, say
from camelup.cli.conformance import shared
from camelup.io import exits


@attrs.frozen
class ShowOptions:
    suite: str | None
    case_id: str

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> ShowOptions:
        return cls(namespace.suite, namespace.id)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id",
        metavar="ID",
        help="a case ID, e.g. turn.order/not-your-turn (`camelup conformance list` lists them)",
    )
    shared.add_suite(parser)


def handle(options: ShowOptions) -> int:
    from camelup.spec.registry import load_registry

    suite = shared.load(options.suite)
    case = shared.find(suite, options.case_id)
    registry = load_registry()
    say(case.id)
    say(f"  {case.description}")
    say(f"  file:    {case.where}  (area {case.area})")
    say(f"  ruleset: {case.ruleset_label()}")
    source = case.source
    say(f"  source:  {source.get('kind')}: {source.get('ref')}")
    say()
    for clause_id in case.clauses:
        if clause_id not in registry.clause_ids:
            say(f"{clause_id}  (unknown clause)")
            continue
        clause = registry.clause(clause_id)
        variant = f"; variant {clause.variant}" if clause.variant else ""
        say(
            f"{clause.number} {clause.id}  [{', '.join(sorted(clause.rule_sets))};"
            f" {clause.level}{variant}]"
            f"  spec/{clause.file}:{clause.line}"
        )
        say(textwrap.indent(clause.text, "    "))
        say()
    if case.ruling:
        ruling = next((r for r in registry.rulings if r.id == case.ruling), None)
        if ruling is None:
            say(f"ruling {case.ruling}  (unknown ruling)")
        else:
            say(f"ruling {ruling.id}: {ruling.title}  spec/{ruling.file}:{ruling.line}")
            for field in ("question", "ruling"):
                if ruling.fields.get(field):
                    say(
                        textwrap.indent(
                            textwrap.fill(f"{field.title()}: {ruling.fields[field]}", 96), "    "
                        )
                    )
        say()
    say("case:")
    say(textwrap.indent(json.dumps(dict(case.raw), indent=2, ensure_ascii=False), "  "))
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
    options=ShowOptions.from_namespace,
    handle=handle,
)

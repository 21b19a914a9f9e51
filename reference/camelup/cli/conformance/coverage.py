"""``camelup conformance coverage``: clause x cases x checks x implementation sites.

A clause is judged by the checks that name it and by the checks without a clause of the cases
whose primary clause it is; a must-clause the engine implements that no check judges is a gap."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from camelup.cli.common import Verb, say
from camelup.cli.conformance import shared
from camelup.io import exits

if TYPE_CHECKING:
    from camelup.harness.suite import Case


@attrs.frozen
class CoverageOptions:
    suite: str | None
    format: str
    missing: bool
    families: bool = False

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> CoverageOptions:
        return cls(namespace.suite, namespace.format, namespace.missing, namespace.families)


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
    from camelup.harness.validate import coverage as rows_of
    from camelup.spec.registry import load_registry

    suite = shared.load(options.suite)
    shared.report_problems(suite)
    if options.families:
        show_families(suite.cases, options.format)
        return exits.INVALID_SUITE if suite.problems else exits.OK
    rows = rows_of(suite.cases)
    gaps = [r for r in rows if r.gap]
    shown = gaps if options.missing else rows
    if options.format == "jsonl":
        for row in shown:
            print(
                json.dumps(
                    {
                        "clause": row.clause,
                        "number": row.number,
                        "level": row.level,
                        "code": row.code,
                        "rule_sets": list(row.rule_sets),
                        "cases": list(row.cases),
                        "checks_naming": list(row.named),
                        "checks_by_default": list(row.by_default),
                        "sites": list(row.sites),
                        "gap": row.gap,
                    }
                )
            )
    elif options.format == "markdown":
        say("| clause | level | code | cases | checks naming it | checks by default | sites |")
        say("|---|---|---|---:|---:|---:|---|")
        for row in shown:
            mark = " **(no check)**" if row.gap else ""
            sites = "<br>".join(f"`{s}`" for s in row.sites) or "-"
            say(
                f"| {row.number} `{row.clause}`{mark} | {row.level} | {row.code}"
                f" | {len(row.cases)} | {len(row.named)} | {len(row.by_default)} | {sites} |"
            )
    elif shown:
        width = max(len(r.clause) for r in shown)
        say(
            f"{'':6} {'clause':<{width}}  {'level':<11}  {'code':<6}  {'cases':>5}"
            f"  {'named':>5}  {'default':>7}  sites"
        )
        for row in shown:
            site = row.sites[0].split(" ")[-1] if row.sites else "-"
            more = f" +{len(row.sites) - 1}" if len(row.sites) > 1 else ""
            flag = "  <- no check" if row.gap else ""
            say(
                f"{row.number:6} {row.clause:<{width}}  {row.level:<11}  {row.code:<6}"
                f"  {len(row.cases):>5}  {len(row.named):>5}  {len(row.by_default):>7}"
                f"  {site}{more}{flag}"
            )
    registry = load_registry()
    for row in gaps:
        clause = registry.clause(row.clause)
        print(
            f"spec/{clause.file}:{clause.line}: must-clause {row.clause} (Code: engine)"
            " is judged by no check",
            file=sys.stderr,
        )
    covered = sum(1 for r in rows if r.cases)
    judged = sum(1 for r in rows if r.checks)
    named = sum(1 for r in rows if r.named)
    print(
        f"conformance coverage: {covered}/{len(rows)} clauses have cases, {judged} are judged"
        f" by a check ({named} by a check naming them),"
        f" {len(gaps)} must-clause(s) implemented by the engine by none",
        file=sys.stderr,
    )
    if suite.problems:
        return exits.INVALID_SUITE
    return exits.FAILED if gaps else exits.OK


def show_families(cases: Sequence[Case], format: str) -> None:
    """The clause x situation class matrix of the movement families: one row per clause, one
    column per situation class that occurs (the moving unit, then what it meets)."""
    from camelup.harness.families import clause_matrix

    matrix = clause_matrix(cases)
    if format == "jsonl":
        for clause, counts in matrix.items():
            situations = {f"{unit} x {reach}": n for (unit, reach), n in sorted(counts.items())}
            print(json.dumps({"clause": clause, "situations": situations}))
        return
    columns = sorted({situation for counts in matrix.values() for situation in counts})
    heads = [f"{unit} x {reach}" for unit, reach in columns]
    if format == "markdown":
        say("| clause | " + " | ".join(heads) + " |")
        say("|---|" + "---:|" * len(heads))
        for clause, counts in matrix.items():
            cells = " | ".join(str(counts[c]) if counts[c] else "" for c in columns)
            say(f"| `{clause}` | {cells} |")
        return
    width = max((len(c) for c in matrix), default=6)
    for number, head in enumerate(heads, start=1):
        say(f"{number:>3}  {head}")
    say(f"{'clause':<{width}}" + "".join(f"{n:>4}" for n in range(1, len(heads) + 1)))
    for clause, counts in matrix.items():
        say(f"{clause:<{width}}" + "".join(f"{counts[c] or '.':>4}" for c in columns))
    print(
        f"conformance coverage --families: {len(matrix)} clauses x {len(columns)} situation"
        f" classes, {sum(1 for counts in matrix.values() for c in counts)} cells covered",
        file=sys.stderr,
    )


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
    options=CoverageOptions.from_namespace,
    handle=handle,
)

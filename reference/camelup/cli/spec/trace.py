"""``camelup spec trace``: clause -> implementation sites; fails on a must-clause without one."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

from camelup.cli.common import Verb, options_from
from camelup.io import exits


@attrs.frozen
class TraceOptions:
    quiet: bool


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", action="store_true", help="print only problems and the summary")


def handle(options: TraceOptions) -> int:
    from camelup.play.sites import engine_sites
    from camelup.spec.registry import load_registry

    registry = load_registry()
    by_clause: dict[str, list[str]] = {}
    problems: list[str] = []
    for site in engine_sites():
        where = f"{Path(site.file).name}:{site.line} {site.qualname}"
        by_clause.setdefault(site.clause, []).append(where)
        if site.clause not in registry.clause_ids:
            problems.append(f"{where}: names unknown clause {site.clause}")
    for clause in registry.clauses:
        found = by_clause.get(clause.id, [])
        if not options.quiet:
            marker = (
                ", ".join(found)
                if found
                else ("(not code: " + clause.code + ")" if not clause.is_code else "-")
            )
            print(f"{clause.number:6} {clause.id:40} {marker}")
        if clause.is_code and clause.level == "must" and not found:
            problems.append(
                f"{clause.file}:{clause.line}: must-clause {clause.id} has no implementation site"
            )
        if not clause.is_code and found:
            problems.append(
                f"{clause.file}:{clause.line}: clause {clause.id} is marked not code but has a site"
            )
    for problem in problems:
        print(problem, file=sys.stderr)
    implemented = sum(1 for c in registry.clauses if by_clause.get(c.id))
    print(
        f"spec trace: {implemented}/{len(registry.clauses)} clauses have implementation sites,"
        f" {len(problems)} problem(s)"
    )
    return exits.FAILED if problems else exits.OK


VERB = Verb(
    name="trace",
    summary="clause -> implementation sites; fail on a must-clause without one",
    example="camelup spec trace | grep tile.\ncamelup spec trace --quiet",
    exit_codes=(
        (exits.OK, "every must-clause has an implementation site"),
        (exits.FAILED, "a must-clause has no site, or a site names an unknown clause"),
        (exits.USAGE, "usage error: bad option"),
    ),
    add_arguments=add_arguments,
    options=options_from(TraceOptions),
    handle=handle,
)

"""The clause coverage of the suite as lines of text: a table per clause (human or Markdown) or
one JSON object per line, the must-clauses no check judges, the summary; and the movement
families' clause x situation class matrix, in the same three forms."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from camelup.harness.validate import CoverageRow
from camelup.spec.registry import Registry

__all__ = [
    "coverage_lines",
    "coverage_summary",
    "families_lines",
    "families_summary",
    "gap_lines",
]

Situation = tuple[str, str]  # the moving unit, what it meets
Matrix = Mapping[str, Mapping[Situation, int]]


def _row_json(row: CoverageRow) -> dict[str, Any]:
    return {
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


def coverage_lines(rows: Sequence[CoverageRow], format: str) -> list[str]:
    """The rows in ``format``: ``jsonl``, ``markdown`` or ``human`` (nothing for no row)."""
    if format == "jsonl":
        return [json.dumps(_row_json(row)) for row in rows]
    if format == "markdown":
        lines = [
            "| clause | level | code | cases | checks naming it | checks by default | sites |",
            "|---|---|---|---:|---:|---:|---|",
        ]
        for row in rows:
            mark = " **(no check)**" if row.gap else ""
            sites = "<br>".join(f"`{s}`" for s in row.sites) or "-"
            lines.append(
                f"| {row.number} `{row.clause}`{mark} | {row.level} | {row.code}"
                f" | {len(row.cases)} | {len(row.named)} | {len(row.by_default)} | {sites} |"
            )
        return lines
    if not rows:
        return []
    width = max(len(r.clause) for r in rows)
    lines = [
        f"{'':6} {'clause':<{width}}  {'level':<11}  {'code':<6}  {'cases':>5}"
        f"  {'named':>5}  {'default':>7}  sites"
    ]
    for row in rows:
        site = row.sites[0].split(" ")[-1] if row.sites else "-"
        more = f" +{len(row.sites) - 1}" if len(row.sites) > 1 else ""
        flag = "  <- no check" if row.gap else ""
        lines.append(
            f"{row.number:6} {row.clause:<{width}}  {row.level:<11}  {row.code:<6}"
            f"  {len(row.cases):>5}  {len(row.named):>5}  {len(row.by_default):>7}"
            f"  {site}{more}{flag}"
        )
    return lines


def gap_lines(gaps: Sequence[CoverageRow], registry: Registry) -> list[str]:
    """One line per must-clause no check judges, naming where the spec states it."""
    lines = []
    for row in gaps:
        clause = registry.clause(row.clause)
        lines.append(
            f"spec/{clause.file}:{clause.line}: must-clause {row.clause} (Code: engine)"
            " is judged by no check"
        )
    return lines


def coverage_summary(rows: Sequence[CoverageRow]) -> str:
    """How many clauses have cases, are judged, and how many must-clauses none judges."""
    covered = sum(1 for r in rows if r.cases)
    judged = sum(1 for r in rows if r.checks)
    named = sum(1 for r in rows if r.named)
    gaps = sum(1 for r in rows if r.gap)
    return (
        f"conformance coverage: {covered}/{len(rows)} clauses have cases, {judged} are judged"
        f" by a check ({named} by a check naming them),"
        f" {gaps} must-clause(s) implemented by the engine by none"
    )


def families_lines(matrix: Matrix, format: str) -> list[str]:
    """The clause x situation class matrix of the movement families: one row per clause, one
    column per situation class that occurs (the moving unit, then what it meets)."""
    if format == "jsonl":
        return [
            json.dumps(
                {
                    "clause": clause,
                    "situations": {f"{u} x {r}": n for (u, r), n in sorted(counts.items())},
                }
            )
            for clause, counts in matrix.items()
        ]
    columns = sorted({situation for counts in matrix.values() for situation in counts})
    heads = [f"{unit} x {reach}" for unit, reach in columns]
    if format == "markdown":
        lines = ["| clause | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]
        for clause, counts in matrix.items():
            cells = " | ".join(str(counts.get(c, 0) or "") for c in columns)
            lines.append(f"| `{clause}` | {cells} |")
        return lines
    width = max((len(c) for c in matrix), default=6)
    lines = [f"{number:>3}  {head}" for number, head in enumerate(heads, start=1)]
    lines.append(f"{'clause':<{width}}" + "".join(f"{n:>4}" for n in range(1, len(heads) + 1)))
    for clause, counts in matrix.items():
        cells = "".join(f"{counts.get(c, 0) or '.':>4}" for c in columns)
        lines.append(f"{clause:<{width}}{cells}")
    return lines


def families_summary(matrix: Matrix) -> str:
    columns = {situation for counts in matrix.values() for situation in counts}
    cells = sum(1 for counts in matrix.values() for _ in counts)
    return (
        f"conformance coverage --families: {len(matrix)} clauses x {len(columns)} situation"
        f" classes, {cells} cells covered"
    )

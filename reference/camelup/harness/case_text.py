"""Cases as text for a reader: a list of cases, one line each (or one JSON object each), and
one case in full: where it comes from, the text of each clause it cites and of its ruling (from
the spec registry), then the case itself as JSON."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence

from camelup.harness.suite import Case
from camelup.spec.registry import Registry

__all__ = ["case_lines", "case_text"]


def case_lines(cases: Sequence[Case], format: str) -> list[str]:
    """The cases one per line: ``jsonl`` (id, area, clauses, rule set, description, file) or
    ``human`` (aligned columns, then the count)."""
    if format == "jsonl":
        return [
            json.dumps(
                {
                    "id": case.id,
                    "area": case.area,
                    "clauses": list(case.clauses),
                    "ruleset": case.ruleset,
                    "description": case.description,
                    "file": case.where,
                }
            )
            for case in cases
        ]
    width = max((len(c.id) for c in cases), default=0)
    lines = [f"{c.id:<{width}}  {c.ruleset_label():<30}  {c.description}" for c in cases]
    return [*lines, f"{len(cases)} case(s)"]


def case_text(case: Case, registry: Registry) -> list[str]:
    """The blocks of text to print, in order (a block may span lines; "" is an empty line)."""
    source = case.source
    blocks = [
        case.id,
        f"  {case.description}",
        f"  file:    {case.where}  (area {case.area})",
        f"  ruleset: {case.ruleset_label()}",
        f"  source:  {source.get('kind')}: {source.get('ref')}",
        "",
    ]
    for clause_id in case.clauses:
        if clause_id not in registry.clause_ids:
            blocks.append(f"{clause_id}  (unknown clause)")
            continue
        clause = registry.clause(clause_id)
        variant = f"; variant {clause.variant}" if clause.variant else ""
        blocks += [
            f"{clause.number} {clause.id}  [{', '.join(sorted(clause.rule_sets))};"
            f" {clause.level}{variant}]  spec/{clause.file}:{clause.line}",
            textwrap.indent(clause.text, "    "),
            "",
        ]
    if case.ruling:
        ruling = next((r for r in registry.rulings if r.id == case.ruling), None)
        if ruling is None:
            blocks.append(f"ruling {case.ruling}  (unknown ruling)")
        else:
            blocks.append(f"ruling {ruling.id}: {ruling.title}  spec/{ruling.file}:{ruling.line}")
            for field in ("question", "ruling"):
                if ruling.fields.get(field):
                    filled = textwrap.fill(f"{field.title()}: {ruling.fields[field]}", 96)
                    blocks.append(textwrap.indent(filled, "    "))
        blocks.append("")
    blocks += [
        "case:",
        textwrap.indent(json.dumps(dict(case.raw), indent=2, ensure_ascii=False), "  "),
    ]
    return blocks

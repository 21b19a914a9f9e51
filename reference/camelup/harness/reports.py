"""Report formats: ``human`` (the default), ``jsonl``, ``junit``, ``tap`` and ``markdown``.

Every format renders the same :class:`~camelup.harness.runner.RunReport`. The human report
shows one block per failing, erroring or unexpectedly passing case (case, clause, step, diff),
a table per area, and ends with exactly ``N passed, N failed, N errored, N skipped``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from camelup.harness.compare import NO_VALUE, Mismatch
from camelup.harness.divergence import after_divergence, silence_note
from camelup.harness.protocol import PROTOCOL, Hello
from camelup.harness.rule_links import rule_links
from camelup.harness.runner import VERDICTS, CaseResult, RunReport
from camelup.io.safe_text import printable

FORMATS = ("human", "jsonl", "junit", "tap", "markdown")
MAX_DIFF_LINES = 40

_NOTES = (
    ("unsupported", "unsupported"),
    ("expected-skip", "skipped by expectations"),
    ("adapter-skip", "skipped by the adapter"),
    ("xfail", "expected failures"),
)


def render(report: RunReport, fmt: str) -> str:
    renderers: tuple[Callable[[RunReport], str], ...] = (human, jsonl, junit, tap, markdown)
    return dict(zip(FORMATS, renderers, strict=True))[fmt](report)


def ended_early_line(report: RunReport) -> str | None:
    """``interrupted by SIGINT: 3 of 9 case(s) finished`` (or the --maxfail stop), or None."""
    why = report.ended_early
    return None if why is None else f"run ended early: {why}"


def _reported(result: CaseResult) -> bool:
    return result.verdict in ("failed", "errored") or result.note == "xpass"


def _label(result: CaseResult) -> str:
    if result.note == "xpass":
        return "XPASS"
    return {"failed": "FAIL", "errored": "ERROR"}.get(result.verdict, result.verdict.upper())


def by_area(report: RunReport) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for result in report.results:
        row = table.setdefault(result.case.area, dict.fromkeys(VERDICTS, 0))
        row[result.verdict] += 1
    return dict(sorted(table.items()))


def _clip(lines: Iterable[str]) -> list[str]:
    lines = list(lines)
    if len(lines) > MAX_DIFF_LINES:
        return [*lines[:MAX_DIFF_LINES], f"(and {len(lines) - MAX_DIFF_LINES} more lines)"]
    return lines


def failing_clause(result: CaseResult) -> str:
    """The clause a reported case is shown under: its first failing check's, else (an error, an
    unexpected pass) the case's primary clause."""
    return result.mismatches[0].clause if result.mismatches else result.case.primary_clause


def failure_block(result: CaseResult) -> list[str]:
    """The human block for one case: header (with the first failing check's clause), then each
    mismatch with its own clause and diff."""
    case = result.case
    lines = [
        f"{_label(result)} {case.id}  [{failing_clause(result)}]  {case.where}",
        f"  {case.description}",
    ]
    rule = rule_links(failing_clause(result), case.ruling)
    if rule is not None:
        lines.append(f"  {rule.line()}")
    if result.reason:
        lines.append(f"  {result.reason}")
    for mismatch in result.mismatches:
        lines.append(f"  {mismatch.summary}  [{mismatch.clause}]")
        lines.extend(f"      {line}" for line in _clip(mismatch.diff))
    silenced = silence_note(result.diverged_at, len(result.not_compared))
    if silenced:
        lines.append(f"  {silenced}")
    if result.stderr.strip():
        lines.append("  adapter stderr (last lines):")
        lines.extend(f"    | {line}" for line in result.stderr.splitlines())
    return lines


def notes_line(report: RunReport) -> str:
    parts = [f"{report.noted(note)} {words}" for note, words in _NOTES if report.noted(note)]
    line = f"skipped: {', '.join(parts)}" if parts else ""
    if report.noted("xpass"):
        line += ("; " if line else "") + f"{report.noted('xpass')} expected failure(s) passed"
    return line


def human(report: RunReport) -> str:
    lines: list[str] = []
    if report.hello is not None:
        lines.append(f"implementation: {report.hello.summary()}")
    lines.append(f"adapter: {report.adapter}")
    if report.fatal:
        lines.append(f"error: {report.fatal}")
    for result in report.results:
        if _reported(result):
            lines.append("")
            lines.extend(failure_block(result))
    table = by_area(report)
    if table:
        width = max(len("area"), *(len(a) for a in table), len("total"))
        lines.append("")
        lines.append(f"{'area':<{width}}  " + "  ".join(f"{v:>7}" for v in VERDICTS))
        for area, row in table.items():
            lines.append(f"{area:<{width}}  " + "  ".join(f"{row[v]:>7}" for v in VERDICTS))
        lines.append(f"{'total':<{width}}  " + "  ".join(f"{report.count(v):>7}" for v in VERDICTS))
    extra = notes_line(report)
    if extra:
        lines.append(extra)
    if report.problems:
        lines.append(
            f"{len(report.problems)} problem(s) in the suite files, listed on stderr"
            " (a case that could not be read was not run)"
        )
    early = ended_early_line(report)
    if early:
        lines.append(early)
    lines.append(report.summary_line())
    return printable("\n".join(lines)) + "\n"


def _result_json(result: CaseResult) -> dict[str, Any]:
    case = result.case
    return {
        "id": case.id,
        "area": case.area,
        "file": case.where,
        "clauses": list(case.clauses),
        "verdict": result.verdict,
        "note": result.note,
        "reason": result.reason,
        "mismatches": [mismatch_json(m) for m in result.mismatches],
        "diverged_at": result.diverged_at,
        "not_compared": [
            {"check": index, "reason": after_divergence(result.diverged_at)}
            for index in result.not_compared
            if result.diverged_at is not None
        ],
        "stderr": result.stderr,
        "seconds": round(result.seconds, 6),
    }


def mismatch_json(mismatch: Mismatch) -> dict[str, Any]:
    """One failure record of a JSONL report (``report-line.schema.json#/$defs/mismatch``):
    ``expected`` or ``actual`` is left out when that side has no value (a pointer missing from
    the reply)."""
    record: dict[str, Any] = {
        "check": mismatch.check,
        "step": mismatch.after,
        "after": mismatch.after,
        "pointer": mismatch.pointer,
        "clause": mismatch.clause,
        "summary": mismatch.summary,
        "diff": list(mismatch.diff),
    }
    if mismatch.expected is not NO_VALUE:
        record["expected"] = mismatch.expected
    if mismatch.actual is not NO_VALUE:
        record["actual"] = mismatch.actual
    if mismatch.divergence:
        record["divergence"] = True
        record["pointers"] = list(mismatch.pointers)
    return record


def jsonl_header(adapter: str, started: str, hello: Hello | None) -> str:
    """The first line of a JSONL report: who was run, known once the adapter has started."""
    header: dict[str, Any] = {
        "report": 1,
        "protocol": PROTOCOL,
        "adapter": adapter,
        "started": started,
    }
    if hello is not None:
        header["implementation"] = hello.raw.get("implementation")
        header["supports"] = hello.raw.get("supports")
        header["capabilities"] = sorted(hello.capabilities)
    return _json_line(header)


def jsonl_case(result: CaseResult) -> str:
    """One case's line of a JSONL report, written as soon as the case is decided."""
    return _json_line(_result_json(result))


def jsonl_footer(report: RunReport) -> str:
    """The last line of a JSONL report: the counts, and whether the run ended early."""
    footer = {
        "counts": {v: report.count(v) for v in VERDICTS},
        "notes": {
            note: report.noted(note) for note in (*(n for n, _ in _NOTES), "xpass", "protocol")
        },
        "by_area": by_area(report),
        "problems": list(report.problems),
        "warnings": list(report.warnings),
        "fatal": report.fatal,
        "interrupted": report.interrupted.signal_name if report.interrupted else None,
        "ended_early": report.ended_early,
        "selected": report.selected,
        "exit_code": report.exit_code,
        "seconds": round(report.seconds, 3),
    }
    return _json_line(footer)


def _json_line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True) + "\n"


def jsonl(report: RunReport) -> str:
    return (
        jsonl_header(report.adapter, report.started, report.hello)
        + "".join(jsonl_case(r) for r in report.results)
        + jsonl_footer(report)
    )


# What XML 1.0 allows in a document (section 2.2): an adapter's stderr or messages may hold
# anything else (ANSI colours, NUL, a lone surrogate), which ElementTree would write as is.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text: str | None) -> str | None:
    """``text`` with every character XML 1.0 forbids written as its ``\\uXXXX`` escape."""
    if text is None:
        return None
    return _NOT_XML.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def junit(report: RunReport) -> str:
    root = ET.Element(
        "testsuites",
        name="camelup conformance",
        tests=str(len(report.results)),
        failures=str(report.count("failed")),
        errors=str(report.count("errored")),
        skipped=str(report.count("skipped")),
        time=f"{report.seconds:.3f}",
    )
    suites: dict[str, ET.Element] = {}
    for area, row in by_area(report).items():
        suites[area] = ET.SubElement(
            root,
            "testsuite",
            name=area,
            tests=str(sum(row.values())),
            failures=str(row["failed"]),
            errors=str(row["errored"]),
            skipped=str(row["skipped"]),
        )
    for result in report.results:
        case = result.case
        element = ET.SubElement(
            suites[case.area],
            "testcase",
            classname=case.area,
            name=case.id,
            file=case.file,
            time=f"{result.seconds:.6f}",
        )
        body = "\n".join(failure_block(result)[2:]) if _reported(result) else ""
        if result.verdict == "failed":
            first = (
                f"[{result.mismatches[0].clause}] {result.mismatches[0].summary}"
                if result.mismatches
                else result.reason
            )
            ET.SubElement(
                element, "failure", message=first, type=result.note or "mismatch"
            ).text = body
        elif result.verdict == "errored":
            ET.SubElement(
                element, "error", message=result.reason, type=result.note or "errored"
            ).text = body
        elif result.verdict == "skipped":
            ET.SubElement(element, "skipped", message=f"{result.note}: {result.reason}")
    trouble = [why for why in (report.fatal, report.ended_early) if why]
    if trouble:
        # A run that could not start or ended early must not look like a pass to a JUnit
        # reader: one errored test case says why (a system-err alone is shown by few).
        suite = ET.SubElement(
            root, "testsuite", name="camelup", tests="1", failures="0", errors="1", skipped="0"
        )
        element = ET.SubElement(suite, "testcase", classname="camelup", name="conformance run")
        ET.SubElement(element, "error", message="; ".join(trouble), type="run").text = "\n".join(
            trouble
        )
        root.set("tests", str(len(report.results) + 1))
        root.set("errors", str(report.count("errored") + 1))
        ET.SubElement(root, "system-err").text = "\n".join(trouble)
    for element in root.iter():
        element.text = _xml_safe(element.text)
        for key, value in element.attrib.items():
            element.attrib[key] = _xml_safe(value) or ""
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML flow scalar


def _yaml_text(key: str, lines: Sequence[str], indent: str) -> list[str]:
    """``key`` with a multi-line value: a literal block, unless a line of it would begin with
    ``...`` or ``---``, which TAP consumers (tap.py among them) read as the end of the YAML
    diagnostics whatever its indentation; then one quoted string, which no line can end."""
    if any(line.lstrip().startswith(("...", "---")) for line in lines):
        return [f"{indent}{key}: {_yaml_string(chr(10).join(lines))}"]
    return [f"{indent}{key}: |", *(f"{indent}  {line}" for line in lines)]


def tap(report: RunReport) -> str:
    """TAP 14. A run that could not start or ended early ends with ``Bail out!`` and its
    reason, after the cases that finished and a plan that counts them."""
    lines = ["TAP version 14", f"1..{len(report.results)}"]
    for number, result in enumerate(report.results, start=1):
        case = result.case
        if result.verdict == "skipped":
            directive = "TODO" if result.note == "xfail" else "SKIP"
            status = "not ok" if result.note == "xfail" else "ok"
            lines.append(f"{status} {number} - {case.id} # {directive} {result.reason}")
            continue
        ok = result.verdict == "passed"
        lines.append(f"{'ok' if ok else 'not ok'} {number} - {case.id}")
        if ok and result.note != "xpass":
            continue
        lines.append("  ---")
        lines.append(f"  severity: {'fail' if result.verdict == 'failed' else result.verdict}")
        lines.append(f"  clause: {_yaml_string(failing_clause(result))}")
        lines.append(f"  file: {_yaml_string(case.where)}")
        if result.reason:
            lines.append(f"  message: {_yaml_string(result.reason)}")
        if result.mismatches:
            lines.append("  mismatches:")
            for mismatch in result.mismatches:
                lines.append(f"    - at_step: {mismatch.after}")
                lines.append(f"      clause: {_yaml_string(mismatch.clause)}")
                if mismatch.check is not None:
                    lines.append(f"      check: {mismatch.check}")
                if mismatch.pointer is not None:
                    lines.append(f"      pointer: {_yaml_string(mismatch.pointer)}")
                lines.append(f"      message: {_yaml_string(mismatch.summary)}")
                if mismatch.divergence:
                    lines.append("      divergence: true")
                    lines.append(f"      pointers: {json.dumps(list(mismatch.pointers))}")
                if mismatch.diff:
                    lines += _yaml_text("diff", _clip(mismatch.diff), "      ")
        if result.diverged_at is not None:
            lines.append(f"  diverged_at: {result.diverged_at}")
            lines.append(f"  not_compared: {len(result.not_compared)}")
        if result.stderr.strip():
            lines += _yaml_text("stderr", result.stderr.splitlines(), "  ")
        lines.append("  ...")
    lines.append(f"# {report.summary_line()}")
    trouble = [why for why in (report.fatal, ended_early_line(report)) if why]
    if trouble:
        lines.append(f"Bail out! {'; '.join(trouble)}")
    # Control characters are not allowed in YAML (the diagnostics) and act on a terminal.
    return printable("\n".join(lines)) + "\n"


def cell(text: str) -> str:
    """``text`` as the cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(report: RunReport) -> str:
    title = report.hello.summary() if report.hello is not None else report.adapter
    lines = [f"## camelup conformance: {cell(title)}", ""]
    if report.fatal:
        lines += [f"**Error:** {cell(report.fatal)}", ""]
    lines.append("| area | " + " | ".join(VERDICTS) + " |")
    lines.append("|---|" + "---:|" * len(VERDICTS))
    for area, row in by_area(report).items():
        lines.append(f"| {cell(area)} | " + " | ".join(str(row[v]) for v in VERDICTS) + " |")
    lines.append("| **total** | " + " | ".join(f"**{report.count(v)}**" for v in VERDICTS) + " |")
    reported = [r for r in report.results if _reported(r)]
    if reported:
        lines += ["", "### Failures", ""]
        for result in reported:
            case = result.case
            first = result.mismatches[0].summary if result.mismatches else result.reason
            silenced = silence_note(result.diverged_at, len(result.not_compared))
            first += f" ({silenced})" if silenced else ""
            lines.append(
                f"- **{_label(result)}** `{case.id}` [`{failing_clause(result)}`]: {cell(first)}"
            )
            rule = rule_links(failing_clause(result), case.ruling)
            if rule is not None:
                lines.append(f"  - {cell(rule.markdown())}")
            details = [
                line for m in result.mismatches for line in (f"{m.summary}  [{m.clause}]", *m.diff)
            ]
            if details or result.stderr.strip():
                lines += ["", "  <details><summary>details</summary>", "", "  ```diff"]
                lines += [f"  {line}" for line in _clip([*details, *result.stderr.splitlines()])]
                lines += ["  ```", "  </details>", ""]
    extra = notes_line(report)
    early = ended_early_line(report)
    lines += ["", *([extra, ""] if extra else []), *([f"**{early}**", ""] if early else [])]
    lines.append(report.summary_line())
    return printable("\n".join(lines)) + "\n"

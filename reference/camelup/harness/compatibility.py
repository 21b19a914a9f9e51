"""The compatibility report of several implementations: the suite run by each (the reference
in-process, then each adapter with its expectations file) and the Markdown that shows, per rule
set and spec chapter, the cases run, passed, failed, errored and skipped, then every failure with
its clause and the one-line reason of the expectations file. Known failures (xfail) count as
failures here: the report says what an implementation gets wrong, not whether its CI is green.
The Markdown holds no timestamp and no duration, so the same suite and the same implementations
give the same bytes.
"""

from __future__ import annotations

import shlex
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from camelup.harness.compare import is_solver
from camelup.harness.expectations import Expectations, load_expectations
from camelup.harness.features import PARTNERSHIP_SKIP
from camelup.harness.protocol import InProcessReference, SubprocessAdapter
from camelup.harness.reports import cell, failing_clause
from camelup.harness.runner import CaseResult, Client, RunReport, run_cases
from camelup.harness.suite import Case
from camelup.io import exits


@attrs.frozen
class ProjectAdapter:
    """An implementation this repository reports on, run from its root with its known failures.
    ``slowest`` is its own per-case timeout when the package is known to need more than the
    default (the run uses the larger of the two)."""

    script: str
    expectations: str
    arguments: tuple[str, ...] = ()
    slowest: float = 0.0


# The toy of docs/ and the adapters of the published packages (adapters/). The solver's odds
# mode enumerates a fresh second-edition leg in pure Python, about 11 s of CPU here.
PROJECT_ADAPTERS = (
    ProjectAdapter("docs/toy_adapter.py", "docs/toy_expectations.toml"),
    ProjectAdapter("adapters/camelcalc/adapter.py", "adapters/camelcalc/expectations.toml"),
    ProjectAdapter(
        "adapters/camel-up-solver/adapter.py", "adapters/camel-up-solver/expectations.toml"
    ),
    ProjectAdapter(
        "adapters/camel-up-solver/adapter.py",
        "adapters/camel-up-solver/expectations-odds.toml",
        ("--odds",),
        slowest=120.0,
    ),
)


@attrs.frozen
class Implementation:
    shown: str  # the command as the report prints it
    argv: tuple[str, ...] | None  # None: the reference, in-process
    expectations: str | None
    slowest: float = 0.0  # a per-case timeout it needs at least


def implementations(adapters: Sequence[tuple[str, str]] | None) -> list[Implementation]:
    """The reference, then the adapters given as (command, expectations file or ``-``) or, if
    none is given, this repository's own (run from its root). ValueError: an empty command or
    a project adapter not found."""
    found = [Implementation("the reference engine, in-process", None, None)]
    if adapters:
        for command, expectations in adapters:
            argv = tuple(shlex.split(command))
            if not argv:
                raise ValueError("--adapter: the command is empty")
            found.append(
                Implementation(command, argv, None if expectations == "-" else expectations)
            )
        return found
    for adapter in PROJECT_ADAPTERS:
        if not Path(adapter.script).is_file():
            raise ValueError(
                f"{adapter.script}: not found; run from the repository root or give --adapter"
            )
        # Run with this interpreter, whatever `python` is on PATH; print it as `python`.
        found.append(
            Implementation(
                " ".join(["python", adapter.script, *adapter.arguments]),
                (sys.executable, adapter.script, *adapter.arguments),
                adapter.expectations,
                adapter.slowest,
            )
        )
    return found


@attrs.frozen
class Compatibility:
    """Each implementation's run, in order, and the exit code the runs add up to."""

    reports: tuple[tuple[Implementation, RunReport], ...]
    exit_code: int


def run_implementations(
    cases: Sequence[Case],
    found: Sequence[Implementation],
    timeout: float,
    warn: Callable[[str], None],
) -> Compatibility:
    """Run the suite against each implementation; ``warn`` hears each runner warning and each
    run that broke off. An interrupted run ends the report there (the next ones are not run).
    Raises :class:`~camelup.harness.expectations.ExpectationsError` for a bad expectations
    file."""
    reports: list[tuple[Implementation, RunReport]] = []
    worst = exits.OK
    for implementation in found:
        expectations = Expectations()
        if implementation.expectations is not None:
            expectations = load_expectations(Path(implementation.expectations))
        client: Client = (
            InProcessReference()
            if implementation.argv is None
            else SubprocessAdapter(
                list(implementation.argv),
                timeout=max(timeout, implementation.slowest),
            )
        )
        report = run_cases(cases, client, expectations)
        for warning in report.warnings:
            warn(f"warning: {warning}")
        if report.interrupted is not None:  # the report says so; the next ones are not run
            warn(f"{implementation.shown}: run ended early: {report.ended_early}")
            reports.append((implementation, report))
            worst = report.exit_code
            break
        if report.fatal or report.exit_code >= 4:
            warn(f"{implementation.shown}: {report.fatal or 'broke the protocol'}")
            worst = max(worst, report.exit_code)
        reports.append((implementation, report))
    return Compatibility(tuple(reports), worst)


# --------------------------------------------------------------------------------- rendering


def ruleset_name(case: Case) -> str:
    """``first``, ``first + whirlwind``, ``second + final-scoring-net``: edition, modules and
    variants, without the player count."""
    return " + ".join((case.edition, *case.modules, *case.variants))


def chapter_name(case: Case) -> str:
    """The spec chapter of a hand-written case, from its file (``cases/<rule set>/04-betting.json``
    is ``4 betting``); ``generated games`` for the recorded whole games, ``generated movement``
    for the movement families; a file named for no
    chapter goes by its name (``cases/<rule set>/odds.json`` is ``odds``)."""
    stem = Path(case.file).stem
    number, _, name = stem.partition("-")
    if "generated" in Path(case.file).parts:
        return "generated movement" if stem.startswith("movement-") else "generated games"
    if not number.isdigit():
        return stem
    return f"{int(number)} {name}"


def _column(result: CaseResult) -> str:
    """Known failures are failures here; only cases never judged are skipped."""
    if result.note == "xfail":
        return "failed"
    return result.verdict


COLUMNS = ("run", "passed", "failed", "errored", "skipped")


def _counts(results: Sequence[CaseResult]) -> dict[str, int]:
    counts = Counter(_column(r) for r in results)
    counts["run"] = counts["passed"] + counts["failed"] + counts["errored"]
    return {column: counts[column] for column in COLUMNS}


def _title(implementation: Implementation, report: RunReport) -> str:
    if report.hello is None:
        return implementation.shown
    title = f"{report.hello.name} {report.hello.version}"
    # The same package may be served as an engine and as an odds solver: two sections.
    return f"{title}, odds solver" if is_solver(report.hello.capabilities) else title


def _declares(report: RunReport) -> str:
    hello = report.hello
    if hello is None:
        return "-"
    parts = [f"editions {', '.join(sorted(hello.editions)) or 'none'}"]
    if hello.modules:
        parts.append(f"modules {', '.join(sorted(hello.modules))}")
    if hello.variants:
        parts.append(f"{len(hello.variants)} variants")
    if not hello.partnerships:
        parts.append("no partnerships")
    return "; ".join(parts)


def _reason(result: CaseResult) -> str:
    if result.note == "xfail":
        return result.reason
    if result.note == "xpass":
        return f"passes, but {result.reason}"
    first = result.mismatches[0].summary if result.mismatches else result.reason
    return f"not in the expectations file: {first}"


def render(cases: Sequence[Case], reports: Sequence[tuple[Implementation, RunReport]]) -> str:
    lines = [
        "# Compatibility report",
        "",
        "<!-- generated by `camelup conformance report --out docs/compatibility.md`;"
        " do not edit -->",
        "",
        f"The camelup conformance suite ({len(cases)} cases) run against each implementation"
        " through its adapter, with the implementation's expectations file. A known failure"
        " counts as **failed**, with the reason the expectations file gives (the rule the"
        " implementation gets wrong and its clause); **skipped** cases were not judged: a rule"
        " set the implementation does not declare, or a case its adapter cannot express.",
        "",
        "| implementation | declares | " + " | ".join(COLUMNS) + " |",
        "|---|---|" + "---:|" * len(COLUMNS),
    ]
    for implementation, report in reports:
        counts = _counts(report.results)
        lines.append(
            f"| {cell(_title(implementation, report))} | {cell(_declares(report))} | "
            + " | ".join(str(counts[c]) for c in COLUMNS)
            + " |"
        )
    for implementation, report in reports:
        lines += ["", *_section(implementation, report)]
    return "\n".join(lines) + "\n"


def _section(implementation: Implementation, report: RunReport) -> list[str]:
    lines = [f"## {cell(_title(implementation, report))}", ""]
    if implementation.argv is not None:
        lines.append(f"Adapter: `{implementation.shown}`")
        if implementation.expectations:
            lines[-1] += f"; expectations: `{implementation.expectations}`"
        lines.append("")
    if report.hello is not None:
        capabilities = ", ".join(sorted(report.hello.capabilities)) or "none"
        lines += [f"Declares: {_declares(report)}; capabilities: {capabilities}.", ""]
    if report.fatal:
        lines += [f"**Error:** {cell(report.fatal)}", ""]
    if report.interrupted is not None:
        lines += [f"**Incomplete:** {cell(str(report.ended_early))}.", ""]
    groups: dict[tuple[str, str], list[CaseResult]] = {}
    for result in report.results:
        key = (ruleset_name(result.case), chapter_name(result.case))
        groups.setdefault(key, []).append(result)
    unsupported: Counter[str] = Counter()
    rows = []
    for (ruleset, chapter), results in sorted(groups.items(), key=_group_order):
        hello = report.hello
        if all(
            r.note == "unsupported" and (hello is None or not hello.supports(r.case.ruleset))
            for r in results
        ):  # a rule set not declared; a case skipped for a missing capability keeps its row
            unsupported[ruleset] += len(results)
            continue
        counts = _counts(results)
        rows.append(
            f"| {cell(ruleset)} | {cell(chapter)} | "
            + " | ".join(str(counts[c]) for c in COLUMNS)
            + " |"
        )
    if rows:
        lines += ["| rule set | chapter | " + " | ".join(COLUMNS) + " |"]
        lines += ["|---|---|" + "---:|" * len(COLUMNS), *rows]
        total = _counts(report.results)
        lines.append("| **total** | | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
        lines.append("")
    if unsupported:
        listed = ", ".join(f"{name} ({count})" for name, count in sorted(unsupported.items()))
        lines += [f"Not declared, so not run: {listed}.", ""]
    without = sum(r.reason == PARTNERSHIP_SKIP for r in report.results)
    if without:
        lines += [f"Not run, as they play or show a partnership: {without}.", ""]
    failures = [r for r in report.results if _column(r) in ("failed", "errored")]
    failures += [r for r in report.results if r.note == "xpass"]
    if failures:
        lines += [f"### Failures ({len(failures)})", "", "| case | clause | reason |"]
        lines.append("|---|---|---|")
        for result in sorted(failures, key=lambda r: (r.case.file, r.case.id, r.case.index)):
            case = result.case
            lines.append(
                f"| `{cell(case.id)}` | `{failing_clause(result)}` | {cell(_reason(result))} |"
            )
        lines.append("")
    skips = Counter(r.reason for r in report.results if r.note in ("adapter-skip", "expected-skip"))
    if skips:
        lines += ["### Skipped by the adapter or the expectations file", ""]
        lines += [f"- {cell(reason)}: {count}" for reason, count in sorted(skips.items())]
        lines.append("")
    return lines[:-1] if lines[-1] == "" else lines


def _group_order(item: tuple[tuple[str, str], list[CaseResult]]) -> tuple[str, int, str]:
    (ruleset, chapter), _ = item
    number = chapter.split(" ", 1)[0]
    return (ruleset, int(number) if number.isdigit() else 99, chapter)

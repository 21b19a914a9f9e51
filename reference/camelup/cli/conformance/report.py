"""``camelup conformance report``: a compatibility report of several implementations.

For each implementation (the reference in-process, then each adapter with its expectations
file) the suite is run with :func:`~camelup.harness.runner.run_cases`, and the report shows
a table of cases run, passed, failed, errored and skipped per rule set and spec chapter, then
every failure with its clause and the one-line reason of the expectations file. Known failures
(xfail) count as failures here: the report says what an implementation gets wrong, not whether
its CI is green. The Markdown holds no timestamp and no duration, so the same suite and the same
implementations give the same bytes; ``--check`` fails when the file differs from that.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from camelup.cli import signals
from camelup.cli.common import Verb, status
from camelup.cli.conformance import shared
from camelup.io import exits

if TYPE_CHECKING:
    from camelup.harness.runner import CaseResult, RunReport
    from camelup.harness.suite import Case

HELP = (
    "a Markdown compatibility report: per implementation, cases run, passed, failed and skipped"
    " by rule set and chapter, and each failure with its clause and reason"
)


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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--adapter",
        nargs=2,
        action="append",
        metavar=("CMD", "EXPECTATIONS"),
        help="an implementation to report on, with its expectations file ('-' for none);"
        " repeatable (default: this repository's toy and package adapters, run from its root)",
    )
    parser.add_argument(
        "--out", "-o", metavar="FILE", help="write the Markdown to FILE (default: stdout)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail (exit 1) if --out FILE differs from the report made now",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="per-case timeout for an adapter (default: %(default)g)",
    )
    parser.add_argument(
        "--suite", metavar="DIR", help="the suite folder (default: the bundled conformance/)"
    )


@attrs.frozen
class ReportOptions:
    adapter: tuple[tuple[str, str], ...] | None
    out: str | None
    check: bool
    timeout: float
    suite: str | None

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> ReportOptions:
        adapters = namespace.adapter
        return cls(
            None if adapters is None else tuple((c, e) for c, e in adapters),
            namespace.out,
            namespace.check,
            shared.seconds("--timeout", namespace.timeout),
            namespace.suite,
        )


def _implementations(options: ReportOptions) -> list[Implementation]:
    import shlex

    found = [Implementation("the reference engine, in-process", None, None)]
    if options.adapter:
        for command, expectations in options.adapter:
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


def handle(options: ReportOptions) -> int:
    from camelup.harness.expectations import (
        Expectations,
        ExpectationsError,
        load_expectations,
    )
    from camelup.harness.protocol import InProcessReference, SubprocessAdapter
    from camelup.harness.runner import Client, run_cases
    from camelup.harness.suite import load_suite, suite_directory

    def fail(code: int, message: str) -> int:
        print(f"camelup conformance report: {message}", file=sys.stderr)
        return code

    if options.check and not options.out:
        return fail(exits.USAGE, "--check needs --out FILE, the report to check")
    try:
        implementations = _implementations(options)
    except ValueError as error:
        return fail(exits.USAGE, str(error))
    suite = load_suite(Path(options.suite) if options.suite else suite_directory())
    if suite.problems:
        for problem in suite.problems:
            print(problem, file=sys.stderr)
        return fail(exits.INVALID_SUITE, f"{len(suite.problems)} problem(s) in the suite files")
    reports: list[tuple[Implementation, RunReport]] = []
    worst = exits.OK
    for implementation in implementations:
        expectations = Expectations()
        if implementation.expectations is not None:
            try:
                expectations = load_expectations(Path(implementation.expectations))
            except ExpectationsError as error:
                return fail(exits.INVALID_SUITE, str(error))
        client: Client = (
            InProcessReference()
            if implementation.argv is None
            else SubprocessAdapter(
                list(implementation.argv),
                timeout=max(options.timeout, implementation.slowest),
            )
        )
        report = run_cases(suite.cases, client, expectations)
        for warning in report.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        if report.interrupted is not None:  # the report says so; the next ones are not run
            print(f"{implementation.shown}: run ended early: {report.ended_early}", file=sys.stderr)
            reports.append((implementation, report))
            worst = report.exit_code
            break
        if report.fatal or report.exit_code >= 4:
            print(
                f"{implementation.shown}: {report.fatal or 'broke the protocol'}", file=sys.stderr
            )
            worst = max(worst, report.exit_code)
        reports.append((implementation, report))
    text = render(suite.cases, reports)
    if options.check:
        assert options.out is not None  # refused above: --check needs --out
        path = Path(options.out)
        current = path.read_text("utf-8") if path.is_file() else None
        if current != text:
            what = "is missing" if current is None else "is stale"
            return fail(exits.FAILED, f"{options.out} {what}: run camelup conformance report")
        print(f"{options.out} is up to date")
        return worst
    from camelup.io.outputs import OutputRefused, write_output

    with signals.current.deferred():  # a signal now never cuts the report
        if options.out:
            try:
                write_output(Path(options.out), text)
            except OutputRefused:
                sys.stdout.write(text)  # computed: not lost for want of a place to write it
                raise
            status(f"report written to {options.out}")
        else:
            sys.stdout.write(text)
    return worst


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


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _counts(results: Sequence[CaseResult]) -> dict[str, int]:
    counts = Counter(_column(r) for r in results)
    counts["run"] = counts["passed"] + counts["failed"] + counts["errored"]
    return {column: counts[column] for column in COLUMNS}


def _title(implementation: Implementation, report: RunReport) -> str:
    from camelup.harness.compare import is_solver

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
            f"| {_cell(_title(implementation, report))} | {_cell(_declares(report))} | "
            + " | ".join(str(counts[c]) for c in COLUMNS)
            + " |"
        )
    for implementation, report in reports:
        lines += ["", *_section(implementation, report)]
    return "\n".join(lines) + "\n"


def _section(implementation: Implementation, report: RunReport) -> list[str]:
    lines = [f"## {_cell(_title(implementation, report))}", ""]
    if implementation.argv is not None:
        lines.append(f"Adapter: `{implementation.shown}`")
        if implementation.expectations:
            lines[-1] += f"; expectations: `{implementation.expectations}`"
        lines.append("")
    if report.hello is not None:
        capabilities = ", ".join(sorted(report.hello.capabilities)) or "none"
        lines += [f"Declares: {_declares(report)}; capabilities: {capabilities}.", ""]
    if report.fatal:
        lines += [f"**Error:** {_cell(report.fatal)}", ""]
    if report.interrupted is not None:
        lines += [f"**Incomplete:** {_cell(str(report.ended_early))}.", ""]
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
            f"| {_cell(ruleset)} | {_cell(chapter)} | "
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
    from camelup.harness.features import PARTNERSHIP_SKIP

    without = sum(r.reason == PARTNERSHIP_SKIP for r in report.results)
    if without:
        lines += [f"Not run, as they play or show a partnership: {without}.", ""]
    failures = [r for r in report.results if _column(r) in ("failed", "errored")]
    failures += [r for r in report.results if r.note == "xpass"]
    if failures:
        lines += [f"### Failures ({len(failures)})", "", "| case | clause | reason |"]
        lines.append("|---|---|---|")
        from camelup.harness.reports import failing_clause

        for result in sorted(failures, key=lambda r: _case_order(r.case)):
            case = result.case
            lines.append(
                f"| `{_cell(case.id)}` | `{failing_clause(result)}` | {_cell(_reason(result))} |"
            )
        lines.append("")
    skips = Counter(r.reason for r in report.results if r.note in ("adapter-skip", "expected-skip"))
    if skips:
        lines += ["### Skipped by the adapter or the expectations file", ""]
        lines += [f"- {_cell(reason)}: {count}" for reason, count in sorted(skips.items())]
        lines.append("")
    return lines[:-1] if lines[-1] == "" else lines


def _group_order(item: tuple[tuple[str, str], list[CaseResult]]) -> tuple[str, int, str]:
    (ruleset, chapter), _ = item
    number = chapter.split(" ", 1)[0]
    return (ruleset, int(number) if number.isdigit() else 99, chapter)


def _case_order(case: Case) -> tuple[str, str, int]:
    return (case.file, case.id, case.index)


VERB = Verb(
    name="report",
    summary=HELP,
    example="camelup conformance report --out docs/compatibility.md\n"
    "camelup conformance report --out docs/compatibility.md --check",
    exit_codes=(
        (exits.OK, "the report is written (--check: the file is up to date)"),
        (exits.FAILED, "--check: the file differs from the report made now"),
        (exits.USAGE, "usage error: bad option, an adapter that is not found"),
        (exits.INVALID_SUITE, "invalid suite or expectations file"),
    ),
    add_arguments=add_arguments,
    options=ReportOptions.from_namespace,
    handle=handle,
)

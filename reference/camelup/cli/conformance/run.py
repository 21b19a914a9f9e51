"""``camelup conformance run``: the suite against the reference (in-process) or an adapter.

The report goes to standard output or ``-o FILE``. A JSONL report is written line by line as
the cases finish; the other formats at the end. Interrupted (SIGINT, SIGTERM) or stopped by
``--maxfail``, the run still writes the report of the cases that finished, saying that it
ended early.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

import attrs

import camelup.cli.colour as colour
import camelup.cli.conformance.shared as shared
import camelup.cli.signals as signals
from camelup.cli.common import UsageError, Verb, error_line, status
from camelup.cli.conformance.progress import Progress
from camelup.harness import last_failed
from camelup.io import exits
from camelup.io.outputs import OutputRefused, open_output
from camelup.io.safe_text import printable

if TYPE_CHECKING:
    from camelup.harness.protocol import Hello
    from camelup.harness.runner import CaseResult
    from camelup.harness.suite import Suite

# camelup.harness.reports.FORMATS (a test keeps them equal): the parser is built without
# importing the conformance layer.
FORMATS = ("human", "jsonl", "junit", "tap", "markdown")


@attrs.frozen
class RunOptions:
    suite: str | None
    filters: shared.Filters
    adapter: shared.AdapterOptions
    format: str
    output: str | None
    expectations: str | None
    strict: bool
    maxfail: int | None
    last_failed: bool
    colour: bool

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> RunOptions:
        adapter = shared.AdapterOptions.from_namespace(namespace)
        shared.check_output("--output", namespace.output)
        maxfail: int | None = namespace.maxfail
        if maxfail is not None and maxfail < 1:
            raise UsageError(f"--maxfail {maxfail}: must be 1 or more")
        if namespace.exitfirst:
            maxfail = 1
        return cls(
            namespace.suite,
            shared.Filters.from_namespace(namespace),
            adapter,
            namespace.format,
            namespace.output,
            namespace.expectations,
            namespace.strict,
            maxfail,
            namespace.last_failed,
            colour.wanted(namespace.color),
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_suite(parser)
    shared.add_adapter(parser)
    shared.add_filters(parser)
    parser.add_argument("--format", choices=FORMATS, default="human", help="report format")
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write the report to FILE (default: stdout)"
    )
    parser.add_argument(
        "--expectations",
        metavar="FILE",
        help="TOML or JSON file of the implementation's expected failures and skips",
    )
    parser.add_argument(
        "--strict", action="store_true", help="an expected failure that passes fails the run"
    )
    parser.add_argument(
        "-x", "--exitfirst", action="store_true", help="stop at the first failed or errored case"
    )
    parser.add_argument(
        "--maxfail", type=int, metavar="N", help="stop after N failed or errored cases"
    )
    parser.add_argument(
        "--last-failed",
        "--lf",
        action="store_true",
        help=f"run only the cases that failed or errored last time (recorded in {last_failed.FILE}"
        " in the working directory; all selected cases when none is recorded)",
    )
    colour.add_option(parser)


class _Sink:
    """Where the report goes. ``-o FILE`` is written beside FILE and renamed over it when the
    report is complete (interrupted or not). A write error is kept, not raised: the report is
    then printed to standard output instead, so that nothing computed is lost, and the run
    exits with the error's code (2 for a bad path, 74 for a place that cannot be written)."""

    def __init__(self, output: str | None) -> None:
        self.output = output
        self.texts: list[str] = []
        self.error: str | None = None
        self.error_code = exits.OK
        self._file: IO[str] | None = None
        self._opened = contextlib.ExitStack()

    def _failed(self, error: OSError | OutputRefused) -> None:
        if isinstance(error, OSError):
            error = OutputRefused(f"{self.output}: {error.strerror or error}", exits.OUTPUT)
        if self.error is None:
            self.error, self.error_code = f"--output {error}", error.exit_code
        # Abandoned, not closed: the temporary file holding part of the report is removed.
        with contextlib.suppress(Exception):
            self._opened.__exit__(OutputRefused, error, None)

    def write(self, text: str) -> None:
        self.texts.append(text)
        if self.output is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        if self.error is not None:
            return
        try:
            if self._file is None:
                self._file = self._opened.enter_context(open_output(Path(self.output)))
            self._file.write(text)
            self._file.flush()
        except (OSError, OutputRefused) as error:
            self._failed(error)

    def close(self) -> None:
        try:
            self._opened.close()
        except (OSError, OutputRefused) as error:
            self._failed(error)


def _with_registry_problems(suite: Suite) -> Suite:
    """The suite with the problems of clause, ruling and variant IDs added (cheap to check)."""
    from camelup.harness.validate import registry_problems
    from camelup.spec.registry import load_registry

    registry = load_registry()
    found = [p for case in suite.cases for p in registry_problems(case, registry)]
    return attrs.evolve(suite, problems=(*suite.problems, *found)) if found else suite


def handle(options: RunOptions) -> int:
    from camelup.harness.reports import jsonl_case, jsonl_footer, jsonl_header, render
    from camelup.harness.runner import run_cases

    suite = _with_registry_problems(shared.load(options.suite))
    shared.report_problems(suite)
    cases = options.filters.select(suite.cases)
    if not cases:
        if suite.problems:
            return exits.INVALID_SUITE
        raise UsageError("no case matches the filters" if suite.cases else "the suite has no cases")
    before, warning = last_failed.recorded()
    if warning:
        print(f"warning: {printable(warning)}", file=sys.stderr)
    if options.last_failed:
        chosen = last_failed.only_failed(cases, before)
        if chosen:
            status(f"--last-failed: running the {len(chosen)} case(s) that failed last time")
            cases = chosen
        else:
            status(f"--last-failed: no recorded failure among them; running all {len(cases)}")
    expectations = shared.expectations(options.expectations)
    client = options.adapter.client()
    jsonl = options.format == "jsonl"
    sink = _Sink(options.output)
    progress = Progress(len(cases))
    guard = signals.current

    def on_start(hello: Hello | None, started: str) -> None:
        if jsonl:
            with guard.deferred():  # a signal never cuts a line of the report
                sink.write(jsonl_header(client.description, started, hello))
            guard.raise_pending()

    def on_result(result: CaseResult) -> None:
        progress.update(result)
        if jsonl:
            with guard.deferred():
                sink.write(jsonl_case(result))
            guard.raise_pending()

    report = run_cases(
        cases,
        client,
        expectations,
        options.strict,
        [str(p) for p in suite.problems],
        on_start=on_start,
        on_result=on_result,
        maxfail=options.maxfail,
    )
    with guard.deferred():  # from here on the report is written whatever arrives
        progress.clear()
        for line in report.warnings:
            print(f"warning: {printable(line)}", file=sys.stderr)
        unsaved = last_failed.update(report, before)
        if unsaved:
            print(f"warning: {printable(unsaved)}", file=sys.stderr)
        code = report.exit_code
        if jsonl:
            sink.write(jsonl_footer(report))
        else:
            text = render(report, options.format)
            if options.format == "human" and options.output is None and options.colour:
                text = colour.colour(text)
            sink.write(text)
        sink.close()
        if sink.error is not None:
            error_line(shared.PREFIX, sink.error)
            sys.stdout.write("".join(sink.texts))
            code = max(code, sink.error_code)
        elif options.output:
            status(f"report written to {options.output}: {report.summary_line()}")
        if report.fatal:
            error_line(shared.PREFIX, report.fatal)
        if report.ended_early:
            error_line(shared.PREFIX, f"run ended early: {report.ended_early}")
    if guard.received is not None and report.interrupted is None:
        return guard.received.exit_code  # it came while the report was being written
    return code


VERB = Verb(
    name="run",
    summary="run the suite against an implementation",
    example='camelup conformance run\ncamelup conformance run --adapter "./my-adapter --flag"'
    " --format junit -o report.xml\n"
    'camelup conformance run --adapter "cargo run -q" --last-failed -x',
    exit_codes=(
        (exits.OK, "every selected case passed (expected failures and skips are fine)"),
        (exits.FAILED, "a case failed or errored (or, with --strict, an expected failure passed)"),
        (exits.USAGE, "usage error: bad option or value out of range, no case matches the filters"),
        (
            exits.INVALID_SUITE,
            "invalid suite, case file or expectations file (listed on stderr;"
            " the other cases still run)",
        ),
        (
            exits.PROTOCOL,
            "the adapter broke the protocol: crashed, hung, wrote garbage or a line"
            " over --max-line-bytes, a wrong seq, a malformed reply",
        ),
        (
            exits.ADAPTER,
            "the adapter could not start, speaks another protocol version, or"
            " shares no rule set with the selected cases",
        ),
    ),
    add_arguments=add_arguments,
    options=RunOptions.from_namespace,
    handle=handle,
)

"""``camelup conformance report``: a compatibility report of several implementations, made by
:mod:`camelup.harness.compatibility`. ``--check`` fails when the file differs from the report
made now (the Markdown holds no timestamp and no duration, so the same suite and the same
implementations give the same bytes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

import camelup.cli.conformance.shared as shared
import camelup.cli.signals as signals
from camelup.cli.common import Verb, options_from, status
from camelup.io import exits

HELP = (
    "a Markdown compatibility report: per implementation, cases run, passed, failed and skipped"
    " by rule set and chapter, and each failure with its clause and reason"
)


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
    shared.add_suite(parser)


@attrs.frozen
class ReportOptions:
    adapter: tuple[tuple[str, str], ...] | None
    out: str | None
    check: bool
    timeout: float
    suite: str | None


def handle(options: ReportOptions) -> int:
    from camelup.harness import compatibility
    from camelup.harness.expectations import ExpectationsError

    def fail(code: int, message: str) -> int:
        print(f"camelup conformance report: {message}", file=sys.stderr)
        return code

    if options.check and not options.out:
        return fail(exits.USAGE, "--check needs --out FILE, the report to check")
    suite = shared.load(options.suite)  # a missing folder first, as every verb says it
    try:
        implementations = compatibility.implementations(options.adapter)
    except ValueError as error:
        return fail(exits.USAGE, str(error))
    if suite.problems:
        for problem in suite.problems:
            print(problem, file=sys.stderr)
        return fail(exits.INVALID_SUITE, f"{len(suite.problems)} problem(s) in the suite files")
    try:
        runs = compatibility.run_implementations(
            suite.cases, implementations, options.timeout, lambda line: print(line, file=sys.stderr)
        )
    except ExpectationsError as error:
        return fail(exits.INVALID_SUITE, str(error))
    worst = runs.exit_code
    text = compatibility.render(suite.cases, runs.reports)
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


VERB = Verb(
    name="report",
    summary=HELP,
    example="camelup conformance report --out docs/compatibility.md\n"
    "camelup conformance report --out docs/compatibility.md --check",
    exit_codes=(
        (exits.OK, "the report is written (--check: the file is up to date)"),
        (exits.FAILED, "--check: the file differs from the report made now"),
        (exits.USAGE, "usage error: bad option, no such suite folder, no default adapters"),
        (exits.INVALID_SUITE, "invalid suite or expectations file"),
        (exits.PROTOCOL, "an adapter broke the protocol (its section says where)"),
        (exits.ADAPTER, "an adapter could not start (its section says why)"),
    ),
    add_arguments=add_arguments,
    options=options_from(
        ReportOptions,
        adapter=lambda namespace: namespace.adapter and tuple(map(tuple, namespace.adapter)),
        timeout=lambda namespace: shared.seconds("--timeout", namespace.timeout),
    ),
    handle=handle,
)

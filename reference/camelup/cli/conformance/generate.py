"""``camelup conformance generate [--check]``: re-record the generated regression games."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import UsageError, Verb, error_line, options_from
from camelup.io import exits


@attrs.frozen
class GenerateOptions:
    suite: str | None
    check: bool


def add_arguments(parser: argparse.ArgumentParser) -> None:
    shared.add_suite(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail (exit 1, one line per file) if generated/ differs from what the"
        " engine records now",
    )


def installed_copy(root: Path) -> bool:
    """Whether ``root`` is the suite bundled inside the installed package (a wheel install),
    not a checkout's conformance/ folder: a copy nobody means to edit."""
    from camelup.io.resources import PACKAGE

    return root.resolve().is_relative_to(PACKAGE)


def handle(options: GenerateOptions) -> int:
    from camelup.harness.generate import FOLDER, check, write
    from camelup.io.jsonio import parse_json

    root = shared.suite_root(options.suite)
    if options.check:
        problems = check(root)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            error_line(
                shared.PREFIX,
                f"{len(problems)} generated file(s) differ from what the engine records;"
                " run: camelup conformance generate",
            )
            return exits.FAILED
        print(f"conformance generate --check: {FOLDER}/ is up to date")
        return exits.OK
    if options.suite is None and installed_copy(root):
        raise UsageError(
            f"refusing to write into the installed package ({root / FOLDER}); give the suite"
            " to rewrite with --suite DIR (a checkout's conformance/ folder)"
        )
    written = write(root)
    cases = sum(len(parse_json(p.read_bytes())["cases"]) for p in written)
    size = sum(p.stat().st_size for p in written)
    print(
        f"conformance generate: {len(written)} file(s), {cases} case(s),"
        f" {size / 1024:.0f} KiB written to {root / FOLDER}"
    )
    return exits.OK


VERB = Verb(
    name="generate",
    summary="record cases from random games of the reference into the suite's generated/ folder",
    example="camelup conformance generate --check\n"
    "camelup conformance generate --suite conformance && git diff conformance/generated",
    exit_codes=(
        (exits.OK, "written (--check: the files are up to date)"),
        (exits.FAILED, "--check: generated files differ from what the engine records"),
        (
            exits.USAGE,
            "usage error: bad option, no such folder, or no --suite while the bundled"
            " suite is inside the installed package",
        ),
    ),
    add_arguments=add_arguments,
    options=options_from(GenerateOptions),
    handle=handle,
)

"""``camelup conformance export DIR``: the suite as a versioned bundle any harness can consume
(cases, schemas, README and a manifest; :mod:`camelup.harness.bundle` writes it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import Verb, options_from
from camelup.io import exits

HELP = (
    "write the suite as a versioned bundle (cases, schemas, a manifest with a SHA-256 per"
    " file) for harnesses in any language"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="DIR", help="a new or empty folder for the bundle")
    shared.add_suite(parser)


@attrs.frozen
class ExportOptions:
    directory: str
    suite: str | None


def handle(options: ExportOptions) -> int:
    from camelup.harness.bundle import export_bundle
    from camelup.harness.suite import load_suite

    def fail(code: int, message: str) -> int:
        print(f"camelup conformance export: {message}", file=sys.stderr)
        return code

    source = shared.suite_root(options.suite)
    target = Path(options.directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        return fail(exits.USAGE, f"{target}: not a new or empty folder")
    if not (source / "schema" / "case-file.schema.json").is_file():
        return fail(exits.USAGE, f"--suite {source}: no schema/ folder with the suite's schemas")
    suite = load_suite(source)
    if suite.problems:
        for problem in suite.problems:
            print(problem, file=sys.stderr)
        return fail(exits.INVALID_SUITE, f"{len(suite.problems)} problem(s) in the suite files")
    files = export_bundle(suite, source, target)
    print(f"exported {len(suite.cases)} cases in {files} files to {target}")
    return exits.OK


VERB = Verb(
    name="export",
    summary=HELP,
    example="camelup conformance export dist/suite && cat dist/suite/manifest.json",
    exit_codes=(
        (exits.OK, "the bundle is written"),
        (exits.USAGE, "usage error: bad option, a folder that is not new or empty, no schemas"),
        (exits.INVALID_SUITE, "the suite has problems (listed on stderr); nothing is exported"),
    ),
    add_arguments=add_arguments,
    options=options_from(ExportOptions),
    handle=handle,
)

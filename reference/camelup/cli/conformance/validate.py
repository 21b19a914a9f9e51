"""``camelup conformance validate [FILE...]``: the suite's own checks, one line per problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

import camelup.cli.conformance.shared as shared
from camelup.cli.common import UsageError, Verb, options_from
from camelup.io import exits
from camelup.io.safe_text import printable


@attrs.frozen
class ValidateOptions:
    suite: str | None
    files: tuple[str, ...]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="case files to check (default: the whole suite)"
    )
    shared.add_suite(parser)


def handle(options: ValidateOptions) -> int:
    from camelup.harness.suite import case_files, load_suite, schema_folder
    from camelup.harness.validate import validate_suite

    if options.files:
        files = [Path(f) for f in options.files]
        for path in files:
            if not path.is_file():
                raise UsageError(f"{path}: no such file")
        suite = load_suite(files=files)
        schemas = schema_folder(Path(options.suite) if options.suite else None)
    else:
        root = shared.suite_root(options.suite)
        suite = load_suite(root)
        files = case_files(root)
        schemas = schema_folder(root)
    problems = validate_suite(suite, files, schemas)
    for problem in problems:
        print(printable(str(problem)), file=sys.stderr)
    print(
        f"conformance validate: {len(files)} file(s), {len(suite.cases)} case(s),"
        f" {len(problems)} problem(s)"
    )
    return exits.INVALID_SUITE if problems else exits.OK


VERB = Verb(
    name="validate",
    summary="check case files: schema, IDs, clauses, rulings, variants; the reference passes all",
    example="camelup conformance validate\ncamelup conformance validate my-new-cases.json",
    exit_codes=(
        (exits.OK, "no problem"),
        (exits.USAGE, "usage error: bad option, no such file or folder"),
        (exits.INVALID_SUITE, "problems found, one line each on stderr (FILE#POINTER: message)"),
    ),
    add_arguments=add_arguments,
    options=options_from(ValidateOptions),
    handle=handle,
)

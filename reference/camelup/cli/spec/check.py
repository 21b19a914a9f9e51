"""``camelup spec check``: every defect of ``spec/``, one line each with file and line."""

from __future__ import annotations

import sys

import attrs

from camelup.cli.common import Verb, options_from
from camelup.cli.spec.folder import add_spec, spec_directory
from camelup.io import exits


@attrs.frozen
class CheckOptions:
    spec: str | None


def handle(options: CheckOptions) -> int:
    from camelup.spec.registry import parse_spec

    directory = spec_directory(options.spec)
    registry = parse_spec(directory)
    for problem in registry.problems:
        print(f"{directory / problem.file}:{problem.line}: {problem.message}", file=sys.stderr)
    if registry.problems:
        print(f"spec check: {len(registry.problems)} problem(s)", file=sys.stderr)
        return exits.FAILED
    if directory.resolve() == spec_directory(None).resolve():
        # Only the shipped spec describes this code; a fixture spec need not.
        from camelup.spec.agreement import schema_enum_problems, variant_problems

        disagreements = variant_problems(registry)
        for line in disagreements:
            print(f"{directory / 'rulings.md'}: {line}", file=sys.stderr)
        schema_disagreements = schema_enum_problems()
        for line in schema_disagreements:
            print(line, file=sys.stderr)
        disagreements += schema_disagreements
        if disagreements:
            print(f"spec check: {len(disagreements)} problem(s)", file=sys.stderr)
            return exits.FAILED
    print(
        f"spec check: {len(registry.clauses)} clauses, {len(registry.rulings)} rulings,"
        f" {len(registry.variants)} variants, {len(registry.no_clause)} dossier items with no"
        " clause: OK"
    )
    return exits.OK


VERB = Verb(
    name="check",
    summary="fail on any defect of spec/ (one line per problem, file:line)",
    example="camelup spec check\ncamelup spec check --spec path/to/spec",
    exit_codes=(
        (exits.OK, "the spec has no defect"),
        (exits.FAILED, "problems found, one line each on stderr"),
        (exits.USAGE, "usage error: bad option, no such folder"),
    ),
    add_arguments=add_spec,
    options=options_from(CheckOptions),
    handle=handle,
)

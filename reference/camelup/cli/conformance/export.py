"""``camelup conformance export DIR``: the suite as a versioned bundle any harness can consume.

The bundle holds the case files (``cases/``, ``generated/``) and the JSON Schemas (``schema/``)
byte for byte as the suite has them, the suite's README, and ``manifest.json``: the suite
version (camelup's), the adapter protocol version, the number of cases per rule set and the
SHA-256 of every other file. The manifest follows ``schema/manifest.schema.json``. It holds no
timestamp, so the same suite always gives the same bundle.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import attrs

from camelup.cli.common import Verb
from camelup.io import exits

BUNDLE_FORMAT = 1
HELP = (
    "write the suite as a versioned bundle (cases, schemas, a manifest with a SHA-256 per"
    " file) for harnesses in any language"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", metavar="DIR", help="a new or empty folder for the bundle")
    parser.add_argument(
        "--suite", metavar="DIR", help="the suite folder (default: the bundled conformance/)"
    )


@attrs.frozen
class ExportOptions:
    directory: str
    suite: str | None

    @classmethod
    def from_namespace(cls, namespace: argparse.Namespace) -> ExportOptions:
        return cls(namespace.directory, namespace.suite)


def handle(options: ExportOptions) -> int:
    import hashlib
    import json
    from collections import Counter

    from camelup.cli.conformance.report import ruleset_name
    from camelup.harness.protocol import PROTOCOL
    from camelup.harness.suite import case_files, load_suite, suite_directory
    from camelup.io.gate import read_path
    from camelup.io.outputs import make_folder, write_output
    from camelup.io.resources import package_version

    def fail(code: int, message: str) -> int:
        print(f"camelup conformance export: {message}", file=sys.stderr)
        return code

    source = Path(options.suite) if options.suite else suite_directory()
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
    cases_in: Counter[str] = Counter()
    for case in suite.cases:
        cases_in[Path(case.file).resolve().as_posix()] += 1
    copies: list[tuple[Path, str, str]] = [  # (source file, bundle path, kind)
        (path, path.relative_to(source).as_posix(), "cases") for path in case_files(source)
    ]
    copies += [
        (path, f"schema/{path.name}", "schema")
        for path in sorted((source / "schema").glob("*.schema.json"))
    ]
    if (source / "README.md").is_file():
        copies.append((source / "README.md", "README.md", "readme"))
    files = []
    for path, name, kind in sorted(copies, key=lambda copy: copy[1]):
        data = read_path(path)
        destination = target / name
        make_folder(destination.parent)
        write_output(destination, data)
        entry: dict[str, object] = {
            "path": name,
            "kind": kind,
            "sha256": hashlib.sha256(data).hexdigest(),
            "bytes": len(data),
        }
        if kind == "cases":
            entry["cases"] = cases_in[path.resolve().as_posix()]
        files.append(entry)
    manifest = {
        "bundle": BUNDLE_FORMAT,
        "suite_version": package_version(),
        "protocol_version": PROTOCOL,
        "json_schema": "https://json-schema.org/draft/2020-12/schema",
        "cases": len(suite.cases),
        "rule_sets": dict(sorted(Counter(ruleset_name(c) for c in suite.cases).items())),
        "files": files,
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    write_output(target / "manifest.json", text)
    print(f"exported {len(suite.cases)} cases in {len(files)} files to {target}")
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
    options=ExportOptions.from_namespace,
    handle=handle,
)

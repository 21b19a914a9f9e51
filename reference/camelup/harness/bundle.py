"""The suite as a versioned bundle any harness can consume.

The bundle holds the case files (``cases/``, ``generated/``) and the JSON Schemas (``schema/``)
byte for byte as the suite has them, the suite's README, and ``manifest.json``: the suite
version (camelup's), the adapter protocol version, the number of cases per rule set and the
SHA-256 of every other file. The manifest follows ``schema/manifest.schema.json``. It holds no
timestamp, so the same suite always gives the same bundle.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

from camelup.harness.compatibility import ruleset_name
from camelup.harness.protocol import PROTOCOL
from camelup.harness.suite import Suite, case_files
from camelup.io.gate import read_path
from camelup.io.outputs import make_folder, write_output
from camelup.io.resources import package_version

__all__ = ["BUNDLE_FORMAT", "export_bundle"]

BUNDLE_FORMAT = 1


def export_bundle(suite: Suite, source: Path, target: Path) -> int:
    """Write the bundle of ``suite`` (read from the folder ``source``) into the new or empty
    folder ``target``; the number of files listed in its manifest."""
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
    return len(files)

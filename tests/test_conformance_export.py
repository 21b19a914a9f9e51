"""``camelup conformance export DIR``: the bundle's files, checksums, counts and manifest.

CI validates the same bundle with ajv (Node.js); these tests check what a schema cannot: the
checksums, the counts, that the files are the suite's bytes, and that nothing else is there.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import pytest

from camelup.cli import main
from camelup.harness.suite import suite_directory
from camelup.io.schemas import Schemas


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("export") / "bundle"
    assert main(["conformance", "export", str(target)]) == 0
    return target


def manifest_of(bundle: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((bundle / "manifest.json").read_text("utf-8"))
    return loaded


def test_manifest_follows_its_schema(bundle: Path) -> None:
    assert Schemas(bundle / "schema").check("manifest", manifest_of(bundle)) is None


def test_every_file_is_the_suites_and_carries_its_checksum(bundle: Path) -> None:
    source = suite_directory()
    manifest = manifest_of(bundle)
    files = manifest["files"]
    assert isinstance(files, list)
    listed = {entry["path"] for entry in files}
    on_disk = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    assert on_disk == listed | {"manifest.json"}
    wanted = {p.relative_to(source).as_posix() for p in source.rglob("*.json")} | {"README.md"}
    assert listed == wanted  # cases/, generated/, schema/ and the README, nothing else
    for entry in files:
        data = (bundle / entry["path"]).read_bytes()
        assert data == (source / entry["path"]).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        assert entry["bytes"] == len(data)


def test_counts_per_file_and_per_rule_set(bundle: Path) -> None:
    manifest = manifest_of(bundle)
    per_rule_set: Counter[str] = Counter()
    total = 0
    for entry in manifest["files"]:  # type: ignore[attr-defined]
        if entry["kind"] != "cases":
            assert "cases" not in entry
            continue
        cases = json.loads((bundle / entry["path"]).read_text("utf-8"))["cases"]
        assert entry["cases"] == len(cases)
        total += len(cases)
        for case in cases:
            ruleset = case["ruleset"]
            per_rule_set[
                " + ".join([ruleset["edition"], *ruleset["modules"], *ruleset["variants"]])
            ] += 1
    assert manifest["cases"] == total
    assert manifest["rule_sets"] == dict(per_rule_set)
    assert manifest["protocol_version"] == 1
    assert manifest["suite_version"] == version("camelup")


def test_the_same_suite_gives_the_same_bundle(bundle: Path, tmp_path: Path) -> None:
    assert main(["conformance", "export", str(tmp_path / "again")]) == 0
    again = (tmp_path / "again" / "manifest.json").read_bytes()
    assert again == (bundle / "manifest.json").read_bytes()


def test_refuses_a_folder_that_holds_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "old.txt").write_text("left over")
    assert main(["conformance", "export", str(tmp_path)]) == 2
    assert "not a new or empty folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]

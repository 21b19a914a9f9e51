"""The implementers' guide (docs/implementers/) works as written.

Every command of its ``sh`` blocks is run, exactly as printed, from the root of the checkout;
every JSON example is checked against the schema named in the comment above it; and the two
minimal adapters, Python and Node.js, pass the same real part of the suite, case by case.
Each test fails when it finds nothing to check, so an emptied guide cannot pass.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "docs" / "implementers" / "README.md"
SCHEMAS = REPO / "conformance" / "schema"
EXPECTATIONS = "docs/implementers/minimal-expectations.toml"
ADAPTERS = {
    "python": "python3 docs/implementers/minimal_adapter.py",
    "node": "node docs/implementers/minimal_adapter.js",
}


def _environment() -> dict[str, str]:
    """PATH with this interpreter's folder first, so ``camelup`` and ``python3`` are ours."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _node_or_fail() -> None:
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("CI runs the Node.js adapter, but node is not installed", pytrace=False)
        pytest.skip("node is not installed: the Node.js adapter cannot run here")


def shell_commands() -> list[str]:
    commands, inside = [], False
    for line in GUIDE.read_text("utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and line.strip():
            commands.append(line)
    return commands


def json_examples() -> list[tuple[str, Any]]:
    """(schema reference, value) for each ``json`` block with a schema comment above it."""
    pattern = re.compile(r"<!-- schema: (\S+) -->\n```json\n(.*?)\n```", re.S)
    return [(ref, json.loads(body)) for ref, body in pattern.findall(GUIDE.read_text("utf-8"))]


def test_the_files_the_guide_shows_are_the_files_it_runs() -> None:
    pattern = re.compile(r"<!-- file: (\S+) -->\n```python\n(.*?)```", re.S)
    shown = dict(pattern.findall(GUIDE.read_text("utf-8")))
    assert "docs/implementers/conftest.py" in shown  # the Python engine's path starts there
    for path, text in shown.items():
        assert (REPO / path).read_text("utf-8") == text, path
    lines = [line for line in shown["docs/implementers/conftest.py"].splitlines() if line]
    assert len(lines) == 5


def test_every_shell_command_of_the_guide_runs(tmp_path: Path) -> None:
    """From a copy of the checkout's docs/ (the commands' paths are relative to the root): what
    they write (artifacts/, each folder's .camelup-lastfailed.json) stays out of the checkout."""
    _node_or_fail()
    commands = shell_commands()
    assert len(commands) >= 10  # the guide has examples to run
    shutil.copytree(REPO / "docs", tmp_path / "docs")
    for command in commands:
        result = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=_environment(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"


def test_every_json_example_of_the_guide_is_valid() -> None:
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        contents = json.loads(path.read_text("utf-8"))
        resources.append((contents["$id"], referencing.Resource.from_contents(contents)))
    registry: Any = referencing.Registry().with_resources(resources)
    base = json.loads((SCHEMAS / "state.schema.json").read_text("utf-8"))["$id"]
    examples = json_examples()
    assert len(examples) >= 6
    for reference, value in examples:
        schema = {"$ref": base.replace("state.schema.json", reference)}
        validator = jsonschema.Draft202012Validator(schema, registry=registry)
        errors = [error.message for error in validator.iter_errors(value)]
        assert errors == [], (reference, value)


def _outcomes(adapter: str, root: Path) -> tuple[dict[str, tuple[str, str]], dict[str, Any]]:
    """Case ID -> (verdict, reason), and the counts by area, of a run of ``adapter`` from
    ``root``, a folder beside the checkout's docs/ (``conformance run`` records its failures
    in its working directory: the checkout is left alone, audit D23)."""
    command = [
        *("camelup", "conformance", "run", "--adapter", adapter),
        *("--expectations", EXPECTATIONS, "--strict", "--format", "jsonl"),
    ]
    (root / "docs").symlink_to(REPO / "docs")
    result = subprocess.run(command, cwd=root, env=_environment(), capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    cases = {line["id"]: (line["verdict"], line["reason"]) for line in lines if "verdict" in line}
    return cases, lines[-1]["by_area"]


def test_both_minimal_adapters_pass_the_same_real_part_of_the_suite(tmp_path: Path) -> None:
    _node_or_fail()
    (tmp_path / "python").mkdir()
    (tmp_path / "node").mkdir()
    python_cases, python_footer = _outcomes(ADAPTERS["python"], tmp_path / "python")
    node_cases, node_footer = _outcomes(ADAPTERS["node"], tmp_path / "node")
    assert python_cases == node_cases
    assert python_footer == node_footer
    verdicts = [verdict for verdict, _ in python_cases.values()]
    passed = sorted(case for case, (verdict, _) in python_cases.items() if verdict == "passed")
    assert len(passed) >= 30
    assert "bet.leg.take-top/top-is-five" in passed  # a leg ticket
    assert any(case.startswith("move.") for case in passed)  # a camel move
    assert "failed" not in verdicts and "errored" not in verdicts
    counts = _counts(python_cases)
    assert counts["passed"] == _counts_in_the_guide()["passed"]
    assert counts["unsupported"] > 0 and counts["expectations"] > 0 and counts["adapter"] > 0


def _counts(cases: dict[str, tuple[str, str]]) -> dict[str, int]:
    """Passed, and skipped by why: outside the declared rule sets or capabilities, by the
    expectations file, by the adapter's own answer."""
    with open(REPO / EXPECTATIONS, "rb") as file:
        expected_reasons = {entry["reason"] for entry in tomllib.load(file)["skip"]}
    counts = dict.fromkeys(("passed", "unsupported", "expectations", "adapter"), 0)
    for verdict, reason in cases.values():
        if verdict == "passed":
            counts["passed"] += 1
        elif reason.startswith(("the adapter does not support", "needs the capability")):
            counts["unsupported"] += 1
        elif reason in expected_reasons:
            counts["expectations"] += 1
        elif reason.startswith("not implemented: "):
            counts["adapter"] += 1
    return counts


def _counts_in_the_guide() -> dict[str, int]:
    """The guide states how many cases pass; every kind of skip it names must occur."""
    sentence = re.search(
        r"Each passes the same (\d+) cases .*? skipped: by the runner, .*?; by the"
        r" \[expectations file\].*?; or by the adapter's own `skipped` answers",
        " ".join(GUIDE.read_text("utf-8").split()),
    )
    assert sentence is not None, "the guide no longer states the minimal adapters' results"
    return {"passed": int(sentence[1])}

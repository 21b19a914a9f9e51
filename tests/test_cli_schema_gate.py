"""Items 9, 10 and 11 of issue 10, pinned through the command line (called in this process:
what is pinned is the exit code and the message, not the process).

They follow from the schema gate of issue 8: every JSON input is checked against its published
schema first, so a case file with a key written twice or a NaN, a given state the rules refuse
and a reply state that is no state are each refused, with the exit code for what is at fault.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from commands import run_cli_completed as camelup

EVIL = Path(__file__).parent / "faux_adapters" / "evil.py"
CASE = "bet.leg.take-top/top-is-five"  # first edition, a given state, checks after step 1 only


def bundled_case() -> dict[str, Any]:
    from camelup.harness.suite import load_suite

    [case] = [c for c in load_suite().cases if c.id == CASE]
    return json.loads(json.dumps(dict(case.raw)))


def write_suite(root: Path, text: str) -> Path:
    (root / "cases").mkdir(parents=True)
    (root / "cases" / "one.json").write_text(text)
    return root


def case_file(case: dict[str, Any]) -> str:
    return json.dumps({"area": "gate", "cases": [case]}, indent=1)


# ----------------------------------------------- 9. the case-file reader is as strict as codec


@pytest.mark.parametrize("verb", ["validate", "run"])
def test_a_key_written_twice_in_a_case_file_is_an_invalid_suite(
    tmp_path: Path, verb: str, capsys: pytest.CaptureFixture[str]
) -> None:
    case = bundled_case()
    text = case_file(case)
    expect = json.dumps(case["expect"])
    # "expect" written twice: the first set of checks must not silently disappear
    doubled = text.replace('"expect":', f'"expect": {expect}, "expect":', 1)
    root = write_suite(tmp_path / "suite", doubled)
    result = camelup(capsys, "conformance", verb, "--suite", str(root))
    assert result.returncode == 3, result.stderr
    assert "one.json#/cases/0" in result.stderr and "duplicate" in result.stderr


@pytest.mark.parametrize("constant", ["NaN", "Infinity"])
def test_nan_or_infinity_in_a_case_file_is_an_invalid_suite(
    tmp_path: Path, constant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    case = bundled_case()
    text = case_file(case).replace('"players": ', f'"ignored": {constant}, "players": ', 1)
    root = write_suite(tmp_path / "suite", text)
    result = camelup(capsys, "conformance", "run", "--suite", str(root))
    assert result.returncode == 3, result.stderr
    assert "one.json" in result.stderr and constant in result.stderr


# ------------------------------------------ 10. a broken given state is the case's fault


@pytest.mark.parametrize(
    ("member", "value"), [("to_move", 99), ("leg", -1)], ids=["to_move-99", "leg--1"]
)
def test_an_impossible_given_state_is_an_invalid_case_not_a_failure(
    tmp_path: Path, member: str, value: int, capsys: pytest.CaptureFixture[str]
) -> None:
    case = bundled_case()
    case["given"]["state"][member] = value
    root = write_suite(tmp_path / "suite", case_file(case))
    result = camelup(capsys, "conformance", "run", "--suite", str(root))
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert f"one.json#/cases/0/given/state/{member}" in result.stderr


# ------------------------------------- 11. every reply state is checked against the schema


def test_a_reply_state_that_is_not_a_state_errors_the_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = shlex.join([sys.executable, str(EVIL), "bad-state", str(tmp_path / "log"), CASE])
    result = camelup(
        capsys, "conformance", "run", "--id", CASE, "--format", "jsonl", "--adapter", adapter
    )
    [line] = [json.loads(x) for x in result.stdout.splitlines()][1:-1]
    assert line["verdict"] == "errored" and "/initial_state/track" in line["reason"]
    assert result.returncode == 4

"""``camelup conformance report``: the compatibility report's counts, reasons and staleness check.

The tests run a three-case suite of their own, copied from the bundled cases, against the toy
adapter of docs/ (which breaks crazy.select.only-carrier on purpose and plays the second edition
only), so every count below follows from those three cases.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from camelup.cli import main
from camelup.harness.suite import suite_directory

TOY = Path(__file__).resolve().parents[1] / "docs" / "toy_adapter.py"
TOY_COMMAND = f"{shlex.quote(sys.executable)} {shlex.quote(str(TOY))}"
PASSES = "crazy.move.counterclockwise/grey-moves-crazy"  # the toy gets this right
FAILS = "crazy.select.only-carrier/racing-between"  # the toy's deliberate mistake
FIRST = "move.racing.clockwise/by-the-value"  # first edition: the toy does not declare it


def pick(path: Path, *ids: str) -> list[dict[str, object]]:
    cases = json.loads(path.read_text("utf-8"))["cases"]
    return [c for c in cases if c["id"] in ids]


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    bundled = suite_directory() / "cases"
    folder = tmp_path / "suite" / "cases"
    (folder / "second").mkdir(parents=True)
    (folder / "first").mkdir()
    crazy = pick(bundled / "second" / "07-crazy.json", PASSES, FAILS)
    movement = pick(bundled / "first" / "05-movement.json", FIRST)
    assert len(crazy) == 2 and len(movement) == 1
    (folder / "second" / "07-crazy.json").write_text(json.dumps({"area": "crazy", "cases": crazy}))
    (folder / "first" / "05-movement.json").write_text(
        json.dumps({"area": "movement", "cases": movement})
    )
    return folder.parent


def report(suite: Path, tmp_path: Path, expectations: str, *extra: str) -> tuple[int, str]:
    out = tmp_path / "report.md"
    argv = ["conformance", "report", "--suite", str(suite), "--out", str(out)]
    code = main([*argv, "--adapter", TOY_COMMAND, expectations, *extra])
    return code, out.read_text("utf-8") if out.exists() else ""


def section(text: str, title: str) -> str:
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_known_failures_count_as_failed_with_their_reason(suite: Path, tmp_path: Path) -> None:
    expectations = tmp_path / "toy.toml"
    expectations.write_text(f'[[xfail]]\nid = "{FAILS}"\nreason = "checked reason"\n')
    code, text = report(suite, tmp_path, str(expectations))
    assert code == 0
    # run / passed / failed / errored / skipped: the reference runs all three, the toy two.
    assert "| camelup 0.1.0 | editions first, second;" in text
    assert text.count("| 3 | 3 | 0 | 0 | 0 |") == 1
    assert "| toy-camels 0.0.1 | editions second; no partnerships | 2 | 1 | 1 | 0 | 1 |" in text
    toy = section(text, "toy-camels 0.0.1")
    assert "| second | 7 crazy | 2 | 1 | 1 | 0 | 0 |" in toy
    assert "Not declared, so not run: first (1)." in toy
    assert f"| `{FAILS}` | `crazy.select.only-carrier` | checked reason |" in toy
    assert PASSES not in toy


def test_a_failure_missing_from_the_expectations_file_says_so(suite: Path, tmp_path: Path) -> None:
    code, text = report(suite, tmp_path, "-")
    assert code == 0  # a report, not a verdict: `conformance run --strict` is the CI gate
    row = next(line for line in text.splitlines() if line.startswith(f"| `{FAILS}`"))
    assert "not in the expectations file: after step 1" in row


def test_the_report_is_the_same_bytes_every_time_and_check_finds_it_stale(
    suite: Path, tmp_path: Path
) -> None:
    code, first = report(suite, tmp_path, "-")
    assert code == 0
    assert report(suite, tmp_path, "-", "--check") == (0, first)
    (tmp_path / "report.md").write_text(first.replace("| 1 | 1 |", "| 2 | 0 |", 1))
    code, _ = report(suite, tmp_path, "-", "--check")
    assert code == 1
    (tmp_path / "report.md").unlink()
    assert report(suite, tmp_path, "-", "--check") == (1, "")


def test_check_needs_the_file_to_compare(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "report", "--check"]) == 2
    assert "--check needs --out FILE" in capsys.readouterr().err

"""``camelup conformance fuzz``: random games on an adapter and the reference in lockstep; the
first disagreement is shrunk to a small case that the reference passes and the adapter fails.

The toy adapter of ``docs/`` has deliberate rule mistakes (a booing tile puts the unit on top,
the grey die ignores the crazy-camel exceptions, money has no floor): the fuzzer must find one.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from camelup.cli import main
from camelup.conformance.suite import load_suite

REPO = Path(__file__).resolve().parent.parent
PYTHON = shlex.quote(sys.executable)
TOY = f"{PYTHON} {shlex.quote(str(REPO / 'docs' / 'toy_adapter.py'))}"
REFERENCE = f"{PYTHON} -m camelup.adapter"
FAUX = Path(__file__).parent / "faux_adapters"
TOY_CLAUSES = {  # where the toy's mistakes show (the clause of the first consequence event)
    "crazy.select.only-carrier",
    "crazy.select.top-of-other",
    "crazy.select.colour",
    "move.racing.clockwise",
    "crazy.move.counterclockwise",
    "tile.land.backward",
    "tile.land.pay-owner",
    "leg.score.net",
    "money.floor",
    "end.crossing.racing",
    "end.crossing.crazy",
}

ERRORS_ON_MOVE_TILE = """\
import json, sys
from camelup.adapter import hello_reply, run_case
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "hello":
        reply = hello_reply()
    elif message["cmd"] == "run":
        steps = message["case"]["steps"]
        if any(s["action"]["type"] == "move_tile" for s in steps):
            reply = {"seq": message["seq"], "errored": {"message": "move_tile: not implemented"}}
        else:
            reply = {"seq": message["seq"], **run_case(message["case"])}
    else:
        break
    print(json.dumps(reply), flush=True)
"""


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def toy_finding(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any], str]:
    folder = tmp_path_factory.mktemp("fuzz") / "cases"
    folder.mkdir()
    out = folder / "found.json"
    argv = ["conformance", "fuzz", "--adapter", TOY, "--seed", "1", "--games", "50"]
    code = main([*argv, "--out", str(out)])
    return code, json.loads(out.read_text("utf-8")), out.read_text("utf-8")


def test_fuzz_finds_a_toy_mistake_and_shrinks_it(
    toy_finding: tuple[int, dict[str, Any], str],
) -> None:
    code, data, _ = toy_finding
    assert code == 1
    [case] = data["cases"]
    given = case["given"]
    assert len(case["steps"]) <= (3 if "state" in given else 10)
    assert case["source"] == {"kind": "generated", "ref": "camelup conformance fuzz, seed 1"}
    assert case["id"] == f"{case['clauses'][0]}/fuzz-seed-1-game-1"
    assert case["clauses"][0] in TOY_CLAUSES
    assert "toy-camels differed" in case["comment"]
    last = len(case["steps"])
    assert any(c["after"] == last and "state" in c for c in case["expect"])


def test_the_shrunk_case_is_valid_passes_on_the_reference_and_fails_on_the_toy(
    toy_finding: tuple[int, dict[str, Any], str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, _, text = toy_finding
    (tmp_path / "cases").mkdir()
    path = tmp_path / "cases" / "found.json"
    path.write_text(text, "utf-8")
    code, out, err = run_cli(capsys, "conformance", "validate", str(path))
    assert code == 0, err  # schema, IDs, clauses, codec, and the reference passes it
    assert out.strip() == "conformance validate: 1 file(s), 1 case(s), 0 problem(s)"
    code, out, _ = run_cli(capsys, "conformance", "run", "--suite", str(tmp_path), "--adapter", TOY)
    assert code == 1
    assert out.splitlines()[-1] == "0 passed, 1 failed, 0 errored, 0 skipped"
    assert load_suite(tmp_path).cases[0].file.endswith("found.json")


def test_fuzz_is_deterministic_for_a_seed(
    toy_finding: tuple[int, dict[str, Any], str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, text = toy_finding
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", TOY, "--seed", "1", "--games", "50"
    )
    assert code == 1
    assert out == text  # without --out the case file goes to stdout
    assert "fuzz: game 1 (second, " in err and "shrunk game 1 (" in err


def test_fuzz_finds_nothing_on_the_reference_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--seed", "7", "--games", "12"
    )
    assert code == 0 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("fuzz: camelup ") and "seed 7, 12 game(s)" in lines[0]
    assert "fuzz: 10/12 games, no disagreement" in lines
    assert "fuzz: 12/12 games, no disagreement" in lines
    assert lines[-1] == "fuzz: no disagreement in 12 game(s)"


def test_fuzz_shrinks_an_adapter_that_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "errors_on_move_tile.py"
    script.write_text(ERRORS_ON_MOVE_TILE)
    out = tmp_path / "found.json"
    adapter = f"{PYTHON} {shlex.quote(str(script))}"
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", adapter, "--seed", "4", "--games", "20",
        "--ruleset", "first", "--out", str(out),
    )  # fmt: skip
    assert code == 1, err
    [case] = json.loads(out.read_text("utf-8"))["cases"]
    assert case["steps"][-1]["action"]["type"] == "move_tile"
    assert len(case["steps"]) <= (3 if "state" in case["given"] else 10)
    assert case["clauses"][0] == "tile.move.different-space"
    assert "the adapter errored: move_tile: not implemented" in case["comment"]
    assert case["ruleset"]["edition"] == "first"


def test_fuzz_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crash = f"{PYTHON} {FAUX / 'crash_on_case.py'} fuzz.game/candidate"
    code, _, err = run_cli(capsys, "conformance", "fuzz", "--adapter", crash, "--games", "2")
    assert code == 4 and "broke the protocol" in err
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", str(tmp_path / "missing"), "--games", "2"
    )
    assert code == 5 and "could not start" in err
    first_only = f"{PYTHON} {FAUX / 'first_edition_only.py'}"
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", first_only, "--ruleset", "second"
    )
    assert code == 5 and "supports none of the selected rulesets" in err
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--ruleset", "no-such-family"
    )
    assert code == 2 and "no ruleset family matches" in err
    code, _, err = run_cli(capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--games", "0")
    assert code == 2 and "--games must be at least 1" in err

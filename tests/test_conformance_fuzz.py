"""``camelup conformance fuzz``: random games on an adapter and the reference in lockstep; it
keeps going after a disagreement, groups the disagreements by field and clause, and shrinks each
group to a small case that the reference passes and the adapter fails.

The toy adapter of ``docs/`` has deliberate rule mistakes (a booing tile puts the unit on top,
the grey die ignores both crazy-camel exceptions, money has no floor): one run must find at
least two of them, each named after its own clause.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from camelup.harness import fuzz
from camelup.harness.adapter import run_case
from camelup.harness.divergence import first_divergence, pattern
from camelup.harness.suite import load_suite
from commands import faux, run_cli
from test_cli_conventions import on_a_terminal

REPO = Path(__file__).resolve().parent.parent
PYTHON = shlex.quote(sys.executable)
TOY = f"{PYTHON} {shlex.quote(str(REPO / 'docs' / 'toy_adapter.py'))}"
REFERENCE = f"{PYTHON} -m camelup.adapter"
FAUX = Path(__file__).parent / "faux_adapters"
GUARD = 600  # a hang guard only
# The clauses of the toy's mistakes: where its first divergence in a game can be named.
TOY_CLAUSES = {
    "crazy.select.only-carrier",  # the grey die ignores exception 1
    "crazy.select.top-of-other",  # ... and exception 2
    "tile.land.backward",  # a booing tile puts the unit on top
    "tile.land.crazy-reversed",  # ... a crazy-led unit too, on the tile's far side
    # no floor at zero, at leg scoring or final scoring: one cause, one clause, however many
    # cards a seat lost on and whatever else it was paid in the same step
    "money.floor",
}

ERRORS_ON_MOVE_TILE = """\
import json, sys
from camelup.harness.adapter import hello_reply, run_case
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


def cases_of(text: str) -> list[dict[str, Any]]:
    data = json.loads(text)
    assert data["area"] == "fuzz"
    cases: list[dict[str, Any]] = data["cases"]
    return cases


@pytest.fixture(scope="module")
def toy_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The fuzzer run on the toy as a real command, each finding written to a folder. Seed 22's
    eight games show four of the toy's mistakes, on the track and in the money, as 60 games of
    seed 1 did at a fifth of the cost."""
    folder = tmp_path_factory.mktemp("found")
    argv = ["--adapter", TOY, "--seed", "22", "--games", "8", "--out-dir", str(folder)]
    result = subprocess.run(
        [sys.executable, "-m", "camelup", "conformance", "fuzz", *argv],
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=False,
    )
    return result, folder


def test_fuzz_finds_several_toy_mistakes_in_one_run(
    toy_run: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    result, folder = toy_run
    assert result.returncode == 1, result.stderr
    files = sorted(folder.glob("*.json"))
    cases = [case for path in files for case in cases_of(path.read_text("utf-8"))]
    clauses = {case["clauses"][0] for case in cases}
    assert len(cases) == len(clauses) >= 2  # one case per finding, each its own clause
    assert clauses <= TOY_CLAUSES, clauses
    assert {"tile.land.backward", "crazy.select.only-carrier"} <= clauses
    for case in cases:
        assert case["id"].startswith(case["clauses"][0] + "/fuzz-seed-22-game-")
        assert case["source"] == {"kind": "generated", "ref": "camelup conformance fuzz, seed 22"}
        assert "toy-camels differed" in case["comment"]
        assert len(case["steps"]) <= (3 if "state" in case["given"] else 20)
    lines = result.stderr.splitlines()
    assert lines[0] == "fuzz: toy-camels 0.0.1, seed 22, 8 game(s)"
    assert "finding(s), 0 known" in lines[1] and lines[1].endswith(
        f": {len(cases)} finding(s), 0 known"
    )
    fields = (" at /track/*: ", " at /players/*/money: ")  # the moves; money without a floor
    assert sum(any(f in line for f in fields) for line in lines) == len(cases)
    assert "\r" not in result.stderr  # no progress line when stderr is not a terminal
    assert result.stdout == ""


def test_each_finding_is_a_case_file_ready_to_add(
    toy_run: tuple[subprocess.CompletedProcess[str], Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, folder = toy_run
    suite = tmp_path / "suite"
    shutil.copytree(REPO / "conformance", suite)
    files = sorted(folder.glob("*.json"))
    for path in files:
        shutil.copy(path, suite / "cases" / "second" / path.name)
    code, out, err = run_cli(capsys, "conformance", "validate", "--suite", str(suite))
    assert code == 0, err  # schema, IDs, clauses, codec, and the reference passes each
    assert out.startswith(f"conformance validate: {len(load_suite(suite).files)} file(s)")
    ids = [case["id"] for path in files for case in cases_of(path.read_text("utf-8"))]
    argv = ["conformance", "run", "--suite", str(suite), "--adapter", TOY, "--format", "jsonl"]
    code, out, _ = run_cli(capsys, *argv, *(f"--id={i}" for i in ids))
    verdicts = {line["id"]: line["verdict"] for line in map(json.loads, out.splitlines()[1:-1])}
    assert verdicts == dict.fromkeys(ids, "failed")  # each shows the toy's mistake


def test_the_findings_do_not_depend_on_the_number_of_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["conformance", "fuzz", "--adapter", TOY, "--seed", "5", "--games", "8"]
    code, one, err_one = run_cli(capsys, *argv)
    assert code == 1
    code, three, err_three = run_cli(capsys, *argv, "--jobs", "3")
    assert code == 1
    assert one == three and len(cases_of(one)) >= 2
    assert err_one == err_three  # the same groups, games and shrinking, line for line


@pytest.mark.needs_rule_source
def test_a_start_player_mistake_is_named_after_the_start_marker(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An engine without events that passes the start marker wrongly: the first divergence is
    the player to move after a leg's last die, a step whose first consequence is a camel's
    move; the clause is the one of the reference event that set the player to move."""
    adapter = faux("mutant_without_events.py", "start-marker-always-rotates")
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", adapter, "--seed", "3", "--games", "5"
    )  # game 5 is the one shrunk, as it was in 20 games
    assert code == 1, err
    assert "move.racing.clockwise at" not in err
    assert "leg.start-player at /to_move: " in err
    [case] = cases_of(out)  # one mistake, one finding
    assert case["clauses"][0] == "leg.start-player"


def test_legal_actions_are_compared_when_declared(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seed", "2", "--games", "3", "--ruleset", "second"]  # each game shows it
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", faux("lists_space_one.py"), *argv
    )
    assert code == 1, err
    [case] = cases_of(out)
    assert case["clauses"][0] == "tile.place.not-space-one"  # the reference's refusal of it
    assert "tile.place.not-space-one at /legal_actions/*: 3 game(s)" in err
    [check] = case["expect"]
    assert check["after"] == 0 and all(
        a["space"] != 1 for a in check["legal_actions"] if "space" in a
    )


def test_events_are_compared_when_declared(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seed", "2", "--games", "3", "--ruleset", "second"]  # each game shows it
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", faux("unpaid_tile_events.py"), *argv
    )
    assert code == 1, err
    [case] = cases_of(out)
    assert case["clauses"][0] == "tile.land.pay-owner"
    assert "tile.land.pay-owner at /steps/*/events: " in err
    assert any(e["type"] == "tile_paid" for c in case["expect"] for e in c.get("events", []))


def test_refusals_are_compared_by_code_and_by_clause_when_declared() -> None:
    case = next(c for c in load_suite().cases if c.id == "turn.order/not-your-turn")
    wire = case.wire()
    reference = run_case(wire)
    assert "error" in reference["steps"][0]
    other = json.loads(json.dumps(reference))
    other["steps"][0]["error"]["clause"] = "bet.leg.take-top"
    assert first_divergence(wire, reference, other, frozenset()) is None
    found = first_divergence(wire, reference, other, frozenset({"error_clauses"}))
    assert found is not None and (found.kind, found.field) == ("error", "/steps/*/error")
    assert found.clause == "turn.order" and found.moment == 1
    other["steps"][0]["error"] = {"code": "game-over", "clause": "turn.order"}
    found = first_divergence(wire, reference, other, frozenset())
    assert found is not None and found.kind == "error"
    accepted = json.loads(json.dumps(reference))
    accepted["steps"][0] = {"state": reference["initial_state"]}
    found = first_divergence(wire, reference, accepted, frozenset())
    assert found is not None and (found.kind, found.clause) == ("accepted", "turn.order")


def test_a_field_is_a_pointer_pattern() -> None:
    assert pattern("/players/1/money") == "/players/*/money"
    assert pattern("/track/12") == "/track/*"
    assert pattern("/ticket_stacks/blue") == "/ticket_stacks/blue"


@pytest.fixture
def judged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fuzzer's games judged and its findings shrunk once for the test, however many runs
    of the same seed on the same adapter it makes: the games, their verdicts and the shrinking
    do not depend on the expectations (only which groups are shrunk does), so a second run would
    only repeat the same adapter round trips (each run of seed 23 costs 4 s of CPU)."""
    judged: dict[str, Any] = {}
    shrunk: dict[str, Any] = {}
    judge_draws, shrink_example = fuzz._judge_draws, fuzz._shrink_example

    def key(judge: fuzz.Judge, *parts: Any) -> str:
        return json.dumps([judge.hello.name, judge.hello.version, *parts], default=repr)

    def judge_draws_once(judge: fuzz.Judge, draws: Any) -> Any:
        known = key(judge, [attrs.astuple(d) for d in draws])
        if known not in judged:
            judged[known] = judge_draws(judge, draws)
        return judged[known]

    def shrink_example_once(judge: fuzz.Judge, example: Any, seed: int) -> Any:
        known = key(judge, example.number, example.wire, str(example.divergence), seed)
        if known not in shrunk:
            shrunk[known] = shrink_example(judge, example, seed)
        return shrunk[known]

    monkeypatch.setattr(fuzz, "_judge_draws", judge_draws_once)
    monkeypatch.setattr(fuzz, "_shrink_example", shrink_example_once)


@pytest.mark.usefixtures("judged_once")
def test_known_findings_are_reported_not_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # seed 23's eight games: mistakes on the track (one of them known) and in the money
    argv = ["conformance", "fuzz", "--adapter", TOY, "--seed", "23", "--games", "8"]
    code, out, err = run_cli(capsys, *argv)
    found = {c["clauses"][0] for c in cases_of(out)}
    assert {"crazy.select.only-carrier", "tile.land.backward", "money.floor"} <= found
    # the toy's expectations name cases of crazy.select.* and tile.land.crazy-reversed:
    # fuzz findings of those clauses are known
    toy = str(REPO / "docs" / "toy_expectations.toml")
    code, out, err = run_cli(capsys, *argv, "--expectations", toy)
    assert code == 1
    left = {c["clauses"][0] for c in cases_of(out)}
    xfailed = {"crazy.select.only-carrier", "crazy.select.top-of-other", "tile.land.crazy-reversed"}
    assert left == found - xfailed and "tile.land.backward" in left
    assert "fuzz: known: crazy.select.only-carrier at /track/*: " in err
    assert "toy_expectations.toml#/xfail/" in err
    # a fuzz entry: by clause, and by field when it gives one
    known = tmp_path / "known.toml"
    known.write_text(
        '[[fuzz]]\nclause = "*"\npointer = "/track/*"\nreason = "track bugs known"\n'
        '[[fuzz]]\nclause = "*"\npointer = "/players/*/money"\nreason = "no floor"\n',
        "utf-8",
    )
    code, out, err = run_cli(capsys, *argv, "--expectations", str(known))
    assert code == 0 and out == "", err  # everything known: nothing to add, a clean exit
    assert "track bugs known" in err and "known.toml#/fuzz/0" in err
    known.write_text(
        '[[fuzz]]\nclause = "tile.land"\npointer = "/players/*/money"\nreason = "money"\n',
        "utf-8",
    )
    code, out, _ = run_cli(capsys, *argv, "--expectations", str(known))
    assert {c["clauses"][0] for c in cases_of(out)} == found  # another field: not this one
    known.write_text('[[fuzz]]\nclause = "tile.land"\nreason = "no pointer"\n', "utf-8")
    code, out, _ = run_cli(capsys, *argv, "--expectations", str(known))
    assert {c["clauses"][0] for c in cases_of(out)} == {
        c for c in found if not c.startswith("tile.land.")
    }
    known.write_text('[[fuzz]]\nclause = "tile.land"\n', "utf-8")
    code, _, err = run_cli(capsys, *argv, "--expectations", str(known))
    assert code == 3 and "known.toml#/fuzz/0" in err and "reason" in err


def test_max_findings_stops_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["conformance", "fuzz", "--adapter", TOY, "--seed", "1", "--games", "100"]
    code, out, err = run_cli(capsys, *argv, "--max-findings", "1")
    assert code == 1
    assert len(cases_of(out)) == 1
    assert "fuzz: stopped after 20 game(s): --max-findings 1" in err
    code, _, err = run_cli(capsys, *argv, "--max-findings", "0")
    assert code == 2 and "--max-findings must be at least 1" in err


def test_progress_is_shown_on_a_terminal() -> None:
    argv = ["conformance", "fuzz", "--adapter", TOY, "--seed", "9", "--games", "8"]
    code, out, terminal = on_a_terminal(*argv, stream="stderr")
    assert code == 1
    assert "\r[8/8] " in terminal and " disagreeing, " in terminal
    assert cases_of(out)


def test_fuzz_finds_nothing_on_the_reference_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--seed", "7", "--games", "12"
    )
    assert code == 0 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith("fuzz: camelup ") and "seed 7, 12 game(s)" in lines[0]
    assert lines[-1] == "fuzz: no disagreement in 12 game(s)"


def test_fuzz_shrinks_an_adapter_that_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "errors_on_move_tile.py"
    script.write_text(ERRORS_ON_MOVE_TILE)
    out = tmp_path / "found.json"
    adapter = f"{PYTHON} {shlex.quote(str(script))}"
    # both games move a tile; game 2 is the one shrunk, as it was in 20 games
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", adapter, "--seed", "4", "--games", "2",
        "--ruleset", "first", "--out", str(out),
    )  # fmt: skip
    assert code == 1, err
    [case] = cases_of(out.read_text("utf-8"))
    assert case["steps"][-1]["action"]["type"] == "move_tile"
    assert len(case["steps"]) <= 10
    assert case["clauses"][0] == "tile.move.different-space"
    assert "the adapter errored: move_tile: not implemented" in case["comment"]
    assert case["ruleset"]["edition"] == "first"
    assert f"fuzz: 1 case(s) written to {out}" in err


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
    for games in ("0", "1000000000000"):
        code, _, err = run_cli(
            capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--games", games
        )
        assert code == 2 and "--games must be from 1 to 1,000,000" in err
    code, _, err = run_cli(capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--jobs", "0")
    assert code == 2 and "--jobs 0: must be from 1 to 64" in err
    missing = str(tmp_path / "no-such-folder")
    code, _, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--out-dir", missing
    )
    assert code == 2 and "not a writable folder" in err


def test_a_partnership_free_adapter_is_fuzzed_without_partnerships(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``no_partnerships.py`` errors on any case with a partnership step: none is sent; and it
    lists no ``form_partnership`` among its legal actions, which is no disagreement."""
    # 6-8 players: every game would send partnership steps, and list them as legal
    argv = ["--seed", "1", "--games", "4", "--ruleset", "second-partnerships"]
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", faux("no_partnerships.py"), *argv
    )
    assert code == 0 and out == "", err
    assert err.splitlines()[-1] == "fuzz: no disagreement in 4 game(s)"


def test_a_state_differs_by_json_equality_not_by_pythons() -> None:
    """``true`` for 1 EP differs though Python takes ``True == 1``; 3.0 for 3 EP and members
    written in another order do not (the lockstep's quick check of equal states keeps to it)."""
    case = next(c for c in load_suite().cases if c.id == "turn.order/not-your-turn")
    wire = case.wire()
    reference = run_case(wire)
    reordered = dict(reversed(json.loads(json.dumps(reference["initial_state"])).items()))
    reordered["players"][1]["money"] = float(reordered["players"][1]["money"])
    other = {**reference, "initial_state": reordered}
    assert first_divergence(wire, reference, other, frozenset()) is None
    reference["initial_state"]["players"][0]["money"] = 1
    other = json.loads(json.dumps(reference))
    other["initial_state"]["players"][0]["money"] = True
    found = first_divergence(wire, reference, other, frozenset())
    assert found is not None and (found.kind, found.moment) == ("state", 0)
    assert found.pointers == ("/players/0/money",)


def test_legal_actions_are_compared_after_every_step() -> None:
    case = next(c for c in load_suite().cases if c.id == "turn.order/not-your-turn")
    wire = {**case.wire(), "want": {"legal_actions_after": [0, 1, 2]}}
    reference = run_case(wire)
    other = json.loads(json.dumps(reference))
    other["legal_actions"]["2"] = other["legal_actions"]["2"][1:]
    capabilities = frozenset({"legal_actions"})
    assert first_divergence(wire, reference, reference, capabilities) is None
    found = first_divergence(wire, reference, other, capabilities)
    assert found is not None and (found.kind, found.moment) == ("legal_actions", 2)
    assert found.field == "/legal_actions/*" and "1 missing, 0 unexpected" in found.summary
    assert first_divergence(wire, reference, other, frozenset()) is None  # not declared


@pytest.mark.usefixtures("judged_once")
def test_fuzz_names_camelcalcs_mistakes_after_its_own_expectations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """camelcalc (a published engine, adapters/camelcalc) stacks the start camels in its own
    order and pays a pyramid ticket at once: the first shows at the given position, the second
    in a member no reference event wrote; each is named as its expectations file names it."""
    adapter = shlex.join([sys.executable, str(REPO / "adapters" / "camelcalc" / "adapter.py")])
    argv = ["conformance", "fuzz", "--adapter", adapter, "--games", "20", "--max-findings", "99"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1, err
    found = {(c["clauses"][0], c["expect"][0]["after"]) for c in cases_of(out)}
    assert ("setup.stack-order", 0) in found  # not setup.racing-camels: the spaces are right
    assert ("move.pyramid.take-ticket", 1) in found  # not the camel's move of that step
    assert "setup.stack-order at /track/*: " in err
    assert "move.pyramid.take-ticket at /players/*/money: " in err
    expectations = str(REPO / "adapters" / "camelcalc" / "expectations.toml")
    code, out, err = run_cli(capsys, *argv, "--expectations", expectations)
    left = {c["clauses"][0] for c in cases_of(out)} if out else set()
    assert not left & {"setup.stack-order", "move.pyramid.take-ticket"}
    assert "fuzz: known: setup.stack-order at /track/*: " in err


def test_the_adapters_own_ranking_is_compared_when_declared(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--seed", "0", "--games", "3", "--ruleset", "second"]  # each disagrees on rank.stack
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", faux("swapped_ranking.py"), *argv
    )
    assert code == 1, err
    cases = cases_of(out)
    assert {c["clauses"][0] for c in cases} <= {"rank.stack", "rank.space"} and cases
    assert all(" at /ranking/*: " in line for line in err.splitlines()[2 : 2 + len(cases)])
    assert "warning" not in err  # each written case fails on the adapter: it checks the ranking
    for case in cases:
        [check] = [c for c in case["expect"] if "ranking" in c]
        assert len(check["ranking"]) == 5


def test_a_game_goes_on_past_a_disagreement_from_the_references_position(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """camelcalc stacks the start camels in its own order, which shows at the given position of
    nearly every game; put back on the reference's position, the same games show its other
    mistakes too (a pyramid ticket paid at once), so one game counts in several groups."""
    adapter = shlex.join([sys.executable, str(REPO / "adapters" / "camelcalc" / "adapter.py")])
    argv = ["conformance", "fuzz", "--adapter", adapter, "--games", "12", "--max-findings", "99"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1, err
    assert "fuzz: 12 of 12 game(s) disagreed" in err
    counted = {
        line.split(" at ")[0].removeprefix("fuzz: "): int(line.split(": ")[2].split(" game")[0])
        for line in err.splitlines()
        if " game(s), first game " in line
    }
    assert counted["setup.stack-order"] + counted["move.pyramid.take-ticket"] > 12, err
    assert {c["clauses"][0] for c in cases_of(out)} >= {
        "setup.stack-order",
        "move.pyramid.take-ticket",
    }

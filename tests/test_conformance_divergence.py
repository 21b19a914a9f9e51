"""First divergence, then silence (issue 11, item 2): the runner compares the adapter's whole
state after every step of a multi-step case with the in-process reference's, reports the first
step where they differ (its deepest differing members and the clause of the reference event
behind them), and leaves the later checks not compared.

The adapters are real subprocesses: ``faux_adapters/wrong_from_step.py`` (the reference, bent
from one step of one case on) and the reference serving a mutant (``--mutant``).
"""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from camelup import Edition, Ruleset, apply, legal_actions, new_game
from camelup.harness import (
    InProcessReference,
    SubprocessAdapter,
    attribution,
    divergence,
    load_suite,
    render,
    run_cases,
)
from camelup.harness.mutation import applied, lifted
from camelup.harness.mutation.catalogue import CATALOGUE
from camelup.io.codec import action_from_json, setup_from_json, to_json
from camelup.spec.registry import load_registry
from commands import run_cli
from helpers import SETUP_SECOND

FAUX = Path(__file__).parent / "faux_adapters"
PYTHON = shlex.quote(sys.executable)

RULESET = {"edition": "second", "players": 3, "modules": [], "variants": []}
STEPS = [
    {"type": "place_tile", "player": 0, "space": 5, "side": "cheering"},
    # red 3 -> 5, the tile pays seat 0 one coin and pushes red on to 6
    {"type": "take_pyramid_ticket", "player": 1, "roll": {"die": "red", "value": 2}},
    {"type": "take_leg_ticket", "player": 2, "camel": "blue"},
    {"type": "take_pyramid_ticket", "player": 0, "roll": {"die": "green", "value": 1}},
]
GAME = "tile.land.pay-owner/divergence-game"
SHORT = "tile.land.pay-owner/divergence-one-step"
RANKED_BACKWARDS = "rank.carried-backwards/two-riders-one-past-the-line"


def _legal_after_first_step() -> list[Any]:
    state = new_game(Ruleset(Edition.SECOND, 3), setup_from_json(SETUP_SECOND))
    state = apply(state, action_from_json(STEPS[0])).state
    return [to_json(a) for a in legal_actions(state)]


def _case(case_id: str, steps: list[dict[str, Any]], expect: list[Any]) -> dict[str, Any]:
    return {
        "id": case_id,
        "description": "a tile pays its owner, then the game goes on",
        "clauses": ["tile.land.pay-owner", "tile.land.forward"],
        "source": {"kind": "clause", "ref": "tile.land.pay-owner"},
        "ruleset": RULESET,
        "given": {"setup": SETUP_SECOND},
        "steps": [{"action": a} for a in steps],
        "expect": expect,
    }


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tile = [{"space": 5, "owner": 0, "side": "cheering"}]
    game = _case(
        GAME,
        STEPS,
        [
            {"after": 1, "state": {"/tiles": tile}},
            {
                "after": 1,
                "legal_actions": _legal_after_first_step(),
                "clause": "turn.actions.second",
            },
            {"after": 2, "state": {"/track/6": ["red"], "/players/0/money": 4}},
            {"after": 3, "state": {"/players/0/money": 4}},
            {"after": 4, "state": {"/track/3": ["green", "purple"], "/players/0/money": 4}},
        ],
    )
    short = _case(SHORT, STEPS[:1], [{"after": 1, "state": {"/tiles": tile}}])
    root = tmp_path_factory.mktemp("divergence-suite")
    folder = root / "cases" / "second"
    folder.mkdir(parents=True)
    (folder / "tiles.json").write_text(json.dumps({"area": "tiles", "cases": [game, short]}))
    return root


def faux(mode: str, case_id: str = GAME, step: int = 2) -> str:
    script = shlex.quote(str(FAUX / "wrong_from_step.py"))
    return f"{PYTHON} {script} {mode} {shlex.quote(case_id)} {step}"


def results(suite: Path, adapter: str) -> dict[str, Any]:
    report = run_cases(load_suite(suite).cases, SubprocessAdapter(adapter))
    return {r.case.id: r for r in report.results}


# ------------------------------------------------------------------------------ the runner


def test_reference_agrees_with_the_cases(suite: Path) -> None:
    report = run_cases(load_suite(suite).cases, SubprocessAdapter(f"{PYTHON} -m camelup.adapter"))
    assert report.summary_line() == "2 passed, 0 failed, 0 errored, 0 skipped"
    assert all(r.diverged_at is None for r in report.results)


def test_a_wrong_step_is_one_divergence_and_later_checks_are_not_compared(suite: Path) -> None:
    result = results(suite, faux("overpay"))[GAME]
    assert result.verdict == "failed"
    before, found = result.mismatches  # the failing check before it, then the divergence
    assert (before.after, before.check, before.divergence) == (1, 1, False)
    assert found.divergence and found.after == 2 and found.check is None
    assert found.pointers == ("/players/0/money",)
    # the adapter reports the reference's events, its one tile payment among them: the extra
    # coin is none of theirs, but the action's own (a pyramid ticket pays nothing at once)
    assert found.clause == "move.pyramid.take-ticket"
    assert "step 2 (take_pyramid_ticket player=1 roll=red 2)" in found.summary
    assert found.diff == (
        "/players/0/money  [move.pyramid.take-ticket]",
        "  expected: 4",
        "  actual:   5",
    )
    assert (result.diverged_at, result.not_compared) == (2, (3, 4))


def test_a_step_refused_by_the_adapter_alone_is_the_divergence(suite: Path) -> None:
    result = results(suite, faux("refuse", GAME, 3))[GAME]
    found = result.mismatches[-1]
    assert found.divergence and found.after == 3 and found.pointers == ()
    assert "the adapter refused it (not-your-turn [turn.order]); the reference accepts it" in (
        found.summary
    )
    # no check fails at step 3 (its money check still holds): the clause the adapter cites,
    # a clause of the spec, is named
    assert found.clause == "turn.order"
    assert result.not_compared == (4,)
    assert [m.after for m in result.mismatches] == [1, 3]  # no "step 4 was rejected" either


def test_a_case_of_one_step_is_judged_by_its_checks_alone(suite: Path) -> None:
    # seat 0's money is wrong after step 1, but no check of the one-step case looks at it
    short = results(suite, faux("overpay", SHORT, 1))[SHORT]
    assert short.verdict == "passed" and short.diverged_at is None
    # the same bend in the game fails it at once, at a member no check of step 1 looks at
    game = results(suite, faux("overpay", GAME, 1))[GAME]
    assert game.diverged_at == 1 and game.mismatches[-1].pointers == ("/players/0/money",)
    # the adapter reports the reference's events (no payment): the coin is the seat's own
    # action's doing, and that names the divergence; the folded check's clause is noted
    assert game.mismatches[-1].diff[0] == "/players/0/money  [tile.place.empty-space]"
    assert game.mismatches[-1].clause == "tile.place.empty-space"
    assert game.mismatches[-1].diff[-1].endswith("the check names turn.actions.second")
    assert game.mismatches[:-1] == ()  # the legal actions of step 1 are folded into it


def test_every_report_format_shows_one_divergence_and_the_checks_not_compared(
    suite: Path,
) -> None:
    report = run_cases(load_suite(suite).cases, SubprocessAdapter(faux("overpay")))
    human = render(report, "human")
    assert human.count("first divergence from the reference") == 1
    assert "  not compared: 2 later check(s), after divergence at step 2\n" in human
    assert "after step 3" not in human and "after step 4" not in human
    records = [json.loads(x) for x in render(report, "jsonl").splitlines()]
    [line] = [r for r in records if r.get("id") == GAME]
    assert line["diverged_at"] == 2
    assert [n["check"] for n in line["not_compared"]] == [3, 4]
    assert line["not_compared"][0]["reason"] == "after divergence at step 2"
    assert [m.get("divergence", False) for m in line["mismatches"]] == [False, True]
    assert line["mismatches"][1]["pointers"] == ["/players/0/money"]
    junit = ET.fromstring(render(report, "junit"))
    [failure] = [c.find("failure") for c in junit.iter("testcase") if c.get("name") == GAME]
    assert failure is not None and "not compared: 2 later check(s)" in (failure.text or "")
    tap = render(report, "tap")
    assert "  diverged_at: 2\n  not_compared: 2\n" in tap
    assert '      pointers: ["/players/0/money"]\n' in tap
    markdown = render(report, "markdown")
    assert "(not compared: 2 later check(s), after divergence at step 2)" in markdown


# ------------------------------------------------------------------------------- explain


def test_explain_shows_the_divergence_with_both_boards(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        capsys, "conformance", "explain", GAME, "--suite", str(suite), "--adapter", faux("overpay")
    )
    assert code == 1
    lines = out.splitlines()
    # the legal actions of step 1 fail first, on their own; then step 2 diverges
    assert (
        f"FAIL {GAME}: first failing check at step 1 (place_tile player=0 space=5 side=cheering)"
        in lines
    )
    step = lines.index(
        "step 2  take_pyramid_ticket player=1 roll=red 2: accepted; events: pyramid_ticket_taken,"
        " die_revealed, unit_moved, tile_paid, unit_moved"
    )
    assert lines[step + 1] == "    >> first divergence from the reference (below)"
    assert any(
        line.startswith("    -  state /players/0/money")
        and line.endswith("(not compared: after divergence at step 2)")
        for line in lines
    )
    assert "  not compared: 2 later check(s), after divergence at step 2" in lines
    titles = [
        "before step 2, the adapter's (the reference's is the same):",
        "after step 2, the reference's:",
        "after step 2, the adapter's:",
    ]
    where = [lines.index(t) for t in titles]
    assert where == sorted(where)
    boards = [lines[w + 1 : w + 14] for w in where]
    # seat 0: 3 coins before; the reference pays it one, the adapter two
    assert any(line.startswith("  player 0: 3 EP") for line in boards[0])
    assert any(line.startswith("  player 0: 4 EP") for line in boards[1])
    assert any(line.startswith("  player 0: 5 EP") for line in boards[2])
    assert "  move 1: [R] 3 -> 5" in boards[1] and "  move 2: [R] 5 -> 6" in boards[1]


def test_explain_says_in_one_line_when_the_adapters_state_cannot_be_drawn(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = faux("unreadable")
    code, out, _ = run_cli(
        capsys, "conformance", "explain", GAME, "--suite", str(suite), "--adapter", adapter
    )
    assert code == 1
    lines = out.splitlines()
    drawn = lines[lines.index("after step 2, the adapter's:") + 1]
    assert drawn.startswith("  (cannot be drawn: ") and "partner" in drawn
    assert "/players/0/partner  [" in out  # the pointers are shown all the same


def test_explain_draws_an_adapters_state_the_rules_refuse(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        capsys, "conformance", "explain", GAME, "--suite", str(suite), "--adapter", faux("twice")
    )
    assert code == 1
    lines = out.splitlines()
    board = lines[lines.index("after step 2, the adapter's:") + 1 :]
    assert "cannot be drawn" not in out
    # blue is drawn twice: on space 1, under yellow, and alone on space 10
    [row] = [line for line in board[:8] if line.lstrip().startswith("|  B")]
    assert row.split().count("B") == 2


# ------------------------------------------------------------------------------- mutants


@pytest.mark.needs_rule_source
def test_a_mutant_in_process_still_diverges_from_the_reference() -> None:
    """Under ``conformance mutants`` the engine in this process is the mutant: the reference
    states are computed with its patch lifted, so it diverges, with nothing cached before."""
    [case] = [c for c in load_suite().cases if c.id == "generated.second/14"]
    divergence.clear_cache()
    with applied(CATALOGUE["mover-takes-whole-stack"]):
        [result] = run_cases([case], InProcessReference()).results
    assert result.verdict == "failed" and result.diverged_at is not None
    found = result.mismatches[-1]
    assert found.divergence and found.clause == "move.stack.carry" and found.pointers
    assert result.not_compared  # the game's later checks
    [clean] = run_cases([case], InProcessReference()).results
    assert clean.verdict == "passed"


@pytest.mark.needs_rule_source
def test_lifted_runs_the_real_engine_and_puts_the_patch_back() -> None:
    from camelup.rules import movement

    real = movement.lift_unit
    with applied(CATALOGUE["mover-takes-whole-stack"]):
        patched = movement.lift_unit
        assert patched is not real and divergence.patched()
        with lifted():
            assert movement.lift_unit is real
        assert movement.lift_unit is patched
        assert not divergence.is_reference(InProcessReference())
    assert movement.lift_unit is real and not divergence.patched()
    assert divergence.is_reference(InProcessReference())


@pytest.mark.needs_rule_source
def test_the_mutants_still_die_and_name_their_clause() -> None:
    from camelup.harness.mutation.verdict import judge

    cases = load_suite().cases
    for name in ("mover-takes-whole-stack", "turn-passes-right", "leg-tickets-kept"):
        verdict = judge(CATALOGUE[name], cases, first_kill=True)
        assert verdict.killed and verdict.named_right, name


# ----------------------------------------------------------------------- clause attribution


def test_every_clause_the_attribution_names_is_in_the_spec() -> None:
    unknown = attribution.CLAUSES_NAMED - set(load_registry().clause_ids)
    assert not unknown


def test_the_differences_are_the_deepest_members_a_stack_and_the_tiles_whole() -> None:
    want = {
        "track": {"10": ["orange"], "2": ["blue", "green"]},
        "players": [{"money": 3}, {"money": 1}],
        "tiles": [{"space": 4, "owner": 0}],
    }
    got = {
        "track": {"2": ["green", "blue"], "10": [], "17": ["orange"]},
        "players": [{"money": 3}, {"money": 2}],
        "tiles": [{"space": 5, "owner": 0}],
    }
    found = list(attribution.differences(want, got))
    assert [tokens for tokens, _, _ in found] == [
        ("track", "2"),  # the track's spaces in numeric order, each stack one member
        ("track", "10"),
        ("track", "17"),  # a member only the adapter has
        ("players", "1", "money"),
        ("tiles",),  # a set of tiles: compared whole
    ]
    assert found[2][1] is attribution.MISSING and found[2][2] == ["orange"]
    shallow = attribution.differences(want, got, depth=1)
    assert [tokens for tokens, _, _ in shallow] == [("track",), ("players",), ("tiles",)]


def _attribution(
    moment: int, events: list[Any], before: Any, want: Any, got: Any
) -> attribution.Attribution:
    return attribution.Attribution(
        moment,
        events,
        before,
        want,
        got,
        edition="second",
        from_setup=True,
        fallback="turn.one-action",
    )


def test_another_crazy_camel_moved_is_named_after_the_choice_at_any_space() -> None:
    """The reference chose crazy-white (space 16); the adapter moved crazy-black from 15 to 13,
    a space no reference event wrote: the choice is at fault, not the move."""
    events = [
        {
            "type": "crazy_camel_chosen",
            "camel": "crazy-white",
            "clause": "crazy.select.top-of-other",
        },
        {
            "type": "unit_moved",
            "unit": ["crazy-white"],
            "from_space": 16,
            "to_space": 14,
            "placement": "top",
            "clause": "crazy.move.backward",
        },
    ]
    before = {"track": {"13": [], "14": [], "15": ["crazy-black"], "16": ["crazy-white"]}}
    want = {"track": {"13": [], "14": ["crazy-white"], "15": ["crazy-black"], "16": []}}
    got = {"track": {"13": ["crazy-black"], "14": [], "15": [], "16": ["crazy-white"]}}
    named = _attribution(1, events, before, want, got)
    clauses = [named.clause_of(tokens) for tokens, _, _ in attribution.differences(want, got)]
    assert [clause for clause, _ in clauses] == ["crazy.select.top-of-other"] * 4
    assert named.best(clauses) == "crazy.select.top-of-other"


def test_a_start_stack_of_crazy_camels_in_another_order_is_the_second_crazy_camels_rule() -> None:
    want = {"track": {"15": ["crazy-black", "crazy-white"], "1": ["blue", "green"]}}
    got = {"track": {"15": ["crazy-white", "crazy-black"], "1": ["blue", "green"]}}
    named = _attribution(0, [], None, want, got)
    assert named.clause_of(("track", "15")) == ("setup.crazy-second", (0, 0))
    got["track"]["1"] = ["green", "blue"]
    assert named.clause_of(("track", "1"))[0] == "setup.stack-order"


@pytest.mark.parametrize(("events_agree", "clause"), [(True, "move.unit.lands-on-top"),
                                                      (False, "tile.land.forward")])  # fmt: skip
def test_a_push_found_under_the_camels_it_was_reported_on_top_of(
    events_agree: bool, clause: str
) -> None:
    """A cheering tile on 4 pushes blue onto green on 5. By the adapter's own account (its
    events agree) the tile put blue on top: the tile's rule was kept, the placing on top was
    not. Without that account the tile's rule is as likely at fault."""
    events = [
        {"type": "unit_moved", "unit": ["blue"], "from_space": 2, "to_space": 4,
         "placement": "top", "clause": "move.racing.clockwise"},
        {"type": "tile_paid", "owner": 0, "space": 4, "amount": 1,
         "clause": "tile.land.pay-owner"},
        {"type": "unit_moved", "unit": ["blue"], "from_space": 4, "to_space": 5,
         "placement": "top", "clause": "tile.land.forward"},
    ]  # fmt: skip
    before = {"track": {"2": ["blue"], "5": ["green"]}}
    want = {"track": {"2": [], "5": ["green", "blue"]}}
    got = {"track": {"2": [], "5": ["blue", "green"]}}
    named = attribution.Attribution(
        1, events, before, want, got, edition="second", from_setup=False,
        fallback="move.pyramid.take-ticket", events_agree=events_agree,
    )  # fmt: skip
    assert named.clause_of(("track", "5"))[0] == clause


@pytest.mark.parametrize(
    ("events_agree", "clause"),
    [(True, "tile.land.backward"), (False, "crazy.select.only-carrier")],
)
def test_a_unit_pushed_back_onto_its_start_turned_over(events_agree: bool, clause: str) -> None:
    """crazy-white, the only carrier, takes blue from 16 to a booing tile on 15, which pushes
    them back to 16: the adapter's unit there is upside down. By the adapter's own account (its
    events agree) it chose and moved crazy-white: the backward side's placing went wrong.
    Without that account, blue moving and carrying crazy-white back would look the same."""
    unit = ["crazy-white", "blue"]
    events = [
        {"type": "crazy_camel_chosen", "camel": "crazy-white",
         "clause": "crazy.select.only-carrier"},
        {"type": "unit_moved", "unit": unit, "from_space": 16, "to_space": 15,
         "placement": "top", "clause": "crazy.move.counterclockwise"},
        {"type": "tile_paid", "owner": 0, "space": 15, "amount": 1,
         "clause": "tile.land.pay-owner"},
        {"type": "unit_moved", "unit": unit, "from_space": 15, "to_space": 16,
         "placement": "underneath", "clause": "tile.land.crazy-reversed"},
    ]  # fmt: skip
    before = {"track": {"15": [], "16": unit}}
    want = {"track": {"15": [], "16": unit}}
    got = {"track": {"15": [], "16": unit[::-1]}}
    named = attribution.Attribution(
        1, events, before, want, got, edition="second", from_setup=False,
        fallback="move.pyramid.take-ticket", events_agree=events_agree,
    )  # fmt: skip
    assert named.clause_of(("track", "16"))[0] == clause


def test_a_reply_is_read_once_a_refused_step_leaving_the_position() -> None:
    """:func:`camelup.io.replay.moments` is the one reading of a reply: the step after a
    refusal starts from the position before it, whatever state the reply reports there."""
    from camelup.io.replay import moments

    reply = {
        "initial_state": {"a": 0},
        "steps": [{"error": {"code": "x"}, "state": {"a": 9}}, {"state": {"a": 1}, "events": []}],
    }
    found = moments(reply)
    assert [m.state for m in found] == [{"a": 0}, {"a": 0}, {"a": 1}]
    assert (found[1].error, found[1].events, found[1].reported) == ({"code": "x"}, None, {"a": 9})
    assert (found[2].error, found[2].events, found[2].reported) == (None, [], {"a": 1})


def test_the_runner_and_the_fuzzer_find_the_same_first_divergence() -> None:
    """One ``first_divergence``: the runner asks for the positions alone, the fuzzer for every
    facet; a position bent at step 2 is the divergence for both, at the same member."""
    case = next(c for c in load_suite().cases if c.id == "turn.order/not-your-turn")
    wire = case.wire()
    reference = divergence.reference_reply(case)
    bent = json.loads(json.dumps(reference))
    bent["steps"][1]["state"]["players"][0]["money"] += 1
    runner = divergence.case_divergence(case, bent, reference)
    fuzzer = divergence.first_divergence(wire, reference, bent, frozenset())
    assert runner is not None and fuzzer is not None
    assert (runner.moment, runner.kind, runner.pointers) == (2, "state", ("/players/0/money",))
    assert (fuzzer.moment, fuzzer.kind, fuzzer.pointers) == (2, "state", ("/players/0/money",))
    assert fuzzer.field == "/players/*/money"
    assert divergence.first_divergence(wire, reference, reference, frozenset()) is None


def test_the_fuzzer_names_a_wrong_own_ranking_as_the_runner_does() -> None:
    """The adapter's own ranking (capability ``ranking``) of a track it reports right, with
    the two camels carried back over the line ranked bottom first: the fuzzer names the rule
    that ``run`` names (``event_cause.ranking_order_clause``), rank.carried-backwards, where it
    once named every camel off the board after the clockwise crossing."""
    from camelup.harness.adapter import run_case

    case = next(c for c in load_suite().cases if c.id == RANKED_BACKWARDS)
    wire = dict(case.wire())
    wire["want"] = dict(wire["want"], ranking_after=[0, 1])
    reference = run_case(wire)
    assert reference["steps"][0]["state"]["track"]["0"] == ["crazy-white", "green", "red"]
    bent = json.loads(json.dumps(reference))
    bent["ranking"]["1"][-2:] = ["green", "red"]  # the reference: ... > red > green
    found = divergence.first_divergence(wire, reference, bent, frozenset({"ranking"}))
    assert found is not None and (found.kind, found.moment) == ("ranking", 1)
    assert found.clause == "rank.carried-backwards"
    bent["ranking"]["1"][-2:] = ["red", "green"]
    bent["ranking"]["1"].append("crazy-white")  # every camel right, and a crazy one after them
    found = divergence.first_divergence(wire, reference, bent, frozenset({"ranking"}))
    assert found is not None and found.clause == "rank.ignore-crazy"

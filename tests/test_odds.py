"""The odds oracle (``camelup.odds.exact``) against independent answers.

- the perft of fresh legs: 5! x 3^5 = 29,160 sequences (1st edition) and 6!/1 x ... = 320,760
  (2nd edition), counted here from the dice alone;
- a position worked out by hand;
- hypothesis: on generated positions of every rule set and variant, the oracle equals the plain
  enumeration through ``apply`` (``camelup.odds.by_apply``) exactly: places, race end, sequence
  count, tile coins, ticket values, and the value of every tile action;
- the rules are shared: patching a movement, crazy-camel, tile, whirlwind or chance rule in its
  module changes ``apply`` (or ``chance_outcomes``) and the odds alike, and the Monte Carlo
  follows a patched chance rule;
- the whole-race Monte Carlo agrees with the exact odds where the race must end in the leg.
"""

from __future__ import annotations

import gc
import json
import math
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import camelup.testing.strategies as cst
from camelup import (
    Camel,
    DieRoll,
    MoveTile,
    PlaceTile,
    State,
    TakeLegTicket,
    TakePyramidTicket,
    TileSide,
    apply,
    chance_outcomes,
    legal_actions,
)
from camelup.io.codec import dumps
from camelup.io.odds_json import leg_odds_json, odds_json
from camelup.model.camels import Die
from camelup.odds.by_apply import summary
from camelup.odds.exact import (
    GameOver,
    _layout_odds,
    _SharedMoves,
    action_values,
    iter_action_values,
    leg_odds,
)
from camelup.odds.races import race_estimates
from camelup.rules import crazy, movement, race, whirlwind
from camelup.tools.render.odds_text import action_label, leg_table
from commands import run_cli_completed
from helpers import build, ruleset

F = Fraction


def _fresh(edition: str) -> State:
    """Every racing camel on its own space, far from the line and from each other."""
    rules = ruleset(edition)
    if edition == "first":
        return build(rules, {1: "B", 4: "G", 7: "O", 10: "Y", 13: "W"})
    return build(rules, {1: "B", 4: "G", 7: "R", 10: "Y", 13: "P", 15: "cW", 16: "cK"})


def test_fresh_first_edition_leg_has_29160_sequences_as_the_apply_enumeration() -> None:
    state = _fresh("first")
    odds = leg_odds(state)
    # 5 dice in any order, 3 values each; the race cannot end (the leader needs 4 to cross)
    assert odds.sequences == math.factorial(5) * 3**5 == 29_160
    assert odds.total_weight == 29_160  # a full sequence weighs 1 in the first edition
    assert odds.race_end == 0
    slow = summary(state)
    assert slow.sequences == odds.sequences
    assert slow.places == {c: list(row) for c, row in odds.places().items()}


def test_fresh_second_edition_leg_has_320760_sequences() -> None:
    odds = leg_odds(_fresh("second"))
    # 5 of 6 dice in order: 600 orders reveal the grey die (6 faces) and four racing dice (3
    # faces each); 120 orders reveal the five racing dice and leave the grey one in the pyramid
    orders_with_grey = 6 * 5 * 4 * 3 * 2 - math.factorial(5)
    assert odds.sequences == orders_with_grey * 3**4 * 6 + math.factorial(5) * 3**5 == 320_760
    assert sum(odds.place(Camel.BLUE, k) for k in range(1, 6)) == 1


def one_die_left() -> State:
    """The hand-worked position below: 1st edition, only the blue die left, a mirage on 7."""
    return build(
        ruleset("first"),
        {5: "B", 6: "G", 9: "O", 10: "Y", 11: "W"},
        tiles=[(7, 1, TileSide.MIRAGE)],
        revealed=["G", "O", "Y", "W"],
        pyramid_tickets={0: 4},
    )


def test_one_die_left_worked_out_by_hand() -> None:
    """1st edition, only the blue die left: blue on 5, a mirage on 7 (seat 1), green on 6 with
    the rest ahead. Blue rolls 1 (space 6, on top of green: blue 4th, green 5th), 2 (onto the
    mirage on 7: seat 1 is paid 1, blue goes back under green on 6: green 4th, blue 5th) or 3
    (space 8, ahead of green: blue 4th). move.unit.lands-on-top, tile.land.backward."""
    state = one_die_left()
    odds = leg_odds(state)
    assert odds.sequences == 3
    assert odds.place(Camel.BLUE, 4) == F(2, 3)
    assert odds.place(Camel.BLUE, 5) == F(1, 3)
    assert odds.place(Camel.WHITE, 1) == 1
    assert odds.tile_coins(1) == F(1, 3)
    assert odds.race_end == 0


def test_the_odds_wire_form_spells_the_hand_worked_leg_as_exact_strings() -> None:
    """The same position as above, as the protocol's ``odds`` member and ``odds --json`` carry
    it: one spelling of each fraction, the pyramid action without the roll it does not choose."""
    state = one_die_left()
    odds = leg_odds(state)
    reply = leg_odds_json(odds)
    assert reply == {
        "places": {
            "blue": ["0/1", "0/1", "0/1", "2/3", "1/3"],
            "green": ["0/1", "0/1", "0/1", "1/3", "2/3"],
            "orange": ["0/1", "0/1", "1/1", "0/1", "0/1"],
            "yellow": ["0/1", "1/1", "0/1", "0/1", "0/1"],
            "white": ["1/1", "0/1", "0/1", "0/1", "0/1"],
        },
        "race_end": "0/1",
        "sequences": 3,
    }
    values = action_values(state, odds, tiles=False)
    document = odds_json(odds, values)
    assert {key: document[key] for key in reply} == reply
    assert document["total_weight"] == odds.total_weight
    pyramid = [a["action"] for a in document["actions"] if a["action"]["type"].startswith("take_p")]
    assert pyramid == [{"type": "take_pyramid_ticket", "player": state.to_move}]
    assert all("/" in a["value"] for a in document["actions"])


def test_the_odds_text_tables_show_the_hand_worked_leg() -> None:
    state = one_die_left()
    lines = leg_table(leg_odds(state))
    assert lines[0] == "leg odds (1 dice to come, 3 outcome sequences)"
    assert lines[1].split() == ["camel", "1st", "2nd", "3rd", "4th", "5th"]
    assert lines[2].split() == ["blue", "0.0000", "0.0000", "0.0000", "0.6667", "0.3333"]
    assert lines[-1] == "race ends this leg: 0.0000 (0/1)"
    assert action_label(PlaceTile(0, 12, TileSide.MIRAGE)) == "place tile on 12 mirage"
    assert action_label(TakeLegTicket(0, Camel.WHITE)) == "leg ticket white"


@pytest.mark.parametrize(
    ("board", "tiles"),
    [
        # white carries red: the only-carrier exception moves white whichever colour shows
        ({9: "cW R", 8: "B", 10: "G", 11: "Y", 12: "P", 14: "cK"}, []),
        # white sits directly on black: the upper one moves (top-of-other); a booing tile on 6
        ({5: "B", 7: "cK cW", 9: "G R", 11: "Y", 12: "P"}, [(6, 1, TileSide.BOOING)]),
    ],
)
def test_grey_faces_that_move_the_same_camel_count_twice_and_agree_with_apply(
    board: dict[int, str], tiles: list[tuple[int, int, TileSide]]
) -> None:
    """Where a crazy-camel exception makes both colours move the same camel, the oracle reveals
    each number once for its two faces (crazy.select.only-carrier, crazy.select.top-of-other):
    the figures must still be those of the enumeration through apply, face by face."""
    state = build(
        ruleset("second"), board, tiles=tiles, revealed=["B", "G"], pyramid_tickets={0: 2}
    )
    by_white = crazy.choose_crazy_camel(state.track, Camel.CRAZY_WHITE)[0]
    assert by_white is crazy.choose_crazy_camel(state.track, Camel.CRAZY_BLACK)[0]
    _same_as_apply(state)


def test_a_finished_game_has_no_odds() -> None:
    rules = ruleset("first")
    state = build(rules, {16: "B G O Y W"})
    over = apply(state, TakePyramidTicket(0, DieRoll(Die.BLUE, 1))).state
    assert over.is_over
    with pytest.raises(GameOver):
        leg_odds(over)


# --- hypothesis: the oracle equals the enumeration through apply ---------------------------


@st.composite
def _positions(draw: st.DrawFn, dice_left: int = 2) -> State:
    """A reachable position (any rule set and variant) with at most ``dice_left`` dice still to
    come in the leg: some play, then up to 40 pyramid actions (into later legs, nearer the
    line), then the pyramid action until the leg is that far on."""
    state = draw(cst.states(cst.rulesets(), max_steps=30))
    for _ in range(draw(st.integers(0, 40))):
        if state.is_over:
            break
        roll = draw(cst.a_chance_outcome(state))
        later = apply(state, TakePyramidTicket(state.to_move, roll)).state
        if later.is_over:
            break  # keep the position before the end, where the race can still end
        state = later
    for _ in range(draw(st.integers(0, 4))):  # tiles and leg tickets in this leg
        if not state.is_over:
            kinds = (PlaceTile, MoveTile, TakeLegTicket)
            choices = [a for a in legal_actions(state) if isinstance(a, kinds)]
            state = apply(state, draw(st.sampled_from(choices))).state
    while not state.is_over and state.ruleset.dice_per_leg - len(state.revealed) > dice_left:
        roll = draw(cst.a_chance_outcome(state))
        state = apply(state, TakePyramidTicket(state.to_move, roll)).state
    return state


def _same_as_apply(state: State) -> None:
    odds = leg_odds(state)
    # the moves shared across tile layouts (first filled with no tile at all) give the same odds
    shared = _SharedMoves(state.ruleset)
    _layout_odds(state, (), shared)
    assert _layout_odds(state, state.tiles, shared) == odds
    slow = summary(state)
    assert odds.sequences == slow.sequences
    assert odds.places() == {c: tuple(row) for c, row in slow.places.items()}
    assert odds.race_end == slow.race_end
    assert odds.race_end_sequences <= odds.sequences
    for seat in range(state.ruleset.players):
        assert odds.tile_coins(seat) == slow.tile_coins.get(seat, 0)
        held = state.players[seat].leg_tickets
        assert sum((odds.ticket_value(t) for t in held), F(0)) == slow.ticket_rewards.get(seat, 0)


@settings(max_examples=60)
@given(_positions())
def test_the_oracle_equals_the_enumeration_through_apply(state: State) -> None:
    assume(not state.is_over)
    _same_as_apply(state)


def _value_by_apply(state: State, action: Any) -> Fraction:
    """What ``action`` is worth to the player to move, by enumerating through apply: their tile
    coins and ticket rewards after it, minus those without it."""
    seat = state.to_move
    before = summary(state)
    after = summary(apply(state, action).state)

    def total(s: Any) -> Fraction:
        return F(s.tile_coins.get(seat, 0)) + F(s.ticket_rewards.get(seat, 0))

    return total(after) - total(before)


@settings(max_examples=10)
@given(_positions(dice_left=1))
def test_action_values_equal_the_enumeration_through_apply(state: State) -> None:
    assume(not state.is_over)
    values = action_values(state)
    for value in values:
        if type(value.action) in (PlaceTile, MoveTile, TakeLegTicket):
            assert value.value == _value_by_apply(state, value.action), value.action
        else:
            assert value.value == 1  # a pyramid ticket pays 1 (leg.score.pyramid)
    assert [v.value for v in values] == sorted((v.value for v in values), reverse=True)
    kinds = {type(a) for a in legal_actions(state)} & {PlaceTile, MoveTile, TakeLegTicket}
    assert kinds <= {type(v.action) for v in values}


@settings(max_examples=15)
@given(_positions(dice_left=3))
def test_tile_values_in_one_pass_equal_the_leg_enumerated_with_each_layout(state: State) -> None:
    # action_values values every tile layout in one pass over the leg without the player's tile;
    # here each layout is enumerated on its own, with the tiles apply leaves
    assume(not state.is_over)
    odds = leg_odds(state)
    seat = state.to_move
    held = state.players[seat].leg_tickets
    checked = 0
    for value in action_values(state, odds):
        if type(value.action) in (PlaceTile, MoveTile):
            new = leg_odds(state, apply(state, value.action).state.tiles)
            assert value.tile_coins == new.tile_coins(seat), value.action
            change = sum((new.ticket_value(t) - odds.ticket_value(t) for t in held), F(0))
            assert value.ticket_change == change, value.action
            checked += 1
    tile_actions = [a for a in legal_actions(state) if type(a) in (PlaceTile, MoveTile)]
    assert checked == len(tile_actions)


# --- the rules are shared: a patched rule changes play and odds ----------------------------


def _changes_both(
    monkeypatch: pytest.MonkeyPatch,
    state: State,
    roll: DieRoll,
    module: Any,
    name: str,
    wrong: Callable[..., Any],
) -> None:
    action = TakePyramidTicket(state.to_move, roll)
    played, odds = apply(state, action).state, leg_odds(state)
    monkeypatch.setattr(module, name, wrong(getattr(module, name)))
    patched_play, patched_odds = apply(state, action).state, leg_odds(state)
    assert patched_play.track != played.track or patched_play.players != played.players
    assert patched_odds.places() != odds.places() or patched_odds.tile_weights != odds.tile_weights


def test_a_patched_movement_rule_changes_play_and_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset("first")
    state = build(
        rules,
        {3: "B G", 9: "O", 10: "Y", 11: "W"},
        revealed=["O", "Y", "W"],
        pyramid_tickets={0: 3},
    )

    def carry_nothing(lift: Callable[..., Any]) -> Callable[..., Any]:
        def lift_alone(track: list[Any], camel: Camel) -> Any:
            space, unit = lift(track, camel)
            index = space + 2
            track[index] = track[index] + unit[1:]  # the camels above stay behind
            return space, unit[:1]

        return lift_alone

    _changes_both(monkeypatch, state, DieRoll(Die.BLUE, 1), movement, "lift_unit", carry_nothing)


def test_a_patched_crazy_camel_rule_changes_play_and_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset("second")
    # white carries red: the only-carrier exception moves white whatever the colour
    state = build(
        rules,
        {9: "cW R", 8: "B", 10: "G", 11: "Y", 12: "P", 14: "cK"},
        revealed=["B", "G", "Y", "P"],
        pyramid_tickets={0: 4},
    )

    def colour_only(choose: Callable[..., Any]) -> Callable[..., Any]:
        return lambda track, colour: (colour, "crazy.select.colour")

    roll = DieRoll(Die.GREY, 1, Camel.CRAZY_BLACK)
    _changes_both(monkeypatch, state, roll, crazy, "choose_crazy_camel", colour_only)


def test_a_patched_tile_rule_changes_play_and_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset("first")
    state = build(
        rules,
        {5: "B", 8: "G", 10: "O", 11: "Y", 12: "W"},
        tiles=[(7, 1, TileSide.OASIS)],
        revealed=["G", "O", "Y", "W"],
        pyramid_tickets={0: 4},
    )

    def reversed_tile(step: Callable[..., Any]) -> Callable[..., Any]:
        return lambda track, rules, tile, unit, direction, events=None: step(
            track, rules, tile, unit, -direction, events
        )

    _changes_both(monkeypatch, state, DieRoll(Die.BLUE, 2), movement, "tile_step", reversed_tile)


def test_a_patched_whirlwind_rule_changes_play_and_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = ruleset("first", whirlwind=True)
    state = build(
        rules,
        {6: "B", 10: "G", 11: "O", 12: "Y", 13: "W"},
        revealed=["G", "O", "Y", "W"],
        pyramid_tickets={0: 4},
    )

    def no_arrows(walk: Callable[..., Any]) -> Callable[..., Any]:
        return lambda track, unit, origin, pips, *_, **__: origin + pips  # no arrows

    roll = DieRoll(Die.BLUE, 2)
    _changes_both(monkeypatch, state, roll, whirlwind, "whirlwind_destination", no_arrows)


def test_tile_values_leave_the_collector_as_they_found_it() -> None:
    """The tile values move their objects out of the collector's young generations between
    layouts (gc.freeze then gc.unfreeze): nothing stays frozen and the collector stays enabled,
    as each value is handed out, when they are abandoned and when they are done."""
    state = one_die_left()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    values = iter_action_values(state, tickets=False)
    first = next(values)
    assert type(first.action) in (PlaceTile, MoveTile)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    values.close()  # abandoned
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert len(list(iter_action_values(state, tickets=False))) > 1
    assert gc.isenabled() and gc.get_freeze_count() == 0


def _loaded(fair: Callable[..., Any]) -> Callable[..., Any]:
    """A wrong chance rule: the grey die comes out twice as often as a racing die, and every die
    shows a 3 twice as often as a 1 or a 2."""

    def roll_chances(pyramid: tuple[Die, ...]) -> tuple[tuple[DieRoll, Fraction], ...]:
        draws = {die: 2 if die is Die.GREY else 1 for die in pyramid}
        total = sum(draws.values())
        return tuple(
            (
                roll,
                F(draws[roll.die], total)
                * (F(1, 2) if roll.value == 3 else F(1, 4))
                * (F(1, 2) if roll.die is Die.GREY else 1),
            )
            for roll, _ in fair(pyramid)
        )

    return roll_chances


def test_a_patched_chance_rule_changes_play_and_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chance_outcomes`` and the odds take the dice's chances from one rule
    (``move.pyramid.chance``, ``race.roll_chances``): load the dice there and the odds still
    equal the enumeration through apply, with the loaded chances."""
    state = build(
        ruleset("second"),
        {9: "cW R", 8: "B", 10: "G", 11: "Y", 12: "P", 14: "cK"},
        revealed=["B", "G"],
        pyramid_tickets={0: 2},
    )
    fair = leg_odds(state)
    monkeypatch.setattr(race, "roll_chances", _loaded(race.roll_chances))
    chances = dict(chance_outcomes(state))  # red, yellow, purple and grey in the pyramid
    assert chances[DieRoll(Die.GREY, 3, Camel.CRAZY_WHITE)] == F(2, 5) * F(1, 4)
    assert chances[DieRoll(Die.RED, 1)] == F(1, 5) * F(1, 4)
    assert sum(chances.values()) == 1
    assert leg_odds(state).places() != fair.places()
    _same_as_apply(state)


# --- whole races ---------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["first", "second"])
def test_monte_carlo_agrees_with_the_exact_odds_when_the_race_ends_in_the_leg(
    edition: str,
) -> None:
    rules = ruleset(edition)
    if edition == "first":  # white on 16 crosses when its die comes out, and it will this leg
        board = {12: "B", 13: "G", 14: "O Y", 16: "W"}
    else:  # four of the five racing dice come out, and each of these camels crosses with any
        board = {15: "B", 16: "G R Y P", 3: "cW", 5: "cK"}
    state = build(rules, board)
    exact = leg_odds(state)
    assert exact.race_end == 1
    races = 4000
    estimates = race_estimates(state, races, seed=7)
    for camel in rules.racing_camels:
        for estimate, place in ((estimates.winner[camel], 1), (estimates.loser[camel], 5)):
            p = float(exact.place(camel, place))
            sigma = math.sqrt(p * (1 - p) / races)
            assert abs(estimate.value - p) <= 4 * sigma + 1e-12, (camel, place)
            assert estimate.low <= estimate.value <= estimate.high
    assert sum(estimates.winner_counts.values()) == races
    assert race_estimates(state, 500, seed=3) == race_estimates(state, 500, seed=3)


def test_monte_carlo_draws_the_dice_by_the_chance_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loaded dice (``race.roll_chances`` patched): the races follow the loaded odds, which the
    fair ones are too far from to pass for them (yellow wins 42% loaded, 37% fair)."""
    state = build(ruleset("first"), {12: "B", 13: "G", 14: "O Y", 16: "W"})
    fair = leg_odds(state)
    monkeypatch.setattr(race, "roll_chances", _loaded(race.roll_chances))
    loaded = leg_odds(state)
    assert loaded.race_end == 1
    races = 4000
    estimates = race_estimates(state, races, seed=7)
    worst_fair = 0.0
    for camel in state.ruleset.racing_camels:
        for estimate, place in ((estimates.winner[camel], 1), (estimates.loser[camel], 5)):
            p = float(loaded.place(camel, place))
            sigma = math.sqrt(p * (1 - p) / races)
            assert abs(estimate.value - p) <= 4 * sigma + 1e-12, (camel, place)
            worst_fair = max(
                worst_fair, abs(estimate.value - float(fair.place(camel, place))) / sigma
            )
    assert worst_fair > 6


def test_monte_carlo_in_two_processes_counts_every_race(capsys: pytest.CaptureFixture[str]) -> None:
    state = _fresh("second")
    estimates = race_estimates(state, 300, seed=1, jobs=2)
    assert sum(estimates.winner_counts.values()) == sum(estimates.loser_counts.values()) == 300


class _SlowResults:
    """A pool's results that never come by themselves: ``next`` without a time limit waits
    until the gate opens; with one, it waits for its limit and says it ran out (as the
    pool's do)."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def __iter__(self) -> _SlowResults:
        return self

    def __next__(self) -> Any:
        return self.next()

    def next(self, timeout: float | None = None) -> Any:
        if not self.gate.wait(timeout):
            raise multiprocessing.TimeoutError
        return ({}, {})


def test_a_signal_taken_by_another_thread_still_stops_the_race_workers_run() -> None:
    # The kernel gives a process's signal to any thread that does not block it, and then the
    # main thread, waiting for the workers, is not woken: its handler runs only when it next
    # runs Python code. In the command line the first SIGINT was lost this way about once in
    # forty runs, and the command, told to stop, ran on (tests/test_hostile_inputs.py's
    # interrupted race waited 60 s, then left the workers running). The wait is now a second
    # at a time. Without that, the signal would stop nothing until the watchdog opened the gate.
    results, late = _SlowResults(), threading.Event()

    class Pool:
        def imap(self, function: Any, jobs: Any) -> _SlowResults:
            return results

        def terminate(self) -> None:
            results.gate.set()

    def too_late() -> None:
        late.set()
        results.gate.set()

    interrupt = threading.Timer(
        0.2, lambda: signal.pthread_kill(threading.get_ident(), signal.SIGINT)
    )
    watchdog = threading.Timer(5.0, too_late)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # whatever pytest's is
    interrupt.start()
    watchdog.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            race_estimates(_fresh("second"), 2, jobs=2, start_pool=lambda processes: Pool())
    finally:
        interrupt.cancel()
        watchdog.cancel()
        results.gate.set()
        signal.signal(signal.SIGINT, previous)
    assert not late.is_set()


# --- the command line ----------------------------------------------------------------------


def test_cli_json_gives_exact_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = one_die_left()
    path = tmp_path / "state.json"
    path.write_text(dumps(state))
    done = run_cli_completed(capsys, "odds", str(path), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["places"]["blue"] == ["0/1", "0/1", "0/1", "2/3", "1/3"]
    assert out["race_end"] == "0/1"
    assert out["sequences"] == 3
    table = run_cli_completed(capsys, "odds", str(path))
    assert table.returncode == 0 and "leg ticket" in table.stdout


def test_cli_prints_tickets_first_then_tiles_and_the_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = build(
        ruleset("first"),
        {5: "B", 6: "G", 9: "O", 10: "Y", 11: "W"},
        revealed=["G", "O", "Y"],
        pyramid_tickets={0: 3},
    )
    path = tmp_path / "state.json"
    path.write_text(dumps(state))
    lines = run_cli_completed(capsys, "odds", str(path)).stdout.splitlines()
    tickets = next(i for i, line in enumerate(lines) if line.startswith("(leg odds and tickets in"))
    tiles = lines.index(f"tile actions for seat {state.to_move}:")
    assert any("leg ticket" in line for line in lines[:tickets])
    assert not any("place tile" in line for line in lines[:tiles])
    placed = [line for line in lines[tiles:] if line.startswith("  ") and "place tile on" in line]
    expected = [v for v in action_values(state) if type(v.action) is PlaceTile]
    assert len(placed) == len(expected) > 0
    assert lines[-1].startswith("(all in ") and lines[-1].endswith(" s)")
    short = run_cli_completed(capsys, "odds", str(path), "--no-tiles").stdout
    assert "leg ticket" in short and "place tile" not in short
    compact = json.loads(
        run_cli_completed(capsys, "odds", str(path), "--json", "--no-tiles").stdout
    )
    assert compact["actions"] and all("tile" not in a["action"]["type"] for a in compact["actions"])


def test_cli_bad_state_is_one_line_with_a_pointer_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    document = json.loads(dumps(_fresh("first")))
    document["to_move"] = 99
    path.write_text(json.dumps(document))
    done = run_cli_completed(capsys, "odds", str(path))
    assert done.returncode == 3
    assert len(done.stderr.strip().splitlines()) == 1
    assert "#/to_move" in done.stderr


def test_cli_finished_game_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = build(ruleset("first"), {16: "B G O Y W"})
    over = apply(state, TakePyramidTicket(0, DieRoll(Die.BLUE, 1))).state
    path = tmp_path / "over.json"
    path.write_text(dumps(over))
    done = run_cli_completed(capsys, "odds", str(path))
    assert done.returncode == 2
    assert "game is over" in done.stderr


def test_cli_race_count_out_of_bounds_is_a_usage_error_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    path.write_text(dumps(_fresh("first")))
    for races in ("0", "1000000000000"):
        done = run_cli_completed(capsys, "odds", str(path), "--no-tiles", "--race", races)
        assert done.returncode == 2
        assert done.stderr == "camelup odds: --race N needs 1 <= N <= 100,000,000\n"


# --- conformance: the odds check and the odds capability ----------------------------------

REPO = Path(__file__).resolve().parent.parent


def _odds_case() -> Any:
    from camelup.harness.suite import parse_case

    raw = json.loads((REPO / "conformance/cases/first/odds.json").read_text())["cases"][1]
    return parse_case(raw, "odds", "first/odds.json", 1)


def test_odds_checks_compare_exact_fractions_whatever_their_spelling() -> None:
    from camelup.harness.compare import SOLVER, compare

    case = _odds_case()
    odds = dict(case.checks[0].odds)
    reply = {
        "odds": {
            "0": {**odds, "places": {**odds["places"], "blue": ["0/3", "0/1", "0/2", "4/6", "2/6"]}}
        }
    }
    assert compare(case, reply, SOLVER) == []
    reply["odds"]["0"]["places"]["blue"] = ["0/1", "0/1", "0/1", "1/3", "2/3"]
    reply["odds"]["0"]["sequences"] = 4
    [mismatch] = compare(case, reply, SOLVER)
    assert len(mismatch.diff) == 2 and "sequences" in mismatch.diff[1]


def test_partial_odds_compares_the_figures_given_and_names_the_others() -> None:
    from camelup.harness.compare import compare

    case = _odds_case()
    odds = case.checks[0].odds
    partial = frozenset({"odds", "partial_odds"})
    rows = {camel: [row[0], row[1], None, None, row[-1]] for camel, row in odds["places"].items()}
    assert compare(case, {"odds": {"0": {"places": rows}}}, partial) == []  # all it gives agree
    wrong = {**rows, "blue": ["1/1", *rows["blue"][1:]]}
    [mismatch] = compare(case, {"odds": {"0": {"places": wrong}}}, partial)
    assert mismatch.diff[0].startswith("places of blue")
    assert mismatch.diff[-1] == (
        "not given, so not compared: place 3 (every camel), place 4 (every camel), race end,"
        " sequences"
    )
    # A null is a wrong figure for an adapter that did not declare partial_odds ...
    [mismatch] = compare(case, {"odds": {"0": {"places": rows}}}, frozenset({"odds"}))
    assert len(mismatch.diff) == len(rows) + 2  # every row, the race end, the sequences
    # ... and for one that did, a reply giving no figure at all does not pass, nor one that
    # leaves out a whole camel.
    empty = {camel: [None] * len(row) for camel, row in odds["places"].items()}
    [mismatch] = compare(case, {"odds": {"0": {"places": empty}}}, partial)
    assert mismatch.diff[0].startswith("none of the figures was given")
    [mismatch] = compare(case, {"odds": {"0": {}}}, partial)
    assert all(line.endswith("actual null") for line in mismatch.diff[: len(rows)])


def test_an_odds_check_needs_a_given_state_and_after_0() -> None:
    from camelup.harness.suite import parse_case

    raw = json.loads((REPO / "conformance/cases/first/odds.json").read_text())["cases"][1]
    with pytest.raises(ValueError, match=r"^/expect/0/after: expected 0, got 1"):
        parse_case(
            {
                **raw,
                "steps": [{"action": {"type": "x"}}],
                "expect": [{"after": 1, "odds": {"sequences": 3}}],
            },
            "odds",
            "f.json",
        )
    with pytest.raises(
        ValueError, match=r'^/expect/0/odds/race_end: "0\.5" is not an exact probability'
    ):
        parse_case({**raw, "expect": [{"after": 0, "odds": {"race_end": "0.5"}}]}, "odds", "f.json")


def test_the_toy_solver_gets_only_odds_cases_and_fails_on_its_six_dice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    toy = f"{sys.executable} {REPO / 'docs' / 'toy_adapter.py'} --odds"
    done = run_cli_completed(capsys, "conformance", "run", "--adapter", toy, "--format", "jsonl")
    assert done.returncode == 1, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    cases = [r for r in results if "id" in r and "verdict" in r]
    failed = {r["id"] for r in cases if r["verdict"] == "failed"}
    assert "crazy.select.only-carrier/odds-grey-or-blue" in failed
    ran = {r["id"] for r in cases if r["verdict"] in ("passed", "failed")}
    assert ran and all("/odds-" in case_id for case_id in ran)


def test_cli_takes_a_position_from_the_suite(capsys: pytest.CaptureFixture[str]) -> None:
    case = "tile.land.backward/odds-one-die-mirage"
    done = run_cli_completed(capsys, "odds", "--case", case, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sequences"] == 3
    later = run_cli_completed(capsys, "odds", "--case", case, "--after", "1")
    assert later.returncode == 2 and "has steps 0 to 0" in later.stderr  # as render says
    missing = run_cli_completed(capsys, "odds", "--case", "no.such/case")
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


def test_cli_after_k_steps_of_a_case_is_that_position(capsys: pytest.CaptureFixture[str]) -> None:
    from camelup.harness.adapter import run_case
    from camelup.harness.suite import load_suite
    from camelup.io.codec import state_from_json

    case = load_suite().find("move.racing.clockwise/by-the-value")
    assert case is not None and case.steps
    reply = run_case(case.wire())
    state = state_from_json(reply["steps"][0]["state"])
    done = run_cli_completed(capsys, "odds", "--case", case.id, "--after", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sequences"] == leg_odds(state).sequences

"""The named variants of the rulings register (spec/rulings.md), each against its default.

- ``start-marker-rotates`` (RUL-02, first): the marker passes to its holder's left neighbour.
- ``crazy-finish-needs-racing`` (RUL-04, RUL-24, second): a crazy unit without racing camels
  wraps past space 1 to 16, 15, ...
- ``whirlwind-second-edition`` (RUL-14, RUL-49): crazy-led units ignore the arrows; crazy
  camels count in condition (a) for leaving space 8, but not in (b).
- ``final-scoring-net`` (RUL-43): each player's cards of one pile are settled in one payment.
- ``tile-move-old-space-blocks`` (RUL-26): a moved tile cannot go next to its old space.
"""

from __future__ import annotations

import pytest

from camelup import Camel, MoveTile, PlaceTile, TileSide, Variant, apply, legal_actions
from camelup.model.events import (
    FinishCardScored,
    RaceEnded,
    StartPlayerPassed,
    TilePaid,
    UnitMoved,
    WhirlwindStep,
)
from helpers import assert_illegal, board, build, camels, events_of, money, pyramid, ruleset

# --- start-marker-rotates ---------------------------------------------------------------------


def leg_end_state(variants: tuple[Variant, ...], start: int, last_taker: int) -> object:
    return build(
        ruleset("first", 4, variants=variants),
        {3: "W", 4: "Y", 5: "O", 8: "B", 9: "G"},
        pyramid_tickets={1: 4},
        revealed=["O", "Y", "W", "B"],
        to_move=last_taker,
        start_player=start,
    )


@pytest.mark.clause("leg.start-player.rotate")
@pytest.mark.parametrize(
    ("start", "last_taker", "rotated", "default"), [(0, 2, 1, 3), (3, 1, 0, 2), (1, 1, 2, 2)]
)
def test_start_marker_rotates_from_its_holder(
    start: int, last_taker: int, rotated: int, default: int
) -> None:
    variant = pyramid(leg_end_state((Variant.START_MARKER_ROTATES,), start, last_taker), "G", 1)  # type: ignore[arg-type]
    assert events_of(variant, StartPlayerPassed) == [
        StartPlayerPassed(rotated, "leg.start-player.rotate")
    ]
    assert (variant.state.start_player, variant.state.to_move) == (rotated, rotated)
    plain = pyramid(leg_end_state((), start, last_taker), "G", 1)  # type: ignore[arg-type]
    assert events_of(plain, StartPlayerPassed) == [StartPlayerPassed(default, "leg.start-player")]
    assert (plain.state.start_player, plain.state.to_move) == (default, default)


# --- crazy-finish-needs-racing ----------------------------------------------------------------

WRAP = ruleset("second", 3, variants=(Variant.CRAZY_FINISH_NEEDS_RACING,))


@pytest.mark.clause("crazy.wrap", "move.unit.lands-on-top")
def test_a_lone_crazy_camel_wraps_past_1_to_16_15_and_lands_on_top() -> None:
    state = build(WRAP, {2: "cW", 5: "B G R Y", 15: "P cK"})
    result = pyramid(state, "grey", 3, "cW")  # 2 -> 1 -> 16 -> 15
    assert not result.state.is_over
    assert board(result.state) == {5: "B G R Y", 15: "P cK cW"}
    assert events_of(result, UnitMoved) == [
        UnitMoved((Camel.CRAZY_WHITE,), 2, 15, "top", "crazy.move.counterclockwise")
    ]


@pytest.mark.clause("crazy.wrap")
def test_a_lone_crazy_camel_on_1_moving_1_goes_to_16() -> None:
    state = build(WRAP, {1: "cK", 5: "B G R Y", 16: "P", 10: "cW"})
    result = pyramid(state, "grey", 1, "cK")
    assert not result.state.is_over
    assert board(result.state) == {5: "B G R Y", 10: "cW", 16: "P cK"}


@pytest.mark.clause("crazy.wrap", "end.crossing.crazy", "rank.carried-backwards")
def test_a_crazy_camel_carrying_a_racing_camel_still_ends_the_race() -> None:
    state = build(WRAP, {2: "cK B", 5: "G R Y P", 10: "cW"})
    result = pyramid(state, "grey", 3, "cW")  # only-carrier: cK moves with B, past space 1
    assert result.state.is_over
    assert events_of(result, RaceEnded) == [
        RaceEnded(camels(WRAP, "cK B"), "counterclockwise", "end.crossing.crazy")
    ]


@pytest.mark.clause("crazy.wrap", "tile.land.crazy-reversed", "tile.land.pay-owner")
def test_a_wrapped_crazy_camel_booed_off_16_wraps_onto_1_underneath() -> None:
    # RUL-24: cW 2 -> 1 -> 16 (booing, seat 1: +1) -> one space clockwise past 16 -> space 1,
    # underneath B there, and the race goes on
    state = build(WRAP, {1: "B", 2: "cW", 5: "G R Y P", 10: "cK"}, tiles=[(16, 1, TileSide.BOOING)])
    result = pyramid(state, "grey", 2, "cW")
    assert not result.state.is_over
    assert board(result.state) == {1: "cW B", 5: "G R Y P", 10: "cK"}
    assert money(result.state) == [3, 4, 3]
    assert events_of(result, TilePaid) == [TilePaid(1, 16, 1)]


@pytest.mark.clause("crazy.wrap", "tile.land.crazy-reversed", "tile.land.forward")
def test_a_wrapped_crazy_camel_cheered_on_15_goes_on_to_14() -> None:
    state = build(
        WRAP, {2: "cW", 5: "B G R Y", 14: "P", 10: "cK"}, tiles=[(15, 2, TileSide.CHEERING)]
    )
    result = pyramid(state, "grey", 3, "cW")  # 2 -> 15 (cheering) -> 14 on top of P
    assert board(result.state) == {5: "B G R Y", 10: "cK", 14: "P cW"}
    assert money(result.state) == [3, 3, 4]


# --- whirlwind-second-edition -----------------------------------------------------------------

WW2 = ruleset("second", 4, whirlwind=True, variants=(Variant.WHIRLWIND_SECOND_EDITION,))


@pytest.mark.clause("whirlwind.crazy-by-number")
@pytest.mark.parametrize(
    ("start", "pips", "end"), [(9, 3, 6), (8, 1, 7), (7, 2, 5), (6, 1, 5), (10, 3, 7)]
)
def test_a_crazy_camel_ignores_the_arrows(start: int, pips: int, end: int) -> None:
    state = build(WW2, {1: "B G R Y P", start: "cW", 16: "cK"})
    result = pyramid(state, "grey", pips, "cW")
    assert board(result.state) == {1: "B G R Y P", end: "cW", 16: "cK"}
    assert events_of(result, WhirlwindStep) == []


@pytest.mark.clause("whirlwind.crazy-by-number", "whirlwind.bounce", "crazy.carry")
def test_a_racing_camel_carrying_a_crazy_camel_follows_the_arrows() -> None:
    state = build(WW2, {1: "P", 2: "G", 3: "R", 4: "Y", 5: "B cW", 16: "cK"})
    result = pyramid(state, "B", 3)  # 5 -> 6 -> 8 -> back to 7 (nobody on 6-8, others behind)
    assert board(result.state) == {1: "P", 2: "G", 3: "R", 4: "Y", 7: "B cW", 16: "cK"}


@pytest.mark.clause("whirlwind.crazy-by-number", "whirlwind.leave-eight")
def test_a_crazy_camel_on_7_satisfies_condition_a() -> None:
    state = build(WW2, {1: "P", 2: "G", 3: "R", 4: "Y", 7: "cK", 8: "B", 16: "cW"})
    result = pyramid(state, "B", 1)
    assert board(result.state) == {1: "P", 2: "G", 3: "R", 4: "Y", 7: "cK", 9: "B", 16: "cW"}


@pytest.mark.clause("whirlwind.crazy-by-number", "whirlwind.leave-eight")
@pytest.mark.parametrize("crazy_space", [3, 14])
def test_condition_b_looks_at_racing_camels_only(crazy_space: int) -> None:
    # RUL-49 (as revised): every other *racing* camel is on 9 or beyond, so B leaves 8 for 9
    # even with a crazy camel behind space 9
    state = build(WW2, {8: "B", 10: "G", 11: "R", 12: "Y", 13: "P", crazy_space: "cW", 16: "cK"})
    result = pyramid(state, "B", 1)
    assert board(result.state)[9] == "B"


@pytest.mark.clause("whirlwind.crazy-by-number", "whirlwind.leave-eight", "whirlwind.bounce")
def test_a_racing_camel_behind_space_9_still_fails_condition_b() -> None:
    state = build(WW2, {4: "G", 8: "B", 11: "R", 12: "Y", 13: "P", 14: "cW", 16: "cK"})
    result = pyramid(state, "B", 1)
    assert board(result.state)[7] == "B"


@pytest.mark.clause("whirlwind.no-tiles", "whirlwind.crazy-by-number")
@pytest.mark.parametrize("side", [TileSide.CHEERING, TileSide.BOOING])
def test_spectator_tiles_are_barred_from_the_whirlwind(side: TileSide) -> None:
    state = build(WW2, {1: "B G R Y P", 14: "cW cK"})
    for space in (6, 7, 8):
        assert_illegal(state, PlaceTile(0, space, side), "tile-whirlwind", "whirlwind.no-tiles")


# --- final-scoring-net ------------------------------------------------------------------------


@pytest.mark.clause("final.net", "money.floor", "final.pile-sequence")
def test_final_scoring_net_settles_each_pile_once_per_player() -> None:
    rules = ruleset("first", 4, variants=(Variant.FINAL_SCORING_NET,))
    state = build(
        rules,
        {2: "B O Y W", 16: "G"},  # winner G, loser B
        money=[3, 0, 0, 1],
        winner_pile=[(1, "B"), (2, "O"), (1, "G"), (3, "Y")],
        loser_pile=[(2, "B"), (3, "O")],
    )
    result = pyramid(state, "G", 1)
    # seat 1: winner pile -1 + 8 = 7 in one payment -> 7 (card by card: 8)
    # seat 2: winner pile -1 -> 0; then loser pile +8 -> 8
    # seat 3: winner pile -1 -> 0; loser pile -1 -> 0. seat 0: +1 pyramid -> 4
    assert money(result.state) == [4, 7, 8, 0]
    assert result.state.result is not None and result.state.result.winners == (2,)
    cards = events_of(result, FinishCardScored)
    assert {c.clause for c in cards} == {"final.net"}
    assert sum(c.paid for c in cards if c.owner == 1) == 7


# --- tile-move-old-space-blocks ---------------------------------------------------------------


@pytest.mark.clause("tile.move.old-space-blocks")
@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_moved_tile_cannot_go_next_to_its_old_space(edition: str) -> None:
    rules = ruleset(edition, 4, variants=(Variant.TILE_MOVE_OLD_SPACE_BLOCKS,))
    side = TileSide.OASIS if edition == "first" else TileSide.CHEERING
    layout = {1: "B G O Y W"} if edition == "first" else {1: "B G R Y P", 14: "cW cK"}
    state = build(rules, layout, tiles=[(5, 0, side)])
    for space in (4, 6):
        assert_illegal(
            state, MoveTile(0, space, side), "tile-adjacent", "tile.move.old-space-blocks"
        )
    assert [t.space for t in apply(state, MoveTile(0, 7, side)).state.tiles] == [7]
    offered = {a.space for a in legal_actions(state) if type(a) is MoveTile}
    assert {4, 5, 6}.isdisjoint(offered) and {3, 7} <= offered
    default = build(ruleset(edition, 4), layout, tiles=[(5, 0, side)])
    assert {4, 6} <= {a.space for a in legal_actions(default) if type(a) is MoveTile}

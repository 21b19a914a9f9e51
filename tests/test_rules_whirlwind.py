"""Chapter 8, the whirlwind module (first edition): spec/08-whirlwind.md, SEED-WW's examples.

Expected positions are worked out by hand from the module's text (SEED-WW, dossier §5.1):
leaving 6 goes to 8, leaving 7 goes to 6, leaving 8 goes to 9 only under condition (a) or (b)
and otherwise back to 7; every arrow step uses one pip.
"""

from __future__ import annotations

import pytest

from camelup import MoveTile, PlaceTile, TileSide, ranking
from camelup.model.events import TilePaid, UnitMoved, WhirlwindStep
from helpers import assert_illegal, board, build, camels, events_of, money, pyramid, ruleset

WW = ruleset("first", 4, whirlwind=True)
PLAIN = ruleset("first", 4)


def steps(result: object) -> list[tuple[int, int, str]]:
    return [(e.from_space, e.to_space, e.clause) for e in events_of(result, WhirlwindStep)]  # type: ignore[arg-type]


# --- WW-EX1: the orange camel on 5 rolls a 3 ---------------------------------------------------

EX1_BOARD = {1: "G", 2: "Y", 4: "B W", 5: "O"}  # the others unstated: put on spaces <= 4


@pytest.mark.clause("whirlwind.leave-six", "whirlwind.bounce", "whirlwind.step-per-pip")
def test_ww_ex1_orange_rolls_three_goes_6_8_then_back_to_7() -> None:
    state = build(WW, EX1_BOARD)
    result = pyramid(state, "O", 3)
    # 5 -> 6 (plain step), 6 -> 8 (arrow), 8 -> 7 (no camel on 6-8, others not all >= 9)
    assert board(result.state) == {1: "G", 2: "Y", 4: "B W", 7: "O"}
    assert steps(result) == [(6, 8, "whirlwind.leave-six"), (8, 7, "whirlwind.bounce")]
    moved = events_of(result, UnitMoved)
    assert [(m.unit, m.from_space, m.to_space) for m in moved] == [(camels(WW, "O"), 5, 7)]


@pytest.mark.clause("whirlwind.spaces", "whirlwind.leave-six", "whirlwind.step-per-pip")
@pytest.mark.parametrize(("pips", "space"), [(1, 6), (2, 8)])
def test_ww_ex1_shorter_rolls_stop_on_6_and_8(pips: int, space: int) -> None:
    result = pyramid(build(WW, EX1_BOARD), "O", pips)
    assert board(result.state) == {1: "G", 2: "Y", 4: "B W", space: "O"}


@pytest.mark.clause("whirlwind.spaces")
def test_without_the_module_orange_simply_moves_5_to_8() -> None:
    result = pyramid(build(PLAIN, EX1_BOARD), "O", 3)
    assert board(result.state) == {1: "G", 2: "Y", 4: "B W", 8: "O"}
    assert steps(result) == []


@pytest.mark.clause("whirlwind.leave-six", "whirlwind.step-per-pip")
def test_entering_the_whirlwind_from_4_with_three_pips_ends_on_8() -> None:
    # 4 -> 5 -> 6, then leaving 6 -> 8
    result = pyramid(build(WW, {1: "G", 2: "Y", 3: "W", 4: "B O"}), "O", 3)
    assert board(result.state) == {1: "G", 2: "Y", 3: "W", 4: "B", 8: "O"}


# --- WW-EX2: white with blue on top on space 8, the others not past 5 -------------------------

EX2_BOARD = {2: "G", 3: "O", 5: "Y", 8: "W B"}


@pytest.mark.clause("whirlwind.leave-eight", "move.stack.carry")
def test_ww_ex2a_blue_one_leaves_white_on_8_and_goes_to_9() -> None:
    result = pyramid(build(WW, EX2_BOARD), "B", 1)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", 8: "W", 9: "B"}
    assert steps(result) == [(8, 9, "whirlwind.leave-eight")]


@pytest.mark.clause("whirlwind.bounce", "whirlwind.leave-eight", "move.stack.carry")
def test_ww_ex2b_white_one_takes_the_unit_back_to_7() -> None:
    result = pyramid(build(WW, EX2_BOARD), "W", 1)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", 7: "W B"}
    assert steps(result) == [(8, 7, "whirlwind.bounce")]
    assert events_of(result, WhirlwindStep)[0].unit == camels(WW, "W B")


@pytest.mark.clause(
    "whirlwind.leave-seven", "whirlwind.leave-six", "whirlwind.bounce", "whirlwind.step-per-pip"
)
@pytest.mark.parametrize(
    ("pips", "space", "path"),
    [
        (1, 6, [(7, 6, "whirlwind.leave-seven")]),
        (2, 8, [(7, 6, "whirlwind.leave-seven"), (6, 8, "whirlwind.leave-six")]),
        # the step out of 8 checks the conditions again: still nobody on 6-8 -> back to 7
        (
            3,
            7,
            [
                (7, 6, "whirlwind.leave-seven"),
                (6, 8, "whirlwind.leave-six"),
                (8, 7, "whirlwind.bounce"),
            ],
        ),
    ],
)
def test_ww_ex2c_the_unit_moves_again_from_7(
    pips: int, space: int, path: list[tuple[int, int, str]]
) -> None:
    # continuing from EX2b (a later leg, the white die back in the pyramid)
    state = build(WW, {2: "G", 3: "O", 5: "Y", 7: "W B"})
    result = pyramid(state, "W", pips)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", space: "W B"}
    assert steps(result) == path


@pytest.mark.clause("whirlwind.leave-seven", "move.stack.carry")
def test_ww_ex2c_blue_alone_leaving_7_goes_to_6() -> None:
    result = pyramid(build(WW, {2: "G", 3: "O", 5: "Y", 7: "W B"}), "B", 1)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", 6: "B", 7: "W"}


# --- the exit conditions ------------------------------------------------------------------------


@pytest.mark.clause("whirlwind.leave-eight")
def test_condition_b_all_others_on_nine_or_beyond_lets_the_unit_out() -> None:
    state = build(WW, {8: "O", 9: "B", 10: "G W", 12: "Y"})
    one = pyramid(state, "O", 1)
    assert board(one.state) == {9: "B O", 10: "G W", 12: "Y"}
    three = pyramid(state, "O", 3)  # 8 -> 9 -> 10 -> 11
    assert board(three.state) == {9: "B", 10: "G W", 11: "O", 12: "Y"}


@pytest.mark.clause("whirlwind.leave-eight", "whirlwind.bounce")
def test_condition_b_fails_with_one_camel_behind() -> None:
    result = pyramid(build(WW, {4: "Y", 8: "O", 9: "B", 10: "G W"}), "O", 2)
    # 8 -> 7 (bounce), 7 -> 6
    assert board(result.state) == {4: "Y", 6: "O", 9: "B", 10: "G W"}


@pytest.mark.clause("whirlwind.leave-eight")
@pytest.mark.parametrize("other", [6, 7])
def test_condition_a_another_camel_on_6_or_7(other: int) -> None:
    result = pyramid(build(WW, {1: "B W", 2: "Y", other: "G", 8: "O"}), "O", 2)
    assert board(result.state) == {1: "B W", 2: "Y", other: "G", 10: "O"}


@pytest.mark.clause("whirlwind.leave-eight", "move.only-final-space", "whirlwind.step-per-pip")
def test_a_camel_passed_on_6_is_not_picked_up_and_counts_for_condition_a() -> None:
    # O on 7 moves 3: 7 -> 6 (passing G), 6 -> 8, then G on 6 satisfies (a): 8 -> 9
    result = pyramid(build(WW, {1: "B W", 2: "Y", 6: "G", 7: "O"}), "O", 3)
    assert board(result.state) == {1: "B W", 2: "Y", 6: "G", 9: "O"}


@pytest.mark.clause("whirlwind.bounce", "whirlwind.leave-six")
def test_a_bounce_then_arriving_on_6_lands_on_top_of_it() -> None:
    # O on 8 alone (nobody else on 6-8, Y behind): 8 -> 7 -> 6, on top of nothing; then
    # G rolls 1 from 5 onto 6 and lands on top of O there
    state = build(WW, {1: "B W", 2: "Y", 5: "G", 8: "O"})
    first = pyramid(state, "O", 2)
    assert board(first.state) == {1: "B W", 2: "Y", 5: "G", 6: "O"}
    second = pyramid(first.state, "G", 1)
    assert board(second.state) == {1: "B W", 2: "Y", 6: "O G"}


# --- tiles and the whirlwind ----------------------------------------------------------------------


@pytest.mark.clause("whirlwind.no-tiles")
@pytest.mark.parametrize("space", [6, 7, 8])
@pytest.mark.parametrize("side", [TileSide.OASIS, TileSide.MIRAGE])
def test_no_tile_may_be_placed_on_a_whirlwind_space(space: int, side: TileSide) -> None:
    state = build(WW, {1: "B G O Y W"})
    assert_illegal(state, PlaceTile(0, space, side), "tile-whirlwind", "whirlwind.no-tiles")


@pytest.mark.clause("whirlwind.no-tiles")
@pytest.mark.parametrize("space", [6, 7, 8])
def test_no_tile_may_be_moved_onto_a_whirlwind_space(space: int) -> None:
    state = build(WW, {1: "B G O Y W"}, tiles=[(12, 0, TileSide.OASIS)])
    assert_illegal(
        state, MoveTile(0, space, TileSide.MIRAGE), "tile-whirlwind", "whirlwind.no-tiles"
    )


@pytest.mark.clause("whirlwind.no-tiles", "tile.place.empty-space")
def test_spaces_5_and_9_and_the_plain_game_take_tiles() -> None:
    from camelup import apply

    state = build(WW, {1: "B G O Y W"})
    assert apply(state, PlaceTile(0, 5, TileSide.OASIS)).state.tile_at(5) is not None
    assert apply(state, PlaceTile(0, 9, TileSide.MIRAGE)).state.tile_at(9) is not None
    plain = build(PLAIN, {1: "B G O Y W"})
    assert apply(plain, PlaceTile(0, 7, TileSide.OASIS)).state.tile_at(7) is not None
    from camelup import legal_actions

    spaces = {a.space for a in legal_actions(state) if type(a) is PlaceTile}
    assert spaces == set(range(2, 17)) - {6, 7, 8}


@pytest.mark.clause(
    "whirlwind.tile-step", "tile.land.backward", "whirlwind.leave-eight", "tile.land.pay-owner"
)
def test_mirage_on_9_sends_the_unit_onto_8_underneath() -> None:
    # blue 1: leaves white on 8 (condition a) -> 9, mirage -> back to 8 *under* white, no arrow
    state = build(WW, {2: "G", 3: "O", 5: "Y", 8: "W B"}, tiles=[(9, 2, TileSide.MIRAGE)])
    result = pyramid(state, "B", 1)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", 8: "B W"}
    assert money(result.state) == [3, 3, 4, 3]
    assert steps(result) == [(8, 9, "whirlwind.leave-eight")]
    tile_move = events_of(result, UnitMoved)[-1]
    assert (tile_move.from_space, tile_move.to_space, tile_move.placement) == (9, 8, "underneath")
    assert events_of(result, TilePaid) == [TilePaid(2, 9, 1)]


@pytest.mark.clause("whirlwind.tile-step", "tile.land.forward")
def test_oasis_on_5_sends_the_unit_onto_6_on_top_not_on_to_8() -> None:
    state = build(WW, {1: "B W", 2: "Y", 4: "O", 6: "G"}, tiles=[(5, 1, TileSide.OASIS)])
    result = pyramid(state, "O", 1)
    assert board(result.state) == {1: "B W", 2: "Y", 6: "G O"}
    assert money(result.state) == [3, 4, 3, 3]
    assert steps(result) == []


@pytest.mark.clause("whirlwind.rank")
def test_whirlwind_spaces_rank_by_number() -> None:
    state = build(WW, {1: "B", 6: "G", 7: "O", 8: "Y", 9: "W"})
    assert ranking(state.track) == camels(WW, "W Y O G B")


@pytest.mark.clause("whirlwind.leave-eight", "move.stack.carry")
def test_a_camel_left_behind_on_6_satisfies_condition_a() -> None:
    # [W, B] on 6: B alone 6 -> 8, W still on 6 -> 8 -> 9
    result = pyramid(build(WW, {2: "G", 3: "O", 5: "Y", 6: "W B"}), "B", 2)
    assert board(result.state) == {2: "G", 3: "O", 5: "Y", 6: "W", 9: "B"}


@pytest.mark.clause("whirlwind.leave-eight", "move.only-final-space")
def test_a_camel_on_8_passed_through_is_not_picked_up_and_satisfies_condition_a() -> None:
    # O 6 -> 8 (G there, not the final space) -> 9 because G stands on 8
    result = pyramid(build(WW, {1: "B W", 2: "Y", 6: "O", 8: "G"}), "O", 2)
    assert board(result.state) == {1: "B W", 2: "Y", 8: "G", 9: "O"}

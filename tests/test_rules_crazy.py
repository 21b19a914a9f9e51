"""Chapter 7, crazy camels and the grey die (second edition): spec/07-crazy.md and
dossier EC-01..EC-11.

Every expectation is worked out from the clauses: the only-carrier exception first, then
top-of-other, then the colour of the number; a crazy-led unit travels counterclockwise,
lands on top, and uses the reversed directions on tiles.
"""

from __future__ import annotations

import pytest

from camelup import Camel, TileSide
from camelup.model.events import CrazyCamelChosen, TilePaid, UnitMoved
from camelup.rules.crazy import SELECTION_ORDER
from helpers import CK, CW, board, build, camels, events_of, money, pyramid, ruleset

SECOND = ruleset("second", 4)
RACERS_BEHIND = {1: "B", 2: "G", 3: "R", 4: "Y", 5: "P"}


def chosen(result: object) -> tuple[Camel, str]:
    (event,) = events_of(result, CrazyCamelChosen)  # type: ignore[arg-type]
    return event.camel, event.clause


# --- which crazy camel moves ------------------------------------------------------------------


@pytest.mark.clause("crazy.select.colour", "crazy.move.counterclockwise")
@pytest.mark.parametrize(
    ("colour", "value", "expected_board", "mover"),
    [
        ("cW", 2, {12: "cW", 16: "cK"}, CW),
        ("cK", 1, {14: "cW", 15: "cK"}, CK),
        ("cK", 3, {13: "cK", 14: "cW"}, CK),
    ],
)
def test_colour_of_the_number_picks_the_camel(
    colour: str, value: int, expected_board: dict[int, str], mover: Camel
) -> None:
    state = build(SECOND, {**RACERS_BEHIND, 14: "cW", 16: "cK"})
    result = pyramid(state, "grey", value, colour)
    assert board(result.state) == {**RACERS_BEHIND, **expected_board}
    assert chosen(result) == (mover, "crazy.select.colour")


@pytest.mark.clause("crazy.select.colour", "crazy.select.only-carrier")
def test_a_crazy_camel_on_top_of_a_racing_camel_carries_nothing() -> None:
    # [B, cW]: cW rides on B but has nothing above; cK alone: neither carries -> colour decides
    state = build(SECOND, {2: "G", 3: "R", 4: "Y", 5: "P", 10: "B cW", 16: "cK"})
    result = pyramid(state, "grey", 2, "cK")
    assert board(result.state) == {2: "G", 3: "R", 4: "Y", 5: "P", 10: "B cW", 14: "cK"}
    assert chosen(result) == (CK, "crazy.select.colour")


@pytest.mark.clause("crazy.select.only-carrier", "crazy.carry")
def test_only_carrier_moves_whatever_the_colour() -> None:
    state = build(SECOND, {1: "B", 2: "G", 3: "Y", 4: "P", 12: "cW R", 16: "cK"})
    result = pyramid(state, "grey", 2, "cK")  # a black 2, but only cW carries a racing camel
    assert board(result.state) == {1: "B", 2: "G", 3: "Y", 4: "P", 10: "cW R", 16: "cK"}
    assert chosen(result) == (CW, "crazy.select.only-carrier")


@pytest.mark.clause("crazy.select.top-of-other")
@pytest.mark.parametrize("colour", ["cW", "cK"])
def test_top_of_other_moves_the_upper_crazy_camel(colour: str) -> None:
    state = build(SECOND, {**RACERS_BEHIND, 14: "cK cW"})
    result = pyramid(state, "grey", 1, colour)
    assert board(result.state) == {**RACERS_BEHIND, 13: "cW", 14: "cK"}
    assert chosen(result) == (CW, "crazy.select.top-of-other")


@pytest.mark.clause("crazy.select.precedence")
def test_the_selection_order_is_the_order_the_choice_is_made_in() -> None:
    # The judge names the rule behind a choice made otherwise after the first of the two rules
    # in SELECTION_ORDER, so the order must be the choice's own: an exception decides whatever
    # the colour shown, the colour of the number decides only where neither holds.
    only_carrier = {1: "B", 2: "G", 3: "Y", 4: "P", 12: "cW R", 16: "cK"}
    top_of_other = {**RACERS_BEHIND, 14: "cK cW"}
    neither = {**RACERS_BEHIND, 14: "cW", 16: "cK"}
    deciding = []
    for layout in (only_carrier, top_of_other, neither):
        state = build(SECOND, layout)
        found = {chosen(pyramid(state, "grey", 1, colour)) for colour in ("cW", "cK")}
        clauses = {clause for _, clause in found}
        assert len(clauses) == 1
        deciding.append(clauses.pop())
        assert len(found) == (2 if layout is neither else 1)  # only the colour rule reads it
    assert tuple(deciding) == SELECTION_ORDER


@pytest.mark.clause("crazy.select.only-carrier", "crazy.select.colour")
@pytest.mark.parametrize(
    ("colour", "expected"),
    [
        ("cW", {13: "cW B", 12: "cK G"}),
        ("cK", {14: "cW B", 11: "cK G"}),
    ],
)
def test_ec01_both_carry_on_different_spaces_colour_decides(
    colour: str, expected: dict[int, str]
) -> None:
    state = build(SECOND, {1: "R", 2: "Y", 3: "P", 12: "cK G", 14: "cW B"})
    result = pyramid(state, "grey", 1, colour)
    assert board(result.state) == {1: "R", 2: "Y", 3: "P", **expected}
    assert chosen(result)[1] == "crazy.select.colour"


@pytest.mark.clause("crazy.select.top-of-other", "crazy.select.precedence", "crazy.carry")
@pytest.mark.parametrize("colour", ["cW", "cK"])
def test_ec02_crazy_directly_on_crazy_with_racing_on_top(colour: str) -> None:
    # [cW, cK, B]: both have B somewhere above (7.3's reading), so exception 1 is silent and
    # exception 2 moves the upper one, cK, which takes B along
    state = build(SECOND, {1: "G", 2: "R", 3: "Y", 4: "P", 12: "cW cK B"})
    result = pyramid(state, "grey", 2, colour)
    assert board(result.state) == {1: "G", 2: "R", 3: "Y", 4: "P", 10: "cK B", 12: "cW"}
    assert chosen(result) == (CK, "crazy.select.top-of-other")


@pytest.mark.clause("crazy.select.only-carrier", "crazy.carry")
@pytest.mark.parametrize("colour", ["cW", "cK"])
def test_ec03_racing_camel_between_only_the_lower_carries(colour: str) -> None:
    # [cW, R, cK], nothing above cK: only cW carries; it takes R and cK along
    state = build(SECOND, {1: "B", 2: "G", 3: "Y", 4: "P", 12: "cW R cK"})
    result = pyramid(state, "grey", 3, colour)
    assert board(result.state) == {1: "B", 2: "G", 3: "Y", 4: "P", 9: "cW R cK"}
    assert chosen(result) == (CW, "crazy.select.only-carrier")


@pytest.mark.clause("crazy.select.colour", "crazy.carry")
@pytest.mark.parametrize(
    ("colour", "expected", "mover"),
    [
        ("cW", {11: "cW R cK G"}, CW),
        ("cK", {11: "cK G", 12: "cW R"}, CK),
    ],
)
def test_ec04_racing_between_and_above_colour_decides(
    colour: str, expected: dict[int, str], mover: Camel
) -> None:
    state = build(SECOND, {1: "B", 2: "Y", 3: "P", 12: "cW R cK G"})
    result = pyramid(state, "grey", 1, colour)
    assert board(result.state) == {1: "B", 2: "Y", 3: "P", **expected}
    assert chosen(result) == (mover, "crazy.select.colour")


@pytest.mark.clause("crazy.select.top-of-other", "move.stack.carry")
@pytest.mark.parametrize("colour", ["cW", "cK"])
def test_ec05_racing_camel_below_is_not_carried_upper_crazy_moves_alone(colour: str) -> None:
    state = build(SECOND, {1: "B", 2: "G", 3: "Y", 4: "P", 12: "R cW cK"})
    result = pyramid(state, "grey", 1, colour)
    assert board(result.state) == {1: "B", 2: "G", 3: "Y", 4: "P", 11: "cK", 12: "R cW"}
    assert chosen(result) == (CK, "crazy.select.top-of-other")


# --- how a crazy camel moves ------------------------------------------------------------------


@pytest.mark.clause("crazy.carry", "crazy.move.counterclockwise", "move.facing")
def test_a_crazy_camel_carries_racing_camels_backwards_and_lands_on_top() -> None:
    state = build(SECOND, {2: "B", 3: "G", 9: "Y", 12: "cW R P", 16: "cK"})
    result = pyramid(state, "grey", 3, "cW")
    assert board(result.state) == {2: "B", 3: "G", 9: "Y cW R P", 16: "cK"}
    (moved,) = events_of(result, UnitMoved)
    assert moved == UnitMoved(camels(SECOND, "cW R P"), 12, 9, "top", "crazy.move.counterclockwise")


@pytest.mark.clause("move.unit.lands-on-top", "crazy.move.counterclockwise")
def test_a_lone_crazy_camel_lands_on_top_of_a_stack() -> None:
    state = build(SECOND, {1: "Y", 2: "R", 3: "P", 12: "B G", 14: "cW", 16: "cK"})
    result = pyramid(state, "grey", 2, "cW")
    assert board(result.state) == {1: "Y", 2: "R", 3: "P", 12: "B G cW", 16: "cK"}


@pytest.mark.clause("move.stack.carry", "crazy.move.counterclockwise")
def test_a_racing_die_carries_a_crazy_camel_clockwise() -> None:
    state = build(SECOND, {1: "G", 2: "R", 3: "Y", 4: "P", 5: "B cK", 16: "cW"})
    result = pyramid(state, "B", 2)
    assert board(result.state) == {1: "G", 2: "R", 3: "Y", 4: "P", 7: "B cK", 16: "cW"}


@pytest.mark.clause("crazy.no-wrap", "end.crossing.crazy")
def test_a_crazy_camel_ending_exactly_on_space_1_has_not_crossed() -> None:
    state = build(SECOND, {3: "cK", 5: "B G R Y P", 14: "cW"})
    result = pyramid(state, "grey", 2, "cK")
    assert board(result.state) == {1: "cK", 5: "B G R Y P", 14: "cW"}
    assert not result.state.is_over


# --- tiles under crazy camels -----------------------------------------------------------------


@pytest.mark.clause("tile.land.crazy-reversed", "tile.land.backward", "tile.land.pay-owner")
def test_booing_under_a_crazy_camel_moves_it_clockwise_underneath() -> None:
    # cW 14 -> 12 (booing, player 1's): owner +1, then one space *clockwise* to 13, under P
    state = build(
        SECOND,
        {1: "B", 2: "G", 3: "R", 4: "Y", 13: "P", 14: "cW", 16: "cK"},
        tiles=[(12, 1, TileSide.BOOING)],
    )
    result = pyramid(state, "grey", 2, "cW")
    assert board(result.state) == {1: "B", 2: "G", 3: "R", 4: "Y", 13: "cW P", 16: "cK"}
    assert money(result.state) == [3, 4, 3, 3]
    last = events_of(result, UnitMoved)[-1]
    assert last == UnitMoved((CW,), 12, 13, "underneath", "tile.land.crazy-reversed")
    assert events_of(result, TilePaid) == [TilePaid(1, 12, 1)]


@pytest.mark.clause("tile.land.crazy-reversed", "tile.land.forward")
def test_cheering_under_a_crazy_camel_moves_it_on_counterclockwise_on_top() -> None:
    state = build(
        SECOND,
        {1: "B", 2: "G", 3: "R", 4: "Y", 11: "P", 14: "cW", 16: "cK"},
        tiles=[(12, 3, TileSide.CHEERING)],
    )
    result = pyramid(state, "grey", 2, "cW")
    assert board(result.state) == {1: "B", 2: "G", 3: "R", 4: "Y", 11: "P cW", 16: "cK"}
    assert money(result.state) == [3, 3, 3, 4]


@pytest.mark.clause("tile.land.crazy-reversed", "tile.land.backward")
def test_a_crazy_led_unit_carrying_racing_camels_uses_the_crazy_direction() -> None:
    # [cK, B, G] from 12 moves 3 onto a booing tile on 9 -> one space clockwise to 10, under Y
    state = build(
        SECOND, {1: "R", 2: "P", 10: "Y", 12: "cK B G", 15: "cW"}, tiles=[(9, 0, TileSide.BOOING)]
    )
    result = pyramid(state, "grey", 3, "cK")
    assert board(result.state) == {1: "R", 2: "P", 10: "cK B G Y", 15: "cW"}
    assert money(result.state) == [4, 3, 3, 3]


@pytest.mark.clause("tile.land.crazy-reversed", "tile.land.forward")
def test_a_racing_led_unit_carrying_a_crazy_camel_uses_the_racing_direction() -> None:
    # [B, cK] from 5 moves 2 onto cheering on 7 -> one more space clockwise to 8
    state = build(
        SECOND,
        {1: "G", 2: "R", 3: "Y", 4: "P", 5: "B cK", 16: "cW"},
        tiles=[(7, 2, TileSide.CHEERING)],
    )
    result = pyramid(state, "B", 2)
    assert board(result.state) == {1: "G", 2: "R", 3: "Y", 4: "P", 8: "B cK", 16: "cW"}


@pytest.mark.clause("tile.land.crazy-reversed", "crazy.no-wrap")
def test_cheering_on_space_2_steps_a_crazy_camel_onto_1_without_crossing() -> None:
    state = build(SECOND, {4: "cW", 6: "B G R Y P", 15: "cK"}, tiles=[(2, 0, TileSide.CHEERING)])
    result = pyramid(state, "grey", 2, "cW")
    assert board(result.state) == {1: "cW", 6: "B G R Y P", 15: "cK"}
    assert not result.state.is_over

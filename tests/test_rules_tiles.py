"""Chapter 6, desert tiles (first edition) and spectator tiles (second): spec/06-tiles.md.

Landing: the owner is paid 1 EP at once, once per landing, then the unit steps one space
(forward on top, backward underneath keeping its order). Placement: not on space 1, not on a
camel or a tile, not next to another tile; a moved tile goes to a different space and its own
old space does not block its neighbours (RUL-26).
"""

from __future__ import annotations

import pytest

from camelup import MoveTile, PlaceTile, TileSide, apply, legal_actions
from camelup.model.events import RaceEnded, TilePaid, TilePlaced, UnitMoved
from helpers import assert_illegal, board, build, camels, events_of, money, pyramid, ruleset

FIRST = ruleset("first", 4)
SECOND = ruleset("second", 4)

# --- landing on a tile --------------------------------------------------------------------------


@pytest.mark.clause("tile.land.backward", "tile.land.pay-owner")
def test_mirage_puts_the_whole_unit_underneath_keeping_its_order() -> None:
    # G (carrying Y) 3 -> 5, mirage -> 4, under [B, O]: 4 = G, Y, B, O; W stays on 3
    state = build(FIRST, {3: "W G Y", 4: "B O"}, tiles=[(5, 1, TileSide.MIRAGE)])
    result = pyramid(state, "G", 2)
    assert board(result.state) == {3: "W", 4: "G Y B O"}
    moves = events_of(result, UnitMoved)
    assert moves == [
        UnitMoved(camels(FIRST, "G Y"), 3, 5, "top", "move.racing.clockwise"),
        UnitMoved(camels(FIRST, "G Y"), 5, 4, "underneath", "tile.land.backward"),
    ]


@pytest.mark.clause("tile.land.backward")
def test_booing_puts_the_unit_underneath_in_the_second_edition() -> None:
    state = build(
        SECOND,
        {1: "P", 2: "Y", 6: "B G", 7: "R", 10: "cW", 14: "cK"},
        tiles=[(9, 2, TileSide.BOOING)],
        money=[3, 3, 0, 3],
    )
    result = pyramid(state, "B", 3)  # [B, G] 6 -> 9, booing -> 8 (empty); owner 0 -> 1
    assert board(result.state) == {1: "P", 2: "Y", 7: "R", 8: "B G", 10: "cW", 14: "cK"}
    assert money(result.state) == [3, 3, 1, 3]


@pytest.mark.clause("tile.land.backward")
def test_booing_step_onto_an_occupied_space_goes_under_it() -> None:
    state = build(
        SECOND, {1: "P", 6: "B G", 8: "R Y", 10: "cW", 14: "cK"}, tiles=[(9, 0, TileSide.BOOING)]
    )
    result = pyramid(state, "G", 3)  # G alone 6 -> 9, booing -> 8 under [R, Y]
    assert board(result.state) == {1: "P", 6: "B", 8: "G R Y", 10: "cW", 14: "cK"}


@pytest.mark.clause("tile.land.forward", "tile.land.pay-owner")
@pytest.mark.parametrize(("rules", "side"), [(FIRST, TileSide.OASIS), (SECOND, TileSide.CHEERING)])
def test_oasis_and_cheering_put_the_unit_on_top_one_space_on(rules: object, side: TileSide) -> None:
    if rules is FIRST:
        state = build(FIRST, {3: "W G Y", 6: "B", 1: "O"}, tiles=[(5, 3, side)])
        expected = {1: "O", 3: "W", 6: "B G Y"}
    else:
        state = build(SECOND, {3: "R G Y", 6: "B", 1: "P", 12: "cW cK"}, tiles=[(5, 3, side)])
        expected = {1: "P", 3: "R", 6: "B G Y", 12: "cW cK"}
    result = pyramid(state, "G", 2)
    assert board(result.state) == expected
    assert money(result.state) == [3, 3, 3, 4]
    assert events_of(result, UnitMoved)[-1].placement == "top"


@pytest.mark.clause("tile.land.pay-owner", "tile.stays")
def test_owner_is_paid_once_per_landing_not_per_camel_and_at_once() -> None:
    # a unit of three camels lands: the owner (seat 2, with 0 EP) gets exactly 1, during the turn
    state = build(
        FIRST, {2: "B G O", 9: "Y", 10: "W"}, tiles=[(4, 2, TileSide.OASIS)], money=[3, 3, 0, 3]
    )
    result = pyramid(state, "B", 2)
    assert money(result.state) == [3, 3, 1, 3]
    assert result.state.players[2].leg_tickets == ()  # not a ticket: nothing to score later
    assert events_of(result, TilePaid) == [TilePaid(2, 4, 1)]
    kinds = [type(e).__name__ for e in result.events]
    assert kinds.index("TilePaid") < [i for i, k in enumerate(kinds) if k == "UnitMoved"][1]
    assert result.state.tiles == state.tiles  # the tile stays, same side up
    assert not result.state.is_over and result.state.leg == 1


@pytest.mark.clause("tile.land.pay-owner")
def test_the_mover_can_be_the_owner_and_is_paid_too() -> None:
    state = build(FIRST, {2: "B G O", 9: "Y", 10: "W"}, tiles=[(4, 0, TileSide.MIRAGE)], to_move=0)
    result = pyramid(state, "B", 2)
    assert money(result.state) == [4, 3, 3, 3]
    assert board(result.state) == {3: "B G O", 9: "Y", 10: "W"}


@pytest.mark.clause("move.only-final-space", "tile.land.pay-owner")
def test_passing_over_a_tile_does_nothing() -> None:
    state = build(FIRST, {3: "B", 8: "G O", 9: "Y", 10: "W"}, tiles=[(4, 1, TileSide.MIRAGE)])
    result = pyramid(state, "B", 2)
    assert board(result.state) == {5: "B", 8: "G O", 9: "Y", 10: "W"}
    assert money(result.state) == [3, 3, 3, 3]
    assert events_of(result, TilePaid) == []


@pytest.mark.clause("move.only-final-space", "move.unit.lands-on-top")
def test_passing_over_camels_does_not_pick_them_up() -> None:
    state = build(FIRST, {3: "B", 4: "G", 5: "O Y", 10: "W"})
    result = pyramid(state, "B", 3)
    assert board(result.state) == {4: "G", 5: "O Y", 6: "B", 10: "W"}


@pytest.mark.clause("tile.land.off-track", "tile.land.pay-owner", "end.crossing.racing")
def test_oasis_on_16_pushes_the_unit_over_the_line_and_the_owner_keeps_the_coin() -> None:
    state = build(FIRST, {14: "B G", 5: "O", 6: "Y", 7: "W"}, tiles=[(16, 1, TileSide.OASIS)])
    result = pyramid(state, "B", 2)
    assert result.state.is_over
    assert events_of(result, TilePaid) == [TilePaid(1, 16, 1)]
    assert events_of(result, RaceEnded) == [
        RaceEnded(camels(FIRST, "B G"), "clockwise", "tile.land.off-track")
    ]
    # seat 1 had 3, +1 from the tile, no tickets and no cards: 4 at the end; seat 0 +1 pyramid
    assert money(result.state) == [4, 4, 3, 3]


@pytest.mark.clause("tile.land.off-track", "tile.land.backward")
def test_mirage_on_16_sends_the_unit_back_to_15_underneath() -> None:
    state = build(FIRST, {14: "B G", 15: "O", 6: "Y", 7: "W"}, tiles=[(16, 1, TileSide.MIRAGE)])
    result = pyramid(state, "B", 2)
    assert not result.state.is_over
    assert board(result.state) == {6: "Y", 7: "W", 15: "B G O"}


# --- placing and moving a tile --------------------------------------------------------------------

OPEN = {1: "B G O Y W"}  # every camel on space 1: the rest of the track is free


@pytest.mark.clause("tile.place.side", "tile.place.empty-space")
@pytest.mark.parametrize("side", [TileSide.OASIS, TileSide.MIRAGE])
def test_placing_a_tile_with_either_side_passes_the_turn(side: TileSide) -> None:
    state = build(FIRST, OPEN, to_move=2)
    result = apply(state, PlaceTile(2, 10, side))
    (tile,) = result.state.tiles
    assert (tile.space, tile.owner, tile.side) == (10, 2, side)
    assert result.state.to_move == 3
    assert result.events == (TilePlaced(2, 10, side, None, "tile.place.empty-space"),)


@pytest.mark.clause("tile.place.not-space-one")
def test_no_tile_on_space_1_but_space_2_is_fine() -> None:
    state = build(FIRST, {5: "B G O Y W"})
    assert_illegal(
        state, PlaceTile(0, 1, TileSide.OASIS), "tile-space-one", "tile.place.not-space-one"
    )
    assert apply(state, PlaceTile(0, 2, TileSide.MIRAGE)).state.tile_at(2) is not None


@pytest.mark.clause("tile.place.empty-space")
def test_no_tile_on_a_camel() -> None:
    state = build(FIRST, {1: "B G", 7: "O Y W"})
    assert_illegal(
        state, PlaceTile(0, 7, TileSide.OASIS), "tile-on-camel", "tile.place.empty-space"
    )


@pytest.mark.clause("tile.place.empty-space")
def test_no_tile_on_a_space_holding_only_crazy_camels() -> None:
    state = build(SECOND, {1: "B G R Y P", 14: "cW", 16: "cK"})
    assert_illegal(
        state, PlaceTile(0, 14, TileSide.CHEERING), "tile-on-camel", "tile.place.empty-space"
    )
    assert_illegal(
        state, PlaceTile(0, 16, TileSide.BOOING), "tile-on-camel", "tile.place.empty-space"
    )


@pytest.mark.clause("tile.place.empty-space")
def test_no_tile_on_a_tile() -> None:
    state = build(FIRST, OPEN, tiles=[(9, 1, TileSide.OASIS)])
    assert_illegal(
        state, PlaceTile(0, 9, TileSide.MIRAGE), "tile-on-tile", "tile.place.empty-space"
    )


@pytest.mark.clause("tile.place.not-adjacent")
@pytest.mark.parametrize("space", [8, 10])
def test_no_tile_next_to_another_players_tile(space: int) -> None:
    state = build(FIRST, OPEN, tiles=[(9, 1, TileSide.OASIS)])
    assert_illegal(
        state, PlaceTile(0, space, TileSide.OASIS), "tile-adjacent", "tile.place.not-adjacent"
    )
    two_away = 7 if space == 8 else 11
    assert apply(state, PlaceTile(0, two_away, TileSide.OASIS)).state.tile_at(two_away) is not None


@pytest.mark.clause("tile.place.not-adjacent", "tile.place.not-space-one")
def test_space_16_is_not_blocked_by_space_1_and_space_2_is_open_next_to_it() -> None:
    state = build(FIRST, {5: "B G O Y W"}, tiles=[(16, 1, TileSide.OASIS)])
    assert apply(state, PlaceTile(0, 2, TileSide.OASIS)).state.tile_at(2) is not None


@pytest.mark.clause("tile.move.different-space", "tile.place.side")
def test_moving_a_tile_to_a_different_space_and_turning_it() -> None:
    state = build(FIRST, OPEN, tiles=[(5, 0, TileSide.OASIS), (12, 1, TileSide.MIRAGE)])
    result = apply(state, MoveTile(0, 9, TileSide.MIRAGE))
    assert [(t.space, t.owner, t.side) for t in result.state.tiles] == [
        (9, 0, TileSide.MIRAGE),
        (12, 1, TileSide.MIRAGE),
    ]
    assert result.events == (TilePlaced(0, 9, TileSide.MIRAGE, 5, "tile.move.different-space"),)


@pytest.mark.clause("tile.move.different-space")
@pytest.mark.parametrize("side", [TileSide.OASIS, TileSide.MIRAGE])
def test_a_tile_cannot_stay_on_its_space_so_cannot_be_flipped_in_place(side: TileSide) -> None:
    state = build(FIRST, OPEN, tiles=[(5, 0, TileSide.OASIS)])
    assert_illegal(state, MoveTile(0, 5, side), "tile-same-space", "tile.move.different-space")


@pytest.mark.clause("tile.move.different-space")
@pytest.mark.parametrize("space", [4, 6])
def test_a_tile_may_move_next_to_its_old_space_by_default(space: int) -> None:
    state = build(FIRST, OPEN, tiles=[(5, 0, TileSide.OASIS)])
    result = apply(state, MoveTile(0, space, TileSide.MIRAGE))
    assert [(t.space, t.owner) for t in result.state.tiles] == [(space, 0)]


@pytest.mark.clause("tile.move.different-space", "tile.place.not-adjacent")
def test_a_moved_tile_still_keeps_off_other_tiles() -> None:
    state = build(FIRST, OPEN, tiles=[(5, 0, TileSide.OASIS), (8, 1, TileSide.OASIS)])
    assert_illegal(
        state, MoveTile(0, 7, TileSide.OASIS), "tile-adjacent", "tile.place.not-adjacent"
    )
    assert_illegal(state, MoveTile(0, 8, TileSide.OASIS), "tile-on-tile", "tile.place.empty-space")


@pytest.mark.clause("tile.move.different-space")
def test_place_and_move_are_distinct_actions() -> None:
    placed = build(FIRST, OPEN, tiles=[(5, 0, TileSide.OASIS)])
    assert_illegal(
        placed, PlaceTile(0, 10, TileSide.OASIS), "tile-already-placed", "tile.move.different-space"
    )
    assert_illegal(
        build(FIRST, OPEN),
        MoveTile(0, 10, TileSide.OASIS),
        "tile-not-placed",
        "tile.move.different-space",
    )


@pytest.mark.clause("tiles.desert", "tiles.spectator")
def test_each_edition_has_its_own_tile_sides() -> None:
    assert_illegal(
        build(FIRST, OPEN), PlaceTile(0, 10, TileSide.CHEERING), "tile-side", "tiles.desert"
    )
    second = build(SECOND, {1: "B G R Y P", 14: "cW cK"})
    assert_illegal(second, PlaceTile(0, 10, TileSide.MIRAGE), "tile-side", "tiles.spectator")


@pytest.mark.clause(
    "tile.place.empty-space",
    "tile.place.not-adjacent",
    "tile.place.not-space-one",
    "tile.move.different-space",
)
def test_legal_actions_offer_exactly_the_allowed_tile_spaces() -> None:
    state = build(
        FIRST, {3: "B G", 11: "O Y W"}, tiles=[(7, 1, TileSide.OASIS), (14, 0, TileSide.MIRAGE)]
    )
    offered = {(a.space, a.side) for a in legal_actions(state) if type(a) is MoveTile}
    # not 1, not 3 or 11 (camels), not 6, 7, 8 (player 1's tile), not 14 (own tile);
    # 13 and 15 (next to the player's own tile) are allowed
    spaces = {2, 4, 5, 9, 10, 12, 13, 15, 16}
    assert offered == {(s, side) for s in spaces for side in (TileSide.OASIS, TileSide.MIRAGE)}
    assert not any(type(a) is PlaceTile for a in legal_actions(state))


@pytest.mark.clause("tile.land.backward", "tile.place.not-space-one")
def test_mirage_on_space_2_steps_the_unit_under_the_camels_on_space_1() -> None:
    # Y (with W) 1 -> 2 (mirage, seat 3 +1) -> back to 1, under B, G, O
    state = build(FIRST, {1: "B G O Y W"}, tiles=[(2, 3, TileSide.MIRAGE)])
    result = pyramid(state, "Y", 1)
    assert board(result.state) == {1: "Y W B G O"}
    assert money(result.state) == [3, 3, 3, 4]

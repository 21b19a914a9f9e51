"""The leg's odds from the tile layouts' pass (``leg_odds_and_values``, ``action_values`` with
no ``base``) are the leg's own enumeration's (``leg_odds``), figure by figure, and so are the
values: with the other players' tiles on the track, with a crossing in the leg, and with the
player's own tile on the track (then the leg is enumerated on its own)."""

from __future__ import annotations

import pytest

from camelup import TileSide
from camelup.odds.exact import action_values, leg_odds, leg_odds_and_values
from helpers import build, ruleset

POSITIONS = {
    # the race can end in this leg; seat 1's tile pays seat 1 now and then; white sits on
    # black, so both colours of the grey die move white (crazy.select.top-of-other)
    "second, crossing, another's tile": (
        "second",
        {12: "B G", 14: "R", 15: "Y", 16: "P", 9: "cK cW"},
        [(13, 1, TileSide.CHEERING)],
        ["R", "Y"],
    ),
    "first, crossing": (
        "first",
        {11: "B G", 13: "O", 15: "Y W"},
        [(14, 1, TileSide.BOOING)],
        ["B", "G"],
    ),
    # the player to move (seat 0) has a tile on the track: no field of theirs for the leg
    "second, the player's own tile": (
        "second",
        {5: "B", 7: "cK cW", 9: "G R", 11: "Y", 12: "P"},
        [(6, 0, TileSide.BOOING), (10, 1, TileSide.CHEERING)],
        ["B", "G"],
    ),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_the_leg_from_the_layouts_pass_is_the_legs_own(name: str) -> None:
    edition, board, tiles, revealed = POSITIONS[name]
    state = build(ruleset(edition), board, tiles=tiles, revealed=revealed, pyramid_tickets={1: 2})
    alone = leg_odds(state)
    leg, values = leg_odds_and_values(state)
    assert leg == alone
    assert dict(leg.tile_weights) == dict(alone.tile_weights)  # no owner paid nothing
    assert alone.tile_weights.get(1, 0) > 0  # seat 1's tile is landed on
    assert alone.race_end_weight > 0 or "crossing" not in name
    best_first = action_values(state, alone)
    assert sorted(values, key=lambda value: -value.value) == list(best_first)
    assert action_values(state) == best_first
    assert any(value.tile_coins for value in values)  # the layouts were valued

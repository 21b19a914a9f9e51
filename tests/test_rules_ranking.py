"""Chapter 9, ranking the racing camels: spec/09-ranking.md (RUL-32 to RUL-34)."""

from __future__ import annotations

import pytest

from camelup import Camel, ranking
from camelup.model.events import LegScored
from helpers import build, camels, events_of, pyramid, ruleset

FIRST = ruleset("first", 4)
SECOND = ruleset("second", 4)


@pytest.mark.clause("rank.space", "rank.stack")
def test_farther_along_first_then_higher_in_the_stack() -> None:
    state = build(FIRST, {3: "B G", 5: "O", 9: "Y W"})
    assert ranking(state.track) == camels(FIRST, "W Y O G B")


@pytest.mark.clause("rank.ignore-crazy", "final.loser")
def test_crazy_camels_are_skipped_even_at_the_bottom_of_the_rearmost_stack() -> None:
    # EC-24: rearmost space 3 holds [cK, G, P]: G, not cK, is last
    state = build(SECOND, {3: "cK G P", 5: "B cW R", 9: "Y"})
    assert ranking(state.track) == camels(SECOND, "Y R B P G")


@pytest.mark.clause("rank.ignore-crazy", "rank.stack", "leg.score.second")
def test_second_place_inside_the_leaders_stack_skips_a_crazy_camel() -> None:
    # EC-26 / RUL-34: [Y, cW, P] leads: P first, Y second; leg scoring pays a Y ticket 1
    state = build(
        SECOND,
        {1: "B", 2: "G", 3: "R", 9: "Y cW P", 16: "cK"},
        leg_tickets={1: [("Y", 5)], 2: [("R", 5)]},
        pyramid_tickets={0: 4},
        revealed=["B", "R", "Y", "grey"],
    )
    assert ranking(state.track)[:2] == camels(SECOND, "P Y")
    result = pyramid(state, "G", 1)  # G 2 -> 3 on top of R (R now 4th); the leg ends
    (scored,) = events_of(result, LegScored)
    assert (scored.leader, scored.second) == (Camel.PURPLE, Camel.YELLOW)
    assert [s.total for s in scored.scores] == [5, 1, -1, 0]

"""Chapter 13, betting partnerships (second edition, 6 to 8 players): spec/13-partnership.md.
The bonus at leg scoring is tested with the rest of leg scoring in test_rules_leg.py."""

from __future__ import annotations

import pytest

from camelup import FormPartnership, apply, legal_actions
from camelup.model.events import PartnershipFormed
from helpers import assert_illegal, build, ruleset

SIX = ruleset("second", 6)
LAYOUT = {1: "B G R Y P", 14: "cW cK"}


@pytest.mark.clause("partner.action", "partner.swap")
def test_forming_a_partnership_binds_both_and_passes_the_turn() -> None:
    state = build(SIX, LAYOUT, to_move=2)
    result = apply(state, FormPartnership(2, 5))
    assert result.events == (PartnershipFormed(2, 5),)
    assert result.state.partner_of(2) == 5 and result.state.partner_of(5) == 2
    assert result.state.to_move == 3


@pytest.mark.clause("partner.action", "partner.one-per-leg")
def test_only_players_with_an_available_card_can_partner() -> None:
    state = build(SIX, LAYOUT, partners={0: 1}, to_move=0)
    assert_illegal(state, FormPartnership(0, 3), "partnership-card-used", "partner.action")
    other = build(SIX, LAYOUT, partners={0: 1}, to_move=2)
    assert_illegal(other, FormPartnership(2, 1), "partnership-card-used", "partner.action")
    assert_illegal(other, FormPartnership(2, 2), "bad-partner", "partner.action")
    assert_illegal(other, FormPartnership(2, 6), "bad-partner", "partner.action")
    offered = {a.partner for a in legal_actions(other) if type(a) is FormPartnership}
    assert offered == {3, 4, 5}


@pytest.mark.clause("partner.six-plus")
@pytest.mark.parametrize(("edition", "players"), [("second", 5), ("first", 6)])
def test_no_partnerships_below_six_players_or_in_the_first_edition(
    edition: str, players: int
) -> None:
    layout = LAYOUT if edition == "second" else {1: "B G O Y W"}
    state = build(ruleset(edition, players), layout)
    error = assert_illegal(state, FormPartnership(0, 1), "no-partnerships", "partner.six-plus")
    assert error.message == "partnerships need the 2nd edition and 6+ players"
    assert not any(type(a) is FormPartnership for a in legal_actions(state))

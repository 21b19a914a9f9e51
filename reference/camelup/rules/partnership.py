"""Chapter 13: betting partnerships, 2nd edition, 6-8 players (``spec/13-partnership.md``)."""

from __future__ import annotations

from camelup.model.errors import IllegalAction
from camelup.model.state import State
from camelup.trace import implements


@implements(
    "partner.six-plus", "partner.action", "partner.swap", "partner.one-per-leg", "cards.partnership"
)
def partnership_problem(state: State, player: int, partner: int) -> IllegalAction | None:
    """Both partnership cards must show "available"; the chosen player cannot refuse."""
    if not state.ruleset.partnerships:
        return IllegalAction(
            "no-partnerships",
            "partner.six-plus",
            "partnerships need the 2nd edition and 6+ players",
        )
    if not 0 <= partner < state.ruleset.players or partner == player:
        return IllegalAction(
            "bad-partner", "partner.action", f"seat {partner} cannot be chosen as partner"
        )
    if state.players[player].partner is not None:
        return IllegalAction(
            "partnership-card-used",
            "partner.action",
            f"player {player} already has a partner this leg",
        )
    if state.players[partner].partner is not None:
        return IllegalAction(
            "partnership-card-used",
            "partner.action",
            f"player {partner} already has a partner this leg",
        )
    return None

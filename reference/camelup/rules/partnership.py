"""Chapter 13: betting partnerships, 2nd edition, 6-8 players (``spec/13-partnership.md``)."""

from __future__ import annotations

import functools

from camelup.model.errors import Violation
from camelup.model.state import State
from camelup.model.trace import implements


@implements(
    "partner.six-plus", "partner.action", "partner.swap", "partner.one-per-leg", "cards.partnership"
)
def partnership_problem(state: State, player: int, partner: int) -> Violation | None:
    """Both partnership cards must show "available"; the chosen player cannot refuse."""
    if not state.ruleset.partnerships:
        return _no_partnerships()
    if not 0 <= partner < state.ruleset.players or partner == player:
        message = f"seat {partner} cannot be chosen as partner"
        return Violation("bad-partner", "partner.action", message, ("partner",))
    for seat, where in ((player, "player"), (partner, "partner")):
        if state.partner_of(seat) is not None:
            message = f"player {seat} already has a partner this leg"
            return Violation("partnership-card-used", "partner.action", message, (where,))
    return None


@functools.cache
def _no_partnerships() -> Violation:
    """Made once and shared (it is immutable): legal_actions asks about every seat of every
    position."""
    message = "partnerships need the 2nd edition and 6+ players"
    return Violation("no-partnerships", "partner.six-plus", message)

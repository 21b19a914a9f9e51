"""Chapter 4: leg tickets and finish cards (``spec/04-betting.md``)."""

from __future__ import annotations

import functools
from typing import Literal

from camelup.model.camels import Camel
from camelup.model.errors import Violation
from camelup.model.ruleset import Ruleset
from camelup.model.state import State
from camelup.model.trace import implements

BetKind = Literal["leg tickets", "finish cards"]


@implements("bets.no-crazy", "cards.finish")
def bet_camel_problem(ruleset: Ruleset, camel: Camel, kind: BetKind) -> Violation | None:
    """Bets are on racing camels of the edition only: nobody bets on a crazy camel, and the
    other edition's colours have no tickets or cards here."""
    if camel in ruleset.racing_camels:
        return None
    if camel.is_crazy:
        clause = "bets.no-crazy"
    elif kind == "finish cards":
        clause = "cards.finish"
    else:
        clause = f"camels.racing.{ruleset.edition.value}"
    return Violation("not-a-racing-camel", clause, f"there are no {kind} for {camel.value}")


@implements("bet.leg.take-top", "bet.leg.any-number", "bet.leg.empty-stack")
def leg_ticket_problem(state: State, camel: Camel) -> Violation | None:
    """Any racing camel whose ticket stack is not empty may be backed, as often as one likes."""
    problem = bet_camel_problem(state.ruleset, camel, "leg tickets")
    if problem is not None:
        return problem.at("camel")
    if not state.ticket_stack(camel):
        message = f"the {camel.value} stack is empty"
        return Violation("ticket-stack-empty", "bet.leg.empty-stack", message, ("camel",))
    return None


@implements("bet.finish.place", "bet.finish.one-per-colour", "bet.finish.permanent")
def finish_card_problem(state: State, player: int, camel: Camel) -> Violation | None:
    """A finish card can be placed only from the hand; each player has one per racing camel, so
    once placed (for good) that colour cannot be bet again by that player."""
    problem = bet_camel_problem(state.ruleset, camel, "finish cards")
    if problem is not None:
        return problem.at("camel")
    if camel not in state.hand(player):
        return _not_in_hand(player, camel)
    return None


@functools.lru_cache(maxsize=256, typed=True)
def _not_in_hand(player: int, camel: Camel) -> Violation:
    """Made once per seat and camel and shared (it is immutable): legal_actions asks about
    every card of every position, and once placed a card is refused for the rest of the game."""
    message = f"player {player} has no {camel.value} finish card in hand"
    return Violation("card-not-in-hand", "bet.finish.one-per-colour", message, ("camel",))

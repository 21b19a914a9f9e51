"""Chapter 4: leg tickets and finish cards (``spec/04-betting.md``)."""

from __future__ import annotations

from camelup.model.camels import Camel
from camelup.model.errors import IllegalAction
from camelup.model.state import State
from camelup.trace import implements


@implements("bet.leg.take-top", "bet.leg.any-number", "bet.leg.empty-stack", "bets.no-crazy")
def leg_ticket_problem(state: State, camel: Camel) -> IllegalAction | None:
    """Any racing camel whose ticket stack is not empty may be backed, as often as one likes."""
    if camel not in state.ruleset.racing_camels:
        clause = (
            "bets.no-crazy" if camel.is_crazy else "camels.racing." + state.ruleset.edition.value
        )
        return IllegalAction(
            "not-a-racing-camel", clause, f"there are no leg tickets for {camel.value}"
        )
    if not state.ticket_stack(camel):
        return IllegalAction(
            "ticket-stack-empty", "bet.leg.empty-stack", f"the {camel.value} stack is empty"
        )
    return None


@implements("bet.finish.place", "bet.finish.one-per-colour", "bet.finish.permanent", "cards.finish")
def finish_card_problem(state: State, player: int, camel: Camel) -> IllegalAction | None:
    """A finish card can be placed only from the hand; each player has one per racing camel, so
    once placed (for good) that colour cannot be bet again by that player."""
    if camel not in state.ruleset.racing_camels:
        clause = "bets.no-crazy" if camel.is_crazy else "cards.finish"
        return IllegalAction(
            "not-a-racing-camel", clause, f"there are no finish cards for {camel.value}"
        )
    if camel not in state.players[player].finish_cards:
        return IllegalAction(
            "card-not-in-hand",
            "bet.finish.one-per-colour",
            f"player {player} has no {camel.value} finish card in hand",
        )
    return None

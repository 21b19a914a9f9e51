"""Chapter 3: whose turn it is and what a turn is (``spec/03-turn.md``)."""

from __future__ import annotations

from camelup.model.errors import Violation
from camelup.model.state import State
from camelup.model.trace import implements


@implements("turn.game-over", "turn.order", "turn.one-action")
def turn_problem(state: State, player: int) -> Violation | None:
    """Once the race is over nobody acts; otherwise only the player to move acts, once."""
    if state.is_over:
        return Violation("game-over", "turn.game-over", "the race has ended")
    if player != state.to_move:
        message = f"it is player {state.to_move}'s turn, not {player}'s"
        return Violation("not-your-turn", "turn.order", message, ("player",))
    return None


@implements("turn.order")
def next_seat(state: State, player: int) -> int:
    """Play passes to the left: the next seat, round the table."""
    return (player + 1) % state.ruleset.players

"""Chapter 4, leg tickets and finish cards: spec/04-betting.md."""

from __future__ import annotations

import pytest

from camelup import Camel, LegTicket, Pile, PlaceFinishCard, TakeLegTicket, apply, legal_actions
from camelup.model.events import FinishCardPlaced, LegTicketTaken
from helpers import assert_illegal, build, ruleset

FIRST = ruleset("first", 2)
SECOND = ruleset("second", 3)


@pytest.mark.clause(
    "bet.leg.take-top", "bet.leg.any-number", "bet.leg.empty-stack", "setup.leg-ticket-stacks"
)
def test_first_edition_leg_tickets_come_off_5_3_2_then_the_colour_is_closed() -> None:
    state = build(FIRST, {1: "B G O Y W"})
    taken = []
    for seat in (0, 1, 0):
        result = apply(state, TakeLegTicket(seat, Camel.BLUE))
        (event,) = result.events
        assert event == LegTicketTaken(seat, event.ticket)
        taken.append(event.ticket.value)
        state = result.state
    assert taken == [5, 3, 2]
    assert state.players[0].leg_tickets == (LegTicket(Camel.BLUE, 5), LegTicket(Camel.BLUE, 2))
    assert state.ticket_stack(Camel.BLUE) == ()
    assert_illegal(state, TakeLegTicket(1, Camel.BLUE), "ticket-stack-empty", "bet.leg.empty-stack")
    offered = {a.camel for a in legal_actions(state) if type(a) is TakeLegTicket}
    assert offered == {Camel.GREEN, Camel.ORANGE, Camel.YELLOW, Camel.WHITE}


@pytest.mark.clause("bet.leg.take-top", "tickets.leg.second")
def test_second_edition_leg_tickets_come_off_5_3_2_2() -> None:
    state = build(SECOND, {1: "B G R Y P", 14: "cW cK"})
    values = []
    for seat in (0, 1, 2, 0):
        result = apply(state, TakeLegTicket(seat, Camel.PURPLE))
        values.append(result.state.players[seat].leg_tickets[-1].value)
        state = result.state
    assert values == [5, 3, 2, 2]


@pytest.mark.clause(
    "bet.finish.place", "bet.finish.pile-order", "bet.finish.one-per-colour", "bet.finish.permanent"
)
def test_finish_cards_leave_the_hand_for_good_one_per_colour() -> None:
    state = build(FIRST, {1: "B G O Y W"})
    result = apply(state, PlaceFinishCard(0, Camel.GREEN, Pile.WINNER))
    assert result.events == (FinishCardPlaced(0, Pile.WINNER),)
    state = result.state
    assert Camel.GREEN not in state.hand(0)
    state = apply(state, PlaceFinishCard(1, Camel.GREEN, Pile.LOSER)).state  # another player: fine
    # seat 0 cannot back green again, on either pile
    for pile in Pile:
        error = assert_illegal(
            state,
            PlaceFinishCard(0, Camel.GREEN, pile),
            "card-not-in-hand",
            "bet.finish.one-per-colour",
        )
        assert error.message == "player 0 has no green finish card in hand"
    state = apply(
        state, PlaceFinishCard(0, Camel.BLUE, Pile.WINNER)
    ).state  # a second card in one pile
    assert [(c.owner, c.camel) for c in state.winner_pile] == [(0, Camel.GREEN), (0, Camel.BLUE)]
    assert [(c.owner, c.camel) for c in state.loser_pile] == [(1, Camel.GREEN)]
    offered = {(a.camel, a.pile) for a in legal_actions(state) if type(a) is PlaceFinishCard}
    assert all(c not in (Camel.GREEN,) for c, _ in offered)  # seat 1 to move, green placed
    # the refusal is made once per seat and camel and shared: it names this seat
    error = assert_illegal(
        state,
        PlaceFinishCard(1, Camel.GREEN, Pile.WINNER),
        "card-not-in-hand",
        "bet.finish.one-per-colour",
    )
    assert error.message == "player 1 has no green finish card in hand"

"""Chapter 3, turns and actions: spec/03-turn.md."""

from __future__ import annotations

import pytest

from camelup import (
    Camel,
    FormPartnership,
    MoveTile,
    PlaceFinishCard,
    PlaceTile,
    TakeLegTicket,
    TakePyramidTicket,
    apply,
    legal_actions,
)
from helpers import assert_illegal, build, ruleset


@pytest.mark.clause("turn.order")
@pytest.mark.parametrize(("seat", "following"), [(0, 1), (2, 3), (3, 0)])
def test_play_passes_to_the_left(seat: int, following: int) -> None:
    state = build(ruleset("first", 4), {1: "B G O Y W"}, to_move=seat)
    assert apply(state, TakeLegTicket(seat, Camel.BLUE)).state.to_move == following


@pytest.mark.clause("turn.order", "turn.one-action")
def test_only_the_player_to_move_acts_and_only_once() -> None:
    state = build(ruleset("first", 4), {1: "B G O Y W"}, to_move=1)
    assert_illegal(state, TakeLegTicket(2, Camel.BLUE), "not-your-turn", "turn.order")
    after = apply(state, TakeLegTicket(1, Camel.BLUE)).state
    assert_illegal(after, TakeLegTicket(1, Camel.GREEN), "not-your-turn", "turn.order")


@pytest.mark.clause("turn.actions.first", "turn.actions.second", "turn.always-an-action")
@pytest.mark.parametrize(
    ("edition", "players", "kinds"),
    [
        ("first", 4, {TakeLegTicket, PlaceTile, TakePyramidTicket, PlaceFinishCard}),
        ("second", 5, {TakeLegTicket, PlaceTile, TakePyramidTicket, PlaceFinishCard}),
        (
            "second",
            6,
            {TakeLegTicket, PlaceTile, TakePyramidTicket, PlaceFinishCard, FormPartnership},
        ),
    ],
)
def test_the_actions_on_offer(edition: str, players: int, kinds: set[type]) -> None:
    rules = ruleset(edition, players)
    layout = {1: "B G O Y W"} if edition == "first" else {1: "B G R Y P", 14: "cW cK"}
    state = build(rules, layout)
    assert {type(a) for a in legal_actions(state)} == kinds
    assert MoveTile not in kinds


@pytest.mark.clause("turn.always-an-action", "bet.leg.empty-stack")
def test_with_every_stack_and_card_gone_the_pyramid_is_still_there() -> None:
    rules = ruleset("first", 2)
    state = build(
        rules,
        {1: "B G O Y W"},
        ticket_stacks={c: () for c in "BGOYW"},
        winner_pile=[(0, c) for c in "BGOYW"],
        pyramid_tickets={1: 4},
        revealed=["B", "G", "O", "Y"],
    )
    kinds = {type(a) for a in legal_actions(state)}
    assert (
        TakePyramidTicket in kinds and TakeLegTicket not in kinds and PlaceFinishCard not in kinds
    )

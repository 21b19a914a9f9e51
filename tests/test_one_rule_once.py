"""Every legality rule is one predicate, and play, validation, the legal actions and the test
strategies all ask that predicate: patch one rule and all four change with it.

Each test patches a predicate in its own module (as a wrong edit to the rule would change it)
and checks that ``apply`` refuses, ``legal_actions`` stops offering, ``validate_state`` refuses
a state that holds the result, and ``strategies.invalid_actions`` starts proposing the action.
"""

from __future__ import annotations

import random

import attrs
import pytest

from camelup import (
    Camel,
    Edition,
    FormPartnership,
    IllegalAction,
    InvalidState,
    LegTicket,
    PlaceFinishCard,
    PlaceTile,
    Ruleset,
    State,
    TakeLegTicket,
    Tile,
    TileSide,
    apply,
    legal_actions,
    new_game,
    random_setup,
)
from camelup.model.errors import Violation
from camelup.play.validation import validate_state
from camelup.rules import betting, partnership, tiles
from camelup.testing import strategies as cst


def _fresh(edition: Edition) -> State:
    ruleset = Ruleset(edition, players=4)
    return new_game(ruleset, random_setup(ruleset, random.Random(7)))


def _invalid_actions_include(state: State, action: object) -> bool:
    """Whether ``strategies.invalid_actions`` proposes ``action`` (its candidate lists)."""
    return any(action in kind for kind in cst.invalid_action_kinds(state))


def test_a_patched_tile_rule_changes_play_validation_legal_actions_and_strategies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _fresh(Edition.FIRST)
    space = next(s for s in range(4, 17) if not state.stack(s))
    action = PlaceTile(state.to_move, space, TileSide.OASIS)
    with_tile = attrs.evolve(state, tiles=(Tile(space, 1, TileSide.OASIS),))
    # As the rules stand: allowed everywhere.
    assert action in legal_actions(state)
    apply(state, action)
    validate_state(with_tile)
    assert not _invalid_actions_include(state, action)

    original = tiles.tile_space_problem

    def also_forbid(state: State, player: int, at: int, side: TileSide) -> Violation | None:
        if at == space:
            return Violation("tile-patched", "tile.place.empty-space", "patched", ("space",))
        return original(state, player, at, side)

    monkeypatch.setattr(tiles, "tile_space_problem", also_forbid)
    with pytest.raises(IllegalAction, match="patched"):
        apply(state, action)
    assert action not in legal_actions(state)
    assert all(getattr(a, "space", None) != space for a in legal_actions(state))
    with pytest.raises(InvalidState) as caught:
        validate_state(with_tile)
    assert (caught.value.code, caught.value.pointer) == ("tile-patched", "/tiles/0/space")
    assert _invalid_actions_include(state, action)


def test_a_patched_bet_rule_changes_play_validation_legal_actions_and_strategies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _fresh(Edition.SECOND)
    action = TakeLegTicket(state.to_move, Camel.BLUE)
    holding = attrs.evolve(
        state,
        players=(
            attrs.evolve(state.players[0], leg_tickets=(LegTicket(Camel.BLUE, 5),)),
            *state.players[1:],
        ),
    )
    assert action in legal_actions(state)
    apply(state, action)
    validate_state(holding)

    original = betting.bet_camel_problem

    def no_bets_on_blue(ruleset: Ruleset, camel: Camel, kind: betting.BetKind) -> Violation | None:
        if camel is Camel.BLUE:
            return Violation("not-a-racing-camel", "bets.no-crazy", "patched")
        return original(ruleset, camel, kind)

    monkeypatch.setattr(betting, "bet_camel_problem", no_bets_on_blue)
    with pytest.raises(IllegalAction, match="patched"):
        apply(state, action)
    offered = legal_actions(state)
    assert action not in offered
    assert all(getattr(a, "camel", None) is not Camel.BLUE for a in offered)
    with pytest.raises(InvalidState) as caught:
        validate_state(holding)
    assert caught.value.pointer == "/players/0/leg_tickets/0/camel"
    assert _invalid_actions_include(state, action)


def _refuse_all(*_: object) -> Violation:
    return Violation("patched", "turn.order", "patched")


@pytest.mark.parametrize(
    ("module", "name", "kind"),
    [
        (betting, "leg_ticket_problem", TakeLegTicket),
        (tiles, "tile_space_problem", PlaceTile),
        (betting, "finish_card_problem", PlaceFinishCard),
        (partnership, "partnership_problem", FormPartnership),
    ],
    ids=["leg-tickets", "tile-spaces", "finish-cards", "partnerships"],
)
def test_legal_actions_asks_each_rule_on_every_call_though_it_keeps_the_actions_it_offers(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str, kind: type
) -> None:
    # legal_actions builds the actions it may offer once and keeps them; which of them are
    # legal must still come from the rule's predicate each time, as the module holds it now.
    ruleset = Ruleset(Edition.SECOND, players=7)  # partnerships too
    state = new_game(ruleset, random_setup(ruleset, random.Random(3)))
    before = legal_actions(state)
    assert any(type(action) is kind for action in before)
    monkeypatch.setattr(module, name, _refuse_all)
    after = legal_actions(state)
    assert after == tuple(action for action in before if type(action) is not kind)
    monkeypatch.undo()
    assert legal_actions(state) == before

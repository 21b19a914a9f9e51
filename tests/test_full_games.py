"""Whole random games of every rule set, through the public API only (``camelup.__all__``).

Each game plays ``legal_actions`` until ``is_over``: half the turns a random non-pyramid action,
otherwise the pyramid action with its roll drawn from ``chance_outcomes``. After every action
the invariants the rules guarantee are checked: money never negative, every camel on the
track exactly once, tiles on legal spaces, the pyramid action always available while the race
runs, and at the end a leg-free, action-free final state whose winners hold the most money.
"""

from __future__ import annotations

import random

import pytest

from camelup import (
    Action,
    Edition,
    Module,
    Ruleset,
    State,
    TakePyramidTicket,
    Variant,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    random_setup,
)

WHIRLWIND = frozenset({Module.WHIRLWIND})
RULESETS = {
    "first": Ruleset(Edition.FIRST, 4),
    "second": Ruleset(Edition.SECOND, 5),
    "first+whirlwind": Ruleset(Edition.FIRST, 3, WHIRLWIND),
    "second+whirlwind": Ruleset(
        Edition.SECOND, 4, WHIRLWIND, frozenset({Variant.WHIRLWIND_SECOND_EDITION})
    ),
    "second-6-partnerships": Ruleset(Edition.SECOND, 6),
}
SEEDS = range(12)
MAX_TURNS = 5000


def check_invariants(state: State) -> None:
    rules = state.ruleset
    assert all(p.money >= 0 for p in state.players)
    on_track = [c for _, stack in state.occupied() for c in stack]
    assert sorted(c.value for c in on_track) == sorted(c.value for c in rules.camels)
    assert 0 <= state.to_move < rules.players
    assert len(state.revealed) == 5 - state.pyramid_tickets_left
    assert len(state.pyramid) + len(state.revealed) == len(rules.dice)
    spaces = [t.space for t in state.tiles]
    assert len({t.owner for t in state.tiles}) == len(spaces)
    for space in spaces:
        assert 2 <= space <= 16
        assert not state.stack(space), "no camel rests on a tile (tile.land.no-chain)"
        assert space - 1 not in spaces and space + 1 not in spaces
        if rules.whirlwind:
            assert space not in (6, 7, 8)
    for seat in range(rules.players):
        partner = state.partner_of(seat)
        if partner is not None:
            assert rules.partnerships and state.partner_of(partner) == seat
    assert len(state.winner_pile) + len(state.loser_pile) + sum(
        len(state.hand(seat)) for seat in range(rules.players)
    ) == (5 * rules.players)


def choose(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    assert any(type(a) is TakePyramidTicket for a in actions), "turn.always-an-action"
    others = [a for a in actions if type(a) is not TakePyramidTicket]
    if others and rng.random() < 0.5:
        return rng.choice(others)
    outcomes = chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    roll = rng.choices([r for r, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
    return TakePyramidTicket(state.to_move, roll)


def play(rules: Ruleset, seed: int) -> tuple[State, int, int]:
    rng = random.Random(seed)
    state = new_game(rules, random_setup(rules, rng))
    check_invariants(state)
    legs = 1
    for turn in range(MAX_TURNS):
        if state.is_over:
            return state, turn, legs
        result = apply(state, choose(state, rng))
        state = result.state
        check_invariants(state)
        legs = max(legs, state.leg)
    raise AssertionError(f"no end after {MAX_TURNS} turns")


@pytest.mark.clause(
    "turn.always-an-action", "money.floor", "turn.game-over", "final.winners", "tile.land.no-chain"
)
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(RULESETS))
def test_a_random_game_ends_with_legal_states_throughout(name: str, seed: int) -> None:
    state, turns, _ = play(RULESETS[name], seed)
    assert state.is_over and turns > 0
    assert legal_actions(state) == () and chance_outcomes(state) == ()
    assert state.result is not None
    best = max(p.money for p in state.players)
    assert state.result.winners == tuple(s for s, p in enumerate(state.players) if p.money == best)

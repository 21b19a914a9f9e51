"""The state derives what it once stored twice, and the engine may fill a derived member in
early (``prime_derived``) when it has just worked it out; the filled-in value must be the one
the state derives itself, for every state the engine builds."""

from __future__ import annotations

import random

import attrs
import pytest

from camelup import (
    Edition,
    Module,
    Ruleset,
    State,
    Variant,
    apply,
    legal_actions,
    new_game,
    random_setup,
)

DERIVED = ("pyramid", "is_over", "result", "ticket_stacks", "hands")

RULESETS = [
    Ruleset(Edition.FIRST, 4),
    Ruleset(Edition.FIRST, 3, frozenset({Module.WHIRLWIND})),
    Ruleset(Edition.SECOND, 4),
    Ruleset(Edition.SECOND, 7),  # partnerships
    Ruleset(
        Edition.SECOND,
        6,
        frozenset({Module.WHIRLWIND}),
        frozenset({Variant.WHIRLWIND_SECOND_EDITION, Variant.CRAZY_FINISH_NEEDS_RACING}),
    ),
]


def _derived(state: State) -> tuple[object, ...]:
    return tuple(getattr(state, name) for name in DERIVED)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.edition.value}-{r.players}")
def test_every_member_the_engine_fills_in_is_the_one_the_state_derives(ruleset: Ruleset) -> None:
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(ruleset, random_setup(ruleset, rng))
        while not state.is_over:
            actions = legal_actions(state)
            # Lean on the pyramid half the time, so legs end and the race ends.
            pyramid = [a for a in actions if type(a).__name__ == "TakePyramidTicket"]
            action = rng.choice(pyramid if rng.random() < 0.5 else actions)
            state = apply(state, action).state
            fresh = attrs.evolve(state)  # a new instance: it derives every member itself
            assert fresh == state
            assert _derived(state) == _derived(fresh), action
            checked += 1
    assert checked > 100


def test_a_wrong_filled_in_value_would_be_seen() -> None:
    from camelup.model.state import prime_derived

    ruleset = RULESETS[0]
    state = new_game(ruleset, random_setup(ruleset, random.Random(1)))
    primed = prime_derived(attrs.evolve(state), pyramid=(), is_over=True, result=None)
    assert _derived(primed) != _derived(attrs.evolve(primed))

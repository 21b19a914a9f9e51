"""A small typed program that uses camelup the way a user's CI would.

It imports only names that ``camelup`` exports in ``__all__``, plays one game of each rule set
and prints the winners. ``tests/test_typing.py`` runs ``mypy --strict`` on this file, so a
change to the public API that breaks typed callers fails the test suite.
"""

from __future__ import annotations

import random
from fractions import Fraction

from camelup import (
    Action,
    Camel,
    CamelUpError,
    DieRoll,
    Edition,
    GameResult,
    IllegalAction,
    LegTicket,
    Module,
    Pile,
    PlaceFinishCard,
    Player,
    Result,
    Ruleset,
    Setup,
    State,
    TakeLegTicket,
    TakePyramidTicket,
    TileSide,
    Variant,
    apply,
    chance_outcomes,
    legal_actions,
    new_game,
    random_setup,
    ranking,
)


def rulesets() -> dict[str, Ruleset]:
    whirlwind: frozenset[Module] = frozenset({Module.WHIRLWIND})
    return {
        "first": Ruleset(Edition.FIRST, 4),
        "second": Ruleset(Edition.SECOND, 6),
        "whirlwind": Ruleset(Edition.FIRST, 3, whirlwind),
        "second+whirlwind": Ruleset(
            Edition.SECOND, 4, whirlwind, frozenset({Variant.WHIRLWIND_SECOND_EDITION})
        ),
    }


def draw_roll(state: State, rng: random.Random) -> DieRoll:
    outcomes: tuple[tuple[DieRoll, Fraction], ...] = chance_outcomes(state)
    rolls = [roll for roll, _ in outcomes]
    weights = [float(chance) for _, chance in outcomes]
    return rng.choices(rolls, weights=weights)[0]


def choose(state: State, rng: random.Random) -> Action:
    actions: tuple[Action, ...] = legal_actions(state)
    bets = [a for a in actions if isinstance(a, (TakeLegTicket, PlaceFinishCard))]
    if bets and rng.random() < 0.3:
        return rng.choice(bets)
    return TakePyramidTicket(state.to_move, draw_roll(state, rng))


def play(ruleset: Ruleset, seed: int) -> State:
    rng = random.Random(seed)
    setup: Setup = random_setup(ruleset, rng)
    state: State = new_game(ruleset, setup)
    while not state.is_over:
        result: Result = apply(state, choose(state, rng))
        state = result.state
    return state


def describe(state: State) -> str:
    order: tuple[Camel, ...] = ranking(state.track)
    outcome: GameResult | None = state.result
    winners = outcome.winners if outcome is not None else ()
    players: tuple[Player, ...] = state.players
    held: list[LegTicket] = [t for p in players for t in p.leg_tickets]
    money = ", ".join(str(p.money) for p in players)
    tickets = f"{len(held)} tickets held"
    return f"winner camel {order[0].value}, seats {winners} win; money {money}; {tickets}"


def refused_action(state: State) -> str | None:
    """Betting on a crazy camel is refused with a stable code and the clause it breaks."""
    seat = state.to_move
    try:
        apply(state, PlaceFinishCard(seat, Camel.CRAZY_WHITE, Pile.WINNER))
    except IllegalAction as error:
        return f"{error.code} [{error.clause}]"
    except CamelUpError:
        return None
    return None


def main() -> int:
    for name, ruleset in rulesets().items():
        final = play(ruleset, seed=7)
        print(f"{name}: {describe(final)}")
    start = new_game(rulesets()["second"], random_setup(rulesets()["second"], random.Random(1)))
    print(refused_action(start), TileSide.CHEERING.value)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

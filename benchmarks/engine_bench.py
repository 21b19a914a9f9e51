"""Engine throughput: random games per second and microseconds per ``apply``.

Run: ``python benchmarks/engine_bench.py`` (``--seconds`` per measurement, default 2).
Prints numbers only; nothing here asserts a timing.

* "full" games pick uniformly among the *kinds* of legal action (ticket, tile, pyramid,
  finish card, partnership), then uniformly within the kind, so games look like play.
* "roll-only" games take the pyramid action every turn, drawing the roll by its exact
  probability (a die uniformly from the pyramid, then a face), as a leg-odds oracle would.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from camelup import (
    CRAZY_CAMELS,
    DieRoll,
    Edition,
    Module,
    Ruleset,
    TakePyramidTicket,
    Variant,
    apply,
    legal_actions,
    new_game,
    random_setup,
)
from camelup.model.camels import Die

RULESETS = {
    "first": Ruleset(Edition.FIRST, players=4),
    "second": Ruleset(Edition.SECOND, players=4),
    "first+whirlwind": Ruleset(Edition.FIRST, players=4, modules=frozenset({Module.WHIRLWIND})),
    "second+whirlwind": Ruleset(
        Edition.SECOND,
        players=4,
        modules=frozenset({Module.WHIRLWIND}),
        variants=frozenset({Variant.WHIRLWIND_SECOND_EDITION}),
    ),
}


# Actions are immutable values, so a driver may build each possible pyramid action once and
# reuse it, as a leg-odds oracle would; the engine's cost per apply is then what is measured.
_PYRAMID_ACTIONS: dict[tuple[int, Die], tuple[TakePyramidTicket, ...]] = {}


def _pyramid_actions(seat: int, die: Die) -> tuple[TakePyramidTicket, ...]:
    key = (seat, die)
    actions = _PYRAMID_ACTIONS.get(key)
    if actions is None:
        if die is Die.GREY:
            rolls = [DieRoll(die, v, c) for c in CRAZY_CAMELS for v in (1, 2, 3)]
        else:
            rolls = [DieRoll(die, v) for v in (1, 2, 3)]
        actions = _PYRAMID_ACTIONS[key] = tuple(TakePyramidTicket(seat, r) for r in rolls)
    return actions


def play_roll_only(ruleset: Ruleset, rng: random.Random) -> int:
    state = new_game(ruleset, random_setup(ruleset, rng))
    applies = 0
    draw = rng.random
    while state.result is None:
        pyramid = state.pyramid
        faces = _pyramid_actions(state.to_move, pyramid[int(draw() * len(pyramid))])
        state = apply(state, faces[int(draw() * len(faces))]).state
        applies += 1
    return applies


def play_full(ruleset: Ruleset, rng: random.Random) -> int:
    state = new_game(ruleset, random_setup(ruleset, rng))
    applies = 0
    while state.result is None:
        by_kind: dict[type, list[object]] = {}
        for action in legal_actions(state):
            by_kind.setdefault(type(action), []).append(action)
        kind = rng.choice(list(by_kind))
        state = apply(state, rng.choice(by_kind[kind])).state  # type: ignore[arg-type]
        applies += 1
    return applies


def measure(
    play: Callable[[Ruleset, random.Random], int], ruleset: Ruleset, seconds: float
) -> tuple[float, float]:
    rng = random.Random(2026)
    games = applies = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        applies += play(ruleset, rng)
        games += 1
    return games / elapsed, applies / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"{'ruleset':18} {'mode':10} {'games/s':>10} {'applies/s':>11} {'us/apply':>9}")
    for name, ruleset in RULESETS.items():
        for mode, play in (("roll-only", play_roll_only), ("full", play_full)):
            games, applies = measure(play, ruleset, args.seconds)
            per_apply = 1e6 / applies if mode == "roll-only" else float("nan")
            print(f"{name:18} {mode:10} {games:10.0f} {applies:11.0f} {per_apply:9.2f}")
    print("(us/apply is given for roll-only games, where almost all time is apply itself)")


if __name__ == "__main__":
    main()

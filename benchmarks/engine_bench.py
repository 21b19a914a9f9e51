"""Engine throughput: random games per second and microseconds per ``apply``.

Run: ``python benchmarks/engine_bench.py`` (``--seconds`` per measurement, default 2).
Prints numbers only; nothing here asserts a timing. Times are CPU time of the process
(``time.process_time``), which other programs on a shared machine disturb less than wall time.

* "full" games pick uniformly among the *kinds* of legal action (ticket, tile, pyramid,
  finish card, partnership), then uniformly within the kind, so games look like play.
* "roll-only" games take the pyramid action every turn, drawing the roll by its exact
  probability (a die uniformly from the pyramid, then a face), as a leg-odds oracle would.

``--against PYTHON`` compares builds on the same machine: this file runs under ``PYTHON`` (an
interpreter with another build of camelup installed, e.g. a wheel of an older commit in its own
venv; the option may be given several times) and under the current one, alternately for
``--rounds`` rounds, and prints the best figure of each side by side with the ratios.
Alternating spreads the load of a shared machine over all sides alike. Each run is a fresh
process, so no side warms another's caches. A build of an older commit REV, for example::

    dir=$(mktemp -d) && git worktree add --detach "$dir/src" REV
    python3 -m venv "$dir/venv" && "$dir/venv/bin/pip" install -q "$dir/src"
    python benchmarks/engine_bench.py --against "$dir/venv/bin/python"

(a plain install, not an editable one, so that the build is that commit's).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable

from camelup import (
    CRAZY_CAMELS,
    Die,
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


MODES: dict[str, Callable[[Ruleset, random.Random], int]] = {
    "roll-only": play_roll_only,
    "full": play_full,
}


def measure(
    play: Callable[[Ruleset, random.Random], int], ruleset: Ruleset, seconds: float
) -> tuple[float, float]:
    """Games and applies per CPU second over about ``seconds`` of CPU time."""
    rng = random.Random(2026)
    games = applies = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        applies += play(ruleset, rng)
        games += 1
    return games / elapsed, applies / elapsed


def figures(seconds: float) -> dict[str, tuple[float, float]]:
    """Games/s and applies/s of every ruleset and mode, keyed ``"ruleset mode"``."""
    return {
        f"{name} {mode}": measure(play, ruleset, seconds)
        for name, ruleset in RULESETS.items()
        for mode, play in MODES.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument(
        "--against",
        metavar="PYTHON",
        action="append",
        help="compare with this interpreter's build (may be given several times)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="with --against (default 5)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(figures(args.seconds)))
    elif args.against:
        compare(args.against, args.seconds, args.rounds)
    else:
        print(f"{'ruleset':18} {'mode':10} {'games/s':>10} {'applies/s':>11} {'us/apply':>9}")
        for key, (games, applies) in figures(args.seconds).items():
            name, mode = key.split()
            per_apply = 1e6 / applies if mode == "roll-only" else float("nan")
            print(f"{name:18} {mode:10} {games:10.0f} {applies:11.0f} {per_apply:9.2f}")
        print("(us/apply is given for roll-only games, where almost all time is apply itself)")


def compare(baselines: list[str], seconds: float, rounds: int) -> None:
    """The best games/s of each figure under each of ``baselines`` and under this interpreter,
    and the ratio of this one's to each baseline's."""
    command = [__file__, "--json", "--seconds", str(seconds)]
    sides = [*baselines, sys.executable]
    best: list[dict[str, float]] = [{} for _ in sides]
    for round_number in range(rounds):
        for side, python in enumerate(sides):
            out = subprocess.run([python, *command], capture_output=True, text=True, check=True)
            for key, (games, _) in json.loads(out.stdout).items():
                best[side][key] = max(best[side].get(key, 0.0), games)
        print(f"round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
    names = [f"base {n + 1}" if len(baselines) > 1 else "baseline" for n in range(len(baselines))]
    for number, python in enumerate(baselines):
        print(f"{names[number]}: {python}")
    print(f"games/s, best of {rounds} alternating runs of {seconds:g} CPU s each")
    heads = "".join(f" {name:>9}" for name in names) + f" {'current':>9}"
    ratios = "".join(f" {'/' + name:>9}" for name in names)
    print(f"{'ruleset':18} {'mode':10}{heads}{ratios}")
    for key, current in best[-1].items():
        name, mode = key.split()
        olds = [side[key] for side in best[:-1]]
        cells = "".join(f" {old:9.0f}" for old in olds) + f" {current:9.0f}"
        cells += "".join(f" {current / old:9.3f}" for old in olds)
        print(f"{name:18} {mode:10}{cells}")


if __name__ == "__main__":
    main()

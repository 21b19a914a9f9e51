"""The exact oracle's floor (issue 19): the leg's enumeration with every answer of the rules
handed to it for nothing.

Run: ``python benchmarks/odds_floor.py`` (``PYTHONPATH=build/compiled`` for the compiled build
that ``benchmarks/compiled/build.py`` makes). For each leg figure of issue 19's goal table (the
ten fresh legs of each edition that ``odds_bench.py`` times, its mid-leg and late-leg
positions), it first computes the leg as :func:`~camelup.odds.exact.leg_odds` does, keeping every
answer the race kernel and the ranking rule gave (the moves of each die on each track, with each
track after a move already made into the key it merges under, and the ranking of each track),
then times the same enumeration (``exact._enumerate``) reading those answers from tables. What
is left is the enumeration's own work: merging equal positions (hashing and comparing the tracks
as keys), weighing the moves, summing the rankings, tile payments and race ends. It is timed
twice: with today's tracks (tuples of stacks, a new one after each move, as the kernel makes
them), so that no kernel however fast brings the whole figure below this one with today's
tracks; and with each distinct track replaced by a 56-bit whole number, as a track packed into
one number (a byte per camel) would be, which is what such a representation would leave to the
rules (``../shared/research/lean-kernel-2026-12-05.md`` measured one). Each answer from the
tables is checked equal to ``leg_odds``' own.

Prints each figure whole and with the rules free (both ways), best CPU time of ``--repeat``
runs (for the fresh legs: the setup with the median whole figure, and the slowest of the ten),
beside issue 19's goal. Numbers only; the one assertion is that the answers agree.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Hashable
from typing import Any

from odds_bench import GOALS, _fresh, _positions

import camelup
from camelup import Edition, Ruleset, State
from camelup.model.camels import Die
from camelup.odds import exact


def _cpu(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The best CPU time of ``repeat`` runs of ``function``, and its answer."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        answer = function()
        best = min(best, time.process_time() - start)
    return best, answer


def _enumerate(state: State, root: Any, source: exact._MoveSource) -> exact.LegOdds:
    with exact._no_cycle_collection():
        return exact._enumerate(state.ruleset, root, state.pyramid, len(state.revealed), source)


def _free_rules(state: State, int_keys: bool) -> tuple[Any, exact._MoveSource]:
    """The root track and a move source that reads the kernel's moves and the rankings from
    tables, filled by one enumeration of ``state``'s leg with the kernel's own source.

    Without ``int_keys`` the tracks are today's tuples of stacks, a new one after each move as
    the kernel makes them, and the tables are keyed by their identity: the timed enumeration
    only meets the tracks that the tables hand out (and the root), so looking an answer up
    costs no hashing of a track, which the kernel's answers do not cost either. With
    ``int_keys`` each distinct track is replaced by a 56-bit whole number, as a track packed
    into one number (a byte per camel) would be, and the tables are keyed by it: the
    enumeration then merges positions under numbers."""
    kernel = exact._kernel_moves(state.ruleset, state.tiles)
    moves: dict[tuple[Hashable, Die], list[Any]] = {}
    rankings: dict[Hashable, tuple[camelup.Camel, ...]] = {}

    def recorded_moves(here: Any, die: Die, lifts: Any = None) -> Any:
        steps = kernel.moves(here, die)
        # each track after a move as the key it merges under, so that the timed run does not
        # even build that key
        moves[here, die] = [(w, n, moved, tuple(after), roll) for w, n, moved, after, roll in steps]
        return steps

    def recorded_rank(track: Any) -> tuple[camelup.Camel, ...]:
        found = rankings[tuple(track)] = kernel.rank(track)
        return found

    _enumerate(
        state, state.track, exact._MoveSource(recorded_moves, kernel.position, recorded_rank)
    )
    if int_keys:
        numbers: dict[Hashable, int] = {}
        for track in [state.track, *rankings, *(here for here, _ in moves)]:
            numbers.setdefault(track, (1 << 55) + 7919 * len(numbers))
        by_number: dict[int, dict[Die, list[Any]]] = {}
        for (here, die), steps in moves.items():
            by_number.setdefault(numbers[here], {})[die] = [
                (w, n, moved, numbers[after], roll) for w, n, moved, after, roll in steps
            ]
        ranked = {numbers[track]: found for track, found in rankings.items()}
        return numbers[state.track], exact._MoveSource(
            lambda here, die, _=None: by_number[here][die], None, lambda track: ranked[track]
        )
    dice = {die for _, die in moves}
    by_id: dict[int, dict[Die, list[Any]]] = {}
    rank_by_id: dict[int, tuple[camelup.Camel, ...]] = {}
    for track in [state.track] + [step[3] for steps in moves.values() for step in steps]:
        by_id[id(track)] = {d: moves[track, d] for d in dice if (track, d) in moves}
        if track in rankings:
            rank_by_id[id(track)] = rankings[track]
    return state.track, exact._MoveSource(
        lambda here, die, _=None: by_id[id(here)][die], None, lambda track: rank_by_id[id(track)]
    )


def _figure(states: list[State], repeat: int) -> tuple[list[float], list[float], list[float]]:
    """Each state's leg odds whole, with the rules free, and with the rules free and whole
    numbers for tracks: best CPU seconds."""
    whole, free, free_ints = [], [], []
    for state in states:
        seconds, odds = _cpu(lambda s=state: exact.leg_odds(s), repeat)
        whole.append(seconds)
        for int_keys, figures in ((False, free), (True, free_ints)):
            root, source = _free_rules(state, int_keys)
            seconds, same = _cpu(lambda s=state, r=root, f=source: _enumerate(s, r, f), repeat)
            figures.append(seconds)
            assert same == odds, "the enumeration with the tables gave another answer"
    return whole, free, free_ints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each, the best counts")
    args = parser.parse_args()
    compiled = not exact.__file__.endswith(".py")
    print(f"camelup from {exact.__file__} ({'compiled' if compiled else 'pure Python'})")
    rows: list[tuple[str, float, float, float]] = []
    for edition, label in ((Edition.SECOND, "2nd"), (Edition.FIRST, "1st")):
        rules = Ruleset(edition, players=4)
        found = _figure([_fresh(rules, seed) for seed in range(10)], args.repeat)
        rows.append((f"fresh {label}-edition leg, median of 10 setups", *_median(*found)))
        rows.append((f"fresh {label}-edition leg, slowest of 10 setups", *map(max, found)))
    positions = _positions()
    for name, label in (("2nd mid-leg, tiles", "4"), ("2nd late leg, tiles", "3")):
        whole, free, free_ints = _figure([positions[name]], args.repeat * 4)
        rows.append((f"{name} ({label} dice to come)", whole[0], free[0], free_ints[0]))
    print(f"{'':<48}{'':>10}{'rules free, tracks as':>24}")
    print(f"{'figure':<48}{'whole':>10}{'tuples':>12}{'numbers':>12}{'goal':>10}")
    for name, *seconds in rows:
        shown = "".join(f"{_ms(s):>12}" for s in seconds[1:])
        print(f"{name:<48}{_ms(seconds[0]):>10}{shown}{_ms(GOALS[name][0]):>10}")


def _median(whole: list[float], *others: list[float]) -> tuple[float, ...]:
    """The median setup's figures (the sixth of ten, as ``odds_bench.py`` takes): those of the
    setup whose whole figure is the median."""
    order = sorted(range(len(whole)), key=whole.__getitem__)
    middle = order[len(order) // 2]
    return (whole[middle], *(figures[middle] for figures in others))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


if __name__ == "__main__":
    main()

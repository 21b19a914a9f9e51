"""Whole-race estimates: races played by dice alone on the engine's race kernel.

:func:`race_estimates` plays whole races by dice alone from the position (later legs with no
tiles and a full pyramid, as after ``leg.cleanup``) with a seeded ``random.Random``, and
estimates each racing camel's chance of winning and of losing the race and the value of a
finish card on it, each with a 95% confidence interval. Each pyramid action is the race
kernel's (:func:`camelup.rules.race.reveal`, which ``apply`` uses) with the chance rule's
chances (:func:`camelup.rules.race.roll_chances`), looked up when the races are played, so a
patched rule changes the estimates as it changes ``apply``. The exact odds of one leg are
:mod:`camelup.odds.exact`'s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.ruleset import Ruleset
from camelup.model.state import FinishCard, State, Tile
from camelup.model.track import Stack
from camelup.odds.chances import ChanceRule
from camelup.odds.exact import GameOver
from camelup.rules import final, leg, race, ranking

if TYPE_CHECKING:  # multiprocessing is imported only when race_estimates starts workers
    import multiprocessing.pool

__all__ = ["Estimate", "RaceEstimates", "race_estimates"]


@attrs.frozen
class Estimate:
    """A Monte Carlo estimate with its 95% confidence interval (normal approximation)."""

    value: float
    low: float
    high: float


@attrs.frozen
class RaceEstimates:
    """Whole-race estimates from ``races`` races played by dice alone (seed ``seed``).

    ``winner[c]`` / ``loser[c]``: the chance that racing camel ``c`` wins / loses the race;
    ``winner_card[c]`` / ``loser_card[c]``: the expected value of a finish card on ``c``
    placed first on the winner / loser pile (8 EP if right, -1 if wrong, by the final-scoring
    rule; a card placed later pays less when right: 5, 3, 2, 1); ``winner_counts`` /
    ``loser_counts``: the raw counts.
    """

    races: int
    seed: int
    winner: Mapping[Camel, Estimate]
    loser: Mapping[Camel, Estimate]
    winner_card: Mapping[Camel, Estimate]
    loser_card: Mapping[Camel, Estimate]
    winner_counts: Mapping[Camel, int]
    loser_counts: Mapping[Camel, int]


_Z95 = 1.959963984540054


def _proportion(count: int, n: int, scale: float = 1.0, shift: float = 0.0) -> Estimate:
    p = count / n
    half = _Z95 * math.sqrt(p * (1 - p) / n) * abs(scale)
    centre = shift + scale * p
    return Estimate(centre, centre - half, centre + half)


_Draws = tuple[tuple[DieRoll, int], ...]


def _roll_table(rule: ChanceRule, full: tuple[Die, ...], mask: int) -> _Draws:
    """The rolls of the pyramid action with the dice of ``mask`` in the pyramid (a bit per die
    of ``full``, the ruleset's dice, whose order the pyramid keeps), each repeated in proportion
    to its chance by ``rule`` and paired with the mask of the dice left after it, so that one
    uniform draw from the table is one pyramid action."""
    chances = rule(tuple(die for bit, die in enumerate(full) if mask >> bit & 1))
    common = math.lcm(*(chance.denominator for _, chance in chances))
    share = math.gcd(*(int(chance * common) for _, chance in chances))
    return tuple(
        (roll, mask & ~(1 << full.index(roll.die)))
        for roll, chance in chances
        for _ in range(int(chance * common) // share)
    )


def _play_races(
    ruleset: Ruleset,
    track: tuple[Stack, ...],
    tiles: tuple[Tile, ...],
    pyramid: tuple[Die, ...],
    revealed: int,
    races: int,
    rng: random.Random,
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[Camel, int], dict[Camel, int]]:
    """Play ``races`` whole races by dice alone; count each camel's wins and losses. Each
    pyramid action is one draw from the table of the chance rule's rolls
    (:func:`camelup.rules.race.roll_chances`, :func:`_roll_table`)."""
    rule = race.roll_chances
    full = ruleset.dice
    # The dice left as a bit mask: a draw names the next table by a list index, where a tuple of
    # dice would be hashed on every roll. The leg-end rule is asked once per number of dice out
    # (a leg reveals at most the ruleset's dice), not once per roll.
    tables: list[_Draws | None] = [None] * (1 << len(full))
    leg_over = [leg.leg_is_over(ruleset, out) for out in range(len(full) + 1)]
    everything = (1 << len(full)) - 1
    start = sum(1 << full.index(die) for die in pyramid)
    wins = dict.fromkeys(ruleset.racing_camels, 0)
    losses = dict.fromkeys(ruleset.racing_camels, 0)
    reveal = race.reveal
    draw = rng.random
    for done in range(races):
        moved = list(track)
        mask = start
        on_track = tiles
        out = revealed
        while True:
            table = tables[mask]
            if table is None:
                table = tables[mask] = _roll_table(rule, full, mask)
            roll, mask = table[int(draw() * len(table))]
            if reveal(moved, on_track, ruleset, roll).crossed:
                break
            out += 1
            if leg_over[out] or not mask:  # leg.cleanup: tiles off, dice back
                mask, on_track, out = everything, (), 0
        ranked = ranking.ranking(moved)
        wins[ranked[0]] += 1
        losses[ranked[-1]] += 1
        if progress is not None and done % 1000 == 999:
            progress(1000)
    if progress is not None:
        progress(races % 1000)
    return wins, losses


_Counts = tuple[dict[Camel, int], dict[Camel, int]]  # each camel's wins and losses


def _worker(
    job: tuple[Ruleset, tuple[Stack, ...], tuple[Tile, ...], tuple[Die, ...], int, int, str],
) -> _Counts:
    ruleset, track, tiles, pyramid, revealed, races, seed = job
    return _play_races(ruleset, track, tiles, pyramid, revealed, races, random.Random(seed))


def _next_result(results: multiprocessing.pool.IMapIterator[_Counts]) -> _Counts:
    """The next of a pool's ``results``, waited for a second at a time. A signal (SIGINT,
    SIGTERM) does not always wake a main thread that waits without a limit (the kernel may hand
    it to another thread, and ``camelup odds --race N --jobs 2`` lost its first SIGINT about
    once in forty runs): its handler, the command's, which raises, runs only when the thread
    next runs Python code, and the race ran on, for hours, after the command was told to stop.
    After each second the interpreter runs the handler of a signal that came."""
    from multiprocessing import TimeoutError

    while True:
        try:
            return results.next(timeout=1.0)
        except TimeoutError:
            continue


def race_estimates(
    state: State,
    races: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    start_pool: Callable[[int], multiprocessing.pool.Pool] | None = None,
) -> RaceEstimates:
    """Estimate the whole race from ``state`` by ``races`` races played by dice alone.

    The result depends only on ``state``, ``races``, ``seed`` and ``jobs``: each of the
    ``jobs`` worker processes plays its share with ``random.Random(f"{seed}/{job}")`` (one job
    runs in this process). ``progress`` is called with the number of races just finished (in
    this process only: with several jobs, once per finished job). ``start_pool`` starts the
    worker processes (the command line's handles its signals); by default a plain pool.
    """
    if state.is_over:
        raise GameOver("the game is over: there is no race left to estimate")
    if races < 1 or jobs < 1:
        raise ValueError("races and jobs must be at least 1")
    ruleset = state.ruleset
    args = (ruleset, state.track, state.tiles, state.pyramid, len(state.revealed))
    shares = [races // jobs + (1 if j < races % jobs else 0) for j in range(jobs)]
    shares = [s for s in shares if s]
    seeds = [f"{seed}/{j}" for j in range(len(shares))]
    if len(shares) == 1:
        counts = [_play_races(*args, shares[0], random.Random(seeds[0]), progress)]
    else:
        pool = None
        try:
            import multiprocessing

            pool = (start_pool or multiprocessing.get_context().Pool)(len(shares))
            results = pool.imap(
                _worker, [(*args, s, sd) for s, sd in zip(shares, seeds, strict=True)]
            )
            counts = []
            for share in shares:
                counts.append(_next_result(results))
                if progress is not None:
                    progress(share)
        finally:  # a signal or not: no worker outlives the estimate
            if pool is not None:
                pool.terminate()
    wins = dict.fromkeys(ruleset.racing_camels, 0)
    losses = dict.fromkeys(ruleset.racing_camels, 0)
    for won, lost in counts:
        for camel in ruleset.racing_camels:
            wins[camel] += won[camel]
            losses[camel] += lost[camel]

    def card(camel: Camel, ranked: Camel) -> int:
        return final.card_amounts((FinishCard(0, camel),), ranked)[0]

    def card_estimate(camel: Camel, count: int) -> Estimate:
        other = next(c for c in ruleset.racing_camels if c is not camel)
        right, wrong = card(camel, camel), card(camel, other)
        return _proportion(count, races, right - wrong, wrong)

    camels = ruleset.racing_camels
    return RaceEstimates(
        races=races,
        seed=seed,
        winner={c: _proportion(wins[c], races) for c in camels},
        loser={c: _proportion(losses[c], races) for c in camels},
        winner_card={c: card_estimate(c, wins[c]) for c in camels},
        loser_card={c: card_estimate(c, losses[c]) for c in camels},
        winner_counts=wins,
        loser_counts=losses,
    )

"""Odds throughput: the exact oracle (``camelup.odds.exact``) against plain enumeration
through ``apply``.

Run: ``python benchmarks/odds_bench.py`` (``--quick`` skips the fresh 2nd-edition legs through
``apply``, which take a while). For each position it times the oracle (best of ``--repeat``)
and the enumeration through ``apply`` (``camelup.odds.by_apply``, once), checks that they agree
exactly (places, race end, sequence count, tile coins, ticket rewards), and prints both CPU
times and their ratio. The time of a fresh leg depends on the setup (how the camels start
stacked), so the oracle alone is also timed on ``--setups`` fresh legs of each edition.
Then the values of every action (tile placements included), Monte Carlo whole races per second,
and last issue 9's speed goals beside the CPU times measured (the best CPU time of this process
disturbs less than wall time on a shared machine). Prints numbers; the only assertions are that
the answers agree.

``--against PYTHON`` puts the figures of issue 19's goal table side by side: this file runs
with ``--json`` under ``PYTHON`` (an interpreter with another build of camelup installed, e.g.
a wheel of commit 2c005f6 in its own venv, as ``engine_bench.py`` explains) and under the
current one (and, with ``--compiled DIR``, under the current one with the compiled kernel that
``benchmarks/compiled/build.py`` made in DIR), alternately for ``--rounds`` rounds, each run a
fresh process; it prints the best figure of each side, the ratios to the last baseline, and the
ratios to the compiled calculators' figures measured on this machine (a Go calculator for the
2nd edition, a Rust one for the 1st; issue 19).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from camelup import (
    DieRoll,
    Edition,
    Module,
    MoveTile,
    PlaceTile,
    Ruleset,
    State,
    TakeLegTicket,
    TakePyramidTicket,
    TileSide,
    apply,
    new_game,
    random_setup,
)
from camelup.model.camels import Die

try:
    from camelup.odds.by_apply import summary
    from camelup.odds.exact import action_values, leg_odds

    try:
        from camelup.odds.races import race_estimates
    except ImportError:  # a build from before the races had a module of their own (5a7ba17)
        from camelup.odds.exact import race_estimates  # type: ignore[attr-defined,no-redef]
except ImportError:  # a build from before the layers were folders (2c005f6), for --against
    from camelup.odds_by_apply import summary  # type: ignore[import-not-found,no-redef]

    from camelup.odds import action_values, leg_odds, race_estimates  # type: ignore[attr-defined,no-redef]

_CPU: dict[str, float] = {}  # the best process time of the last _best call, under "last"


def _best(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The best wall time of ``repeat`` runs (and, in ``_CPU["last"]``, the best CPU time of
    this process, which other programs on a shared machine disturb less) and the result."""
    best, cpu, value = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        value = function()
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    _CPU["last"] = cpu
    return best, value


def _fresh(ruleset: Ruleset, seed: int) -> State:
    return new_game(ruleset, random_setup(ruleset, random.Random(seed)))


def _positions() -> dict[str, State]:
    first = Ruleset(Edition.FIRST, players=4)
    second = Ruleset(Edition.SECOND, players=4)
    whirl = Ruleset(Edition.FIRST, players=4, modules=frozenset({Module.WHIRLWIND}))
    # whirlwind: two legs of play bring the camels to the loop
    state = _fresh(whirl, 5)
    rng = random.Random(5)
    while state.leg < 2:
        die = rng.choice(state.pyramid)
        state = apply(state, TakePyramidTicket(state.to_move, DieRoll(die, 2))).state
    whirlwind = state
    # mid-leg: a 2nd-edition leg with two dice out, two tiles and tickets held
    mid = _fresh(second, 3)
    seat = mid.to_move
    mid = apply(mid, TakeLegTicket(seat, second.racing_camels[0])).state
    mid = apply(mid, PlaceTile(mid.to_move, 9, TileSide.BOOING)).state
    mid = apply(mid, PlaceTile(mid.to_move, 6, TileSide.CHEERING)).state
    mid = apply(mid, TakePyramidTicket(mid.to_move, DieRoll(Die.GREEN, 2))).state
    later = apply(mid, TakePyramidTicket(mid.to_move, DieRoll(Die.GREY, 1, _crazy()))).state
    return {
        "fresh 1st-edition leg": _fresh(first, 1),
        "fresh 2nd-edition leg": _fresh(second, 1),  # the crazy camels stacked
        "1st+whirlwind, leg 2": whirlwind,
        "2nd mid-leg, tiles": mid,  # 4 dice to come
        "2nd late leg, tiles": later,  # 3 dice to come
    }


def _crazy() -> Any:
    from camelup import CRAZY_CAMELS

    return CRAZY_CAMELS[1]


def _agree(state: State, odds: Any, slow: Any) -> None:
    assert odds.sequences == slow.sequences, (odds.sequences, slow.sequences)
    assert odds.places() == {c: tuple(r) for c, r in slow.places.items()}
    assert odds.race_end == slow.race_end
    for seat in range(state.ruleset.players):
        assert odds.tile_coins(seat) == slow.tile_coins.get(seat, 0)
        held = state.players[seat].leg_tickets
        assert sum((odds.ticket_value(t) for t in held), Fraction(0)) == slow.ticket_rewards.get(
            seat, 0
        )


def _values_by_apply(state: State) -> dict[Any, Fraction]:
    """Each tile action's and leg ticket's value by enumerating through apply before and after."""
    seat = state.to_move
    before = summary(state)

    def total(s: Any) -> Fraction:
        return Fraction(s.tile_coins.get(seat, 0)) + s.ticket_rewards.get(seat, 0)

    found = {}
    for value in action_values(state):
        if type(value.action) in (PlaceTile, MoveTile, TakeLegTicket):
            found[value.action] = total(summary(apply(state, value.action).state)) - total(before)
    return found


# Issue 19's table: figure -> (the compiled calculators' CPU seconds, low and high, measured on
# this machine; camelup's goal; whether the goal is an upper bound). Races/s have no peer.
PEERS: dict[str, tuple[str, float, float]] = {
    "fresh 2nd-edition leg, median of 10 setups": ("Go", 0.032, 0.043),
    "fresh 2nd-edition leg, slowest of 10 setups": ("Go", 0.032, 0.043),
    "fresh 1st-edition leg, median of 10 setups": ("Rust", 0.0105, 0.011),
    "fresh 1st-edition leg, slowest of 10 setups": ("Rust", 0.0105, 0.011),
    "2nd mid-leg, tiles (4 dice to come)": ("Go", 0.0017, 0.0024),
    "2nd late leg, tiles (3 dice to come)": ("Go", 0.000003, 0.00015),
    "odds STATE.json, fresh 2nd leg, cpu (process)": ("Go", 0.040, 0.090),
    "odds STATE.json, fresh 2nd leg, wall (process)": ("Go", 0.040, 0.090),
}
GOALS: dict[str, tuple[float, bool]] = {
    "fresh 2nd-edition leg, median of 10 setups": (0.035, True),
    "fresh 2nd-edition leg, slowest of 10 setups": (0.035, True),
    "fresh 1st-edition leg, median of 10 setups": (0.010, True),
    "fresh 1st-edition leg, slowest of 10 setups": (0.010, True),
    "2nd mid-leg, tiles (4 dice to come)": (0.003, True),
    "2nd late leg, tiles (3 dice to come)": (0.003, True),
    "every action value, fresh 2nd leg": (0.3, True),
    "odds STATE.json, fresh 2nd leg, cpu (process)": (0.6, True),
    "odds STATE.json, fresh 2nd leg, wall (process)": (0.6, True),
    "Monte Carlo races/s, fresh 2nd leg": (2 * 22_500, False),
}


def goal_figures(repeat: int, races: int) -> dict[str, float]:
    """Issue 19's figures for this build: best CPU seconds (races/s for Monte Carlo; the
    process's wall seconds for the command line)."""
    import os
    import resource
    import subprocess
    import sys
    import tempfile

    found: dict[str, float] = {}
    for edition, label in ((Edition.SECOND, "2nd"), (Edition.FIRST, "1st")):
        rules = Ruleset(edition, players=4)
        times = []
        for seed in range(10):
            state = _fresh(rules, seed)
            _best(lambda s=state: leg_odds(s), repeat)
            times.append(_CPU["last"])
        found[f"fresh {label}-edition leg, median of 10 setups"] = sorted(times)[5]
        found[f"fresh {label}-edition leg, slowest of 10 setups"] = max(times)
    positions = _positions()
    for name, label in (("2nd mid-leg, tiles", "4"), ("2nd late leg, tiles", "3")):
        state = positions[name]
        _best(lambda s=state: leg_odds(s), repeat * 4)
        found[f"{name} ({label} dice to come)"] = _CPU["last"]
    fresh = positions["fresh 2nd-edition leg"]
    _best(lambda: action_values(fresh), max(1, repeat // 2))
    found["every action value, fresh 2nd leg"] = _CPU["last"]
    _best(lambda: race_estimates(fresh, races, seed=1), 1)
    found["Monte Carlo races/s, fresh 2nd leg"] = races / _CPU["last"]
    from camelup.io.codec import dumps

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "state.json")
        with open(path, "w") as file:
            file.write(dumps(fresh))
        command = [sys.executable, "-m", "camelup", "odds", path]
        wall = cpu = float("inf")
        for _ in range(max(1, repeat // 2)):
            start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(command, capture_output=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = min(wall, time.perf_counter() - start)
            used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            cpu = min(cpu, used)
        found["odds STATE.json, fresh 2nd leg, cpu (process)"] = cpu
        found["odds STATE.json, fresh 2nd leg, wall (process)"] = wall
    return found


def compare(
    baselines: list[str], repeat: int, races: int, rounds: int, compiled: str | None
) -> None:
    """Issue 19's figures under each of ``baselines``, under this interpreter and (with
    ``compiled``, a folder made by ``benchmarks/compiled/build.py``) under this interpreter with
    the compiled kernel, alternately, best of ``rounds``; with the ratios to the last baseline
    and to the compiled calculators, and each build's verdict against the goal."""
    import json
    import os
    import subprocess
    import sys

    command = [__file__, "--json", "--repeat", str(repeat), "--races", str(races)]
    pure = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    sides: list[tuple[str, str, dict[str, str]]] = [
        (f"base {n + 1}", python, pure) for n, python in enumerate(baselines)
    ]
    sides.append(("current", sys.executable, pure))
    if compiled is not None:
        sides.append(("compiled", sys.executable, dict(pure, PYTHONPATH=compiled)))
    best: list[dict[str, float]] = [{} for _ in sides]
    for round_number in range(rounds):
        for side, (_, python, environment) in enumerate(sides):
            out = subprocess.run(
                [python, *command], capture_output=True, text=True, check=True, env=environment
            )
            for key, value in json.loads(out.stdout).items():
                higher_better = key.startswith("Monte Carlo")
                old = best[side].get(key)
                if old is None or (value > old if higher_better else value < old):
                    best[side][key] = value
        print(f"round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
    for number, python in enumerate(baselines):
        print(f"base {number + 1}: {python}")
    if compiled is not None:
        print(f"compiled: {sys.executable} with PYTHONPATH={compiled}")
    print(f"best of {rounds} alternating runs; seconds of CPU (wall for the process), races/s")
    ours = [index for index, side in enumerate(sides) if not side[0].startswith("base")]
    base = len(baselines) - 1  # the ratios are to the last baseline
    heads = "".join(f" {label:>9}" for label, _, _ in sides)
    heads += "".join(f" {sides[i][0][:4] + '/base':>9}" for i in ours)
    heads += f" {'peer':>15}" + "".join(f" {sides[i][0][:4] + '/peer':>11}" for i in ours)
    print(f"{'figure':48}{heads}  goal")
    for key in best[-1]:
        figures = [side.get(key, float("nan")) for side in best]
        cells = "".join(f" {_shown(value):>9}" for value in figures)
        cells += "".join(f" {figures[i] / figures[base]:9.2f}" for i in ours)
        peer = PEERS.get(key)
        if peer is None:
            cells += f" {'-':>15}" + "".join(f" {'-':>11}" for _ in ours)
        else:
            name, low, high = peer
            cells += f" {name + ' ' + _shown(low) + '-' + _shown(high):>15}"
            cells += "".join(f" {figures[i] / high:5.1f}-{figures[i] / low:<5.1f}" for i in ours)
        goal, at_most = GOALS[key]
        verdicts = []
        for i in ours:
            met = figures[i] <= goal if at_most else figures[i] >= goal
            verdicts.append(f"{sides[i][0]} {'met' if met else 'NOT met'}")
        print(f"{key:48}{cells}  {'<=' if at_most else '>='} {_shown(goal)} {', '.join(verdicts)}")


def _shown(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 0.1:
        return f"{value:.3f}"
    return f"{value * 1000:.3g}ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="oracle timings: best of N")
    parser.add_argument("--quick", action="store_true", help="skip the slowest apply runs")
    parser.add_argument("--races", type=int, default=20000, help="Monte Carlo races per run")
    parser.add_argument("--setups", type=int, default=10, help="fresh legs timed per edition")
    parser.add_argument(
        "--against",
        metavar="PYTHON",
        action="append",
        help="issue 19's figures beside this interpreter's build (may be given several times)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="with --against (default 3)")
    parser.add_argument(
        "--compiled",
        metavar="DIR",
        help="with --against: a column for the compiled kernel in DIR (benchmarks/compiled/)",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        import json

        print(json.dumps(goal_figures(args.repeat, args.races)))
        return
    if args.against:
        compare(args.against, args.repeat, args.races, args.rounds, args.compiled)
        return

    columns = f"{'oracle cpu s':>12} {'(wall)':>8} {'apply cpu s':>11} {'ratio':>7}  agree"
    print(f"{'position':30} {'seqs':>8} {columns}")
    # figure -> (measured, unit, goal, whether the goal is an upper bound)
    goals: dict[str, tuple[float, str, float, bool]] = {}
    for name, state in _positions().items():
        wall, odds = _best(lambda s=state: leg_odds(s), args.repeat)
        cpu = _CPU["last"]
        if name.startswith("fresh"):
            goals[f"{name}, all places exact"] = (cpu, "s", 0.1 if "2nd" in name else 0.02, True)
        if args.quick and name.startswith("fresh 2nd"):
            skipped = f"{'-':>11} {'-':>7}  (skipped)"
            print(f"{name:30} {odds.sequences:8} {cpu:12.4f} {wall:8.4f} {skipped}")
            continue
        _, slow = _best(lambda s=state: summary(s), 1)
        slow_cpu = _CPU["last"]
        _agree(state, odds, slow)
        print(
            f"{name:30} {odds.sequences:8} {cpu:12.4f} {wall:8.4f} {slow_cpu:11.3f}"
            f" {slow_cpu / cpu:6.0f}x  yes"
        )

    print()
    print(f"{'fresh legs, oracle only':30} {'setups':>8} {'median s':>12} {'slowest s':>9}  (cpu)")
    for edition, goal in ((Edition.FIRST, 0.02), (Edition.SECOND, 0.1)):
        rules = Ruleset(edition, players=4)
        times = []
        for seed in range(args.setups):
            state = _fresh(rules, seed)
            _best(lambda s=state: leg_odds(s), 3)
            times.append(_CPU["last"])
        median, slowest = sorted(times)[len(times) // 2], max(times)
        label = f"fresh {'1st' if edition is Edition.FIRST else '2nd'}-edition legs"
        goals[f"{label}, median of {args.setups} setups"] = (median, "s", goal, True)
        goals[f"{label}, slowest of {args.setups} setups"] = (slowest, "s", goal, True)
        print(f"{label:30} {args.setups:8} {median:12.4f} {slowest:9.4f}")

    print()
    print(f"{'action values':30} {'actions':>8} {columns}")
    positions = _positions()
    mid = positions["2nd late leg, tiles"]
    wall, values = _best(lambda: action_values(mid), args.repeat)
    cpu = _CPU["last"]
    _, by_apply = _best(lambda: _values_by_apply(mid), 1)
    slow_cpu = _CPU["last"]
    for value in values:
        if value.action in by_apply:
            assert value.value == by_apply[value.action], value.action
    label = "2nd late leg, every action"
    timing = f"{cpu:12.4f} {wall:8.4f} {slow_cpu:11.3f} {slow_cpu / cpu:6.0f}x"
    print(f"{label:30} {len(values):8} {timing}  yes")
    fresh = positions["fresh 2nd-edition leg"]
    wall, values = _best(lambda: action_values(fresh), max(1, args.repeat // 2))
    cpu = _CPU["last"]
    tiles = [v for v in values if type(v.action) in (PlaceTile, MoveTile)]

    def each_layout_alone() -> None:  # each layout enumerated on its own by the plain oracle
        for value in tiles:
            after = apply(fresh, value.action).state.tiles
            assert leg_odds(fresh, after).tile_coins(fresh.to_move) == value.tile_coins

    _best(each_layout_alone, 1)
    plain_cpu = _CPU["last"]
    label = "fresh 2nd leg, every tile"
    goals["EV of every tile action, fresh 2nd-edition leg"] = (cpu, "s", 3.0, True)
    timing = f"{cpu:12.4f} {wall:8.4f} {plain_cpu:11.3f} {plain_cpu / cpu:6.1f}x"
    print(f"{label:30} {len(tiles):8} {timing}  yes  (apply column: leg_odds once per layout)")

    print()
    header = f"{'Monte Carlo (1 process)':30} {'races':>8} {'seconds':>10} {'(cpu s)':>8}"
    print(f"{header} {'races/s':>9} {'(cpu)':>8}")
    for name in ("fresh 1st-edition leg", "fresh 2nd-edition leg"):
        state = positions[name]
        elapsed, _ = _best(lambda s=state: race_estimates(s, args.races, seed=1), 1)
        cpu = _CPU["last"]
        goals[f"Monte Carlo races/s, {name}"] = (args.races / cpu, "races/s", 10_000, False)
        print(
            f"{name:30} {args.races:8} {elapsed:10.3f} {cpu:8.3f} {args.races / elapsed:9.0f}"
            f" {args.races / cpu:8.0f}"
        )
    state = positions["fresh 2nd-edition leg"]
    start = time.perf_counter()
    race_estimates(state, args.races * 2, seed=1, jobs=2)
    elapsed = time.perf_counter() - start
    label = "fresh 2nd, --jobs 2"
    print(f"{label:30} {args.races * 2:8} {elapsed:10.3f} {'-':>8} {args.races * 2 / elapsed:9.0f}")

    print()
    print("issue 9's speed goals (best CPU time of this process; never asserted)")
    for figure, (measured, unit, goal, at_most) in goals.items():
        met = measured <= goal if at_most else measured >= goal
        bound = "<=" if at_most else ">="
        verdict = "met" if met else "NOT met"
        shown = f"{measured:.4f}" if unit == "s" else f"{measured:,.0f}"
        print(f"  {figure:52} {shown:>8} {unit:8} goal {bound} {goal:<8,g} {verdict}")


if __name__ == "__main__":
    main()

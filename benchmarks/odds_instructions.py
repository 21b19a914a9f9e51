"""The exact oracle's work in instructions, which a loaded machine does not change (issue 19).

Run: ``python benchmarks/odds_instructions.py`` (needs valgrind). Each figure is the number of
instructions that ``valgrind --tool=callgrind`` counts for a process doing the work, minus those
of the same process stopping just before it (start-up, imports and setting up the position), so
it is the work alone; ``PYTHONHASHSEED=0`` keeps the hashing, and so the count, the same from
run to run (to within 0.1%). The positions are ``odds_bench.py``'s: the fresh 2nd-edition leg
(seed 1, the crazy camels stacked), the fresh 1st-edition leg and the 2nd-edition mid-leg with
tiles. ``--values`` adds the value of every action of the fresh 2nd-edition leg (minutes under
valgrind). ``--python PY`` counts under another interpreter (another build of camelup).

``--headroom`` (no valgrind) prints, for each position, how many positions the last level of
the enumeration holds (each one die from the end of the leg) and how many of them differ in what
they lead to (the distribution of rankings, tile payments and race ends, with the dice left):
no merging of last-level positions, however clever its key, can go below the second number.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
from typing import Any

from odds_bench import _fresh, _positions

from camelup import Edition, Ruleset

WORK = {
    "fresh 2nd-edition leg": "leg",
    "fresh 1st-edition leg": "leg",
    "2nd mid-leg, tiles": "leg",
    "values, fresh 2nd-edition leg": "values",
}


def _state(name: str) -> Any:
    if name == "values, fresh 2nd-edition leg":
        return _fresh(Ruleset(Edition.SECOND, players=4), 1)
    return _positions()[name]


def _inner(name: str, work: bool) -> None:
    """The measured process: set up ``name``'s position, then do its work if ``work``."""
    try:
        from camelup.odds.exact import action_values, leg_odds
    except ImportError:  # a build from before the layers were folders (2c005f6), for --python
        from camelup.odds import action_values, leg_odds  # type: ignore[attr-defined,no-redef]

    state = _state(name)
    if work:
        if WORK[name] == "values":
            action_values(state)
        else:
            leg_odds(state)


def _count(python: str, name: str, work: bool) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, __file__]
        + ["--inner", name]
        + (["--work"] if work else []),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    found = re.search(r"Collected : (\d+)|refs: +([\d,]+)", done.stderr)
    if found is None:
        sys.exit(f"no instruction count in valgrind's output:\n{done.stderr[-2000:]}")
    return int((found.group(1) or found.group(2)).replace(",", ""))


def _headroom() -> None:
    from camelup.odds import exact
    from camelup.odds.chances import chances_of

    for name in ("fresh 2nd-edition leg", "fresh 1st-edition leg", "2nd mid-leg, tiles"):
        state = _state(name)
        ruleset = state.ruleset
        source = exact._kernel_moves(ruleset, state.tiles)
        chances = chances_of(ruleset, state.pyramid)
        steps = exact._steps_left(ruleset, len(state.revealed), len(state.pyramid))
        level = {(state.track, len(chances.draws) - 1)}
        for _ in range(steps - 1):
            following = set()
            for track, mask in level:
                for die, _, rest in chances.draws[mask]:
                    for _, _, moved, after, _ in source.moves(track, die):
                        if not moved.crossed:
                            following.add((tuple(after), rest))
            level = following
        outcomes = set()
        for track, mask in level:
            found: collections.Counter[Any] = collections.Counter()
            for die, drawn, _ in chances.draws[mask]:
                for weight, _, moved, after, _ in source.moves(track, die):
                    found[source.rank(after), moved.crossed, moved.payments] += drawn * weight
            outcomes.add((mask, frozenset(found.items())))
        print(f"{name}: last level {len(level):,} positions, {len(outcomes):,} outcomes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--values", action="store_true", help="add every action's value")
    parser.add_argument("--python", default=sys.executable, help="the interpreter to count")
    parser.add_argument("--headroom", action="store_true", help="last-level merging's limit")
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    parser.add_argument("--work", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        _inner(args.inner, args.work)
        return
    if args.headroom:
        _headroom()
        return
    for name, _ in WORK.items():
        if name.startswith("values") and not args.values:
            continue
        total = _count(args.python, name, True) - _count(args.python, name, False)
        print(f"{name}: {total / 1e6:,.1f}M instructions", flush=True)


if __name__ == "__main__":
    main()

"""``camelup odds``: the exact odds of the current leg, the value of each action, and (with
``--race N``) Monte Carlo estimates of the whole race. The models are :mod:`camelup.odds.exact`'s
and :mod:`camelup.odds.races`'.

Exit codes: 0 done; 2 usage error or a finished game (nothing to compute); 3 the state (or the
case) cannot be read: one line naming the JSON pointer at fault.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import attrs

import camelup.cli.conformance.shared as shared
import camelup.cli.signals as signals
from camelup.cli.common import InvalidSuite, UsageError, Verb, error_line, options_from, read_state
from camelup.io import exits

MAX_JOBS = 64  # as fuzz --jobs: more workers than that only fight over the cores
MAX_RACES = 100_000_000  # hours at the kernel's pace: a larger count is a typo, not a plan

DESCRIPTION = """\
Exact odds of the current leg of a position: each racing camel's chance of each place, the
chance that the race ends in the leg, the number of outcome sequences; and the expected coins
within the leg of each action of the player to move, best first. Model: every die left in the
pyramid equally likely, racing faces 1/3 each, grey faces 1/6 each; dice come out until the
leg ends or a unit crosses the line. --race N adds whole races played by dice alone."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "state", nargs="?", metavar="STATE.json", help="a canonical state JSON file ('-': stdin)"
    )
    parser.add_argument("--case", metavar="ID", help="take the position from this suite case")
    parser.add_argument(
        "--after",
        type=int,
        default=0,
        metavar="K",
        help="with --case: the position after the case's first K steps (default 0: the given one)",
    )
    parser.add_argument("--suite", metavar="DIR", help="the suite folder for --case")
    parser.add_argument("--json", action="store_true", help='JSON output, exact "n/d" strings')
    parser.add_argument(
        "--no-tiles",
        action="store_true",
        help="leave out the tile placements and moves (their values take most of the time)",
    )
    parser.add_argument(
        "--race",
        type=int,
        metavar="N",
        help=f"add Monte Carlo estimates from N whole races (at most {MAX_RACES:,})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed for --race")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="worker processes for --race"
    )


@attrs.frozen
class OddsOptions:
    state: str | None
    case: str | None
    after: int
    suite: str | None
    json: bool
    no_tiles: bool
    race: int | None
    seed: int
    jobs: int


def _state_from_case(options: OddsOptions) -> Any:
    from camelup.model.errors import CamelUpError
    from camelup.tools.render import replay

    wanted = options.case
    assert wanted is not None  # handle calls this for a --case only
    case = shared.find(shared.load(options.suite), wanted)  # UsageError or InvalidSuite
    if not 0 <= options.after <= len(case.steps):
        raise UsageError(f"--after {options.after}: {case.id} has steps 0 to {len(case.steps)}")
    try:
        frames = replay(case.ruleset, case.given, case.steps[: options.after])
    except CamelUpError:
        raise InvalidSuite(f"{case.where}#/given: the given position is refused") from None
    return frames[options.after].state


def handle(options: OddsOptions) -> int:
    from camelup.io.odds_json import odds_json, race_json
    from camelup.odds import exact as odds

    if (options.state is None) == (options.case is None):
        raise UsageError("give either STATE.json or --case ID")
    if options.case is None and options.after:
        raise UsageError("--after needs --case")
    if options.race is not None and not 1 <= options.race <= MAX_RACES:
        raise UsageError(f"--race N needs 1 <= N <= {MAX_RACES:,}")
    if not 1 <= options.jobs <= MAX_JOBS:
        raise UsageError(f"--jobs J needs 1 <= J <= {MAX_JOBS}")
    state = _state_from_case(options) if options.state is None else read_state(options.state)
    if state.is_over:
        raise UsageError("the game is over: there is no leg left to compute odds for")
    if not options.json:
        return _print_report(state, options)
    leg, found = odds.leg_odds_and_values(state, tiles=not options.no_tiles)
    values = sorted(found, key=lambda value: -value.value)  # as action_values: best first
    estimates, interrupted = _race(state, options)
    with signals.current.deferred():  # the answer is never cut in the middle
        document = odds_json(leg, values)
        if estimates is not None:
            document["race"] = race_json(estimates)
        elif interrupted is not None:
            document["race"] = {"interrupted": interrupted.signal_name}
        print(json.dumps(document, indent=2))
        return _finish(interrupted)


def _race(state: Any, options: OddsOptions) -> tuple[Any, exits.Interrupted | None]:
    """The Monte Carlo estimates when asked for, or the signal that stopped them."""
    from camelup.odds import races

    if options.race is None:
        return None, None
    try:
        estimates = races.race_estimates(
            state,
            options.race,
            options.seed,
            options.jobs,
            _progress(options.race),
            exits.worker_pool,
        )
    except KeyboardInterrupt as error:  # the exact odds are computed: they are kept
        return None, exits.interruption(error)
    return estimates, None


def _finish(interrupted: exits.Interrupted | None) -> int:
    if interrupted is None:
        return exits.OK
    message = f"race interrupted ({interrupted.signal_name}): the exact odds above are complete"
    error_line("camelup odds", message)
    return interrupted.exit_code


def _print_report(state: Any, options: OddsOptions) -> int:
    """The text report: the leg odds and the values of the tickets, then the tile actions and
    the best of them, and the time. The leg odds and every value come from one walk of the leg
    (:func:`~camelup.odds.exact.leg_odds_and_values`), so all are known together: faster in
    all than the leg first and the tiles after it (``--no-tiles`` gives the leg alone)."""
    from camelup.model.actions import MoveTile, PlaceTile
    from camelup.odds import exact as odds
    from camelup.tools.render.odds_text import action_label, leg_table, race_table

    start = time.perf_counter()
    leg, found = odds.leg_odds_and_values(state, tiles=not options.no_tiles)
    print("\n".join(leg_table(leg)), flush=True)
    seat = state.to_move
    tickets: list[Any] = []
    tile_values: list[Any] = []
    for value in found:  # in the order of legal_actions
        is_tile = type(value.action) is PlaceTile or type(value.action) is MoveTile
        (tile_values if is_tile else tickets).append(value)
    print(f"expected coins within the leg for seat {seat}, best first:")
    for value in sorted(tickets, key=lambda v: -v.value):
        print(f"  {float(value.value):+8.4f}  {action_label(value.action)}")
    print(f"(leg odds and tickets in {time.perf_counter() - start:.2f} s)", flush=True)
    if tile_values:
        print(f"tile actions for seat {seat}:")
        for value in tile_values:
            print(f"  {float(value.value):+8.4f}  {action_label(value.action)}", flush=True)
        best = max(tile_values, key=lambda v: v.value)
        print(f"best tile action: {float(best.value):+.4f}  {action_label(best.action)}")
    print(f"(all in {time.perf_counter() - start:.2f} s)", flush=True)
    estimates, interrupted = _race(state, options)
    with signals.current.deferred():
        if estimates is not None:
            print("\n".join(race_table(estimates)))
        return _finish(interrupted)


def _progress(total: int) -> Any:
    """A progress line on a terminal's stderr, at most once a second, for runs that take a
    while (none into a file or a pipe: a log would fill with carriage returns)."""
    if not sys.stderr.isatty():
        return None
    done = 0
    start = last = time.monotonic()

    def report(count: int) -> None:
        nonlocal done, last
        if count == 0:
            return
        done += count
        now = time.monotonic()
        if now - last >= 1.0 or (done == total and now - start >= 1.0):
            last = now
            rate = done / max(now - start, 1e-9)
            end = "\n" if done == total else "\r"
            print(f"  {done}/{total} races, {rate:,.0f}/s", end=end, file=sys.stderr, flush=True)

    return report


VERB = Verb(
    name="odds",
    summary="exact leg odds and action values",
    details=DESCRIPTION,
    example="camelup odds state.json\n"
    "camelup odds --case turn.order/not-your-turn --after 1 --json\n"
    "camelup odds state.json --no-tiles\n"
    "camelup odds state.json --race 10000 --jobs 2",
    exit_codes=(
        (exits.OK, "done"),
        (exits.USAGE, "usage error, no such case or step, or the game is over (no leg left)"),
        (
            exits.INVALID_INPUT,
            "the state or the case cannot be read (one line with the JSON pointer at fault)",
        ),
    ),
    add_arguments=add_arguments,
    options=options_from(OddsOptions),
    handle=handle,
)

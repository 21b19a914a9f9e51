"""The reference engine as a conformance adapter (protocol 1, ``docs/adapter-protocol.md``).

``python -m camelup.adapter`` reads JSON lines on stdin and answers on stdout: a ``hello`` with
what it supports, one reply per ``run`` (in request order), nothing to ``stop``. The conformance
runner also calls :func:`run_case` directly for its in-process runs, so a case is executed by
exactly the same code whether the reference runs in-process or as a subprocess.

Every message is checked against ``protocol.schema.json`` first (a ``run`` message, a wire case
given to :func:`run_case`); one that does not follow it is answered ``errored``, naming the JSON
pointer. Only the engine and the codec are used here; the runner (``camelup.harness``) is a
layer above and is not imported.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from camelup.io import schemas
from camelup.io.codec import to_json
from camelup.io.jsonio import JSONInputError, parse_json
from camelup.io.replay import frames, initial_state
from camelup.model.errors import CamelUpError
from camelup.model.ruleset import Edition, Module, Variant
from camelup.model.state import State
from camelup.play.engine import legal_actions
from camelup.rules.ranking import ranking

PROTOCOL = 1
CAPABILITIES = (
    "events",
    "event_clauses",
    "error_clauses",
    "legal_actions",
    "odds",
    "ranking",
    "state_after_refusal",
)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("camelup")
    except Exception:  # not installed: a source checkout on sys.path
        return "0+unknown"


def hello_reply() -> dict[str, Any]:
    """The answer to ``hello``: the reference supports every edition, module and variant."""
    return {
        "protocol": PROTOCOL,
        "implementation": {"name": "camelup", "version": _version()},
        "supports": {
            "editions": [e.value for e in Edition],
            "modules": [m.value for m in Module],
            "variants": sorted(v.value for v in Variant),
            "partnerships": True,
        },
        "capabilities": list(CAPABILITIES),
    }


def _error(error: CamelUpError) -> dict[str, str]:
    return {"code": error.code, "clause": error.clause, "message": str(error)}


def run_case(case: Mapping[str, Any]) -> dict[str, Any]:
    """Execute one wire case (``{"id", "ruleset", "given", "steps", "want"}``) on the engine.

    Returns the reply without its ``seq``: ``initial_state`` (or ``initial_error`` when the
    given position is refused), one entry per step (``{"state", "events"}``, or ``{"error",
    "state"}`` when the step is rejected, which leaves the position unchanged), and the legal
    actions at each moment listed in ``want.legal_actions_after``. A case that does not follow the
    protocol's schema gives ``{"errored": {"message"}}``; it never raises.
    """
    violation = schemas.check("protocol#/$defs/wire_case", case)
    if violation is not None:
        return _malformed("case", violation)
    return _guarded(case)


def _malformed(what: str, violation: schemas.Violation) -> dict[str, Any]:
    return {"errored": {"message": f"malformed {what}: {violation}"}}


def _guarded(case: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return _replay_case(case)
    except Exception as error:  # a bug: reported, never raised
        return {"errored": {"message": f"{type(error).__name__}: {error}"}}


def _replay_case(case: Mapping[str, Any]) -> dict[str, Any]:
    try:
        state = initial_state(case["ruleset"], case["given"], checked=True)
    except CamelUpError as error:
        return {"initial_error": _error(error), "steps": [], "legal_actions": {}}
    wanted = set(case["want"]["legal_actions_after"])
    odds_wanted = set(case["want"].get("odds_after", ()))
    ranking_wanted = set(case["want"].get("ranking_after", ()))
    found: dict[str, list[Any]] = {}
    odds: dict[str, Any] = {}
    ranked: dict[str, list[str]] = {}
    steps: list[dict[str, Any]] = []
    for frame in frames(state, case["steps"], checked=True):
        if frame.error is not None:
            steps.append({"error": _error(frame.error), "state": to_json(frame.state)})
        elif frame.step:
            steps.append(
                {"state": to_json(frame.state), "events": [to_json(e) for e in frame.events]}
            )
        if frame.step in wanted:
            found[str(frame.step)] = [to_json(a) for a in legal_actions(frame.state)]
        if frame.step in odds_wanted:
            odds[str(frame.step)] = _odds(frame.state)
        if frame.step in ranking_wanted:
            ranked[str(frame.step)] = [camel.value for camel in ranking(frame.state.track)]
    reply = {"initial_state": to_json(state), "steps": steps, "legal_actions": found}
    if odds_wanted:
        reply["odds"] = odds
    if ranking_wanted:
        reply["ranking"] = ranked
    return reply


def _odds(state: State) -> dict[str, Any]:
    """The leg's exact odds as the protocol carries them (capability ``odds``)."""
    from camelup.io.odds_json import leg_odds_json
    from camelup.odds.exact import GameOver, leg_odds

    try:
        found = leg_odds(state)
    except GameOver:
        return {}  # a finished game has no leg left: nothing to report
    return leg_odds_json(found)


def handle(message: Any) -> dict[str, Any] | None:
    """The reply to one protocol message (None for ``stop``, which has no reply)."""
    violation = schemas.check("protocol#/$defs/request", message)
    seq = message.get("seq") if isinstance(message, dict) else None
    if violation is not None:
        return {"seq": seq, **_malformed("message", violation)}
    if message["cmd"] == "hello":
        return hello_reply()
    if message["cmd"] == "run":
        return {"seq": seq, **_guarded(message["case"])}
    return None  # stop


def serve(
    stdin: IO[bytes],
    stdout: IO[str],
    answer: Callable[[Any], dict[str, Any] | None] = handle,
    failure: str = "internal error: ",
) -> int:
    """Answer messages with ``answer`` until ``stop`` (its None) or the end of input.

    Whatever arrives, the adapter answers with one line and goes on: a line that is not a JSON
    object (or not UTF-8) gets an ``errored`` reply, and so does an unexpected failure while
    running a case (its message after ``failure``), so a runner never sees this process die
    with a traceback. ``camelup.testing.serve`` serves an adapter class through this loop.
    """
    for line in stdin:
        if not line.strip():
            continue
        reply: dict[str, Any] | None
        try:
            reply = answer(parse_json(line))
        except JSONInputError as error:
            reply = {"errored": {"message": str(error)}}
        except Exception as error:  # a bug here must not kill the session
            reply = {"errored": {"message": f"{failure}{type(error).__name__}: {error}"}}
        if reply is None:
            return 0
        # ASCII only: a lone surrogate echoed from the input must not break the encoding.
        stdout.write(json.dumps(reply, separators=(",", ":"), ensure_ascii=True) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m camelup.adapter")
    parser.add_argument(
        "--mutant",
        metavar="NAME",
        help="serve a deliberately wrong engine (camelup conformance mutants --list)",
    )
    options = parser.parse_args()
    if options.mutant is not None:
        from camelup.harness.mutation import StaleMutant, activate
        from camelup.harness.mutation.catalogue import CATALOGUE
        from camelup.io import exits

        if options.mutant not in CATALOGUE:
            print(f"camelup.adapter: no such mutant: {options.mutant}", file=sys.stderr)
            return 2
        try:
            activate(CATALOGUE[options.mutant])
        except StaleMutant as stale:
            print(f"camelup.adapter: {stale}", file=sys.stderr)
            return exits.INTERNAL
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    try:
        return serve(sys.stdin.buffer, stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    raise SystemExit(main())

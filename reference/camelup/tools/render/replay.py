"""Replay a conformance case's steps on the reference engine, keeping every position.

A case is replayed as the conformance adapter replays it (:func:`camelup.harness.adapter.run_case`):
the ``given`` state, or a new game from the ``given`` setup; each step's action is applied,
and a step the engine rejects leaves the position unchanged. This module takes the case's
JSON parts rather than a :class:`camelup.harness.suite.Case`, so that the renderer does
not depend on the conformance runner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from camelup.io.codec import action_from_json, ruleset_from_json, setup_from_json, state_from_json
from camelup.model.errors import CamelUpError, InvalidSetup
from camelup.model.events import Event
from camelup.model.state import State
from camelup.play.engine import apply
from camelup.rules.setup import new_game


@attrs.frozen
class Frame:
    """The position after a step (step 0: the given position), the events that step caused,
    and the engine's error when it rejected the step (the position is then unchanged)."""

    step: int
    state: State
    events: tuple[Event, ...] = ()
    error: CamelUpError | None = None


def initial_state(
    ruleset: Mapping[str, Any], given: Mapping[str, Any], *, checked: bool = False
) -> State:
    """The case's starting position; raises the codec's or the setup's ``CamelUpError`` (with
    a JSON pointer into the case) when the case gives one the engine refuses. ``checked``: the
    case file was already checked against its schema (the browser, which has no schema
    validator, replays only cases the site's build checked)."""
    if "state" in given:
        return state_from_json(given["state"], "/given/state", checked=checked)
    rules = ruleset_from_json(ruleset, "/ruleset", checked=checked)
    setup = setup_from_json(given["setup"], "/given/setup", checked=checked)
    try:
        return new_game(rules, setup)
    except InvalidSetup as error:  # its pointer is into the setup: say where that is
        error.pointer = "/given/setup" + (error.pointer or "")
        raise


def replay(
    ruleset: Mapping[str, Any],
    given: Mapping[str, Any],
    steps: Sequence[Mapping[str, Any]],
    *,
    checked: bool = False,
) -> tuple[Frame, ...]:
    """Frame 0 is the given position; frame k the position after step k (1-based)."""
    state = initial_state(ruleset, given, checked=checked)
    frames = [Frame(0, state)]
    for index, step in enumerate(steps, start=1):
        try:
            action = action_from_json(step["action"], f"/steps/{index - 1}/action", checked=checked)
            result = apply(state, action)
        except CamelUpError as error:
            frames.append(Frame(index, state, (), error))
        else:
            state = result.state
            frames.append(Frame(index, state, result.events))
    return tuple(frames)

"""A case replayed, and a reply read moment by moment: "a refused step leaves the position as it
was" written once, for the engine and for a reply.

:func:`frames` replays a case's JSON parts (its ``ruleset``, ``given`` and ``steps``) on the
reference engine: the ``given`` state, or a new game from the ``given`` setup; each step's action
is applied, and a step the engine rejects leaves the position unchanged. The conformance adapter
(:func:`camelup.harness.adapter.run_case`) builds its reply from these frames, and the board
diagrams (:mod:`camelup.tools.render`) draw them, so a case is replayed by one piece of code.

:func:`moments` reads any implementation's reply (a protocol result) the same way: the position
at each moment, the refusal that led to it and the step's events; the next step starts from the
position before a refusal, whatever state the reply says the refusal left.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
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


def frames(
    state: State, steps: Sequence[Mapping[str, Any]], *, checked: bool = False
) -> Iterator[Frame]:
    """Frame 0 is ``state``; frame k the position after step k (1-based), one at a time (a
    caller may look at each position before the next step is played)."""
    yield Frame(0, state)
    for index, step in enumerate(steps, start=1):
        try:
            action = action_from_json(step["action"], f"/steps/{index - 1}/action", checked=checked)
            result = apply(state, action)
        except CamelUpError as error:
            yield Frame(index, state, (), error)
        else:
            state = result.state
            yield Frame(index, state, result.events)


def replay(
    ruleset: Mapping[str, Any],
    given: Mapping[str, Any],
    steps: Sequence[Mapping[str, Any]],
    *,
    checked: bool = False,
) -> tuple[Frame, ...]:
    """Frame 0 is the given position; frame k the position after step k (1-based)."""
    return tuple(frames(initial_state(ruleset, given, checked=checked), steps, checked=checked))


@attrs.frozen
class Moment:
    """A reply at one moment (0: the given position, k: after step k): the position the next
    step starts from, the refusal of step k (None when it was accepted), the events the reply
    gives for it (None for the given position, a refusal, or none given), and the state the
    reply reports there (after a refusal, with ``state_after_refusal``, perhaps another)."""

    state: Any
    error: Any
    events: Any
    reported: Any


def moments(reply: Mapping[str, Any]) -> list[Moment]:
    """Every moment of a result (a reply with an ``initial_state``; its ``steps`` may be cut
    short): a refused step leaves the position as it was."""
    state = reply["initial_state"]
    found = [Moment(state, None, None, state)]
    for step in reply.get("steps", ()):
        if "error" in step:  # the position stays as it was
            found.append(Moment(state, step["error"], None, step.get("state", state)))
        else:
            state = step["state"]
            found.append(Moment(state, None, step.get("events"), state))
    return found

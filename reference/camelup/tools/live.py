"""The live boards of the site: what its pages ask the engine, running in the reader's browser.

The site's ``assets/live.js`` starts Pyodide, imports this module and calls its functions with
JSON text, getting JSON text back: a ruling page steps through its case, the sandbox applies an
action (or a die face: a pyramid ticket's roll) to a pasted state. No rule is written in
JavaScript: every board comes from :func:`camelup.apply` and :func:`camelup.legal_actions`,
drawn by the same :mod:`camelup.tools.render` code as the static diagrams.

The browser has no JSON Schema validator (``jsonschema`` needs compiled code that the site does
not ship), so a pasted document is read by the codec's own checks only, and a case is replayed
as already checked: the site's build took it from the suite, which checks every case file.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from camelup.harness.compare import describe_action
from camelup.io import schemas
from camelup.io.codec import action_from_json, state_from_json, to_json
from camelup.io.jsonio import JSONInputError, parse_json
from camelup.io.replay import initial_state
from camelup.model.errors import CamelUpError, InvalidState
from camelup.play.engine import apply, legal_actions
from camelup.tools.render import replay, state_svg, step_svgs
from camelup.tools.render.board import status_line, step_words

T = TypeVar("T")


def _answer(value: Mapping[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)


def _events(events: Iterable[object]) -> list[dict[str, str]]:
    """Each event as the page lists it: its JSON in short (its clause is shown as a link)."""
    listed = []
    for event in events:
        fields = to_json(event)
        clause = fields.pop("clause", "")
        listed.append({"type": fields["type"], "clause": clause, "words": describe_action(fields)})
    return listed


def _refusal(error: CamelUpError) -> dict[str, str]:
    return {"code": error.code, "clause": error.clause, "error": str(error)}


def case_steps(case_text: str) -> str:
    """Every step of a case (``{"ruleset", "given", "steps"}``): the given position's board,
    and per step its action, the boards before and after it (as the rulings' static
    diagrams draw them), its events with their clauses, or the engine's refusal."""
    case = parse_json(case_text)
    frames = replay(case["ruleset"], case["given"], case["steps"], checked=True)
    steps = []
    for before, after in itertools.pairwise(frames):
        before_svg, after_svg = step_svgs(before.state, after.state, after.events)
        steps.append(
            {
                "step": after.step,
                "action": describe_action(case["steps"][after.step - 1].get("action", {})),
                "before": before_svg,
                "after": after_svg,
                "words": step_words(before.state, after.state, after.events),
                "events": _events(after.events),
                "refusal": None if after.error is None else _refusal(after.error),
            }
        )
    return _answer({"given": state_svg(frames[0].state), "steps": steps})


def case_position(case_text: str) -> str:
    """The canonical JSON text of a case's given position (a setup played out), for the
    sandbox to start from."""
    case = parse_json(case_text)
    state = initial_state(case["ruleset"], case["given"], checked=True)
    return json.dumps(to_json(state), ensure_ascii=False, indent=1, sort_keys=True)


def _validates() -> bool:
    """Whether a JSON Schema validator is installed (not in the browser)."""
    return any(importlib.util.find_spec(name) for name in ("jsonschema_rs", "jsonschema"))


def _read(text: str, kind: str, decode: Callable[..., T]) -> T:
    """A pasted state or action (``kind``, as the schemas name it), checked against its schema
    where a validator is installed; in the browser the codec's own checks decide, and anything
    else that fails is one line with the kind's default clause."""
    clause = schemas.DEFAULT_CLAUSES[kind]
    try:
        document = parse_json(text)
    except JSONInputError as error:
        message = f"the {kind} is not JSON: {error.message}"
        raise InvalidState("malformed", clause, message) from None
    if _validates():
        return decode(document)
    try:
        return decode(document, checked=True)
    except CamelUpError:
        raise
    except Exception as error:  # cattrs' structuring errors: a key missing, a wrong type
        words = " ".join(str(error).split())
        raise InvalidState("malformed", clause, f"not a {kind} ({words})") from None


def sandbox_choices(state_text: str) -> str:
    """The board of a pasted state and the legal actions from it (each pyramid ticket with a
    die face it can show), or the one-line reason the state cannot be read."""
    try:
        state = _read(state_text, "state", state_from_json)
        actions = legal_actions(state)
    except CamelUpError as error:
        return _answer({"ok": False, **_refusal(error)})
    return _answer(
        {
            "ok": True,
            "board": state_svg(state),
            "status": status_line(state),
            "actions": [
                {"label": describe_action(to_json(action)), "action": to_json(action)}
                for action in actions
            ],
        }
    )


def sandbox_apply(state_text: str, action_text: str) -> str:
    """The boards before and after an action on a pasted state, the events with their clauses
    and the new state; or the refusal's code and clause (a malformed or illegal action)."""
    try:
        state = _read(state_text, "state", state_from_json)
        result = apply(state, _read(action_text, "action", action_from_json))
    except CamelUpError as error:
        return _answer({"ok": False, **_refusal(error)})
    before_svg, after_svg = step_svgs(state, result.state, result.events)
    return _answer(
        {
            "ok": True,
            "before": before_svg,
            "after": after_svg,
            "words": step_words(state, result.state, result.events),
            "events": _events(result.events),
            "state": json.dumps(to_json(result.state), ensure_ascii=False, indent=1),
        }
    )

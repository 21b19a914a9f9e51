"""Shrinking a fuzz disagreement to a small case, and writing it as a ready-to-add case file.

A game that disagrees is shrunk, each candidate re-checked on the adapter, keeping a candidate
only when it still disagrees *the same way*: the same kind of difference, at the same field,
named after the same clause (:attr:`camelup.harness.divergence.Divergence.signature`):

1. cut the game after the first diverging step (an adapter that errors: the shortest prefix on
   which it still errors, by bisection);
2. remove earlier steps, in chunks and then one by one (a delta-debugging pass): the remaining
   actions are replayed on the reference, each given to the player then to move, and those the
   reference rejects are dropped;
3. try the state just before the divergence as the given position, with the diverging step
   alone.

The case written (``conformance/schema/case-file.schema.json``) expects the reference's values
where the adapter differed, the reference's events of the diverging step, its legal actions when
those differed, its refusal when the adapter accepted a step. Its ID starts with the finding's
clause, so it is valid as it is (``camelup conformance validate``) and the reference passes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from camelup.harness.adapter import run_case
from camelup.harness.attribution import MISSING, differences
from camelup.harness.compare import RACING_ORDER, describe_action, normalise
from camelup.harness.divergence import DEPTH, Divergence
from camelup.harness.games import relegalise
from camelup.harness.generate import dump
from camelup.io.jsonio import pointer
from camelup.io.replay import moments

MAX_PASSES = 4  # one-by-one removal passes after the chunked ones
AREA = "fuzz"
_WHAT = {"legal_actions": "its legal actions", "ranking": "its ranking"}  # else its events

# Judges one candidate on the adapter: its divergence, or None when the adapter agrees.
One = Callable[[Mapping[str, Any]], Divergence | None]


def wire_case(
    ruleset: Mapping[str, Any], given: Mapping[str, Any], steps: Sequence[Any]
) -> dict[str, Any]:
    return {
        "id": "fuzz.game/candidate",
        "ruleset": dict(ruleset),
        "given": dict(given),
        "steps": [{"action": a} for a in steps],
        "want": {"legal_actions_after": []},
    }


def actions_of(wire: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(step["action"]) for step in wire["steps"]]


def _cut(wire: Mapping[str, Any], steps: int) -> dict[str, Any]:
    return wire_case(wire["ruleset"], wire["given"], actions_of(wire)[:steps])


def _start(wire: Mapping[str, Any]) -> Any:
    from camelup.io.codec import ruleset_from_json, setup_from_json, state_from_json
    from camelup.rules.setup import new_game

    given = wire["given"]
    if "state" in given:
        return state_from_json(given["state"])
    return new_game(ruleset_from_json(wire["ruleset"]), setup_from_json(given["setup"]))


def _errored_prefix(
    one: One, wire: Mapping[str, Any], found: Divergence
) -> tuple[dict[str, Any], Divergence]:
    """The shortest prefix of an errored game on which the adapter still errors (bisection)."""
    low, high = 0, len(wire["steps"])
    best = found
    while low < high:
        middle = (low + high) // 2
        again = one(_cut(wire, middle))
        if again is not None and again.kind == "errored":
            high, best = middle, again
        else:
            low = middle + 1
    return _cut(wire, high), best


def shrink(
    one: One, wire: Mapping[str, Any], found: Divergence
) -> tuple[dict[str, Any], Divergence]:
    """A smaller case that still disagrees the same way, and its divergence."""
    if found.kind == "errored":
        again = one(wire)
        if again is None or again.kind != "errored":  # an adapter that errors now and then
            return dict(wire), found
        current, found = _errored_prefix(one, wire, again)
    else:
        current = _cut(wire, found.moment)
        again = one(current)
        if again is None or again.signature != found.signature:
            return dict(wire), found  # an adapter whose early replies depend on later steps
        found = again
    if found.moment == 0 or not current["steps"]:
        return current, found
    signature = found.signature
    start = _start(current)

    def attempt(actions: list[dict[str, Any]]) -> tuple[dict[str, Any], Divergence] | None:
        kept = relegalise(start, actions)
        if len(kept) >= len(current["steps"]) or not kept:
            return None
        candidate = wire_case(current["ruleset"], current["given"], kept)
        result = one(candidate)
        if result is None or result.signature != signature or result.moment == 0:
            return None
        if signature[0] == "errored":
            return candidate, result
        return _cut(candidate, result.moment), result

    size = max(1, (len(current["steps"]) - 1) // 2)
    passes = 0
    while True:
        changed = False
        index = 0
        while index < len(current["steps"]) - 1:
            actions = actions_of(current)
            end = min(index + size, len(actions) - 1)  # never remove the diverging step itself
            better = attempt(actions[:index] + actions[end:])
            if better is not None:
                current, found = better
                changed = True
            else:
                index += size
        if size > 1:
            size //= 2
            continue
        passes += 1
        if not changed or passes >= MAX_PASSES:
            break
    return current, found


def from_state(
    one: One, wire: Mapping[str, Any], found: Divergence
) -> tuple[dict[str, Any], Divergence] | None:
    """The reference's position just before the diverging step, with that step alone, when
    the adapter still differs the same way on it."""
    if found.moment < 1 or found.kind == "errored":
        return None
    if "state" in wire["given"] and found.moment == 1:
        return None  # already a single step from a given state
    reference = run_case(_cut(wire, found.moment - 1))
    if "initial_state" not in reference:
        return None
    position = moments(reference)[-1].state
    candidate = wire_case(
        wire["ruleset"], {"state": position}, [actions_of(wire)[found.moment - 1]]
    )
    result = one(candidate)
    if result is None or result.signature != found.signature or result.moment != 1:
        return None
    return candidate, result


# ----------------------------------------------------------------------------- the case file


def _value_at(document: Any, tokens: Sequence[str]) -> Any:
    node = document
    for token in tokens:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _adapter_position(body: Mapping[str, Any] | None, moment: int) -> Any:
    """The adapter's position at ``moment`` (after a refusal: the one it reports)."""
    if body is None or "initial_state" not in body:
        return None
    return moments({**body, "steps": body.get("steps", [])[:moment]})[-1].reported


def _key_pointers(state: Mapping[str, Any]) -> list[tuple[str, ...]]:
    keys: list[tuple[str, ...]] = [("track",), ("tiles",)]
    keys += [("players", str(i), "money") for i in range(len(state.get("players", [])))]
    return [*keys, ("leg",), ("to_move",), ("result",)]


def build_case(
    wire: Mapping[str, Any], divergence: Divergence, seed: int, game: int, comment: str
) -> dict[str, Any]:
    """The ready-to-add case: the reference's values where the adapter differs."""
    moment = divergence.moment
    legal = [moment] if divergence.kind == "legal_actions" else []
    want: dict[str, Any] = {"legal_actions_after": legal}
    if divergence.kind == "ranking":
        want["ranking_after"] = [moment]
    reference = run_case({**wire, "want": want})
    order = RACING_ORDER.get(str(wire["ruleset"].get("edition")), ())
    actions = actions_of(wire)
    clause = divergence.clause
    if "initial_error" in reference:
        error = reference["initial_error"]
        check = {"after": 0, "error": {"code": error["code"], "clause": error["clause"]}}
        description = "the given position is refused"
        return _case_json(wire, [check], [clause], description, comment, seed, game)
    now = moments(reference)[moment]
    if now.error is not None:  # the reference refuses the step the adapter accepted
        error = now.error
        check = {"after": moment, "error": {"code": error["code"], "clause": error["clause"]}}
        description = f"{describe_action(actions[moment - 1])} is refused"
        return _case_json(
            wire, [check], [clause, error["clause"]], description, comment, seed, game
        )
    ref_state = now.state
    events: list[Any] = now.events or []
    expected = normalise(ref_state, (), order)
    theirs = _adapter_position(divergence.body, moment)
    if divergence.kind in ("state", "rejected") and theirs is not None:
        found = differences(expected, normalise(theirs, (), order), DEPTH)
        # a member only the adapter has is checked by the reference's value that holds it
        tokens = list(dict.fromkeys(t if want is not MISSING else t[:-1] for t, want, _ in found))
    elif divergence.kind in ("events", "legal_actions", "ranking"):
        tokens = []  # the state agrees: the events, legal actions or ranking say it
    else:
        tokens = _key_pointers(expected)
    values = {pointer(*t): _value_at(expected, t) for t in tokens if t}
    expect: list[dict[str, Any]] = []
    if values:
        expect.append({"after": moment, "state": values})
    if events:
        expect.append({"after": moment, "events": events, "match": "sequence"})
    if divergence.kind == "legal_actions":
        expect.append({"after": moment, "legal_actions": reference["legal_actions"][str(moment)]})
    if divergence.kind == "ranking":
        expect.append({"after": moment, "ranking": reference["ranking"][str(moment)]})
    if not expect:  # nothing to name: check every member
        members = {pointer(key): value for key, value in ref_state.items()}
        expect.append({"after": moment, "state": members})
    clauses = [clause, *dict.fromkeys(str(e["clause"]) for e in events if e["clause"] != clause)]
    named = list(values) or [_WHAT.get(divergence.kind, "its events")]
    shown = ", ".join(named[:3]) + (f" and {len(named) - 3} more" if len(named) > 3 else "")
    if moment == 0:
        description = f"the given position matches the reference at {shown}"
    else:
        action = describe_action(actions[moment - 1])
        description = f"after {action} the game matches the reference at {shown}"
    return _case_json(wire, expect, clauses, description, comment, seed, game)


def _case_json(
    wire: Mapping[str, Any],
    expect: list[dict[str, Any]],
    clauses: list[str],
    description: str,
    comment: str,
    seed: int,
    game: int,
) -> dict[str, Any]:
    return {
        "id": f"{clauses[0]}/fuzz-seed-{seed}-game-{game}",
        "description": description,
        "clauses": list(dict.fromkeys(clauses)),
        "source": {"kind": "generated", "ref": f"camelup conformance fuzz, seed {seed}"},
        "ruleset": wire["ruleset"],
        "given": wire["given"],
        "steps": [{"action": a} for a in actions_of(wire)],
        "expect": expect,
        "comment": comment,
    }


def case_file_text(cases: Sequence[Mapping[str, Any]]) -> str:
    return dump({"area": AREA, "cases": list(cases)}) + "\n"


__all__ = ["build_case", "case_file_text", "from_state", "shrink", "wire_case"]

"""Judging an adapter's reply against a case: the runner compares, the adapter never sees the
expectations.

Both sides are canonicalised before they are compared: sets written as arrays (finish cards in
hand, dice in the pyramid, modules, variants, tiles, winning seats) are put in canonical order,
empty spaces beyond the finish line are dropped from the track, a racing die's ``"colour": null``
is dropped, and integral numbers compare equal whatever their JSON spelling. Booleans never
equal numbers.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from camelup.conformance.suite import (
    Case,
    Check,
    ErrorCheck,
    EventsCheck,
    LegalActionsCheck,
    OddsCheck,
    StateCheck,
)
from camelup.io import schemas

RACING_ORDER = {
    "first": ("blue", "green", "orange", "yellow", "white"),
    "second": ("blue", "green", "red", "yellow", "purple"),
}
_ON_BOARD = frozenset(str(space) for space in range(1, 17))


class ProtocolViolation(Exception):
    """The reply does not have the shape protocol 1 requires (the case cannot be judged)."""


@attrs.frozen
class Mismatch:
    """One way the reply differs from the case: at which moment, for which clause, and how."""

    after: int
    clause: str
    summary: str
    diff: tuple[str, ...] = ()
    check: int | None = None  # index into the case's expect array; None for an unexpected rejection
    pointer: str | None = None  # for a state check: the JSON pointer that differs
    pointers: tuple[str, ...] = ()  # for a divergence: every member that differs
    divergence: bool = False  # the first divergence from the reference (divergence.py)


# ----------------------------------------------------------------------- canonical JSON values


def compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def pretty(value: Any) -> str:
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)


def _order(case: Case) -> tuple[str, ...]:
    return RACING_ORDER.get(case.edition, ())


def _fits(tokens: Sequence[str], pattern: Sequence[str]) -> bool:
    return len(tokens) == len(pattern) and all(
        p in ("*", t) for t, p in zip(tokens, pattern, strict=True)
    )


def _rank(order: Sequence[str]) -> Any:
    def key(item: Any) -> tuple[int, str]:
        text = item if isinstance(item, str) else compact(item)
        return (order.index(text) if text in order else len(order), text)

    return key


_SET_ARRAYS = (
    ("players", "*", "finish_cards"),
    ("pyramid",),
    ("tiles",),
    ("ruleset", "modules"),
    ("ruleset", "variants"),
    ("result", "winners"),
)


def _is_set(tokens: Sequence[str]) -> bool:
    """Whether the array at ``tokens`` of a state stands for a set (compared in any order)."""
    return (
        bool(tokens)
        and tokens[0] in _SET_HEADS
        and any(_fits(tokens, pattern) for pattern in _SET_ARRAYS)
    )


_SET_HEADS = frozenset(pattern[0] for pattern in _SET_ARRAYS)


def _sorted_set(tokens: Sequence[str], items: list[Any], order: Sequence[str]) -> list[Any]:
    """``items`` in canonical order when the array at ``tokens`` stands for a set."""
    if not tokens or tokens[0] not in _SET_HEADS:
        return items  # the common case, decided without matching every pattern
    try:
        if _fits(tokens, ("players", "*", "finish_cards")):
            return sorted(items, key=_rank(order))
        if _fits(tokens, ("pyramid",)):
            return sorted(items, key=_rank((*order, "grey")))
        if _fits(tokens, ("tiles",)):
            return sorted(
                items,
                key=lambda t: (t.get("space", 0), compact(t)) if isinstance(t, dict) else (0, ""),
            )
        if _fits(tokens, ("ruleset", "modules")) or _fits(tokens, ("ruleset", "variants")):
            return sorted(items, key=_rank(()))
        if _fits(tokens, ("result", "winners")):
            return sorted(items, key=lambda s: (0, s) if isinstance(s, int) else (1, compact(s)))
    except TypeError:
        pass
    return items


def normalise(value: Any, tokens: Sequence[str] = (), order: Sequence[str] = ()) -> Any:
    """The canonical form of ``value``, found at ``tokens`` in a state (``()`` for a whole state
    or any value that is not part of one)."""
    if isinstance(value, dict):
        out = {}
        for key, member in value.items():
            if key == "colour" and member is None and "die" in value:
                continue
            if tokens == ("track",) and key not in _ON_BOARD and member == []:
                continue
            out[key] = normalise(member, (*tokens, key), order)
        return out
    if isinstance(value, list):
        items = [normalise(item, (*tokens, str(i)), order) for i, item in enumerate(value)]
        return _sorted_set(tokens, items, order)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def same(a: Any, b: Any) -> bool:
    """Equality of two canonical JSON values, with booleans distinct from numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return (
            isinstance(b, list)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and bool(a == b)


def parse_pointer(text: str) -> list[str]:
    if text == "":
        return []
    return [part.replace("~1", "/").replace("~0", "~") for part in text.split("/")[1:]]


_MISSING = object()


def resolve(document: Any, tokens: Sequence[str], order: Sequence[str]) -> Any:
    """The member of ``document`` at ``tokens`` (sets sorted on the way), or ``_MISSING``."""
    node = document
    for depth, token in enumerate(tokens):
        if isinstance(node, dict):
            if token not in node:
                return _MISSING
            node = node[token]
        elif isinstance(node, list):
            if (
                not token.isdigit()
                or (token != "0" and token.startswith("0"))
                or int(token) >= len(node)
            ):
                return _MISSING
            above = tokens[:depth]
            if _is_set(above):  # a set: index it in canonical order
                node = _sorted_set(above, [normalise(x, (), order) for x in node], order)
            node = node[int(token)]
        else:
            return _MISSING
    return node


def value_diff(expected: Any, actual: Any) -> tuple[str, ...]:
    """A readable difference: two lines for small values, a unified diff for big ones."""
    if actual is _MISSING:
        return (f"expected: {compact(expected)}", "actual:   (missing)")
    left, right = compact(expected), compact(actual)
    if (
        len(left) + len(right) <= 140
        or not isinstance(expected, dict | list)
        or not isinstance(actual, dict | list)
    ):
        return (f"expected: {left}", f"actual:   {right}")
    lines = difflib.unified_diff(
        pretty(expected).splitlines(),
        pretty(actual).splitlines(),
        "expected",
        "actual",
        n=2,
        lineterm="",
    )
    return tuple(lines)


def describe_action(action: Any) -> str:
    """``take_pyramid_ticket player=0 roll=blue 2`` and the like."""
    if not isinstance(action, dict):
        return compact(action)
    parts = [str(action.get("type", "?"))]
    for key, value in action.items():
        if key == "type":
            continue
        if key == "roll" and isinstance(value, dict):
            shown = " ".join(
                str(value[k]) for k in ("die", "value", "colour") if value.get(k) is not None
            )
        else:
            shown = value if isinstance(value, str) else compact(value)
        parts.append(f"{key}={shown}")
    return " ".join(parts)


# ------------------------------------------------------------------------------- applicability


SOLVER = frozenset({"odds"})  # the capabilities of an odds solver that is no game engine


def applicable(check: Check, capabilities: frozenset[str]) -> bool:
    """Whether ``check`` can be judged against an adapter with ``capabilities``. An adapter
    declaring ``odds`` alone is a solver, not a game engine: it gets the odds checks only."""
    if isinstance(check, OddsCheck):
        return "odds" in capabilities
    if capabilities == SOLVER:
        return False
    if isinstance(check, EventsCheck):
        return "events" in capabilities
    if isinstance(check, LegalActionsCheck):
        return "legal_actions" in capabilities
    return True


def _needs(check: Check) -> str:
    if isinstance(check, OddsCheck):
        return "odds"
    if isinstance(check, EventsCheck):
        return "events"
    if isinstance(check, LegalActionsCheck):
        return "legal_actions"
    return "engine"  # a state or error check, which an odds-only solver cannot answer


def missing_capabilities(case: Case, capabilities: frozenset[str]) -> list[str]:
    """Capabilities that checks of ``case`` need and the adapter lacks."""
    return sorted({_needs(c) for c in case.checks if not applicable(c, capabilities)})


def odds_wanted(case: Case, capabilities: frozenset[str]) -> list[int]:
    if "odds" not in capabilities:
        return []
    return sorted({c.after for c in case.checks if isinstance(c, OddsCheck)})


def legal_actions_wanted(case: Case, capabilities: frozenset[str]) -> list[int]:
    if "legal_actions" not in capabilities:
        return []
    return sorted({c.after for c in case.checks if isinstance(c, LegalActionsCheck)})


# --------------------------------------------------------------------------------- reply shape


def reply_kind(reply: Mapping[str, Any]) -> str:
    """``"skipped"``, ``"errored"`` or ``"result"`` (a refused position is a result too);
    raises ProtocolViolation unless ``reply`` follows ``protocol.schema.json``: every state,
    event and action in it included."""
    violation = schemas.check("protocol#/$defs/reply_body", reply)
    if violation is not None:
        raise ProtocolViolation(str(violation))
    if "skipped" in reply:
        return "skipped"
    return "errored" if "errored" in reply else "result"


def _check_odds_shape(case: Case, reply: Mapping[str, Any], capabilities: frozenset[str]) -> None:
    """The odds the case asks for are there (their form is the schema's business)."""
    found = reply.get("odds", {})
    for moment in odds_wanted(case, capabilities):
        if str(moment) not in found:
            raise ProtocolViolation(f"/odds/{moment}: missing, as requested")


def check_shape(case: Case, reply: Mapping[str, Any], capabilities: frozenset[str]) -> None:
    """Raise ProtocolViolation unless ``reply``, a result that follows the schema, is one for
    ``case``: one entry per step, the events, legal actions and odds the adapter declared."""
    _check_odds_shape(case, reply, capabilities)
    if capabilities == SOLVER:
        return  # a solver answers the odds only
    if "initial_error" in reply:
        return
    steps = reply["steps"]
    if len(steps) != len(case.steps):
        raise ProtocolViolation(f"/steps has {len(steps)} entries for {len(case.steps)} steps")
    if "events" in capabilities:
        for number, step in enumerate(steps):
            if "error" not in step and "events" not in step:
                raise ProtocolViolation(
                    f'/steps/{number}: missing key "events" (the adapter declared "events")'
                )
    found = reply.get("legal_actions", {})
    for moment in legal_actions_wanted(case, capabilities):
        if str(moment) not in found:
            raise ProtocolViolation(f"/legal_actions/{moment}: missing, as requested")


# ----------------------------------------------------------------------------------- comparing


def compare(case: Case, reply: Mapping[str, Any], capabilities: frozenset[str]) -> list[Mismatch]:
    """Every way ``reply`` (a result) differs from ``case``, earliest moment first.

    ``reply`` has passed :func:`reply_kind` (the schema); raises ProtocolViolation when it is
    not a result for ``case`` (:func:`check_shape`).
    """
    check_shape(case, reply, capabilities)
    order = _order(case)
    checks = [c for c in case.checks if applicable(c, capabilities)]
    odds = [c for c in checks if isinstance(c, OddsCheck)]
    if capabilities == SOLVER:
        return [m for c in odds if (m := _compare_odds(case, c, reply["odds"])) is not None]
    clause_of_errors = "error_clauses" in capabilities
    if "initial_error" in reply:
        refused = reply["initial_error"]
        expected = [c for c in checks if isinstance(c, ErrorCheck) and c.after == 0]
        if not expected:
            summary = f"the given position was refused: {_error_text(refused)}"
            return [Mismatch(0, case.primary_clause, summary, _message(refused), None)]
        return [
            m
            for c in expected
            if (m := _compare_error(case, c, refused, clause_of_errors)) is not None
        ]
    raw_steps: list[Mapping[str, Any]] = reply["steps"]
    positions: list[Any] = [reply["initial_state"]]
    errors: list[Any] = [None]
    for step in raw_steps:
        errors.append(step.get("error"))
        positions.append(positions[-1] if "error" in step else step["state"])
    mismatches: list[Mismatch] = []
    expected_errors = {c.after for c in checks if isinstance(c, ErrorCheck)}
    for moment in range(1, len(positions)):
        if errors[moment] is not None and moment not in expected_errors:
            action = describe_action(case.steps[moment - 1].get("action"))
            mismatches.append(
                Mismatch(
                    moment,
                    case.primary_clause,
                    f"step {moment} ({action}) was rejected: {_error_text(errors[moment])}",
                    _message(errors[moment]),
                )
            )
    for check in checks:
        if isinstance(check, StateCheck):
            mismatches.extend(_compare_state(case, check, positions[check.after], order))
        elif isinstance(check, ErrorCheck):
            found = _compare_error(case, check, errors[check.after], clause_of_errors)
            if found is not None:
                mismatches.append(found)
        elif isinstance(check, EventsCheck):
            if errors[check.after] is None:
                found = _compare_events(
                    case,
                    check,
                    raw_steps[check.after - 1].get("events", []),
                    "event_clauses" in capabilities,
                )
                if found is not None:
                    mismatches.append(found)
        elif isinstance(check, OddsCheck):
            found = _compare_odds(case, check, reply["odds"])
            if found is not None:
                mismatches.append(found)
        else:
            found = _compare_legal(case, check, reply["legal_actions"][str(check.after)], order)
            if found is not None:
                mismatches.append(found)
    mismatches.sort(key=lambda m: (m.after, -1 if m.check is None else m.check))
    return mismatches


def _message(error: Any) -> tuple[str, ...]:
    """The adapter's optional explanation of a rejection, as a diff line."""
    message = error.get("message") if isinstance(error, dict) else None
    return (f"message:  {message}",) if isinstance(message, str) and message else ()


def _error_text(error: Any) -> str:
    if not isinstance(error, dict):
        return compact(error)
    clause = error.get("clause")
    return f"{error.get('code')}" + (f" [{clause}]" if clause else "")


def _compare_state(
    case: Case, check: StateCheck, state: Any, order: Sequence[str]
) -> list[Mismatch]:
    found = []
    for where, expected in check.values.items():
        tokens = parse_pointer(where)
        want = normalise(expected, tokens, order)
        got = resolve(state, tokens, order)
        if got is not _MISSING:
            got = normalise(got, tokens, order)
            if same(want, got):
                continue
        what = "is missing" if got is _MISSING else "differs"
        summary = f"{_moment(case, check.after)}: {where or '/'} {what}"
        found.append(
            Mismatch(
                check.after, case.primary_clause, summary, value_diff(want, got), check.index, where
            )
        )
    return found


def _moment(case: Case, after: int) -> str:
    if after == 0:
        return "given position"
    return f"after step {after} ({describe_action(case.steps[after - 1].get('action'))})"


def _compare_error(case: Case, check: ErrorCheck, got: Any, with_clause: bool) -> Mismatch | None:
    clause = check.clause or case.primary_clause
    expected = {"code": check.code} | (
        {"clause": check.clause} if check.clause and with_clause else {}
    )
    where = "the given position" if check.after == 0 else f"step {check.after}"
    if check.after >= 1:
        where += f" ({describe_action(case.steps[check.after - 1].get('action'))})"
    if got is None:
        summary = f"{where} was accepted; expected it to be refused with {_error_text(expected)}"
        return Mismatch(check.after, clause, summary, (), check.index)
    actual = {"code": got.get("code")} | (
        {"clause": got.get("clause")} if "clause" in expected else {}
    )
    if same(expected, actual):
        return None
    return Mismatch(
        check.after,
        clause,
        f"{where} was refused for another reason",
        (f"expected: {_error_text(expected)}", f"actual:   {_error_text(got)}", *_message(got)),
        check.index,
    )


def _event_view(event: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    return {k: normalise(event[k]) for k in keys if k in event}


def _compare_events(
    case: Case, check: EventsCheck, events: Sequence[Any], with_clause: bool
) -> Mismatch | None:
    expected = [
        normalise({k: v for k, v in e.items() if with_clause or k != "clause"})
        for e in check.events
    ]
    actual = [e for e in events if isinstance(e, dict)]

    def fits(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
        return all(k in got and same(v, normalise(got[k])) for k, v in want.items())

    clause = case.primary_clause
    if check.match == "sequence":
        if len(expected) == len(actual) and all(
            fits(w, g) for w, g in zip(expected, actual, strict=True)
        ):
            return None
        first = next(
            (i for i, (w, g) in enumerate(zip(expected, actual, strict=False)) if not fits(w, g)),
            min(len(expected), len(actual)),
        )
        if first < len(expected) and isinstance(expected[first].get("clause"), str):
            clause = expected[first]["clause"]
        summary = (
            f"{_moment(case, check.after)}: events differ from event #{first}"
            f" ({len(expected)} expected, {len(actual)} reported)"
        )
        left = [compact(w) for w in expected]
        right = [
            compact(_event_view(g, list(expected[i]) if i < len(expected) else list(g)))
            for i, g in enumerate(actual)
        ]
        diff = tuple(
            difflib.unified_diff(
                left,
                right,
                "expected events",
                "actual events",
                n=len(left) + len(right),
                lineterm="",
            )
        )
        return Mismatch(check.after, clause, summary, diff, check.index)
    position = 0
    for number, want in enumerate(expected):
        while position < len(actual) and not fits(want, actual[position]):
            position += 1
        if position == len(actual):
            if isinstance(want.get("clause"), str):
                clause = want["clause"]
            summary = (
                f"{_moment(case, check.after)}: expected event #{number} ({want.get('type')})"
                " not found in order among the events"
            )
            diff = (
                f"expected: {compact(want)}",
                "actual events:",
                *(f"  {compact(_event_view(g, list(want)))}" for g in actual),
            )
            return Mismatch(check.after, clause, summary, diff, check.index)
        position += 1
    return None


def _compare_legal(
    case: Case, check: LegalActionsCheck, actions: Sequence[Any], order: Sequence[str]
) -> Mismatch | None:
    want = {compact(normalise(a)): a for a in check.actions}
    got = {compact(normalise(a)): a for a in actions}
    if want.keys() == got.keys():
        return None
    missing = sorted(describe_action(want[k]) for k in want.keys() - got.keys())
    extra = sorted(describe_action(got[k]) for k in got.keys() - want.keys())
    summary = (
        f"{_moment(case, check.after)}: legal actions differ"
        f" ({len(missing)} missing, {len(extra)} unexpected)"
    )
    diff = [*(f"- {a}" for a in missing[:10])]
    if len(missing) > 10:
        diff.append(f"- ... and {len(missing) - 10} more")
    diff.extend(f"+ {a}" for a in extra[:10])
    if len(extra) > 10:
        diff.append(f"+ ... and {len(extra) - 10} more")
    return Mismatch(check.after, case.primary_clause, summary, tuple(diff), check.index)


def _fraction(value: Any) -> Fraction | None:
    """``"n/d"`` as a Fraction (any equal spelling: "2/4" is "1/2"); None if it is none."""
    if not isinstance(value, str) or value.count("/") != 1:
        return None
    top, bottom = value.split("/")
    try:
        return Fraction(int(top), int(bottom))
    except (ValueError, ZeroDivisionError):
        return None


def _compare_odds(case: Case, check: OddsCheck, replies: Mapping[str, Any]) -> Mismatch | None:
    """Each expected figure against the reply: probabilities as exact fractions."""
    got = replies.get(str(check.after))
    got = got if isinstance(got, dict) else {}
    diff: list[str] = []
    clause = case.primary_clause
    for camel, row in check.odds.get("places", {}).items():
        theirs = got.get("places", {}).get(camel) if isinstance(got.get("places"), dict) else None
        mine = [_fraction(p) for p in row]
        if not isinstance(theirs, list) or [_fraction(p) for p in theirs] != mine:
            diff.append(f"places of {camel}: expected {compact(row)}, actual {compact(theirs)}")
    if "race_end" in check.odds and _fraction(got.get("race_end")) != _fraction(
        check.odds["race_end"]
    ):
        diff.append(
            f"race end: expected {check.odds['race_end']}, actual {compact(got.get('race_end'))}"
        )
    if "sequences" in check.odds:
        theirs = got.get("sequences")
        if (
            not (isinstance(theirs, int) and not isinstance(theirs, bool))
            or theirs != (check.odds["sequences"])
        ):
            diff.append(f"sequences: expected {check.odds['sequences']}, actual {compact(theirs)}")
    if not diff:
        return None
    summary = f"{_moment(case, check.after)}: odds differ ({len(diff)} figure(s))"
    return Mismatch(check.after, clause, summary, tuple(diff), check.index)

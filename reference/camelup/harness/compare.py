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
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeGuard, assert_never

import attrs

from camelup.harness.suite import (
    ENGINE,
    STATE_AFTER_REFUSAL,
    Case,
    Check,
    ErrorCheck,
    EventsCheck,
    LegalActionsCheck,
    OddsCheck,
    RankingCheck,
    StateCheck,
    UnchangedCheck,
)
from camelup.harness.unpatched import unpatched
from camelup.io import schemas
from camelup.io.jsonio import pointer
from camelup.io.replay import Moment, moments
from camelup.io.wire import facts
from camelup.model.ruleset import RACING_CAMELS
from camelup.rules.crazy import SELECTION_ORDER

RACING_ORDER = {  # the order sets of camels are sorted in: the model's
    edition.value: tuple(camel.value for camel in camels)
    for edition, camels in RACING_CAMELS.items()
}
_ON_BOARD = frozenset(str(space) for space in range(1, 17))


class ProtocolViolation(Exception):
    """The reply does not have the shape protocol 1 requires (the case cannot be judged)."""


class _NoValue:
    """The marker of a side a mismatch has no value for (a pointer missing from the reply)."""

    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()


@attrs.frozen
class Mismatch:
    """One way the reply differs from the case: at which moment, for which clause, and how.

    ``clause`` is the failing check's clause (its own, else the case's primary clause; an events
    check without one names the clause of the first differing expected event). ``expected`` and
    ``actual`` are the canonical JSON values compared, ``NO_VALUE`` where a side has none."""

    after: int
    clause: str
    summary: str
    diff: tuple[str, ...] = ()
    check: int | None = None  # index into the case's expect array; None for an unexpected rejection
    pointer: str | None = None  # for a state check: the JSON pointer that differs
    expected: Any = attrs.field(default=NO_VALUE, eq=False)
    actual: Any = attrs.field(default=NO_VALUE, eq=False)
    pointers: tuple[str, ...] = ()  # for a divergence: every member that differs
    divergence: bool = False  # the first divergence from the reference (divergence.py)


# ----------------------------------------------------------------------- canonical JSON values


def key_order(key: str) -> tuple[int, int, str]:
    """Keys in reading order: numbers (track spaces) by value, ahead of the other keys."""
    if key.lstrip("-").isdigit():
        return (0, int(key), key)
    return (1, 0, key)


def in_reading_order(value: Any) -> Any:
    """``value`` with every object's keys sorted, track spaces in numeric order (2 before 10)."""
    if isinstance(value, dict):
        return {k: in_reading_order(value[k]) for k in sorted(value, key=key_order)}
    if isinstance(value, list):
        return [in_reading_order(item) for item in value]
    return value


def compact(value: Any) -> str:
    text = in_reading_order(value)
    return json.dumps(text, separators=(",", ":"), ensure_ascii=False)


def pretty(value: Any) -> str:
    return json.dumps(in_reading_order(value), indent=2, ensure_ascii=False)


def camel_order(case: Case) -> tuple[str, ...]:
    """The racing camels of the case's edition in the suite's order (how sets are sorted)."""
    return RACING_ORDER.get(case.edition, ())


def _rank(order: Sequence[str]) -> Any:
    def key(item: Any) -> tuple[int, str]:
        text = item if isinstance(item, str) else compact(item)
        return (order.index(text) if text in order else len(order), text)

    return key


def _by_space(tile: Any) -> tuple[int, str]:
    return (tile.get("space", 0), compact(tile)) if isinstance(tile, dict) else (0, "")


def _by_value(item: Any) -> tuple[int, Any]:
    if isinstance(item, int) and not isinstance(item, bool):
        return (0, item)
    return (1, item if isinstance(item, str) else compact(item))


def _is_set(tokens: Sequence[str]) -> bool:
    """Whether the array at ``tokens`` of a state stands for a set (compared in any order): its
    schema says ``x-set`` (:mod:`camelup.io.wire`)."""
    if not tokens or tokens[0] not in _set_heads():
        return False
    return facts().set_order(tuple(tokens)) is not None


@functools.cache
def _set_heads() -> frozenset[str]:
    return frozenset(path[0] for path, _ in facts().sets)


def _sorted_set(tokens: Sequence[str], items: list[Any], order: Sequence[str]) -> list[Any]:
    """``items`` in canonical order when the array at ``tokens`` stands for a set."""
    if not tokens or tokens[0] not in _set_heads():
        return items  # the common case, decided without matching every pattern
    kind = facts().set_order(tuple(tokens))
    try:
        if kind == "camels":
            return sorted(items, key=_rank((*order, "grey")))
        if kind == "space":
            return sorted(items, key=_by_space)
        if kind == "value":
            return sorted(items, key=_by_value)
    except TypeError:
        pass
    return items


def normalise(value: Any, tokens: Sequence[str] = (), order: Sequence[str] = ()) -> Any:
    """The canonical form of ``value``, found at ``tokens`` in a state (``()`` for a whole state
    or any value that is not part of one)."""
    if tokens and tokens[0] not in _set_heads() and tokens != ("track",):
        return _plain(value)  # below here no array is a set and no stack is dropped
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


def _plain(value: Any) -> Any:
    """:func:`normalise` where the path no longer matters: the runner's hot path, spared the
    path it would build for every member and item only to find no set there."""
    if isinstance(value, dict):
        return {
            key: _plain(member)
            for key, member in value.items()
            if not (key == "colour" and member is None and "die" in value)
        }
    if isinstance(value, list):
        return [_plain(item) for item in value]
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


def resolve(document: Any, tokens: Sequence[str], order: Sequence[str]) -> Any:
    """The member of ``document`` at ``tokens`` (sets sorted on the way), or ``NO_VALUE``."""
    node = document
    for depth, token in enumerate(tokens):
        if isinstance(node, dict):
            if token not in node:
                return NO_VALUE
            node = node[token]
        elif isinstance(node, list):
            if (
                not token.isdigit()
                or (token != "0" and token.startswith("0"))
                or int(token) >= len(node)
            ):
                return NO_VALUE
            above = tokens[:depth]
            if _is_set(above):  # a set: index it in canonical order
                node = _sorted_set(above, [normalise(x, (), order) for x in node], order)
            node = node[int(token)]
        else:
            return NO_VALUE
    return node


def value_diff(expected: Any, actual: Any) -> tuple[str, ...]:
    """A readable difference: two lines for small values, a unified diff for big ones."""
    if actual is NO_VALUE:
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
# A solver may also declare that it leaves out figures it does not compute (partial_odds).
SOLVER_CAPABILITIES = frozenset({"odds", "partial_odds"})


def is_solver(capabilities: frozenset[str]) -> bool:
    """Whether an adapter with ``capabilities`` is an odds solver that plays no game: it declares
    ``odds`` and nothing but ``partial_odds`` besides."""
    return "odds" in capabilities and capabilities <= SOLVER_CAPABILITIES


def applicable(check: Check, capabilities: frozenset[str]) -> bool:
    """Whether ``check`` can be judged against an adapter with ``capabilities`` (what the check
    ``needs``). An adapter declaring ``odds`` alone is a solver, not a game engine: it gets the
    odds checks only."""
    if check.needs == "odds":
        return "odds" in capabilities
    return not is_solver(capabilities) and (check.needs == ENGINE or check.needs in capabilities)


def missing_capabilities(case: Case, capabilities: frozenset[str]) -> list[str]:
    """Capabilities that checks of ``case`` need and the adapter lacks."""
    return sorted({c.needs for c in case.checks if not applicable(c, capabilities)})


RANKING = "ranking"  # the reply gives the adapter's own ranking when asked


def wanted(case: Case, capabilities: frozenset[str], member: str) -> list[int]:
    """The moments at which ``case`` asks an adapter with ``capabilities`` for the reply's
    ``member`` (``legal_actions``, ``odds``, ``ranking``): those of the checks that ask for it,
    when the adapter declares the capability of that name."""
    if member not in capabilities:
        return []
    return sorted({c.after for c in case.checks if c.asks == member})


def wire_for(case: Case, capabilities: frozenset[str]) -> dict[str, Any]:
    """``case`` as sent to an adapter with ``capabilities``: what it is asked to add to a
    result (legal actions, odds, its own ranking) at which moments."""
    return case.wire(*(wanted(case, capabilities, m) for m in ("legal_actions", "odds", RANKING)))


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


def check_asked(reply: Mapping[str, Any], member: str, moments: Iterable[int]) -> None:
    """The reply's ``member`` has an entry for each of the ``moments`` asked for (its form is
    the schema's business)."""
    found = reply.get(member, {})
    for moment in moments:
        if str(moment) not in found:
            raise ProtocolViolation(f"/{member}/{moment}: missing, as requested")


def check_steps(steps: Sequence[Any], wanted: int, capabilities: frozenset[str]) -> None:
    """Raise ProtocolViolation unless ``steps`` has one entry for each of the ``wanted`` steps,
    each accepted one with its events when the adapter declared ``events``."""
    if len(steps) != wanted:
        raise ProtocolViolation(f"/steps has {len(steps)} entries for {wanted} steps")
    if "events" in capabilities:
        for number, step in enumerate(steps):
            if "error" not in step and "events" not in step:
                raise ProtocolViolation(
                    f'/steps/{number}: missing key "events" (the adapter declared "events")'
                )


def check_shape(case: Case, reply: Mapping[str, Any], capabilities: frozenset[str]) -> None:
    """Raise ProtocolViolation unless ``reply``, a result that follows the schema, is one for
    ``case``: one entry per step, the events, legal actions and odds the adapter declared."""
    check_asked(reply, "odds", wanted(case, capabilities, "odds"))
    if is_solver(capabilities):
        return  # a solver answers the odds only
    if "initial_error" in reply:
        return
    steps = reply["steps"]
    check_steps(steps, len(case.steps), capabilities)
    if STATE_AFTER_REFUSAL in capabilities:
        for number, step in enumerate(steps):
            if "error" in step and "state" not in step:
                raise ProtocolViolation(
                    f'/steps/{number}: missing key "state" after the refusal'
                    f' (the adapter declared "{STATE_AFTER_REFUSAL}")'
                )
    for member in ("legal_actions", RANKING):
        check_asked(reply, member, wanted(case, capabilities, member))


# ----------------------------------------------------------------------------------- comparing


def compare(case: Case, reply: Mapping[str, Any], capabilities: frozenset[str]) -> list[Mismatch]:
    """Every way ``reply`` (a result) differs from ``case``, earliest moment first.

    ``reply`` has passed :func:`reply_kind` (the schema); raises ProtocolViolation when it is
    not a result for ``case`` (:func:`check_shape`).
    """
    check_shape(case, reply, capabilities)
    order = camel_order(case)
    checks = [c for c in case.checks if applicable(c, capabilities)]
    odds = [c for c in checks if isinstance(c, OddsCheck)]
    partial = "partial_odds" in capabilities
    if is_solver(capabilities):
        return [
            m for c in odds if (m := _compare_odds(case, c, reply["odds"], partial)) is not None
        ]
    clause_of_errors = "error_clauses" in capabilities
    if "initial_error" in reply:
        refused = reply["initial_error"]
        expected = [c for c in checks if isinstance(c, ErrorCheck) and c.after == 0]
        if not expected:
            summary = f"the given position was refused: {error_text(refused)}"
            clause = cited_clause(refused) if clause_of_errors else None
            return [
                Mismatch(0, clause or case.primary_clause, summary, error_message(refused), None)
            ]
        return [
            m
            for c in expected
            if (m := _compare_error(case, c, refused, clause_of_errors)) is not None
        ]
    # The next step starts from the position before a refusal, whatever the adapter says its
    # state became (an unchanged check judges that).
    at = moments(reply)
    mismatches: list[Mismatch] = []
    expected_errors = {c.after for c in checks if isinstance(c, ErrorCheck)}
    for moment, now in enumerate(at[1:], start=1):
        if now.error is not None and moment not in expected_errors:
            action = describe_action(case.steps[moment - 1].get("action"))
            mismatches.append(
                Mismatch(
                    moment,
                    case.primary_clause,
                    f"step {moment} ({action}) was rejected: {error_text(now.error)}",
                    error_message(now.error),
                )
            )
    for check in checks:
        now = at[check.after]
        found: Sequence[Mismatch | None]
        match check:  # every kind of check, or mypy says which is left out
            case StateCheck():
                found = _compare_state(case, check, now.state, order)
            case ErrorCheck():
                found = [_compare_error(case, check, now.error, clause_of_errors)]
            case EventsCheck():
                with_clauses = "event_clauses" in capabilities
                found = (
                    []
                    if now.error is not None
                    else [_compare_events(case, check, now.events or [], with_clauses)]
                )
            case OddsCheck():
                found = [_compare_odds(case, check, reply["odds"], partial)]
            case RankingCheck():
                own = (
                    reply.get("ranking", {}).get(str(check.after))
                    if RANKING in capabilities
                    else None
                )
                found = _compare_ranking(case, check, now.state, own)
            case UnchangedCheck():
                found = [_compare_unchanged(case, check, at[check.after - 1].state, now, order)]
            case LegalActionsCheck():
                listed = reply["legal_actions"][str(check.after)]
                found = [_compare_legal(case, check, listed, order)]
            case _:
                assert_never(check)
        mismatches.extend(m for m in found if m is not None)
    mismatches.sort(key=lambda m: (m.after, -1 if m.check is None else m.check))
    return mismatches


def cited_clause(error: Any) -> str | None:
    """The clause a refusal cites, when it is one of the spec's: the rule the adapter applied
    (the reference's is then not at issue: it accepts what is refused)."""
    cited = error.get("clause") if isinstance(error, dict) else None
    return cited if known_clause(cited) else None


def known_clause(clause: Any) -> TypeGuard[str]:
    """Whether ``clause`` is a clause of the spec (an adapter's refusal may name any text)."""
    from camelup.spec.registry import load_registry

    return isinstance(clause, str) and clause in load_registry().clause_ids


def error_message(error: Any) -> tuple[str, ...]:
    """The adapter's optional explanation of a rejection, as a diff line."""
    message = error.get("message") if isinstance(error, dict) else None
    return (f"message:  {message}",) if isinstance(message, str) and message else ()


def error_text(error: Any) -> str:
    """A refusal as ``code [clause]`` (anything else as compact JSON)."""
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
        if got is not NO_VALUE:
            got = normalise(got, tokens, order)
            if same(want, got):
                continue
        what = "is missing" if got is NO_VALUE else "differs"
        summary = f"{moment_text(case, check.after)}: {where or '/'} {what}"
        found.append(
            Mismatch(
                check.after,
                case.clause_of(check),
                summary,
                value_diff(want, got),
                check.index,
                where,
                want,
                got,
            )
        )
    return found


def moment_text(case: Case, moment: int, after: bool = True) -> str:
    """``after step 5 (take_leg_ticket player=1 camel=red)``; without ``after``: the step."""
    if moment == 0:
        return "given position"
    action = describe_action(case.steps[moment - 1].get("action"))
    return f"{'after step' if after else 'step'} {moment} ({action})"


def _compare_error(case: Case, check: ErrorCheck, got: Any, with_clause: bool) -> Mismatch | None:
    clause = check.clause or case.primary_clause
    expected = {"code": check.code} | (
        {"clause": check.clause} if check.clause and with_clause else {}
    )
    where = moment_text(case, check.after, after=False) if check.after else "the given position"
    if got is None:
        summary = f"{where} was accepted; expected it to be refused with {error_text(expected)}"
        return Mismatch(check.after, clause, summary, (), check.index, None, expected, None)
    actual = {"code": got.get("code")} | (
        {"clause": got.get("clause")} if "clause" in expected else {}
    )
    if same(expected, actual):
        return None
    return Mismatch(
        check.after,
        clause,
        f"{where} was refused for another reason",
        (f"expected: {error_text(expected)}", f"actual:   {error_text(got)}", *error_message(got)),
        check.index,
        None,
        expected,
        actual,
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
    clause = case.clause_of(check)
    if check.match == "sequence":
        if len(expected) == len(actual) and all(
            event_fits(w, g, True) for w, g in zip(expected, actual, strict=True)
        ):
            return None
        first = next(
            (
                i
                for i, (w, g) in enumerate(zip(expected, actual, strict=False))
                if not event_fits(w, g, True)
            ),
            min(len(expected), len(actual)),
        )
        if (
            check.clause is None
            and first < len(expected)
            and isinstance(expected[first].get("clause"), str)
        ):
            clause = expected[first]["clause"]
            if with_clause:
                clause = _cited_otherwise(expected[first], actual[first : first + 1]) or clause
        summary = (
            f"{moment_text(case, check.after)}: events differ from event #{first}"
            f" ({len(expected)} expected, {len(actual)} reported)"
        )
        shown = [
            _event_view(g, list(expected[i]) if i < len(expected) else list(g))
            for i, g in enumerate(actual)
        ]
        left, right = [compact(w) for w in expected], [compact(g) for g in shown]
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
        return Mismatch(check.after, clause, summary, diff, check.index, None, expected, shown)
    position = 0
    for number, want in enumerate(expected):
        while position < len(actual) and not event_fits(want, actual[position], True):
            position += 1
        if position == len(actual):
            if check.clause is None and isinstance(want.get("clause"), str):
                clause = want["clause"]
                if with_clause:
                    clause = _cited_otherwise(want, actual) or clause
            summary = (
                f"{moment_text(case, check.after)}: expected event #{number} ({want.get('type')})"
                " not found in order among the events"
            )
            shown = [_event_view(g, list(want)) for g in actual]
            diff = (
                f"expected: {compact(want)}",
                "actual events:",
                *(f"  {compact(g)}" for g in shown),
            )
            return Mismatch(check.after, clause, summary, diff, check.index, None, want, shown)
        position += 1
    return None


def choice_clause(mine: Mapping[str, Any], other: Mapping[str, Any]) -> str | None:
    """The rule behind a crazy camel chosen by another rule than the reference's (the same camel
    or another), each side citing one of the rules that choose: the first of the two in the
    order they are tried (``rules.crazy.SELECTION_ORDER``), the one whose case the two sides
    judged otherwise (the adapter's applied where it does not hold, or the reference's missed).
    None for any other event."""
    if mine.get("type") != "crazy_camel_chosen" or other.get("type") != mine.get("type"):
        return None
    ours, theirs = str(mine.get("clause")), str(other.get("clause"))
    order = SELECTION_ORDER
    if ours == theirs or ours not in order or theirs not in order:
        return None
    return min(ours, theirs, key=order.index)


def _cited_otherwise(want: Mapping[str, Any], actual: Sequence[Mapping[str, Any]]) -> str | None:
    """The rule behind an expected event that the adapter reports alike but for the rule it
    cites (the first such of ``actual``), when the two rules are of those that choose a crazy
    camel (:func:`choice_clause`); else None."""
    for got in actual:
        if event_fits(want, got):
            return choice_clause(want, got)
    return None


def event_fits(want: Mapping[str, Any], got: Mapping[str, Any], with_clause: bool = False) -> bool:
    """Whether ``got`` reports the event ``want``: each of its keys (the clause only
    ``with_clause``) there, with the same canonical value."""
    return all(
        key in got and same(normalise(value), normalise(got[key]))
        for key, value in want.items()
        if with_clause or key != "clause"
    )


def _compare_legal(
    case: Case, check: LegalActionsCheck, actions: Sequence[Any], order: Sequence[str]
) -> Mismatch | None:
    """The exact set, or (``includes`` / ``excludes``) the part of it the check states."""
    want = {compact(c): c for c in map(normalise, check.actions)}
    got = {compact(c): c for c in map(normalise, actions)}
    if check.exact:
        missing_keys, extra_keys = want.keys() - got.keys(), got.keys() - want.keys()
    else:
        banned = {compact(c): c for c in map(normalise, check.excluded)}
        missing_keys, extra_keys = want.keys() - got.keys(), got.keys() & banned.keys()
    if not missing_keys and not extra_keys:
        return None
    missing = sorted(describe_action(want[k]) for k in missing_keys)
    extra = sorted(describe_action(got[k]) for k in extra_keys)
    what = "legal actions differ" if check.exact else "legal actions break the stated part"
    summary = (
        f"{moment_text(case, check.after)}: {what}"
        f" ({len(missing)} missing, {len(extra)} {'unexpected' if check.exact else 'excluded'})"
    )
    diff = []
    for sign, listed in (("-", missing), ("+", extra)):
        diff += [f"{sign} {a}" for a in listed[:10]]
        diff += [f"{sign} ... and {len(listed) - 10} more"] if len(listed) > 10 else []
    expected: Any = [want[k] for k in sorted(want)]
    if not check.exact:
        stated = {"includes": expected, "excludes": [banned[k] for k in sorted(banned)]}
        expected = {part: listed for part, listed in stated.items() if listed}
    return Mismatch(
        check.after,
        case.clause_of(check),
        summary,
        tuple(diff),
        check.index,
        None,
        expected,
        [got[k] for k in sorted(got)],
    )


def ranking_of(state: Mapping[str, Any]) -> list[str]:
    """The racing camels of a state (JSON) from first to last: the track it shows, ranked by
    the reference's own rule (:func:`camelup.rules.ranking.ranking`: ``rank.space``,
    ``rank.stack``, ``rank.ignore-crazy``, ``rank.crossed-finish``,
    ``rank.carried-backwards``), the real one even while a mutant is applied in this process
    (:mod:`camelup.harness.unpatched`). The state has passed the state schema, so every
    space and camel of its track is one the model can hold."""
    from camelup.model.camels import Camel
    from camelup.model.track import SLOTS, slot
    from camelup.rules import ranking as ranking_rules

    track: list[tuple[Camel, ...]] = [()] * SLOTS
    for space, stack in state.get("track", {}).items():
        track[slot(int(space))] = tuple(map(Camel, stack))
    with unpatched():
        return [camel.value for camel in ranking_rules.ranking(tuple(track))]


def _compare_ranking(
    case: Case, check: RankingCheck, state: Any, own: Sequence[Any] | None
) -> list[Mismatch]:
    """The ranking of the track the adapter reports, and (capability ``ranking``) the ranking
    the adapter gives itself: each against the expected order."""
    want = list(check.ranking)
    found = []
    sides = [("the reported track ranks", ranking_of(state))]
    if own is not None:
        sides.append(("the adapter's own ranking is", list(own)))
    for what, got in sides:
        if got == want:
            continue
        place = next((i for i, (w, g) in enumerate(zip(want, got, strict=False)) if w != g), 0)
        summary = f"{moment_text(case, check.after)}: {what} wrong from place {place + 1}"
        diff = (f"expected: {' > '.join(want)}", f"actual:   {' > '.join(map(str, got))}")
        found.append(
            Mismatch(
                check.after, case.clause_of(check), summary, diff, check.index, None, want, got
            )
        )
    return found


def _leaves(value: Any, tokens: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every leaf of a JSON value (an empty array or object counts as one), by JSON pointer."""
    if isinstance(value, dict) and value:
        return {
            k: v
            for key, member in value.items()
            for k, v in _leaves(member, (*tokens, key)).items()
        }
    if isinstance(value, list) and value:
        found: dict[str, Any] = {}
        for number, item in enumerate(value):
            found.update(_leaves(item, (*tokens, str(number))))
        return found
    return {pointer(*tokens): value}


def _compare_unchanged(
    case: Case,
    check: UnchangedCheck,
    before: Any,
    now: Moment,
    order: Sequence[str],
) -> Mismatch | None:
    """A refused step left the state as it was: every leaf of both states, canonicalised."""
    where = moment_text(case, check.after, after=False)
    if now.error is None:
        summary = f"{where} was accepted; expected it refused and the position unchanged"
        return Mismatch(check.after, case.clause_of(check), summary, (), check.index)
    old = _leaves(normalise(before, (), order))
    new = _leaves(normalise(now.reported, (), order))
    changed = sorted(
        (
            p
            for p in old.keys() | new.keys()
            if not (p in old and p in new and same(old[p], new[p]))
        ),
        key=lambda p: [key_order(t) for t in parse_pointer(p)],
    )
    if not changed:
        return None
    summary = (
        f"{where} was refused but changed the position at {len(changed)} pointer(s):"
        f" {', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''}"
    )
    diff = tuple(
        f"{p}: before {compact(old[p]) if p in old else '(missing)'},"
        f" after {compact(new[p]) if p in new else '(missing)'}"
        for p in changed
    )
    return Mismatch(
        check.after,
        case.clause_of(check),
        summary,
        diff,
        check.index,
        None,
        {p: old[p] for p in changed if p in old},
        {p: new[p] for p in changed if p in new},
    )


def _fraction(value: Any) -> Fraction | None:
    """``"n/d"`` as a Fraction (any equal spelling: "2/4" is "1/2"); None if it is none."""
    if not isinstance(value, str) or value.count("/") != 1:
        return None
    top, bottom = value.split("/")
    try:
        return Fraction(int(top), int(bottom))
    except (ValueError, ZeroDivisionError):
        return None


def _compare_odds(
    case: Case, check: OddsCheck, replies: Mapping[str, Any], partial: bool = False
) -> Mismatch | None:
    """Each expected figure against the reply: probabilities as exact fractions.

    With ``partial`` (capability ``partial_odds``) a figure the reply leaves out (a place as
    null, ``race_end`` or ``sequences`` missing) is not compared, and the diff of a failure
    says which were not; a reply that gives none of the check's figures fails."""
    got = replies.get(str(check.after))
    got = got if isinstance(got, dict) else {}
    found_places = got.get("places")
    places: Mapping[str, Any] = found_places if isinstance(found_places, dict) else {}
    diff: list[str] = []
    compared = 0
    missing_places: list[tuple[int, str]] = []  # (place, camel) the reply leaves out
    for camel, row in check.odds.get("places", {}).items():
        theirs = places.get(camel)
        if partial and isinstance(theirs, list) and len(theirs) == len(row):
            wanted = [n for n, p in enumerate(theirs) if p is not None]
            missing_places += [(n + 1, camel) for n, p in enumerate(theirs) if p is None]
            compared += len(wanted)
            wrong = any(_fraction(theirs[n]) != _fraction(row[n]) for n in wanted)
        else:
            compared += len(row)
            wrong = not isinstance(theirs, list) or list(map(_fraction, theirs)) != list(
                map(_fraction, row)
            )
        if wrong:
            diff.append(f"places of {camel}: expected {compact(row)}, actual {compact(theirs)}")
    not_given = _places_not_given(missing_places, len(check.odds.get("places", {})))
    for key, words in (("race_end", "race end"), ("sequences", "sequences")):
        if key not in check.odds:
            continue
        if partial and key not in got:
            not_given.append(words)
            continue
        compared += 1
        want, theirs = check.odds[key], got.get(key)
        if key == "race_end":
            wrong = _fraction(theirs) != _fraction(want)
        else:  # a count: an integer, never a boolean
            wrong = not (isinstance(theirs, int) and not isinstance(theirs, bool)) or theirs != want
        if wrong:
            diff.append(f"{words}: expected {want}, actual {compact(theirs)}")
    if compared == 0:
        diff.append("none of the figures was given (partial_odds leaves out some, not all)")
    if not diff:
        return None
    if not_given:
        diff.append(f"not given, so not compared: {', '.join(not_given)}")
    summary = (
        f"{moment_text(case, check.after)}: odds differ ({len(diff) - bool(not_given)} figure(s))"
    )
    return Mismatch(
        check.after, case.clause_of(check), summary, tuple(diff), check.index, None, check.odds, got
    )


def _places_not_given(missing: Sequence[tuple[int, str]], camels: int) -> list[str]:
    """``place 3 (every camel)`` or ``place 3 (blue, red)``, one entry per place left out."""
    by_place: dict[int, list[str]] = {}
    for place, camel in missing:
        by_place.setdefault(place, []).append(camel)
    return [
        f"place {place} ({'every camel' if len(names) == camels else ', '.join(names)})"
        for place, names in sorted(by_place.items())
    ]

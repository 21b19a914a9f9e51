"""The first moment an adapter's reply to a case differs from the reference's reply to the same
case, what differs there (its *field*) and which rule went differently (its *clause*).

Both replies are compared moment by moment, on everything the adapter's capabilities let it be
judged on: at the given position and after every step, the whole state (canonical form, as
:mod:`camelup.harness.compare` has it) and, when declared, the adapter's own ranking
(``ranking``) and the legal actions (``legal_actions``); at every step whether it was accepted
or refused, the refusal's code (and clause with ``error_clauses``) and, when declared, its
events (each reference event on its keys, the clause too with ``event_clauses``). The first
difference found is the divergence; a state difference lists every differing pointer
(:func:`camelup.harness.attribution.differences`, at most :data:`DEPTH` levels down), in the
state's own member order and the track's space order.

**The field** groups divergences: the first differing state pointer with array indices and track
spaces written ``*`` (``/players/*/money``, ``/track/*``), or, when no state differs, a pointer
into the reply: ``/steps/*/events``, ``/ranking/*``, ``/legal_actions/*``, ``/steps/*/error``,
``/initial_error``, ``/errored``.

**The clause** is read from the reference's events at the diverging step, never from the
adapter's, which may have none:

* a state difference is named as the runner names its first divergence
  (:class:`camelup.harness.attribution.Attribution`): after the reference event of the step
  that wrote the differing member (a camel's move for a track space it left or reached, a tile
  payment for its owner's money, leg scoring for a player it paid, the start marker's passing
  for ``/to_move``, ...), refined where the events say more (the choice of crazy camel when the
  adapter moved another one, a carry, a missed payment, ``money.floor``, a leg ended on one
  side); the divergence names the earliest such event of any differing member; when no event
  wrote it, the rule that keeps it (the turn order for ``/to_move``), else the clause of the
  action itself (the adapter changed what the action does not change: a pyramid ticket paid at
  once, say); at the given position, the setup rule of the member (for a track space: the
  stacking order when it holds the right camels, the crazy camels' spaces when only they are
  elsewhere, else the racing camels' spaces);
* an events difference is named after the first reference event the adapter reports otherwise;
* a difference of the adapter's own ranking (capability ``ranking``) after the ranking rule
  that orders the first differing pair (``rank.stack`` on one space, ``rank.space`` across
  spaces, ``rank.crossed-finish`` past the line, ``rank.ignore-crazy`` for a crazy camel ranked);
* a legal-actions difference after the reference's refusal of the first action the adapter
  wrongly lists, or else the clause of the kind of action it wrongly leaves out;
* a refusal after the reference's refusal (its clause), an adapter refusing what the reference
  accepts after its own clause when it names a known one (with ``error_clauses``), else the
  clause of the reference's first event of the step, as the runner names it.
"""

from __future__ import annotations

import marshal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from camelup.harness.attribution import (
    Attribution,
    differences,
    legal_actions_clause,
    refusal_clause,
)
from camelup.harness.compare import (
    RACING_ORDER,
    compact,
    describe_action,
    error_text,
    normalise,
    same,
)
from camelup.io.jsonio import pointer
from camelup.io.replay import moments
from camelup.io.wire import facts

DEPTH = 3  # how far down a state difference is located: /players/1/money, /track/5


@attrs.frozen
class Divergence:
    """Where and how the adapter first differs from the reference on one case."""

    moment: int  # 0: the given position; k: after step k
    kind: str  # state, events, ranking, legal_actions, error, rejected, accepted, refused, errored
    field: str  # what differs, as grouped: /players/*/money, /steps/*/events, ...
    clause: str
    pointers: tuple[str, ...]  # every differing state pointer, for kind "state"
    summary: str
    body: Mapping[str, Any] | None = attrs.field(eq=False, repr=False)  # the adapter's reply

    @property
    def signature(self) -> tuple[str, str, str]:
        """What a smaller case must still show to stand for the same disagreement."""
        return (self.kind, self.field, self.clause)

    @property
    def group(self) -> tuple[str, str]:
        return (self.field, self.clause)


def pattern(pointer_text: str) -> str:
    """``/players/1/money`` as ``/players/*/money``, ``/track/5`` as ``/track/*``."""
    tokens = pointer_text.split("/")[1:]
    return "".join("/" + ("*" if t.lstrip("-").isdigit() else t) for t in tokens)


# ----------------------------------------------------------------------------------- comparing


def first_divergence(
    wire: Mapping[str, Any],
    reference: Mapping[str, Any],
    body: Mapping[str, Any],
    capabilities: frozenset[str],
    known_clause: Callable[[str], bool] = lambda clause: False,
    *,
    partnerships: bool = True,
) -> Divergence | None:
    """The first way ``body`` (the adapter's result for ``wire``, of the right shape) differs
    from ``reference`` (the reference's), or None when it agrees on everything compared.
    Without ``partnerships`` (an adapter that plays 6-8 players without partnership cards) the
    reference's ``form_partnership`` actions are left out of its legal actions."""
    order = RACING_ORDER.get(str(wire["ruleset"].get("edition")), ())
    actions = [step["action"] for step in wire["steps"]]
    with_error_clauses = "error_clauses" in capabilities
    ours_refused, theirs_refused = reference.get("initial_error"), body.get("initial_error")
    if ours_refused is not None or theirs_refused is not None:
        return _initial(ours_refused, theirs_refused, with_error_clauses, body, known_clause)
    legal = "legal_actions" in capabilities
    ranked = "ranking" in capabilities
    ours, theirs = reference["initial_state"], body["initial_state"]
    found = _position(0, ours, theirs, None, [], wire, body)
    if found is None and ranked:
        found = _ranking(0, reference, body, ours)
    if found is None and legal:
        found = _legal(0, reference, body, order, actions, partnerships)
    if found is not None:
        return found
    for number, (our_step, their_step) in enumerate(
        zip(reference["steps"], body["steps"], strict=True), start=1
    ):
        action = actions[number - 1]
        where = f"step {number} ({describe_action(action)})"
        if "error" in our_step:
            error = our_step["error"]
            if "error" not in their_step:
                summary = f"{where} was accepted; the reference refuses it: {error_text(error)}"
                return Divergence(
                    number, "accepted", "/steps/*/error", error["clause"], (), summary, body
                )
            mine = _error_view(error, with_error_clauses)
            if not same(mine, _error_view(their_step["error"], with_error_clauses)):
                summary = (
                    f"{where} was refused for another reason: expected {error_text(mine)},"
                    f" actual {error_text(their_step['error'])}"
                )
                return Divergence(
                    number, "error", "/steps/*/error", error["clause"], (), summary, body
                )
            continue  # refused alike: both positions stay as they were
        events: list[Any] = our_step.get("events", [])
        if "error" in their_step:
            refusal = their_step["error"]
            cited = refusal.get("clause")
            known = with_error_clauses and isinstance(cited, str) and known_clause(cited)
            clause = refusal_clause(cited, known, events, _fallback(action))
            summary = f"{where} was refused: {error_text(refusal)}; the reference accepts it"
            return Divergence(number, "rejected", "/steps/*/error", clause, (), summary, body)
        before = ours
        ours, theirs = our_step["state"], their_step["state"]
        found = _position(number, ours, theirs, before, events, wire, body)
        if found is None and "events" in capabilities:
            found = _events(number, events, their_step.get("events", []), capabilities, body, where)
        if found is None and ranked:
            found = _ranking(number, reference, body, ours)
        if found is None and legal:
            found = _legal(number, reference, body, order, actions, partnerships)
        if found is not None:
            return found
    return None


def _initial(
    ours: Any,
    theirs: Any,
    with_clauses: bool,
    body: Mapping[str, Any],
    known: Callable[[str], bool],
) -> Divergence | None:
    if ours is not None and theirs is not None:
        mine = _error_view(ours, with_clauses)
        if same(mine, _error_view(theirs, with_clauses)):
            return None
        summary = (
            f"the given position was refused for another reason: expected {error_text(mine)},"
            f" actual {error_text(theirs)}"
        )
        return Divergence(0, "error", "/initial_error", ours["clause"], (), summary, body)
    if ours is not None:
        summary = f"the given position was accepted; the reference refuses it: {error_text(ours)}"
        return Divergence(0, "accepted", "/initial_error", ours["clause"], (), summary, body)
    clause = theirs.get("clause") if with_clauses else None
    if not (isinstance(clause, str) and known(clause)):
        clause = "setup.racing-camels"
    summary = f"the given position was refused: {error_text(theirs)}"
    return Divergence(0, "refused", "/initial_error", clause, (), summary, body)


def _position(
    moment: int,
    ours: Any,
    theirs: Any,
    before: Any,
    events: Sequence[Mapping[str, Any]],
    wire: Mapping[str, Any],
    body: Mapping[str, Any],
) -> Divergence | None:
    if _alike(ours, theirs):
        # Equal states have equal canonical forms, so nothing differs: the common case, decided
        # without normalising and walking both. (States that differ here may still be equal
        # once normalised: sets in another order, 1.0 for 1.)
        return None
    edition = str(wire["ruleset"].get("edition"))
    order = RACING_ORDER.get(edition, ())
    actions = [step["action"] for step in wire["steps"]]
    expected, actual = normalise(ours, (), order), normalise(theirs, (), order)
    found = [tokens for tokens, _, _ in differences(expected, actual, DEPTH)]
    if not found:
        return None
    pointers = tuple(pointer(*t) for t in found)
    action = actions[moment - 1] if moment else None
    attribution = Attribution(
        moment,
        events,
        before,
        expected,
        actual,
        edition=edition,
        from_setup="setup" in wire["given"],
        fallback=_fallback(action),
    )
    clause = attribution.best([attribution.clause_of(t) for t in found])
    shown = ", ".join(pointers[:3]) + (
        f" and {len(pointers) - 3} more" if len(pointers) > 3 else ""
    )
    where = "the given position" if moment == 0 else f"after step {moment}"
    if moment:
        where += f" ({describe_action(actions[moment - 1])})"
    first = found[0]
    detail = f"expected {_brief(_at(expected, first))}, actual {_brief(_at(actual, first))}"
    summary = f"{where}: {shown} differ(s); {pointers[0]}: {detail}"
    return Divergence(moment, "state", pattern(pointers[0]), clause, pointers, summary, body)


def _alike(ours: Any, theirs: Any) -> bool:
    """``same(ours, theirs)``, mostly decided without a call per member: ``==`` takes ``1`` for
    ``true``, but two equal JSON values that also marshal alike are the same (the bytes tell a
    boolean from a number and an integer from a float). Neither side holds a NaN, the one value
    ``same`` finds unequal to itself: jsonio refuses it and the reference never writes one."""
    if ours != theirs:
        return False
    mine = _marshalled(ours)
    return (mine is not None and mine == _marshalled(theirs)) or same(ours, theirs)


def _marshalled(value: Any) -> bytes | None:
    # marshal rather than repr: a third of the time on a position (repr was a tenth of a fuzz
    # run). Version 2 writes no back-references, which would make equal values' bytes differ.
    # A value marshal cannot write (not plain JSON) is left to ``same``.
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def _fallback(action: Mapping[str, Any] | None) -> str:
    """The clause of what the action itself does (the adapter changed what no reference event
    touched: a pyramid ticket paid at once, say), or at the given position the racing camels'
    setup."""
    if action is None:
        return "setup.racing-camels"
    return facts().action_clause(action.get("type"))


def _at(document: Any, tokens: Sequence[str]) -> Any:
    node = document
    for token in tokens:
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            return None
    return node


def _brief(value: Any) -> str:
    text = compact(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _events(
    moment: int,
    ours: Sequence[Mapping[str, Any]],
    theirs: Sequence[Any],
    capabilities: frozenset[str],
    body: Mapping[str, Any],
    where: str,
) -> Divergence | None:
    with_clause = "event_clauses" in capabilities
    for index in range(max(len(ours), len(theirs))):
        mine = ours[index] if index < len(ours) else None
        other = theirs[index] if index < len(theirs) else None
        if mine is not None and isinstance(other, dict) and _fits(mine, other, with_clause):
            continue
        if mine is None:  # the adapter reports more events than the reference
            clause = str(ours[-1]["clause"]) if ours else "turn.one-action"
            summary = f"{where}: event #{index} ({compact(other)}) is not the reference's"
        else:
            clause = str(mine["clause"])
            summary = f"{where}: events differ from event #{index} ({mine.get('type')})"
        return Divergence(moment, "events", "/steps/*/events", clause, (), summary, body)
    return None


def _fits(mine: Mapping[str, Any], other: Mapping[str, Any], with_clause: bool) -> bool:
    return all(
        key in other and same(normalise(value), normalise(other[key]))
        for key, value in mine.items()
        if with_clause or key != "clause"
    )


def _legal(
    moment: int,
    reference: Mapping[str, Any],
    body: Mapping[str, Any],
    order: Sequence[str],
    actions: Sequence[Mapping[str, Any]],
    partnerships: bool,
) -> Divergence | None:
    listed = [
        a
        for a in reference["legal_actions"][str(moment)]
        if partnerships or a.get("type") != "form_partnership"
    ]
    if _alike(listed, body["legal_actions"][str(moment)]):
        return None  # the same list: the same set of canonical forms, found without them
    ours = {compact(normalise(a, (), order)): a for a in listed}
    theirs = {compact(normalise(a, (), order)): a for a in body["legal_actions"][str(moment)]}
    if ours.keys() == theirs.keys():
        return None
    extra = sorted(theirs.keys() - ours.keys())
    missing = sorted(ours.keys() - theirs.keys())
    clause = legal_actions_clause(
        moments(reference)[moment].state,
        [theirs[key] for key in extra],
        [ours[key] for key in missing],
    )
    if extra:
        what = f"{describe_action(theirs[extra[0]])} is listed but illegal"
    else:
        what = f"{describe_action(ours[missing[0]])} is legal but not listed"
    where = "the given position" if moment == 0 else f"after step {moment}"
    summary = (
        f"{where}: legal actions differ ({len(missing)} missing, {len(extra)} unexpected); {what}"
    )
    return Divergence(moment, "legal_actions", "/legal_actions/*", clause, (), summary, body)


def _ranking(
    moment: int, reference: Mapping[str, Any], body: Mapping[str, Any], position: Any
) -> Divergence | None:
    """The adapter's own ranking (capability ``ranking``) against the reference's, both of a
    track they agree on; named after the ranking rule that orders the first pair differently."""
    ours = list(reference["ranking"][str(moment)])
    theirs = list(body["ranking"][str(moment)])
    if ours == theirs:
        return None
    place = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), 0)
    track = position.get("track", {}) if isinstance(position, dict) else {}
    space = {c: int(s) for s, stack in track.items() for c in stack if s.lstrip("-").isdigit()}
    if any(isinstance(c, str) and c.startswith("crazy-") for c in theirs):
        clause = "rank.ignore-crazy"
    elif place >= min(len(ours), len(theirs)):
        clause = "rank.one-ranking"
    else:
        first, second = space.get(ours[place]), space.get(theirs[place])
        off_board = any(s is not None and not 1 <= s <= 16 for s in (first, second))
        if off_board:
            clause = "rank.crossed-finish"
        else:
            clause = "rank.stack" if first == second else "rank.space"
    where = "the given position" if moment == 0 else f"after step {moment}"
    summary = (
        f"{where}: the adapter ranks {' > '.join(map(str, theirs))}; the reference"
        f" {' > '.join(ours)} (from place {place + 1})"
    )
    return Divergence(moment, "ranking", "/ranking/*", clause, (), summary, body)


def _error_view(error: Mapping[str, Any], with_clause: bool) -> dict[str, Any]:
    return {"code": error.get("code")} | ({"clause": error.get("clause")} if with_clause else {})


__all__ = ["Divergence", "first_divergence", "pattern"]

"""The first divergence from the reference, and silence after it.

A case's checks look at a few members of the state at a few moments, so a wrong step shows
only where a later check happens to look, and then every later check fails with it (a
cascade). For a case of two steps or more the runner therefore also compares the adapter's
whole state at every moment (the given position and after each step) with the reference
engine's, run in this process on the same case, normalised as the checks normalise (sets as
sets, in the case's camel order). The first moment where they differ is **the divergence**:

* a state divergence names the deepest differing members (``/track/11``,
  ``/players/1/money``) and, for each, the clause of the reference event of that step that
  produced its value (a unit move for a track space, a payment for a player's money, ...;
  the case's own clause when no event did);
* a step one side refuses and the other accepts is a divergence at that step (when both
  refuse, the error checks compare the codes as before).

The case fails once, at its divergence: a check before it still fails on its own, a check at
it is folded into it, and every check after it is **not compared** ("after divergence at step
k"). The divergence fails the case even where no check looks: a state that differs from the
reference's is wrong.

The reference's replies are cached per case (the trajectory is deterministic) and are computed
with any mutant's patch lifted (:func:`camelup.conformance.mutants.lifted`): under
``camelup conformance mutants`` the engine in this process is the mutant, and a reference
computed with it would agree with it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from camelup.conformance.compare import (
    RACING_ORDER,
    SOLVER,
    Mismatch,
    applicable,
    compact,
    describe_action,
    normalise,
    same,
)
from camelup.conformance.suite import Case
from camelup.io.jsonio import pointer

MIN_STEPS = 2  # a case of fewer steps has nothing after its one step to silence
MAX_POINTERS_SHOWN = 10
CACHE_SIZE = 4096

_MISSING = object()
Tokens = tuple[str, ...]


@attrs.frozen
class FirstDivergence:
    """Where the adapter first leaves the reference: the moment (0: the given position), the
    differing members (deepest first found, in the reference's key order) with the clause of
    each, and, for a refusal on one side only, the refusal."""

    after: int
    clause: str
    pointers: tuple[str, ...] = ()
    clauses: tuple[str, ...] = ()  # one per pointer
    expected: tuple[Any, ...] = ()  # the reference's value at each pointer
    actual: tuple[Any, ...] = ()  # the adapter's (a member one side lacks is _MISSING there)
    refused: str | None = None  # "adapter" or "reference": who refused the step alone
    error: Mapping[str, Any] | None = None  # that refusal's error

    def mismatch(self, case: Case) -> Mismatch:
        """The divergence as the one failure of its case."""
        moment = _moment(case, self.after, after=self.refused is None)
        if self.refused == "adapter":
            summary = (
                f"{moment}: first divergence from the reference: the adapter refused it"
                f" ({_error_text(self.error)}); the reference accepts it"
            )
            diff = _message(self.error)
        elif self.refused == "reference":
            summary = (
                f"{moment}: first divergence from the reference: the adapter accepted it;"
                f" the reference refuses it with {_error_text(self.error)}"
            )
            diff = ()
        else:
            shown = ", ".join(self.pointers[:3])
            more = f" and {len(self.pointers) - 3} more" if len(self.pointers) > 3 else ""
            verb = "differs" if len(self.pointers) == 1 else "differ"
            summary = f"{moment}: first divergence from the reference: {shown}{more} {verb}"
            diff = self._diff()
        if self.refused is None:
            expected: Any = _present(self.pointers, self.expected)
            actual: Any = _present(self.pointers, self.actual)
        else:  # the refusal, and null for the side that accepted the step
            expected = self.error if self.refused == "reference" else None
            actual = self.error if self.refused == "adapter" else None
        return Mismatch(
            self.after,
            self.clause,
            summary,
            diff,
            None,
            self.pointers[0] if self.pointers else None,
            expected=expected,
            actual=actual,
            pointers=self.pointers,
            divergence=True,
        )

    def _diff(self) -> tuple[str, ...]:
        lines: list[str] = []
        for number, where in enumerate(self.pointers[:MAX_POINTERS_SHOWN]):
            lines.append(f"{where}  [{self.clauses[number]}]")
            lines.extend(
                f"  {line}" for line in _value_diff(self.expected[number], self.actual[number])
            )
        if len(self.pointers) > MAX_POINTERS_SHOWN:
            lines.append(f"(and {len(self.pointers) - MAX_POINTERS_SHOWN} more member(s))")
        return tuple(lines)


def _present(pointers: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    """Each pointer with its value, where that side has one."""
    return {p: v for p, v in zip(pointers, values, strict=True) if v is not _MISSING}


def _value_diff(expected: Any, actual: Any) -> tuple[str, ...]:
    """Two lines for one member, whatever its size (a member one side lacks is "(missing)"),
    so that a divergence's block stays short."""
    left = "(missing)" if expected is _MISSING else compact(expected)
    right = "(missing)" if actual is _MISSING else compact(actual)
    return (f"expected: {left}", f"actual:   {right}")


@attrs.frozen
class Judged:
    """A case's mismatches once its divergence is found: those before it, then it; the
    checks after it, not compared."""

    mismatches: tuple[Mismatch, ...]
    divergence: FirstDivergence | None = None
    not_compared: tuple[int, ...] = ()  # indices into the case's expect array


def judge(
    case: Case,
    reply: Mapping[str, Any],
    capabilities: frozenset[str],
    mismatches: Sequence[Mismatch],
) -> Judged:
    """``mismatches`` (from :func:`camelup.conformance.compare.compare`) with the first
    divergence of ``reply`` from the reference put in and everything after it silenced.

    Nothing changes for a case of fewer than :data:`MIN_STEPS` steps, for an odds solver, and
    when either side refused the given position (the error checks at 0 judge that).
    """
    if len(case.steps) < MIN_STEPS or capabilities == SOLVER or "initial_error" in reply:
        return Judged(tuple(mismatches))
    reference = reference_reply(case)
    found = first_divergence(case, reply, reference)
    if found is None:
        return Judged(tuple(mismatches))
    kept = [m for m in mismatches if m.after < found.after]
    later = tuple(
        c.index for c in case.checks if c.after > found.after and applicable(c, capabilities)
    )
    own = {c.index for c in case.checks if c.clause is not None}  # a clause the case names
    folded = [m for m in mismatches if m.after == found.after and m.check in own]
    found = with_checks_clauses(found, folded)
    return Judged((*kept, found.mismatch(case)), found, later)


def with_checks_clauses(found: FirstDivergence, folded: Sequence[Mismatch]) -> FirstDivergence:
    """``found`` naming the clauses that the case's checks failing at its moment (folded into
    it) name for themselves: the case's word on what decides a member outranks what the
    reference's events suggest (a check that names none stands for the case's main subject,
    which says nothing about this member)."""
    if not folded:
        return found
    clauses = list(found.clauses)
    for number, where in enumerate(found.pointers):
        for mismatch in folded:
            if mismatch.pointer is not None and (
                where == mismatch.pointer or where.startswith(mismatch.pointer + "/")
            ):
                clauses[number] = mismatch.clause
                break
    return attrs.evolve(found, clause=folded[0].clause, clauses=tuple(clauses))


# ------------------------------------------------------------------------ finding the divergence


def first_divergence(
    case: Case, reply: Mapping[str, Any], reference: Mapping[str, Any]
) -> FirstDivergence | None:
    """The first moment where ``reply`` and the reference's reply to ``case`` differ (both
    results of the protocol), or None when they agree at every moment or either refused the
    given position."""
    if "initial_error" in reply or "initial_error" in reference or "steps" not in reference:
        return None
    order = _order(case)
    mine, theirs = positions(reply), positions(reference)
    for moment, (got, want) in enumerate(zip(mine, theirs, strict=False)):
        got_state, got_error = got
        want_state, want_error = want
        if got_error is not None and want_error is not None:
            continue  # both refused: the positions are unchanged, the codes are the checks'
        if got_error is not None:
            events = reference["steps"][moment - 1].get("events", [])
            clause = _refusal_clause(got_error, events, case)
            return FirstDivergence(moment, clause, refused="adapter", error=got_error)
        if want_error is not None:
            clause = want_error.get("clause") or case.primary_clause
            return FirstDivergence(moment, clause, refused="reference", error=want_error)
        if got_state is want_state or got_state == want_state:
            continue  # the common case, decided without normalising (a state has no booleans)
        want_norm = normalise(want_state, (), order)
        got_norm = normalise(got_state, (), order)
        differences = list(_differences(want_norm, got_norm, ()))
        if not differences:
            continue
        before = theirs[moment - 1][0] if moment else None
        events = reference["steps"][moment - 1].get("events", []) if moment else []
        attribution = _Attribution(case, moment, events, before, want_norm, got_norm)
        named = [attribution.clause_of(t) for t, _, _ in differences]
        clauses = [clause for clause, _ in named]
        ranks = [rank for _, rank in named]
        best = min(range(len(ranks)), key=lambda i: ranks[i])
        return FirstDivergence(
            moment,
            clauses[best],
            tuple(pointer(*t) for t, _, _ in differences),
            tuple(clauses),
            tuple(w for _, w, _ in differences),
            tuple(g for _, _, g in differences),
        )
    return None


def positions(reply: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """(state, error) at every moment: a refused step leaves the position as it was."""
    found: list[tuple[Any, Any]] = [(reply["initial_state"], None)]
    for step in reply["steps"]:
        if "error" in step:
            found.append((found[-1][0], step["error"]))
        else:
            found.append((step["state"], None))
    return found


def _differences(want: Any, got: Any, tokens: Tokens) -> Iterator[tuple[Tokens, Any, Any]]:
    """The deepest members where two normalised values differ: into objects key by key, into
    arrays of the same length item by item; a member on one side only is a difference."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key, member in want.items():
            if key not in got:
                yield (*tokens, key), member, _MISSING
            else:
                yield from _differences(member, got[key], (*tokens, key))
        for key, member in got.items():
            if key not in want:
                yield (*tokens, key), _MISSING, member
    elif isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for index, (left, right) in enumerate(zip(want, got, strict=True)):
            yield from _differences(left, right, (*tokens, str(index)))
    elif not same(want, got):
        yield tokens, want, got


# --------------------------------------------------------------------- which clause produced it


# Members no event of a step names, and the rule that sets (or keeps) them.
_UNNAMED: tuple[tuple[Tokens, str], ...] = (
    (("to_move",), "turn.order"),
    (("players", "*", "finish_cards"), "bet.finish.permanent"),
    (("tiles",), "tile.stays"),
)

# At the given position of a setup: which rule of the setup chapter decides each member.
_SETUP: dict[str, str] = {
    "ticket_stacks": "setup.leg-ticket-stacks",
    "pyramid": "setup.dice-in-pyramid",
    "revealed": "setup.dice-in-pyramid",
    "start_player": "setup.start-player",
    "to_move": "setup.start-player",
}
_SETUP_SEAT: dict[str, str] = {
    "money": "setup.money",
    "finish_cards": "setup.player-kit",
    "leg_tickets": "setup.player-kit",
    "pyramid_tickets": "setup.pyramid-tickets",
    "partner": "setup.partnership-cards",
}
CLAUSES_NAMED = frozenset(
    {
        *(clause for _, clause in _UNNAMED),
        *_SETUP.values(),
        *_SETUP_SEAT.values(),
        "setup.racing-camels",
        "setup.stack-order",
        "setup.crazy-space",
        "setup.crazy-second",
        "partner.reset",
        "bet.finish.pile-order",
        "move.stack.carry",
        "move.unit.lands-on-top",
        "crazy.carry",
        "leg.end.first",
        "leg.end.second",
        "end.final-leg-scoring",
        "leg.number",
        "money.floor",
    }
)  # every clause this module may name by itself (tests check each is in the spec)


def _touches(event: Mapping[str, Any]) -> list[tuple[Tokens, str | None]]:
    """The members of a state an event sets (``*``: any seat), each with the clause to name
    when it differs (None: the event's own)."""
    kind = event.get("type")
    seat = str(event.get("player", event.get("owner", "")))
    if kind in ("unit_moved", "whirlwind_step"):
        return [
            (("track", str(event.get("from_space"))), None),
            (("track", str(event.get("to_space"))), None),
        ]
    if kind == "leg_ticket_taken":
        camel = event.get("ticket", {}).get("camel")
        return [(("players", seat, "leg_tickets"), None), (("ticket_stacks", str(camel)), None)]
    if kind == "pyramid_ticket_taken":
        return [(("players", seat, "pyramid_tickets"), None)]
    if kind == "die_revealed":
        return [(("revealed",), None), (("pyramid",), None)]
    if kind == "tile_placed":
        return [(("tiles",), None)]
    if kind in ("tile_paid", "finish_card_scored"):
        return [(("players", seat, "money"), None)]
    if kind == "finish_card_placed":
        return [
            (("players", seat, "finish_cards"), None),
            ((f"{event.get('pile')}_pile",), None),
        ]
    if kind == "partnership_formed":
        partner = str(event.get("partner"))
        return [(("players", seat, "partner"), None), (("players", partner, "partner"), None)]
    if kind == "leg_scored":
        scores = event.get("scores", [])
        return [(("players", str(s.get("player")), "money"), None) for s in scores]
    if kind == "start_player_passed":
        return [(("start_player",), None), (("to_move",), None)]
    if kind == "leg_started":
        return [
            (("leg",), None),
            (("pyramid",), None),
            (("revealed",), None),
            (("ticket_stacks",), None),
            (("tiles",), None),
            (("players", "*", "leg_tickets"), None),
            (("players", "*", "pyramid_tickets"), None),
            (("players", "*", "partner"), "partner.reset"),
        ]
    if kind in ("race_ended", "game_ended"):
        return [(("result",), None)]
    return []


def _related(tokens: Tokens, member: Tokens) -> bool:
    """Whether ``tokens`` lies within ``member`` or holds it (``*`` matches any token)."""
    return all(m in ("*", t) for t, m in zip(tokens, member, strict=False))


def _contribution(event: Mapping[str, Any], seat: str) -> int | None:
    """What ``event`` paid the seat (None: it is no payment to that seat)."""
    kind = event.get("type")
    if kind in ("tile_paid", "finish_card_scored") and str(event.get("owner")) == seat:
        amount = event.get("paid", event.get("amount"))
        return amount if isinstance(amount, int) else None
    if kind == "leg_scored":
        for score in event.get("scores", []):
            if str(score.get("player")) == seat and isinstance(score.get("paid"), int):
                return int(score["paid"])
    return None


Rank = tuple[int, int]  # (the event's place in the step, 0 for what decides a unit, 1 else)


class _Attribution:
    """The clause behind each differing member of one moment, and a rank: the divergence as
    a whole names the clause of the earliest event behind any of its members."""

    def __init__(
        self,
        case: Case,
        moment: int,
        events: Sequence[Any],
        before: Any,
        want: Any,
        got: Any,
    ) -> None:
        self.case = case
        self.moment = moment
        self.events = [e for e in events if isinstance(e, dict)]
        self.before: Any = normalise(before, (), _order(case)) if before is not None else None
        self.want = want
        self.got = got
        self.late: Rank = (len(self.events) + 1, 0)  # a clause no event of the step names
        moves = [
            i
            for i, e in enumerate(self.events)
            if e.get("type") in ("unit_moved", "whirlwind_step")
        ]
        self.die_move = moves[0] if moves else None  # the move the die made, before any tile's
        self.leg_end = self._leg_end_missed()

    def clause_of(self, tokens: Tokens) -> tuple[str, Rank]:
        if self.moment == 0:
            return self._setup_clause(tokens), (0, 0)
        if tokens == ("leg",) and self.leg_end is not None:
            return self.leg_end, (-1, 0)  # one side ended the leg, the other did not
        if tokens == ("leg",):
            return "leg.number", self.late  # both ended it: the count is wrong
        touching = [
            (index, clause)
            for index, event in enumerate(self.events)
            for member, clause in _touches(event)
            if _related(tokens, member)
        ]
        if tokens[:1] == ("track",) and len(tokens) >= 2:
            return self._track_clause(tokens[1], touching)
        if tokens[:1] in (("winner_pile",), ("loser_pile",)) and _same_items(
            self.want.get(tokens[0]), self.got.get(tokens[0])
        ):
            return "bet.finish.pile-order", (touching[-1][0] if touching else self.late[0], 1)
        if len(tokens) >= 3 and tokens[0] == "players" and tokens[2] == "money" and touching:
            index = self._payment(tokens[1], [i for i, _ in touching])
            if self._unfloored(tokens[1], index):
                return self._named(index, "money.floor")
            return self._named(index, dict(touching)[index])
        kinds = [e.get("type") for e in self.events]
        if (
            "leg_scored" in kinds
            and "leg_started" not in kinds
            and tokens[2:3] in (("leg_tickets",), ("pyramid_tickets",))
        ):
            # The race ended: the last leg is scored on the tickets held, and never cleaned up.
            return self._named(kinds.index("leg_scored"), None)
        if touching:
            return self._named(*touching[-1])  # the last event to set it decided its value
        for member, clause in _UNNAMED:
            if _related(tokens, member) and len(tokens) >= len(member):
                return clause, self.late
        if tokens[:1] == ("players",) and len(tokens) >= 2:
            acting = [i for i, e in enumerate(self.events) if str(e.get("player", "")) == tokens[1]]
            if acting:  # a guess: the seat's own action of the step, after any event's rank
                return self._named(acting[0], None)[0], self.late
        return self.case.primary_clause, self.late

    def _named(
        self, index: int, clause: str | None, decides_unit: bool = False
    ) -> tuple[str, Rank]:
        event = self.events[index]
        named = clause or event.get("clause")
        if not isinstance(named, str) or not named:
            return self.case.primary_clause, self.late
        if (
            named == "leg.score.net"
            and clause is None
            and any(e.get("type") == "race_ended" for e in self.events[:index])
        ):
            named = "end.final-leg-scoring"  # the leg the race ended in is scored too
        return named, (index, 0 if decides_unit else 1)

    def _track_clause(self, space: str, touching: list[tuple[int, str | None]]) -> tuple[str, Rank]:
        die = self.die_move
        if die is None:
            return self.case.primary_clause, self.late
        move = self.events[die]
        crazy = any(str(c).startswith("crazy-") for c in move.get("unit", [])[:1])
        if not touching:
            # The adapter put a camel where the reference moved none: the die's move went wrong.
            return self._named(die, None)
        last = touching[-1][0]
        if last == die and str(move.get("from_space")) == space:
            return self._origin_clause(die, space, crazy)
        if last == die and str(move.get("to_space")) == space and move.get("placement") == "top":
            unit = [str(c) for c in move.get("unit", [])]
            want, got = _stack(self.want, space), _stack(self.got, space)
            if unit and sorted(want) == sorted(got) and want[-len(unit) :] == unit:
                if got[-len(unit) :] == unit[::-1]:
                    return self._named(die, "crazy.carry" if crazy else "move.stack.carry")
                if got[: len(unit)] == unit:
                    return self._named(die, "move.unit.lands-on-top")
        return self._named(*touching[-1])

    def _origin_clause(self, die: int, space: str, crazy: bool) -> tuple[str, Rank]:
        """What left the die's space differs: the mover stayed or a camel below it left (the
        wrong unit moved), or other riders went with it."""
        move = self.events[die]
        chosen = [
            i for i, e in enumerate(self.events[:die]) if e.get("type") == "crazy_camel_chosen"
        ]
        unit = [str(c) for c in move.get("unit", [])]
        mover = str(self.events[chosen[-1]].get("camel")) if chosen else (unit[:1] or [""])[0]
        start = _stack(self.before, space)
        left = set(start) - set(_stack(self.got, space))
        below = start[: start.index(mover)] if mover in start else []
        wrong_unit = mover not in left or any(camel in left for camel in below)
        if wrong_unit and chosen:
            return self._named(chosen[-1], None, decides_unit=True)  # another crazy camel
        if mover not in left:
            return self._named(die, None, decides_unit=True)  # the mover did not go
        return self._named(die, "crazy.carry" if crazy else "move.stack.carry", True)

    def _leg_end_missed(self) -> str | None:
        """The edition's leg-end clause when exactly one side ended the leg at this step (a
        race that ends ends its leg by another rule)."""
        if self.before is None or any(e.get("type") == "race_ended" for e in self.events):
            return None
        try:
            if self.got.get("result") is not None:
                return None
            ended = bool(self.got["leg"] != self.before["leg"] or not self.got["revealed"])
        except (KeyError, TypeError, AttributeError):
            return None
        if ended == any(e.get("type") == "leg_started" for e in self.events):
            return None
        return "leg.end.first" if self.case.edition == "first" else "leg.end.second"

    def _unfloored(self, seat: str, index: int) -> bool:
        """Whether the adapter took the seat's whole loss where the reference stopped at 0."""
        event = self.events[index]
        scores = [s for s in event.get("scores", []) if str(s.get("player")) == seat]
        if event.get("type") == "leg_scored" and scores:
            owed, paid = scores[0].get("total"), scores[0].get("paid")
        elif event.get("type") == "finish_card_scored":
            owed, paid = event.get("amount"), event.get("paid")
        else:
            return False
        try:
            start = int(self.before["players"][int(seat)]["money"])
            got = int(self.got["players"][int(seat)]["money"]) - start
            wanted = int(self.want["players"][int(seat)]["money"]) - start
        except (KeyError, IndexError, TypeError, ValueError):
            return False
        if not isinstance(owed, int) or not isinstance(paid, int) or owed == paid:
            return False
        return got == wanted - paid + owed

    def _payment(self, seat: str, touching: list[int]) -> int:
        """Of the events that paid ``seat`` this step, the one the adapter left out when that
        alone explains its money, else the last."""
        paid = {i: _contribution(self.events[i], seat) for i in touching}
        try:
            start = int(self.before["players"][int(seat)]["money"])
            wanted = int(self.want["players"][int(seat)]["money"]) - start
            got = int(self.got["players"][int(seat)]["money"]) - start
        except (KeyError, IndexError, TypeError, ValueError):
            return touching[-1]
        omitted = [i for i, amount in paid.items() if amount and wanted - amount == got]
        return omitted[0] if len(omitted) == 1 else touching[-1]

    def _setup_clause(self, tokens: Tokens) -> str:
        if "setup" not in self.case.given:
            return self.case.primary_clause  # the adapter read the given state wrongly
        head = tokens[0] if tokens else ""
        if head == "track" and len(tokens) >= 2:
            return self._setup_track_clause(tokens[1])
        if head == "players" and len(tokens) >= 3:
            return _SETUP_SEAT.get(tokens[2], self.case.primary_clause)
        return _SETUP.get(head, self.case.primary_clause)

    def _setup_track_clause(self, space: str) -> str:
        want = _stack(self.want, space)
        got = _stack(self.got, space)
        if sorted(want) == sorted(got):  # the same camels, stacked in another order
            moved = [w for w, g in zip(want, got, strict=True) if w != g]
            crazy = all(c.startswith("crazy-") for c in moved)
            return "setup.crazy-second" if crazy else "setup.stack-order"
        odd = set(want) ^ set(got)
        if all(c.startswith("crazy-") for c in odd):
            return "setup.crazy-space"
        return "setup.racing-camels"


def _same_items(left: Any, right: Any) -> bool:
    """Two arrays holding the same items, perhaps in another order."""
    if not isinstance(left, list) or not isinstance(right, list):
        return False
    return sorted(map(compact, left)) == sorted(map(compact, right))


def _stack(state: Any, space: str) -> list[str]:
    try:
        stack = state["track"].get(space, [])
    except (KeyError, TypeError, AttributeError):
        return []
    return [c for c in stack if isinstance(c, str)] if isinstance(stack, list) else []


def _refusal_clause(error: Mapping[str, Any], events: Sequence[Any], case: Case) -> str:
    """The clause behind a step the adapter refused and the reference accepted: the rule the
    adapter cites, when it cites one of the spec, else the rule of the reference's first
    event of the step."""
    cited = error.get("clause")
    if isinstance(cited, str) and cited in _known_clauses():
        return cited
    for event in events:
        if isinstance(event, dict) and isinstance(event.get("clause"), str):
            return str(event["clause"])
    return case.primary_clause


def _known_clauses() -> frozenset[str]:
    from camelup.spec.registry import load_registry

    return frozenset(load_registry().clause_ids)


# ------------------------------------------------------------------------------ the reference


_CACHE: dict[str, Mapping[str, Any]] = {}
_KEYS: dict[int, tuple[Mapping[str, Any], str]] = {}  # id of a case's JSON -> it, its key


def _key(case: Case) -> str:
    """What the reference's reply depends on: the rule set, the given position, the steps
    (worked out once per case object: a suite is run again and again by the mutants)."""
    known = _KEYS.get(id(case.raw))
    if known is not None and known[0] is case.raw:  # held here, so its id is not reused
        return known[1]
    key = compact([case.ruleset, case.given, case.steps])
    if len(_KEYS) >= CACHE_SIZE:
        del _KEYS[next(iter(_KEYS))]
    _KEYS[id(case.raw)] = (case.raw, key)
    return key


def reference_reply(case: Case) -> Mapping[str, Any]:
    """The reference engine's reply to ``case`` (no legal actions or odds asked), from the
    cache or computed with every mutant's patch lifted."""
    key = _key(case)
    found = _CACHE.get(key)
    if found is None:
        from camelup.adapter import run_case

        with unpatched():
            found = run_case(case.wire())
        _store(key, found)
    return found


def clear_cache() -> None:
    """Forget every reference reply worked out so far (a benchmark's cold start)."""
    _CACHE.clear()
    _KEYS.clear()


def _store(key: str, reply: Mapping[str, Any]) -> None:
    if len(_CACHE) >= CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]  # the oldest: a suite is run in order
    _CACHE[key] = reply


def patched() -> bool:
    """Whether a mutant's patch is active in this process (the engine here is wrong)."""
    if "camelup.conformance.mutants" not in sys.modules:
        return False  # never loaded, so never applied: the common case costs no import
    from camelup.conformance.mutants import active

    return active()


@contextlib.contextmanager
def unpatched() -> Iterator[None]:
    """Run the body on the real engine, whatever mutant is applied around it."""
    if not patched():
        yield
        return
    from camelup.conformance.mutants import lifted

    with lifted():
        yield


def is_reference(client: object) -> bool:
    """Whether ``client`` is the in-process reference with no mutant applied: its replies are
    the reference's own, and cannot diverge from it."""
    from camelup.conformance.protocol import InProcessReference

    return isinstance(client, InProcessReference) and not patched()


# -------------------------------------------------------------------------------------- words


def silence_note(diverged_at: int | None, not_compared: int) -> str | None:
    """``not compared: 12 later check(s), after divergence at step 5``, or None."""
    if diverged_at is None or not not_compared:
        return None
    return f"not compared: {not_compared} later check(s), {after_divergence(diverged_at)}"


def after_divergence(moment: int) -> str:
    """Why a check was not compared: ``after divergence at step 5``."""
    return "after divergence at " + ("the given position" if moment == 0 else f"step {moment}")


def _order(case: Case) -> tuple[str, ...]:
    return RACING_ORDER.get(case.edition, ())


def _moment(case: Case, moment: int, after: bool) -> str:
    """``after step 5 (take_leg_ticket player=1 camel=red)``; without ``after``: the step."""
    if moment == 0:
        return "given position"
    action = describe_action(case.steps[moment - 1].get("action"))
    return f"{'after step' if after else 'step'} {moment} ({action})"


def _error_text(error: Mapping[str, Any] | None) -> str:
    if not isinstance(error, dict):
        return compact(error)
    clause = error.get("clause")
    return f"{error.get('code')}" + (f" [{clause}]" if clause else "")


def _message(error: Mapping[str, Any] | None) -> tuple[str, ...]:
    message = error.get("message") if isinstance(error, dict) else None
    return (f"message:  {message}",) if isinstance(message, str) and message else ()

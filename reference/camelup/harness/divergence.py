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
  the case's own clause when no event did), as :mod:`camelup.harness.attribution` finds
  and names them for the fuzzer too;
* a step one side refuses and the other accepts is a divergence at that step (when both
  refuse, the error checks compare the codes as before).

The case fails once, at its divergence: a check before it still fails on its own, a check at
it is folded into it, and every check after it is **not compared** ("after divergence at step
k"). The divergence fails the case even where no check looks: a state that differs from the
reference's is wrong.

The reference's replies are cached per case (the trajectory is deterministic) and are computed
with any mutant's patch lifted (:func:`camelup.harness.mutants.lifted`): under
``camelup conformance mutants`` the engine in this process is the mutant, and a reference
computed with it would agree with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from camelup.harness.attribution import (
    MISSING,
    Attribution,
    differences,
    legal_actions_clause,
    refusal_clause,
)
from camelup.harness.compare import (
    SOLVER,
    Mismatch,
    applicable,
    camel_order,
    cited_clause,
    compact,
    describe_action,
    error_message,
    error_text,
    normalise,
    ranking_of,
)
from camelup.harness.event_cause import first_event_cause, ranking_order_clause
from camelup.harness.suite import Case, LegalActionsCheck, RankingCheck
from camelup.harness.unpatched import patched, unpatched
from camelup.io.jsonio import pointer
from camelup.io.replay import moments
from camelup.io.wire import facts

MIN_STEPS = 2  # a case of fewer steps has nothing after its one step to silence
MAX_POINTERS_SHOWN = 10
CACHE_SIZE = 4096


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
    actual: tuple[Any, ...] = ()  # the adapter's (a member one side lacks is MISSING there)
    refused: str | None = None  # "adapter" or "reference": who refused the step alone
    error: Mapping[str, Any] | None = None  # that refusal's error
    explained: bool = True  # the clause is read from the reference's events (or a refusal's)
    explained_at: tuple[bool, ...] = ()  # per pointer: its clause is read from an event
    # The first of the step's events the adapter reports otherwise (their number when it
    # reports them all alike, and the position departs from them): the clause is read from it.
    event: int | None = None

    def mismatch(self, case: Case) -> Mismatch:
        """The divergence as the one failure of its case."""
        moment = _moment(case, self.after, after=self.refused is None)
        if self.refused == "adapter":
            summary = (
                f"{moment}: first divergence from the reference: the adapter refused it"
                f" ({error_text(self.error)}); the reference accepts it"
            )
            diff = error_message(self.error)
        elif self.refused == "reference":
            summary = (
                f"{moment}: first divergence from the reference: the adapter accepted it;"
                f" the reference refuses it with {error_text(self.error)}"
            )
            diff = ()
        elif not self.pointers:  # the same position, reached otherwise
            summary = (
                f"{moment}: first divergence from the reference: its events differ from"
                f" event #{self.event}"
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

    @property
    def events_only(self) -> bool:
        """Whether only the step's events differ: the position came out the same."""
        return self.event is not None and not self.pointers

    def clause_at(self, where: str) -> tuple[str, bool]:
        """The clause of the first differing member at, under or above the pointer ``where``,
        and whether an event of the step explains it (else: the divergence's own); the
        clause of the first event the adapter reports otherwise, when it did."""
        if self.event is not None:
            return self.clause, True
        for number, member in enumerate(self.pointers):
            if member == where or member.startswith(where + "/") or where.startswith(member + "/"):
                explained = self.explained_at[number] if self.explained_at else self.explained
                return self.clauses[number], explained
        return self.clause, self.explained

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
    return {p: v for p, v in zip(pointers, values, strict=True) if v is not MISSING}


def _value_diff(expected: Any, actual: Any) -> tuple[str, ...]:
    """Two lines for one member, whatever its size (a member one side lacks is "(missing)"),
    so that a divergence's block stays short."""
    left = "(missing)" if expected is MISSING else compact(expected)
    right = "(missing)" if actual is MISSING else compact(actual)
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
    """``mismatches`` (from :func:`camelup.harness.compare.compare`) with the first
    divergence of ``reply`` from the reference put in and everything after it silenced.

    A case of one step (fewer than :data:`MIN_STEPS`), or of none from a setup, has nothing to
    silence: its failing checks at the diverging moment are only named after the divergence
    (:func:`named_by_events`). A failing legal-actions check is named after the rule behind the
    difference (:func:`named_by_refusal`). Nothing changes for an odds solver, and when either
    side refused the given position (the error checks at 0 judge that).
    """
    if capabilities != SOLVER and "initial_error" not in reply:
        mismatches = [named_by_ranking(case, reply, named_by_refusal(case, m)) for m in mismatches]
    from_setup = "setup" in case.given  # its given position is the reference's to judge
    if (not case.steps and not from_setup) or capabilities == SOLVER or "initial_error" in reply:
        return Judged(tuple(mismatches))
    if len(case.steps) < MIN_STEPS and not mismatches:
        return Judged(())  # nothing to name, nothing to silence
    reference = reference_reply(case)
    found = first_divergence(case, reply, reference)
    while (
        found is not None and found.events_only and all(m.after != found.after for m in mismatches)
    ):
        # The same position reached by another account of the step: it names the checks that
        # fail there, and fails no case by itself.
        found = first_divergence(case, reply, reference, found.after + 1)
    if found is None:
        return Judged(tuple(mismatches))
    if len(case.steps) < MIN_STEPS:
        return Judged(tuple(named_by_events(m, found, case) for m in mismatches))
    kept = [m for m in mismatches if m.after < found.after]
    later = tuple(
        c.index for c in case.checks if c.after > found.after and applicable(c, capabilities)
    )
    own = {c.index for c in case.checks if c.clause is not None}  # a clause the case names
    folded = [m for m in mismatches if m.after == found.after and m.check in own]
    if found.event is None and (
        not found.explained or any(refines(m.clause, found.clause) for m in folded)
    ):
        found = with_checks_clauses(found, folded)
    mismatch = found.mismatch(case)
    named = [m.clause for m in folded if m.clause != found.clause]
    if named:
        note = _naming_note(found.after, found.clause, named[0])
        mismatch = attrs.evolve(mismatch, diff=(*mismatch.diff, note))
    return Judged((*kept, mismatch), found, later)


def named_by_events(mismatch: Mismatch, found: FirstDivergence, case: Case) -> Mismatch:
    """``mismatch`` named after ``found``, the first divergence, when it fails at that moment
    and the reference's events there explain it (a check names the clause its case is about,
    the events the rule that went otherwise); its diff says which clause the check names."""
    if mismatch.after != found.after:
        return mismatch
    clause, explained = found.clause, found.explained
    if mismatch.pointer is not None:  # a state check: the clause of the member it looks at
        clause, explained = found.clause_at(mismatch.pointer)
    sibling = found.event is None and refines(mismatch.clause, clause)
    if not explained or mismatch.clause == clause or sibling:
        return mismatch
    note = _naming_note(found.after, clause, mismatch.clause)
    return attrs.evolve(mismatch, clause=clause, diff=(*mismatch.diff, note))


def named_by_refusal(case: Case, mismatch: Mismatch) -> Mismatch:
    """``mismatch`` of a legal-actions check that names no clause of its own (it stands for
    its case's subject) named after the rule behind the difference, as the fuzzer names it
    (:func:`camelup.harness.attribution.legal_actions_clause`): the clause the reference
    refuses the first action listed beyond its own with, else the rule of the first legal
    action left out."""
    check = next((c for c in case.checks if c.index == mismatch.check), None)
    if not isinstance(check, LegalActionsCheck) or check.clause is not None:
        return mismatch
    order = camel_order(case)
    want = {compact(normalise(a, (), order)): a for a in check.actions}
    got = {compact(normalise(a, (), order)): a for a in mismatch.actual or ()}
    banned = {compact(normalise(a, (), order)) for a in check.excluded}
    extra_keys = got.keys() - want.keys() if check.exact else got.keys() & banned
    extra = [got[key] for key in sorted(extra_keys)]
    missing = [want[key] for key in sorted(want.keys() - got.keys())]
    position = _reference_position(case, mismatch.after)
    if position is None or not (extra or missing):
        return mismatch
    clause = legal_actions_clause(position, extra, missing)
    if clause == mismatch.clause:
        return mismatch
    action = describe_action(extra[0] if extra else missing[0])
    why = "refuses" if extra else "allows"
    note = f"named after the rule by which the reference {why} {action} ({clause});"
    note += f" the check names {mismatch.clause}"
    return attrs.evolve(mismatch, clause=clause, diff=(*mismatch.diff, note))


def named_by_ranking(case: Case, reply: Mapping[str, Any], mismatch: Mismatch) -> Mismatch:
    """``mismatch`` of a ranking check that the adapter's own ranking fails on a track it
    reports as the reference's (the reference's rule ranks it right: the track is not at
    fault) named after the ranking rule that orders the first camels it ranks otherwise, as a
    leg's leader reported otherwise is
    (:func:`camelup.harness.event_cause.ranking_order_clause`)."""
    check = next((c for c in case.checks if c.index == mismatch.check), None)
    if not isinstance(check, RankingCheck) or not isinstance(mismatch.actual, list):
        return mismatch
    states = moments(reply) if "steps" in reply else []
    if (
        len(states) <= mismatch.after
        or ranking_of(states[mismatch.after].state) != mismatch.expected
    ):
        return mismatch
    position = _reference_position(case, mismatch.after)
    clause = ranking_order_clause(position, mismatch.expected, mismatch.actual)
    if clause is None or clause == mismatch.clause or position is None:
        return mismatch
    note = f"named after the ranking rule that orders the first camels ranked otherwise ({clause});"
    note += f" the check names {mismatch.clause}"
    return attrs.evolve(mismatch, clause=clause, diff=(*mismatch.diff, note))


def _reference_position(case: Case, moment: int) -> Any:
    """The reference's state at ``moment`` of ``case`` (None when it refused the given
    position)."""
    if moment == 0 and "state" in case.given:
        return case.given["state"]
    reference = reference_reply(case)
    if "initial_error" in reference or "steps" not in reference:
        return None
    return moments(reference)[moment].state


def refines(check_clause: str, event_clause: str) -> bool:
    """Whether a check's clause is a sibling of the clause the events name (``leg.score.second``
    beside ``leg.score.net``): the events name the rule that went otherwise, the check the part
    of it its case is about, which then says more."""
    family = event_clause.rpartition(".")[0]
    return bool(family) and check_clause.rpartition(".")[0] == family


def _naming_note(moment: int, clause: str, check_clause: str) -> str:
    if moment == 0:  # a setup: the rule that decides the member that differs
        return (
            f"named after the setup rule of what differs ({clause}); the check names {check_clause}"
        )
    return (
        f"named after the reference's events at step {moment} ({clause});"
        f" the check names {check_clause}"
    )


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
    case: Case, reply: Mapping[str, Any], reference: Mapping[str, Any], since: int = 0
) -> FirstDivergence | None:
    """The first moment (from ``since`` on) where ``reply`` and the reference's reply to
    ``case`` differ (both results of the protocol), or None when they agree at every moment
    or either refused the given position."""
    if "initial_error" in reply or "initial_error" in reference or "steps" not in reference:
        return None
    order = camel_order(case)
    mine, theirs = moments(reply), moments(reference)
    for moment, (got, want) in enumerate(zip(mine, theirs, strict=False)):
        if moment < since:
            continue
        got_state, got_error = got.state, got.error
        want_state, want_error = want.state, want.error
        if got_error is not None and want_error is not None:
            continue  # both refused: the positions are unchanged, the codes are the checks'
        if got_error is not None:
            events = reference["steps"][moment - 1].get("events", [])
            clause = _refusal_clause(got_error, events, case)
            explained = clause != case.primary_clause
            return FirstDivergence(
                moment, clause, refused="adapter", error=got_error, explained=explained
            )
        if want_error is not None:
            clause = want_error.get("clause") or case.primary_clause
            return FirstDivergence(moment, clause, refused="reference", error=want_error)
        before = theirs[moment - 1].state if moment else None
        events = reference["steps"][moment - 1].get("events", []) if moment else []
        reported = reply["steps"][moment - 1].get("events") if moment else None
        # The adapter's own account of the step (capability events): its first departure from
        # the reference's is the rule that went otherwise, whatever member it then shows in,
        # and a divergence even when the position comes out the same.
        cause = (
            first_event_cause(events, reported, before, want_state)
            if isinstance(reported, list)
            else None
        )
        found: list[tuple[tuple[str, ...], Any, Any]] = []
        if got_state is not want_state and got_state != want_state:  # else: no normalising
            want_norm = normalise(want_state, (), order)
            got_norm = normalise(got_state, (), order)
            found = list(differences(want_norm, got_norm))
        if cause is not None:
            return _diverged(found, moment, cause.clause, cause.index)
        if not found:
            continue
        # Events reported alike, a position otherwise: the adapter departs from its own account
        # of the step, in what the action does beside the events (a coin paid at once, say).
        agree = isinstance(reported, list)
        action = case.steps[moment - 1].get("action", {}) if moment else {}
        attribution = Attribution(
            moment,
            events,
            before,
            want_norm,
            got_norm,
            edition=case.edition,
            from_setup="setup" in case.given,
            fallback=facts().action_clause(action.get("type")) if agree else case.primary_clause,
            events_agree=agree,
        )
        named = [attribution.clause_of(t) for t, _, _ in found]
        if agree:
            return _diverged(found, moment, attribution.best(named), len(events))
        return FirstDivergence(
            moment,
            attribution.best(named),
            tuple(pointer(*t) for t, _, _ in found),
            tuple(clause for clause, _ in named),
            tuple(w for _, w, _ in found),
            tuple(g for _, _, g in found),
            explained=attribution.explained(named),
            explained_at=tuple(attribution.explained([n]) for n in named),
        )
    return None


def _diverged(
    found: Sequence[tuple[Sequence[str], Any, Any]], moment: int, clause: str, event: int
) -> FirstDivergence:
    """The divergence at ``moment`` of the members ``found`` (perhaps none), all named
    ``clause``, the rule of the step's event number ``event`` the adapter reports otherwise."""
    return FirstDivergence(
        moment,
        clause,
        tuple(pointer(*t) for t, _, _ in found),
        tuple(clause for _ in found),
        tuple(w for _, w, _ in found),
        tuple(g for _, _, g in found),
        explained_at=tuple(True for _ in found),
        event=event,
    )


def _refusal_clause(error: Mapping[str, Any], events: Sequence[Any], case: Case) -> str:
    cited = cited_clause(error)
    return refusal_clause(cited, cited is not None, events, case.primary_clause)


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
        from camelup.harness.adapter import run_case

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


def is_reference(client: object) -> bool:
    """Whether ``client`` is the in-process reference with no mutant applied: its replies are
    the reference's own, and cannot diverge from it."""
    from camelup.harness.protocol import InProcessReference

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


def _moment(case: Case, moment: int, after: bool) -> str:
    """``after step 5 (take_leg_ticket player=1 camel=red)``; without ``after``: the step."""
    if moment == 0:
        return "given position"
    action = describe_action(case.steps[moment - 1].get("action"))
    return f"{'after step' if after else 'step'} {moment} ({action})"

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

The fuzzer (:mod:`camelup.harness.fuzz`) asks the same :func:`first_divergence` for every facet
the adapter's capabilities allow: besides the positions, the refusals (a given position either
side refuses; the codes, and clauses with ``error_clauses``, of a step both refuse), the events
(each reference event on its keys, the clause too with ``event_clauses``), the adapter's own
ranking and the legal actions. Its divergences are grouped by **field**: the first differing
state pointer with array indices and track spaces written ``*`` (``/players/*/money``,
``/track/*``), or, when no state differs, a pointer into the reply (``/steps/*/events``,
``/ranking/*``, ``/legal_actions/*``, ``/steps/*/error``, ``/initial_error``, ``/errored``).
An events difference is named after the first reference event the adapter reports otherwise; a
ranking difference after the ranking rule that orders the first differing pair (``rank.stack``
on one space, ``rank.space`` across spaces, ``rank.crossed-finish`` past the line,
``rank.ignore-crazy`` for a crazy camel ranked); a legal-actions difference after the
reference's refusal of the first action the adapter wrongly lists, else the clause of the kind
of action it wrongly leaves out.

The reference's replies are cached per case (the trajectory is deterministic) and are computed
with any mutant's patch lifted (:func:`camelup.harness.mutants.lifted`): under
``camelup conformance mutants`` the engine in this process is the mutant, and a reference
computed with it would agree with it.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from camelup.harness.attribution import (
    MISSING,
    Attribution,
    differences,
    in_force,
    legal_actions_clause,
    refusal_clause,
)
from camelup.harness.compare import (
    RACING_ORDER,
    SOLVER,
    Mismatch,
    applicable,
    camel_order,
    compact,
    describe_action,
    error_message,
    error_text,
    event_fits,
    known_clause,
    moment_text,
    normalise,
    ranking_of,
    same,
)
from camelup.harness.event_cause import (
    RANKED_PLACES,
    first_event_cause,
    ranking_order_clause,
)
from camelup.harness.suite import Case, LegalActionsCheck, RankingCheck
from camelup.harness.unpatched import patched, unpatched
from camelup.io.jsonio import pointer
from camelup.io.replay import Moment, moments
from camelup.io.wire import facts

MIN_STEPS = 2  # a case of fewer steps has nothing after its one step to silence
MAX_POINTERS_SHOWN = 10
CACHE_SIZE = 4096


@attrs.frozen
class Divergence:
    """Where the adapter first leaves the reference: the moment (0: the given position), what
    differs there (its ``kind`` and ``field``, as the fuzzer groups them), the clause of the rule
    that went otherwise, the differing members (deepest first found, in the reference's key
    order) with the clause of each, and, for a step one side alone refused, the refusal."""

    moment: int
    kind: str  # state, events, ranking, legal_actions, error, rejected, accepted, refused, errored
    field: str  # what differs, as grouped: /players/*/money, /steps/*/events, ...
    clause: str
    pointers: tuple[str, ...] = ()
    summary: str = ""  # one line, as the fuzzer reports it
    body: Mapping[str, Any] | None = attrs.field(default=None, eq=False, repr=False)
    clauses: tuple[str, ...] = attrs.field(default=(), eq=False)  # one per pointer
    expected: tuple[Any, ...] = attrs.field(default=(), eq=False)  # the reference's values
    actual: tuple[Any, ...] = attrs.field(default=(), eq=False)  # (MISSING: that side lacks it)
    error: Mapping[str, Any] | None = attrs.field(default=None, eq=False)  # a one-side refusal
    # The clause is read from the reference's events (or a refusal's), per pointer too.
    explained: bool = attrs.field(default=True, eq=False)
    explained_at: tuple[bool, ...] = attrs.field(default=(), eq=False)
    # The first of the step's events the adapter reports otherwise (their number when it
    # reports them all alike, and the position departs from them): the clause is read from it.
    event: int | None = attrs.field(default=None, eq=False)

    @property
    def refused(self) -> str | None:
        """Who alone refused the step: "adapter", "reference", or None."""
        return {"rejected": "adapter", "accepted": "reference"}.get(self.kind)

    @property
    def signature(self) -> tuple[str, str, str]:
        """What a smaller case must still show to stand for the same disagreement."""
        return (self.kind, self.field, self.clause)

    @property
    def group(self) -> tuple[str, str]:
        return (self.field, self.clause)

    def mismatch(self, case: Case) -> Mismatch:
        """The divergence as the one failure of its case."""
        moment = moment_text(case, self.moment, after=self.refused is None)
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
            self.moment,
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
    divergence: Divergence | None = None
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
    found = case_divergence(case, reply, reference, capabilities=capabilities)
    while (
        found is not None and found.events_only and all(m.after != found.moment for m in mismatches)
    ):
        # The same position reached by another account of the step: it names the checks that
        # fail there, and fails no case by itself.
        found = case_divergence(case, reply, reference, found.moment + 1, capabilities)
    if found is None:
        return Judged(tuple(mismatches))
    if len(case.steps) < MIN_STEPS:
        return Judged(tuple(named_by_events(m, found, case) for m in mismatches))
    kept = [m for m in mismatches if m.after < found.moment]
    later = tuple(
        c.index for c in case.checks if c.after > found.moment and applicable(c, capabilities)
    )
    own = {c.index for c in case.checks if c.clause is not None}  # a clause the case names
    folded = [m for m in mismatches if m.after == found.moment and m.check in own]
    if found.event is None and (
        not found.explained
        or (found.moment > 0 and any(refines(m.clause, found.clause) for m in folded))
    ):
        found = with_checks_clauses(found, folded)
    mismatch = found.mismatch(case)
    named = [m.clause for m in folded if m.clause != found.clause]
    if named:
        note = _naming_note(found.moment, found.clause, named[0])
        mismatch = attrs.evolve(mismatch, diff=(*mismatch.diff, note))
    return Judged((*kept, mismatch), found, later)


def named_by_events(mismatch: Mismatch, found: Divergence, case: Case) -> Mismatch:
    """``mismatch`` named after ``found``, the first divergence, when it fails at that moment
    or later (its consequence) and the reference's events there explain it (a check names the
    clause its case is about, the events the rule that went otherwise); its diff says which
    clause the check names."""
    if mismatch.after < found.moment:
        return mismatch
    clause, explained = found.clause, found.explained
    if mismatch.pointer is not None and mismatch.after == found.moment:
        clause, explained = found.clause_at(mismatch.pointer)  # that of the member it looks at
    # At a setup the rule named is that of the member itself (no family's whole): it says most.
    sibling = found.event is None and found.moment > 0 and refines(mismatch.clause, clause)
    if not explained or mismatch.clause == clause or sibling:
        return mismatch
    note = _naming_note(found.moment, clause, mismatch.clause)
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


def with_checks_clauses(found: Divergence, folded: Sequence[Mismatch]) -> Divergence:
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


STATE, REFUSALS, EVENTS, RANKING, LEGAL_ACTIONS = (
    "state",
    "refusals",
    "events",
    "ranking",
    "legal_actions",
)
RUNNER = frozenset({STATE})  # the runner's divergence: the positions, a step one side refuses
DEPTH = 3  # how far down the fuzzer locates a state difference: /players/1/money, /track/5
# What the runner reads of a refusal: the clause it cites, when the spec knows it (the error
# checks judge whether it should cite one).
CITED = frozenset({"error_clauses"})


def facets_of(capabilities: frozenset[str]) -> frozenset[str]:
    """Everything an adapter with ``capabilities`` can be compared on (the fuzzer's facets)."""
    return frozenset({STATE, REFUSALS}) | (capabilities & {EVENTS, RANKING, LEGAL_ACTIONS})


def pattern(pointer_text: str) -> str:
    """``/players/1/money`` as ``/players/*/money``, ``/track/5`` as ``/track/*``."""
    tokens = pointer_text.split("/")[1:]
    return "".join("/" + ("*" if t.lstrip("-").isdigit() else t) for t in tokens)


def first_divergence(
    wire: Mapping[str, Any],
    reference: Mapping[str, Any],
    reply: Mapping[str, Any],
    capabilities: frozenset[str],
    *,
    partnerships: bool = True,
    facets: frozenset[str] | None = None,
    depth: int | None = DEPTH,
    primary: str | None = None,
    since: int = 0,
    exact: bool = True,
) -> Divergence | None:
    """The first moment (from ``since`` on) where ``reply``, the adapter's result for ``wire``
    (a case's ``ruleset``, ``given`` and ``steps``), differs from ``reference``'s on
    ``facets``, or None when they agree on everything compared.

    The facets (default: :func:`facets_of` the capabilities, as the fuzzer compares) are:
    ``state``, the position at every moment, and a step one side alone refuses (the runner
    asks for this one only: :data:`RUNNER`); ``refusals``, a given position either side refuses
    and the codes (the clauses too with ``error_clauses``) of a step both refuse; ``events``,
    each reference event on its keys (the clause too with ``event_clauses``); ``ranking`` and
    ``legal_actions``, at each moment. When the events are no facet of their own, the events the
    adapter reports name a state difference (their first departure from the reference's is the
    rule that went otherwise), and a step whose events alone differ is a divergence too.

    A state difference lists every differing member at most ``depth`` levels down; a clause
    read from nothing of the step is ``primary`` (a case's own), else the clause of the action.
    A refusal names the clause it cites when the adapter declared ``error_clauses``,
    it is a clause of the spec and it holds under the case's rule set
    (:func:`camelup.harness.attribution.in_force`: not a variant's the rule set does not play).
    Without ``partnerships`` (an adapter that plays 6-8 players
    without partnership cards) the reference's ``form_partnership`` actions are left out of its
    legal actions. Without ``exact``, states equal by Python's ``==`` are taken as alike (a
    boolean for a number is not told apart: right for replies that passed the state schema,
    which holds no boolean)."""
    facets = facets_of(capabilities) if facets is None else facets
    edition = str(wire["ruleset"].get("edition"))
    order = RACING_ORDER.get(edition, ())
    actions = [step["action"] for step in wire["steps"]]
    with_error_clauses = "error_clauses" in capabilities
    ours_refused, theirs_refused = reference.get("initial_error"), reply.get("initial_error")
    if ours_refused is not None or theirs_refused is not None:
        if REFUSALS not in facets:
            return None
        return _initial(ours_refused, theirs_refused, with_error_clauses, reply)
    if "steps" not in reference:
        return None
    theirs = moments(reference)
    for moment, (got, want) in enumerate(zip(moments(reply), theirs, strict=False)):
        if moment < since:
            continue
        action = actions[moment - 1] if moment else None
        events: list[Any] = want.events or []
        if want.error is not None:
            error = want.error
            if got.error is None:
                where = _step_text(moment, action)
                summary = f"{where} was accepted; the reference refuses it: {error_text(error)}"
                clause = error.get("clause") or _fallback(action, primary)
                return Divergence(
                    moment, "accepted", "/steps/*/error", clause, (), summary, reply, error=error
                )
            mine = _error_view(error, with_error_clauses)
            if REFUSALS in facets and not same(mine, _error_view(got.error, with_error_clauses)):
                summary = (
                    f"{_step_text(moment, action)} was refused for another reason:"
                    f" expected {error_text(mine)},"
                    f" actual {error_text(got.error)}"
                )
                return Divergence(
                    moment, "error", "/steps/*/error", error["clause"], (), summary, reply
                )
            continue  # refused alike: both positions stay as they were
        if got.error is not None:
            cited = got.error.get("clause")
            known = with_error_clauses and known_clause(cited) and in_force(cited, wire["ruleset"])
            clause = refusal_clause(cited, known, events, _fallback(action, primary))
            where = _step_text(moment, action)
            summary = f"{where} was refused: {error_text(got.error)}; the reference accepts it"
            return Divergence(
                moment,
                "rejected",
                "/steps/*/error",
                clause,
                (),
                summary,
                reply,
                error=got.error,
                explained=clause != primary,
            )
        found = _position(
            wire,
            moment,
            theirs,
            got,
            events,
            reply,
            facets,
            depth,
            primary,
            exact,
            "event_clauses" in capabilities,
        )
        if found is None and moment and EVENTS in facets:
            found = _events(moment, events, got.events or [], capabilities, reply, action)
        if found is None and RANKING in facets:
            found = _ranking(moment, reference, reply, want.state)
        if found is None and LEGAL_ACTIONS in facets:
            found = _legal(moment, reference, reply, order, want.state, partnerships)
        if found is not None:
            return found
    return None


def _position(
    wire: Mapping[str, Any],
    moment: int,
    theirs: Sequence[Moment],
    got: Moment,
    events: Sequence[Mapping[str, Any]],
    reply: Mapping[str, Any],
    facets: frozenset[str],
    depth: int | None,
    primary: str | None,
    exact: bool,
    event_clauses: bool,
) -> Divergence | None:
    """The state facet at ``moment`` (not refused on either side); with ``event_clauses``, the
    clauses the adapter's events cite are its account of the step."""
    want_state = theirs[moment].state
    before = theirs[moment - 1].state if moment else None
    action = wire["steps"][moment - 1]["action"] if moment else None
    # The adapter's own account of the step, when the events are no facet of their own: its
    # first departure from the reference's is the rule that went otherwise, whatever member it
    # then shows in, and a divergence even when the position comes out the same.
    reported = got.events if moment and EVENTS not in facets else None
    cause = (
        first_event_cause(events, reported, before, want_state, cited=event_clauses)
        if isinstance(reported, list)
        else None
    )
    found: list[tuple[tuple[str, ...], Any, Any]] = []
    if not (_alike(want_state, got.state) if exact else want_state == got.state):
        # Equal states have equal canonical forms: the common case, decided without them.
        edition = str(wire["ruleset"].get("edition"))
        order = RACING_ORDER.get(edition, ())
        expected = normalise(want_state, (), order)
        actual = normalise(got.state, (), order)
        found = list(differences(expected, actual, depth))
    if cause is not None and not _ranked_as_its_track(events, reported, cause.index, got, found):
        return _diverged(found, moment, cause.clause, cause.index, reply)
    if not found:
        return None
    # Events reported alike, a position otherwise: the adapter departs from its own account of
    # the step, in what the action does beside the events (a coin paid at once, say).
    agree = isinstance(reported, list)
    attribution = Attribution(
        moment,
        events,
        before,
        expected,
        actual,
        edition=edition,
        from_setup="setup" in wire["given"],
        fallback=_fallback(action, None if agree else primary),
        events_agree=agree,
    )
    named = [attribution.clause_of(t) for t, _, _ in found]
    if agree:
        return _diverged(found, moment, attribution.best(named), len(events), reply)
    pointers = tuple(pointer(*t) for t, _, _ in found)
    shown = ", ".join(pointers[:3]) + (
        f" and {len(pointers) - 3} more" if len(pointers) > 3 else ""
    )
    where = _after(moment, action)
    _, reference_value, adapter_value = found[0]
    detail = f"expected {_brief(reference_value)}, actual {_brief(adapter_value)}"
    return Divergence(
        moment,
        "state",
        pattern(pointers[0]),
        attribution.best(named),
        pointers,
        f"{where}: {shown} differ(s); {pointers[0]}: {detail}",
        reply,
        tuple(clause for clause, _ in named),
        tuple(w for _, w, _ in found),
        tuple(g for _, _, g in found),
        explained=attribution.explained(named),
        explained_at=tuple(attribution.explained([n]) for n in named),
    )


def _ranked_as_its_track(
    ours: Sequence[Mapping[str, Any]],
    theirs: Any,
    index: int,
    got: Moment,
    found: Sequence[tuple[tuple[str, ...], Any, Any]],
) -> bool:
    """Whether the first event the adapter reports otherwise (number ``index``) is a scoring
    that ranks the camels otherwise exactly as the ranking rules rank the adapter's own track,
    which differs from the reference's: the ranking was kept, the track is at fault (the
    events reported alike before it), and its members name the rule."""
    if not any(tokens[:1] == ("track",) for tokens, _, _ in found) or got.state is None:
        return False
    mine = ours[index] if index < len(ours) else None
    other = theirs[index] if isinstance(theirs, list) and index < len(theirs) else None
    if not isinstance(mine, dict) or not isinstance(other, dict):
        return False
    places = RANKED_PLACES.get(str(mine.get("type")))
    if places is None or other.get("type") != mine.get("type"):
        return False
    if all(mine.get(key) == other.get(key) for key, _ in places):
        return False
    ranked = ranking_of(got.state)
    return len(ranked) >= 2 and all(other.get(key) == ranked[place] for key, place in places)


def _diverged(
    found: Sequence[tuple[Sequence[str], Any, Any]],
    moment: int,
    clause: str,
    event: int,
    reply: Mapping[str, Any],
) -> Divergence:
    """The divergence at ``moment`` of the members ``found`` (perhaps none), all named
    ``clause``, the rule of the step's event number ``event`` the adapter reports otherwise."""
    pointers = tuple(pointer(*t) for t, _, _ in found)
    return Divergence(
        moment,
        "state" if pointers else "events",
        pattern(pointers[0]) if pointers else "/steps/*/events",
        clause,
        pointers,
        "",
        reply,
        tuple(clause for _ in found),
        tuple(w for _, w, _ in found),
        tuple(g for _, _, g in found),
        explained_at=tuple(True for _ in found),
        event=event,
    )


def _initial(
    ours: Any,
    theirs: Any,
    with_clauses: bool,
    body: Mapping[str, Any],
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
    if not known_clause(clause):
        clause = "setup.racing-camels"
    summary = f"the given position was refused: {error_text(theirs)}"
    return Divergence(0, "refused", "/initial_error", clause, (), summary, body)


def _alike(ours: Any, theirs: Any) -> bool:
    """``same(ours, theirs)``, mostly decided without a call per member: ``==`` takes ``1`` for
    ``true``, but two equal JSON values that also marshal alike are the same (the bytes tell a
    boolean from a number and an integer from a float). Neither side holds a NaN, the one value
    ``same`` finds unequal to itself: jsonio refuses it and the reference never writes one."""
    if ours is theirs:
        return True
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


def _fallback(action: Mapping[str, Any] | None, primary: str | None = None) -> str:
    """``primary`` (a case's own clause), else the clause of what the action itself does (the
    adapter changed what no reference event touched: a pyramid ticket paid at once, say), or at
    the given position the racing camels' setup."""
    if primary is not None:
        return primary
    if action is None:
        return "setup.racing-camels"
    return facts().action_clause(action.get("type"))


def _step_text(moment: int, action: Mapping[str, Any] | None) -> str:
    return f"step {moment} ({describe_action(action)})"


def _after(moment: int, action: Mapping[str, Any] | None = None) -> str:
    """``the given position``, ``after step 5``, with ``action``: ``after step 5 (...)``."""
    if moment == 0:
        return "the given position"
    return f"after step {moment}" + ("" if action is None else f" ({describe_action(action)})")


def _brief(value: Any) -> str:
    text = compact(None if value is MISSING else value)  # a member one side lacks: null
    return text if len(text) <= 60 else text[:57] + "..."


def _events(
    moment: int,
    ours: Sequence[Mapping[str, Any]],
    theirs: Sequence[Any],
    capabilities: frozenset[str],
    body: Mapping[str, Any],
    action: Mapping[str, Any] | None,
) -> Divergence | None:
    with_clause = "event_clauses" in capabilities
    for index in range(max(len(ours), len(theirs))):
        mine = ours[index] if index < len(ours) else None
        other = theirs[index] if index < len(theirs) else None
        if mine is not None and isinstance(other, dict) and event_fits(mine, other, with_clause):
            continue
        where = _step_text(moment, action)
        if mine is None:  # the adapter reports more events than the reference
            clause = str(ours[-1]["clause"]) if ours else "turn.one-action"
            summary = f"{where}: event #{index} ({compact(other)}) is not the reference's"
        else:
            clause = str(mine["clause"])
            summary = f"{where}: events differ from event #{index} ({mine.get('type')})"
        return Divergence(moment, "events", "/steps/*/events", clause, (), summary, body)
    return None


def _legal(
    moment: int,
    reference: Mapping[str, Any],
    body: Mapping[str, Any],
    order: Sequence[str],
    position: Any,
    partnerships: bool,
) -> Divergence | None:
    """The legal actions at ``moment`` against the reference's, whose position there is
    ``position``; named after the reference's refusal of the first action listed wrongly."""
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
        position,
        [theirs[key] for key in extra],
        [ours[key] for key in missing],
    )
    if extra:
        what = f"{describe_action(theirs[extra[0]])} is listed but illegal"
    else:
        what = f"{describe_action(ours[missing[0]])} is legal but not listed"
    where = _after(moment)
    summary = (
        f"{where}: legal actions differ ({len(missing)} missing, {len(extra)} unexpected); {what}"
    )
    return Divergence(moment, "legal_actions", "/legal_actions/*", clause, (), summary, body)


def _ranking(
    moment: int, reference: Mapping[str, Any], body: Mapping[str, Any], position: Any
) -> Divergence | None:
    """The adapter's own ranking (capability ``ranking``) against the reference's, both of a
    track they agree on; named after the ranking rule that orders them differently
    (:func:`camelup.harness.event_cause.ranking_order_clause`, as ``run`` names it)."""
    ours = list(reference["ranking"][str(moment)])
    theirs = list(body["ranking"][str(moment)])
    clause = ranking_order_clause(position, ours, theirs)
    if clause is None:
        return None
    place = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), 0)
    where = _after(moment)
    summary = (
        f"{where}: the adapter ranks {' > '.join(map(str, theirs))}; the reference"
        f" {' > '.join(ours)} (from place {place + 1})"
    )
    return Divergence(moment, "ranking", "/ranking/*", clause, (), summary, body)


def _error_view(error: Mapping[str, Any], with_clause: bool) -> dict[str, Any]:
    return {"code": error.get("code")} | ({"clause": error.get("clause")} if with_clause else {})


def case_divergence(
    case: Case,
    reply: Mapping[str, Any],
    reference: Mapping[str, Any],
    since: int = 0,
    capabilities: frozenset[str] = frozenset(),
) -> Divergence | None:
    """The runner's first divergence of ``reply`` from the reference's reply to ``case``: the
    positions (facet ``state``) from ``since`` on, a clause read from nothing being the case's;
    ``reply`` has passed the schema, so ``==`` tells equal states. The clauses its events cite
    are read when the adapter's ``capabilities`` declare ``event_clauses``."""
    wire = {"ruleset": case.ruleset, "given": case.given, "steps": case.steps}
    return first_divergence(
        wire,
        reference,
        reply,
        CITED | (capabilities & {"event_clauses"}),
        facets=RUNNER,
        depth=None,
        primary=case.primary_clause,
        since=since,
        exact=False,
    )


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

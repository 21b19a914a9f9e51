"""Where two states differ, and the rule behind each difference.

The first divergence (:func:`camelup.harness.divergence.first_divergence`: the runner's,
also shown by ``camelup conformance explain``, and the fuzzer's on every facet) compares
an adapter's state with the reference's at one moment, both normalised as the checks
normalise them (:func:`camelup.harness.compare.normalise`). This module is what they
share:

* :func:`differences`: the deepest members where the two differ, in the reference's member
  order and the track's space order; a track space's stack, the tiles and the finish-card piles
  are each one member (compared whole), as is a member one side lacks;
* :class:`Attribution`: for each differing member, the clause of the reference event of that
  step behind its value, and a rank (the divergence as a whole names the clause of the
  earliest event behind any of its members). It is read from the reference's events, never
  the adapter's, which may have none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from camelup.harness.compare import RACING_ORDER, compact, key_order, normalise, same
from camelup.harness.event_cause import carry_clause, die_move_index, track_of

MISSING: Any = object()  # the value of a member one side lacks
Tokens = tuple[str, ...]
Rank = tuple[int, int]  # (the event's place in the step, 0 for what decides a unit, 1 else)

_WHOLE = (("tiles",), ("winner_pile",), ("loser_pile",))  # arrays of objects compared whole


def differences(
    want: Any, got: Any, depth: int | None = None, tokens: Tokens = ()
) -> Iterator[tuple[Tokens, Any, Any]]:
    """The deepest members (at most ``depth`` levels down) where two normalised values differ,
    each with the reference's value (``want``) and the adapter's: into objects key by key (a
    track's spaces in numeric order; a member on one side only is a difference), into arrays
    of objects of the same length item by item; any other array is one member. A state that
    is not even an object differs in every member."""
    if not tokens and isinstance(want, dict) and not isinstance(got, dict):
        for key, member in want.items():
            yield (key,), member, MISSING
        return
    deeper = None if depth is None else depth - 1
    if depth != 0 and isinstance(want, dict) and isinstance(got, dict):
        keys = sorted(want, key=key_order) if tokens == ("track",) else list(want)
        for key in keys:
            if key not in got:
                yield (*tokens, key), want[key], MISSING
            else:
                yield from differences(want[key], got[key], deeper, (*tokens, key))
        for key, member in got.items():
            if key not in want:
                yield (*tokens, key), MISSING, member
    elif (
        depth != 0
        and isinstance(want, list)
        and isinstance(got, list)
        and len(want) == len(got)
        and all(isinstance(item, dict) for item in want)
        and tokens[-1:] not in _WHOLE
    ):
        for index, (left, right) in enumerate(zip(want, got, strict=True)):
            yield from differences(left, right, deeper, (*tokens, str(index)))
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
    "players": "setup.player-kit",  # the seats as a whole (a seat's member: _SETUP_SEAT)
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
        "end.crossing.racing",
        "crazy.carry",
        "crazy.move.counterclockwise",
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
            (("winner_pile",), None),
            (("loser_pile",), None),
        ]
    if kind == "partnership_formed":
        partner = str(event.get("partner", ""))
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


class Attribution:
    """The clause behind each differing member of one moment, and its rank.

    ``moment``: 0 for the given position, k after step k; ``events``: the reference's events
    of that step; ``before``: the position both sides agreed on before it (None at 0);
    ``want``, ``got``: the reference's and the adapter's normalised states at the moment;
    ``from_setup``: whether the given position is a setup (else a state, which the adapter
    read wrongly); ``fallback``: the clause when nothing here decides (the case's, or the
    action's); ``events_agree``: the adapter reported the step's events as the reference's, so
    a seat's money that differs is none of their payments' doing.
    """

    def __init__(
        self,
        moment: int,
        events: Sequence[Any],
        before: Any,
        want: Any,
        got: Any,
        *,
        edition: str,
        from_setup: bool,
        fallback: str,
        events_agree: bool = False,
    ) -> None:
        self.moment = moment
        self.events_agree = events_agree
        self.events = [e for e in events if isinstance(e, dict)]
        order = RACING_ORDER.get(edition, ())
        self.before: Any = normalise(before, (), order) if before is not None else None
        self.want = want
        self.got = got
        self.edition = edition
        self.from_setup = from_setup
        self.fallback = fallback
        self.late: Rank = (len(self.events) + 1, 0)  # a clause no event of the step names
        self.die_move = die_move_index(self.events)  # the move the die made, before any tile's
        self.diagnosed: set[str] = set()  # the clauses named by a kind of difference recognised
        self.leg_end = self._leg_end_missed()

    def best(self, named: Sequence[tuple[str, Rank]]) -> str:
        """The clause that names a divergence as a whole: that of the earliest event behind
        any of its members (the first member's, at a tie)."""
        return best_of(named) if named else self.fallback

    def explained(self, named: Sequence[tuple[str, Rank]]) -> bool:
        """Whether the clause :meth:`best` names is a diagnosis read from the events of the
        step: the kind of difference recognised (another crazy camel chosen, the mover left
        behind, riders dropped or turned over, a loss the floor cut short, a move stopped at the
        line), not merely the last event that wrote the member, whose clause a check that looks
        at the member may well name better."""
        return bool(named) and best_of(named) in self.diagnosed

    def clause_of(self, tokens: Tokens) -> tuple[str, Rank]:
        """The clause behind the member at ``tokens``, and its rank."""
        if self.moment == 0:
            clause = self._setup_clause(tokens)
            if self.from_setup and clause != self.fallback and self._setup_decides(tokens):
                self.diagnosed.add(clause)
            return clause, (0, 0)
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
            # By the adapter's own account (its events agree) it chose and moved the camel the
            # reference did: one back on its start space was brought back by a push.
            chosen = None if self.events_agree else self._other_crazy_camel()
            if chosen is not None:  # a wrong choice of crazy camel moves every camel after it
                return self._named(chosen, None, decides_unit=True)
            return self._track_clause(tokens[1], touching)
        if tokens[:1] in (("winner_pile",), ("loser_pile",)) and _same_items(
            self.want.get(tokens[0]), self.got.get(tokens[0])
        ):
            return "bet.finish.pile-order", (touching[-1][0] if touching else self.late[0], 1)
        if len(tokens) >= 3 and tokens[0] == "players" and tokens[2] == "money" and touching:
            if self.events_agree:  # every payment reported as the reference made it
                return self.fallback, self.late
            paying = [i for i, _ in touching]
            cut_short = self._unfloored(tokens[1], paying)
            if cut_short is not None:
                return self._named(cut_short, "money.floor")
            index = self._payment(tokens[1], paying)
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
        # The adapter changed what no reference event touched: the rule at issue is what the
        # action itself does (a pyramid ticket pays nothing until the leg is scored, say).
        return self.fallback, self.late

    def _named(
        self, index: int, clause: str | None, decides_unit: bool = False
    ) -> tuple[str, Rank]:
        event = self.events[index]
        named = clause or event.get("clause")
        if not isinstance(named, str) or not named:
            return self.fallback, self.late
        if clause is not None or decides_unit:
            self.diagnosed.add(named)
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
            return self.fallback, self.late
        move = self.events[die]
        crazy = any(str(c).startswith("crazy-") for c in move.get("unit", [])[:1])
        if not crazy and self._stopped_at_the_line(move):
            return self._named(die, "end.crossing.racing")
        if not touching:
            # The adapter put a camel where the reference moved none: the die's move went wrong.
            return self._named(die, None)
        last = touching[-1][0]
        if last == die and str(move.get("from_space")) == space:
            return self._origin_clause(die, space, crazy)
        landing = self.events[last]
        # A tile's push put on top by the adapter's own account (its events agree) but found
        # underneath: the tile's rule was kept, the placing on top was not.
        placed = last == die or (self.events_agree and landing.get("type") == "unit_moved")
        if placed and str(landing.get("to_space")) == space and landing.get("placement") == "top":
            unit = [str(c) for c in landing.get("unit", [])]
            want, got = _stack(self.want, space), _stack(self.got, space)
            if unit and sorted(want) == sorted(got) and want[-len(unit) :] == unit:
                if got[-len(unit) :] == unit[::-1]:  # the order every unit keeps
                    return self._named(last, "move.stack.carry")
                if got[: len(unit)] == unit:
                    return self._named(last, "move.unit.lands-on-top")
        if str(landing.get("to_space")) == space and landing.get("placement") == "underneath":
            # The same camels there, the unit not under them in its own order: the backward
            # side's placing went wrong (the push itself reached the right space).
            unit = [str(c) for c in landing.get("unit", [])]
            want, got = _stack(self.want, space), _stack(self.got, space)
            if unit and sorted(want) == sorted(got) and got[: len(unit)] != unit:
                return self._named(last, "tile.land.backward")
        return self._named(*touching[-1])

    def _stopped_at_the_line(self, move: Mapping[str, Any]) -> bool:
        """Whether the die's move went past space 16 and the adapter left its unit short of the
        line (a move capped at 16, say), not elsewhere beyond it."""
        destination = move.get("to_space")
        unit = [str(c) for c in move.get("unit", [])]
        if not isinstance(destination, int) or destination <= 16 or not unit:
            return False
        where = _space_of(self.got, unit[0])
        return where is not None and where.lstrip("-").isdigit() and int(where) <= 16

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
        above = start[start.index(mover) + 1 :] if mover in start else []
        return self._named(die, carry_clause(crazy, [c for c in above if c not in left]), True)

    def _other_crazy_camel(self) -> int | None:
        """The reference's choice of crazy camel (its event's place in the step) when the
        adapter moved another one: it left the chosen one on its space, or moved one (carrying
        the chosen one, perhaps) that the reference left on its space."""
        for index, event in enumerate(self.events):
            if event.get("type") != "crazy_camel_chosen":
                continue
            chosen = str(event.get("camel"))
            start = _space_of(self.before, chosen)
            if start is not None and _space_of(self.got, chosen) == start:
                return index
            others = {
                camel
                for stack in track_of(self.before).values()
                if isinstance(stack, list)
                for camel in stack
                if isinstance(camel, str) and camel.startswith("crazy-") and camel != chosen
            }
            if any(
                _space_of(self.want, other)
                == _space_of(self.before, other)
                != _space_of(self.got, other)
                for other in others
            ):
                return index
        return None

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
        return "leg.end.first" if self.edition == "first" else "leg.end.second"

    def _unfloored(self, seat: str, paying: Sequence[int]) -> int | None:
        """The first of the payments to the seat that the floor cut short, when the adapter
        took every such loss whole (its money is the reference's less what the floor spared:
        one wrong rule, however many cards it touched), else None."""
        gaps = [(index, self._floor_gap(seat, index)) for index in paying]
        spared = sum(gap for _, gap in gaps)
        try:
            got = int(self.got["players"][int(seat)]["money"])
            wanted = int(self.want["players"][int(seat)]["money"])
        except (KeyError, IndexError, TypeError, ValueError):
            return None
        if spared == 0 or got != wanted + spared:
            return None
        return next(index for index, gap in gaps if gap)

    def _floor_gap(self, seat: str, index: int) -> int:
        """What the floor spared the seat in the payment at ``index``: what it owed less what
        it paid (0 for no loss cut short)."""
        event = self.events[index]
        scores = [s for s in event.get("scores", []) if str(s.get("player")) == seat]
        if event.get("type") == "leg_scored" and scores:
            owed, paid = scores[0].get("total"), scores[0].get("paid")
        elif event.get("type") == "finish_card_scored":
            owed, paid = event.get("amount"), event.get("paid")
        else:
            return 0
        if not isinstance(owed, int) or not isinstance(paid, int):
            return 0
        return owed - paid

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
        if not self.from_setup:
            return self.fallback  # the adapter read the given state wrongly
        head = tokens[0] if tokens else ""
        if head == "track" and len(tokens) >= 2:
            return self._setup_track_clause(tokens[1])
        if head == "players" and len(tokens) >= 3:
            return _SETUP_SEAT.get(tokens[2], self.fallback)
        return _SETUP.get(head, self.fallback)

    def _setup_decides(self, tokens: Tokens) -> bool:
        """Whether the setup rule named for the member at ``tokens`` is the diagnosis: the
        adapter set up the game's own parts otherwise (a seat's money, the camels' places),
        not other parts (other seats, other camels), which the rule set's clauses decide."""
        if tokens[:1] == ("players",):
            return len(tokens) >= 3  # a seat's member, not the number of seats
        if tokens[:1] == ("track",):
            return _camels(self.want) == _camels(self.got)
        return True

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


def best_of(named: Sequence[tuple[str, Rank]]) -> str:
    """The clause of the earliest event (the first member's, at a tie)."""
    return min(named, key=lambda item: item[1])[0]


def _same_items(left: Any, right: Any) -> bool:
    """Two arrays holding the same items, perhaps in another order."""
    if not isinstance(left, list) or not isinstance(right, list):
        return False
    return sorted(map(compact, left)) == sorted(map(compact, right))


def _stack(state: Any, space: str) -> list[str]:
    stack = track_of(state).get(space, [])
    return [c for c in stack if isinstance(c, str)] if isinstance(stack, list) else []


def _camels(state: Any) -> list[str]:
    """Every camel on the track, sorted."""
    return sorted(c for stack in track_of(state).values() if isinstance(stack, list) for c in stack)


def _space_of(state: Any, camel: str) -> str | None:
    for space, stack in track_of(state).items():
        if isinstance(stack, list) and camel in stack:
            return str(space)
    return None


def refusal_clause(cited: Any, known: bool, events: Sequence[Any], fallback: str) -> str:
    """The clause behind a step the adapter refused and the reference accepted: the rule the
    adapter cites (``cited``), when ``known`` to be one of the spec, else the rule of the
    reference's first event of the step, else ``fallback``."""
    if isinstance(cited, str) and known:
        return cited
    for event in events:
        if isinstance(event, dict) and isinstance(event.get("clause"), str):
            return str(event["clause"])
    return fallback


def in_force(clause: str, ruleset: Mapping[str, Any]) -> bool:
    """Whether the spec's ``clause`` holds under ``ruleset`` (the wire's): its rule sets name the
    edition or a module played, and its variant, if it has one, is played. A refusal citing a
    rule that does not hold there (a variant's, say) names the rule that does."""
    from camelup.spec.registry import load_registry

    registry = load_registry()
    if clause not in registry.clause_ids:
        return False
    found = registry.clause(clause)
    played = {ruleset.get("edition"), *(ruleset.get("modules") or ())}
    variants = ruleset.get("variants") or ()
    return bool(found.rule_sets & played) and (found.variant is None or found.variant in variants)


def refused_with(position: Any, action: Mapping[str, Any]) -> str:
    """The clause the reference refuses ``action`` with at ``position`` (a state, JSON), or the
    rule of the action's kind when it accepts it: computed with any mutant's patch lifted."""
    from camelup.harness.unpatched import unpatched
    from camelup.io.codec import action_from_json, state_from_json
    from camelup.io.wire import facts
    from camelup.model.errors import CamelUpError
    from camelup.play.engine import apply

    try:
        with unpatched():
            apply(state_from_json(position), action_from_json(action))
    except CamelUpError as error:
        return error.clause or facts().action_clause(action.get("type"))
    return facts().action_clause(action.get("type"))


def legal_actions_clause(
    position: Any, extra: Sequence[Mapping[str, Any]], missing: Sequence[Mapping[str, Any]]
) -> str:
    """The rule behind legal actions listed otherwise at ``position`` (the reference's state):
    the clause the reference refuses the first action listed beyond its own with, else the rule
    of the first legal action left out."""
    from camelup.io.wire import facts

    if extra:
        return refused_with(position, extra[0])
    return facts().action_clause(missing[0].get("type") if missing else None)

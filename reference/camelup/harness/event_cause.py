"""The first reference event an adapter reports otherwise, and the rule behind the difference.

A step's events are the reference's account of how it went, in order: the die, the unit it
moved, the tile it landed on, the payment, the leg's scoring... When the adapter reports its own
events (capability ``events``), the earliest of them that departs from the reference's is the
first rule that went otherwise: everything after it (a camel that then lands elsewhere, a
ranking, the money) is its consequence. The adapter's ``clause`` members are read only when it
declares ``event_clauses``, and only for the choice of a crazy camel (below); what differs within
the event says which rule decided it:

* a move (``unit_moved``, ``whirlwind_step``) of the same camels in another order: the rule
  that every unit keeps its order (``move.stack.carry``, a crazy camel's too); camels below the
  mover taken too: ``move.stack.carry`` (they stay, whatever moves); riders taken or left: the
  carry rule (``crazy.carry`` for a crazy camel's unit, which says what it takes along;
  ``crazy.move.counterclockwise``, which says a crazy camel on a racing camel goes with it,
  when a racing camel left only crazy camels behind); a unit without the crazy camel the
  reference chose (the adapter reported the same choice before it, else that event would
  differ first): that choice's rule; the die's unit put underneath:
  ``move.unit.lands-on-top``; the die's unit stopped on a tile it should have passed over:
  ``move.only-final-space``; held on 16 (more than one pip short) or put down elsewhere past
  the line: ``end.crossing.racing``; a crazy-led unit wrapped round or held on 1 where the
  reference crosses the line (``crazy.no-wrap``), or the reverse (``crazy.wrap``, which
  decides both under its variant); a crazy-led unit put down elsewhere on its way through the
  whirlwind of a game that plays it (``whirlwind.crazy-by-number``); a tile's push
  reported otherwise (:func:`_push_clause`); a move reported whole where the reference takes
  whirlwind steps, and going elsewhere: the move's own rule (the die's move is its
  ``unit_moved``: its whirlwind steps are reported before it, a tile's push after it);
* leg scoring (``leg_scored``): other tickets scored (:func:`_held_clause`: the final leg scoring at
  the race's end, else the step's pyramid ticket); another leader or second, the ranking rule that
  orders them (:func:`ranking_clause`; the unit past the line in another order, with a stack on the
  track too: ``rank.stack``, the order of every stack); a ticket's reward (any seat's, before any
  partner's bonus, which copies one), the rule for its camel's place (``leg.score.leader``,
  ``leg.score.second``, ``leg.score.others``); a partner's bonus
  (``partner.copy-best``); the same total paid whole where the reference's floor cut it short
  (``money.floor``); a total that is not the reported parts, pyramid tickets at 1 each
  (``leg.score.pyramid``), or short of one part (``partner.copy-best``);
* final scoring (``finish_card_scored``): a card of the other pile first
  (``final.pile-sequence``), another card of the same pile (``final.pile-order``), a card judged
  alike worth another amount, itself or another of its owner's in a netted pile
  (``final.correct-pays``, ``final.wrong-costs``), its owner's cards settled one by one where
  the rule set nets them (``final.net``) or netted where each is paid at its own place
  (``final.wrong-costs``), the same amount paid whole where the floor cut it short
  (``money.floor``);
* a crazy camel chosen by another rule (``event_clauses``; the same camel or another): the first
  of the two rules in the order they are tried (``crazy.select.precedence``);
* a leg scored (and the next begun) on one side only, the race going on: the edition's rule
  for when a leg ends (``leg.end.first``, ``leg.end.second``);
* anything else, and an event the adapter leaves out: the reference event's own clause.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from camelup.harness.compare import choice_clause, compact, event_fits
from camelup.model.ruleset import Module
from camelup.model.track import WHIRLWIND_SPACES

_MOVES = ("unit_moved", "whirlwind_step")
_FIRST_SPACE = 1
_LAST_SPACE = 16


@attrs.frozen
class EventCause:
    """The place of the first reference event the adapter reports otherwise, and its rule."""

    index: int
    clause: str


def first_event_cause(
    ours: Sequence[Any],
    theirs: Sequence[Any],
    before: Any,
    after: Any,
    *,
    cited: bool = False,
) -> EventCause | None:
    """The first of the reference's events ``ours`` that the adapter's ``theirs`` departs
    from (``before``, ``after``: the reference's positions around the step), or None when
    they agree. With ``cited`` (the adapter declares ``event_clauses``), the rule an event of
    the adapter's cites is its account of which rule decided it (:func:`choice_clause`)."""
    if ours == theirs:
        return None  # the common case, decided without normalising
    ours = [e for e in ours if isinstance(e, dict)]
    for index, mine in enumerate(ours):
        other = theirs[index] if index < len(theirs) else None
        if isinstance(other, dict) and event_fits(mine, other):
            continue
        if isinstance(other, dict) and other.get("type") != mine.get("type"):
            index = _whole_move(ours, index, other)
            mine = ours[index]
        clause = str(mine.get("clause", ""))
        if isinstance(other, dict) and other.get("type") == mine.get("type"):
            clause = _kind_of_difference(ours, theirs, index, other, before, after) or clause
            if cited:
                clause = choice_clause(mine, other) or clause
            if clause == "rank.crossed-finish" and "rank.stack" in _rankings(ours, theirs, after):
                clause = "rank.stack"  # one rule for every stack, the crossed one's included
        elif _leg_ended_alone(ours, theirs, index):
            clause = leg_end_clause(before)
        return EventCause(index, clause) if clause else None
    if len(theirs) > len(ours) and _leg_ended_alone(theirs, ours, len(ours)):
        return EventCause(len(ours), leg_end_clause(before))  # the adapter alone ended the leg
    return None


def _leg_ended_alone(ending: Sequence[Any], other: Sequence[Any], index: int) -> bool:
    """Whether ``ending`` scores a leg (not the race's last) from ``index`` on, and ``other``
    scores none in the whole step: one side ended the leg, the other played on."""

    def kinds(events: Sequence[Any]) -> list[Any]:
        return [e.get("type") for e in events if isinstance(e, dict)]

    later, all_other = kinds(ending[index:]), kinds(other)
    return (
        "leg_scored" in later
        and "leg_started" in later
        and "leg_scored" not in all_other
        and "race_ended" not in all_other
    )


def leg_end_clause(position: Any) -> str:
    """The rule of the position's edition that says when a leg ends (``leg.end.first``,
    ``leg.end.second``)."""
    ruleset = position.get("ruleset") if isinstance(position, dict) else None
    edition = ruleset.get("edition") if isinstance(ruleset, dict) else None
    return "leg.end.first" if edition == "first" else "leg.end.second"


def _whole_move(ours: Sequence[Mapping[str, Any]], index: int, other: Mapping[str, Any]) -> int:
    """Where the adapter reports a move (``other``) in place of the reference's whirlwind
    steps: the reference's move as a whole, when the adapter's departs from it too (it went
    elsewhere: the move's own rule, not the steps it then left out), else ``index``."""
    if ours[index].get("type") != "whirlwind_step" or other.get("type") != "unit_moved":
        return index
    for later in range(index + 1, len(ours)):
        if ours[later].get("type") == "unit_moved":
            return index if event_fits(ours[later], other) else later
    return index


def _kind_of_difference(
    ours: Sequence[Mapping[str, Any]],
    theirs: Sequence[Any],
    index: int,
    other: Mapping[str, Any],
    before: Any,
    after: Any,
) -> str | None:
    mine = ours[index]
    kind = mine.get("type")
    if kind in _MOVES:
        return _move_clause(ours, index, other, before)
    if kind == "leg_scored":
        return _held_clause(ours, index, other) or _leg_clause(mine, other, after)
    if kind == "finish_card_scored":
        if mine.get("pile") != other.get("pile"):
            return "final.pile-sequence"
        if (mine.get("owner"), mine.get("camel")) != (other.get("owner"), other.get("camel")):
            return "final.pile-order"
        settled = _settled_clause(ours, theirs, index, before)
        if settled is not None:
            return settled
        if mine.get("amount") == other.get("amount") == other.get("paid") != mine.get("paid"):
            return "money.floor"  # the whole loss taken
        if _pays(mine) != _pays(other):  # a card judged right on one side, wrong on the other
            place = "winner_camel" if mine.get("pile") == "winner" else "loser_camel"
            found = _final_camel_clause(ours, theirs, after, place)
            if found is None and place == "loser_camel":
                return "final.loser"  # the loser reported alike, its pile scored on another
            return found
        judged_alike = mine.get("correct") == other.get("correct")
        if judged_alike and mine.get("amount") != other.get("amount"):
            # The card judged alike, worth another amount: the rule of what such a card is worth.
            return _worth_rule(mine)
    if kind == "game_ended":
        for place, _ in RANKED_PLACES["game_ended"]:
            found = _final_camel_clause(ours, theirs, after, place)
            if found is not None:
                return found
    return None


def _settled_clause(
    ours: Sequence[Mapping[str, Any]], theirs: Sequence[Any], index: int, before: Any
) -> str | None:
    """A finish card of the same worth paid otherwise, its owner holding other cards of the
    pile: one of them worth another amount, judged alike (netted, their sum is paid at the
    first: the rule of what that card is worth, ``final.correct-pays`` or
    ``final.wrong-costs``); else the cards settled otherwise, one by one where the rule set nets
    them (``final.net``) or netted where each is paid at its own place in the order
    (``final.wrong-costs``, which says so). None for any other difference."""
    mine, other = ours[index], theirs[index]
    amount, their_paid = mine.get("amount"), other.get("paid")
    if amount != other.get("amount") or mine.get("paid") == their_paid:
        return None
    owner = (mine.get("pile"), mine.get("owner"))
    cards = [
        (e, theirs[number] if number < len(theirs) else None)
        for number, e in enumerate(ours)
        if e.get("type") == "finish_card_scored" and (e.get("pile"), e.get("owner")) == owner
    ]
    for card, their_card in cards:
        if (
            isinstance(their_card, dict)
            and (card.get("camel"), card.get("correct"))
            == (their_card.get("camel"), their_card.get("correct"))
            and card.get("amount") != their_card.get("amount")
        ):
            return _worth_rule(card)
    amounts = [card.get("amount") for card, _ in cards]
    numbers = [a for a in amounts if isinstance(a, int)]
    if len(amounts) < 2 or len(numbers) < len(amounts):
        return None
    net = sum(numbers)
    if net == amount:
        return None
    if _variant(before, "final-scoring-net"):
        return "final.net" if their_paid == amount else None
    return "final.wrong-costs" if their_paid == net else None


def _worth_rule(card: Mapping[str, Any]) -> str:
    """The rule of what a finish card judged as ``card`` is (right or wrong) is worth."""
    return "final.correct-pays" if card.get("correct") else "final.wrong-costs"


def _final_camel_clause(
    ours: Sequence[Any], theirs: Sequence[Any], after: Any, place: str
) -> str | None:
    """The ranking rule that orders the race's winner or loser (``place``) when the step's
    ``game_ended`` reports another camel there (:func:`ranking_clause`), else None."""
    ended = [[e for e in side if isinstance(e, dict) and e.get("type") == "game_ended"]
             for side in (ours, theirs)]  # fmt: skip
    if not ended[0] or not ended[1] or ended[0][-1].get(place) == ended[1][-1].get(place):
        return None
    return ranking_clause(after, ended[0][-1].get(place), ended[1][-1].get(place))


def _pays(card: Mapping[str, Any]) -> bool | None:
    """Whether a finish card was scored as naming the right camel (it pays), or the wrong one
    (it costs); None when its amount is no number."""
    amount = card.get("amount")
    return amount > 0 if isinstance(amount, int) else None


def _move_clause(
    ours: Sequence[Mapping[str, Any]], index: int, other: Mapping[str, Any], before: Any
) -> str | None:
    mine = ours[index]
    unit, their_unit = list(mine.get("unit", [])), list(other.get("unit", []))
    crazy = bool(unit) and str(unit[0]).startswith("crazy-")
    die_move = index == die_move_index(ours)
    if unit != their_unit:
        camels, their_camels = set(unit), set(their_unit)
        if camels == their_camels:  # the same camels in another order: no other mover chosen
            return "move.stack.carry"  # the order a unit keeps is the rule of every unit
        chosen = [e for e in ours[:index] if e.get("type") == "crazy_camel_chosen"]
        if chosen and unit[:1] != their_unit[:1] and unit[0] not in their_camels:
            return str(chosen[-1].get("clause"))  # another crazy camel moved
        if camels < their_camels and their_unit.index(unit[0]) > 0:
            return "move.stack.carry"  # camels below the mover taken along: they stay
        if camels <= their_camels or their_camels <= camels:  # riders taken or left
            return carry_clause(crazy, camels - their_camels)
        return None
    if not die_move:  # a tile's push, or a whirlwind step before the die's move
        return _push_clause(ours, index, other) if mine.get("type") == "unit_moved" else None
    if mine.get("placement") != other.get("placement"):
        return "move.unit.lands-on-top"
    spaces = _spaces(mine, other)
    if spaces is None:
        return None
    origin, destination, theirs = spaces
    if crazy:
        found = _crazy_crossing_clause(origin, destination, theirs)
        if found is None and theirs < origin and theirs != destination:
            found = _crazy_whirlwind_clause(origin, destination, before)
        return "crazy.wrap" if found and _variant(before, "crazy-finish-needs-racing") else found
    tiles = {t.get("space") for t in _tiles(before)}
    if origin < theirs < destination and theirs in tiles:
        return "move.only-final-space"  # the unit stopped on a tile it passes over
    crossed_elsewhere = theirs > _LAST_SPACE  # both crossed, put down otherwise
    held_at_the_line = theirs == _LAST_SPACE < destination - 1  # not one pip short
    if destination > _LAST_SPACE and (crossed_elsewhere or held_at_the_line):
        return "end.crossing.racing"
    return None


def _crazy_crossing_clause(origin: int, destination: int, theirs: int) -> str | None:
    """A crazy-led unit's move past space 1 put down otherwise: wrapped round to the far end
    or held on 1 (more than one pip short) where the reference crosses the line
    (``crazy.no-wrap``); crossing or held on 1 where the reference wraps it round
    (``crazy.wrap``, a variant's)."""
    wrapped = theirs == destination + _LAST_SPACE  # past 1 and on round from 16
    if destination < _FIRST_SPACE and (wrapped or theirs == _FIRST_SPACE > destination + 1):
        return "crazy.no-wrap"
    if destination > origin and theirs <= _FIRST_SPACE:  # the reference wrapped it round
        return "crazy.wrap"
    return None


def _crazy_whirlwind_clause(origin: int, destination: int, before: Any) -> str | None:
    """A crazy-led unit's move put down elsewhere on its own way (counterclockwise), its path
    through the whirlwind of a game that plays it: the rule that such a unit steps by number,
    ignoring the arrows (``whirlwind.crazy-by-number``); else None."""
    if not _plays(before, "modules", Module.WHIRLWIND.value):
        return None
    if any(destination <= space <= origin for space in WHIRLWIND_SPACES):
        return "whirlwind.crazy-by-number"
    return None


def _variant(position: Any, name: str) -> bool:
    """Whether the rule set of ``position`` plays the variant ``name`` (whose rule then decides
    what it changes: with ``crazy-finish-needs-racing``, which crazy-led units wrap round)."""
    return _plays(position, "variants", name)


def _plays(position: Any, member: str, name: str) -> bool:
    """Whether ``name`` is in the ``member`` list (``variants``, ``modules``) of the rule set of
    ``position``, a state as JSON."""
    ruleset = position.get("ruleset") if isinstance(position, dict) else None
    found = ruleset.get(member) if isinstance(ruleset, dict) else None
    return isinstance(found, list) and name in found


def _push_clause(
    ours: Sequence[Mapping[str, Any]], index: int, other: Mapping[str, Any]
) -> str | None:
    """A tile's push of the same unit reported otherwise: the other way for a unit with a crazy
    camel in it (``tile.land.crazy-reversed``, which says which way is forward); held on the
    track where the reference's push crosses the line (the rule of that crossing); on top
    where the reference puts it underneath, or the reverse (the tile side's rule)."""
    mine = ours[index]
    if other.get("from_space") != mine.get("from_space"):
        return None  # pushed from elsewhere: a rule before the push went otherwise
    spaces = _spaces(mine, other)
    if spaces is not None:
        origin, destination, theirs = spaces
        way, their_way = _sign(destination - origin), _sign(theirs - origin)
        crazy = any(str(camel).startswith("crazy-") for camel in mine.get("unit", []))
        if crazy and way == -their_way != 0:
            return "tile.land.crazy-reversed"
        crossing = next((e for e in ours[index + 1 :] if e.get("type") == "race_ended"), None)
        on_track = range(_FIRST_SPACE, _LAST_SPACE + 1)
        if crossing is not None and destination not in on_track and theirs in on_track:
            return str(crossing.get("clause")) or None
    if mine.get("placement") != other.get("placement"):
        underneath = mine.get("placement") == "underneath"
        return "tile.land.backward" if underneath else "tile.land.forward"
    return None


def _spaces(mine: Mapping[str, Any], other: Mapping[str, Any]) -> tuple[int, int, int] | None:
    """A move's origin, the reference's destination and the adapter's (None: one is no
    space)."""
    origin, destination, theirs = (
        mine.get("from_space"),
        mine.get("to_space"),
        other.get("to_space"),
    )
    if isinstance(origin, int) and isinstance(destination, int) and isinstance(theirs, int):
        return origin, destination, theirs
    return None


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


def carry_clause(crazy: bool, dropped: Iterable[Any]) -> str:
    """The rule a unit broke that left the riders ``dropped`` behind (or took camels it should
    not have, when none was dropped): a crazy mover's carry (``crazy.carry``); a racing mover
    that left only crazy camels behind, the rule that a crazy camel on a racing camel is carried
    with it (``crazy.move.counterclockwise``); else the carry of every unit."""
    if crazy:
        return "crazy.carry"
    left = [str(camel) for camel in dropped]
    if left and all(camel.startswith("crazy-") for camel in left):
        return "crazy.move.counterclockwise"
    return "move.stack.carry"


def die_move_index(events: Sequence[Mapping[str, Any]]) -> int | None:
    """The place of the die's move among a step's events: its ``unit_moved`` (from the unit's
    space to where it lands; whirlwind steps are reported before it, a tile's push after it),
    else its first whirlwind step, else None."""
    for kind in _MOVES:
        found = [i for i, e in enumerate(events) if e.get("type") == kind]
        if found:
            return found[0]
    return None


def _held_clause(
    ours: Sequence[Mapping[str, Any]], index: int, other: Mapping[str, Any]
) -> str | None:
    """Where the adapter scored other tickets than the reference (other leg tickets, another
    number of pyramid tickets), whatever they pay: the rule that decides which tickets are
    held at this scoring. Both sides agreed on the position before the step, so the tickets
    differ by what the step did: at the race's end, the final leg scoring of every ticket held
    (``end.final-leg-scoring``); else the pyramid ticket the step took (its event's rule)."""
    theirs = {s.get("player"): s for s in other.get("scores", []) if isinstance(s, dict)}
    differ = False
    for score in ours[index].get("scores", []):
        got = theirs.get(score.get("player"))
        if not isinstance(got, dict):
            return None
        differ = differ or (_held(score) != _held(got))
        pyramid_differs = score.get("pyramid") != got.get("pyramid")
        if differ and not any(e.get("type") == "race_ended" for e in ours[:index]):
            taken = [e for e in ours[:index] if e.get("type") == "pyramid_ticket_taken"]
            return str(taken[-1].get("clause")) if taken and pyramid_differs else None
    return "end.final-leg-scoring" if differ else None


def _held(score: Mapping[str, Any]) -> tuple[list[str], Any]:
    """The tickets a player's leg score counts: its leg tickets (in any order) and how many
    pyramid tickets."""
    tickets = score.get("tickets", [])
    held = [compact(t.get("ticket")) for t in tickets if isinstance(t, dict)]
    return sorted(held), score.get("pyramid")


def _leg_clause(mine: Mapping[str, Any], other: Mapping[str, Any], after: Any) -> str | None:
    for place, _ in RANKED_PLACES["leg_scored"]:
        if mine.get(place) != other.get(place):
            return ranking_clause(after, mine.get(place), other.get(place))
    theirs = {s.get("player"): s for s in other.get("scores", []) if isinstance(s, dict)}
    pairs = [(score, theirs.get(score.get("player"))) for score in mine.get("scores", [])]
    # Every seat's ticket rewards first: a partner's bonus copies them, a total adds them up.
    for score, got in pairs:
        if not isinstance(got, dict):
            return None
        rewards = [t.get("reward") for t in score.get("tickets", [])]
        their_rewards = [t.get("reward") for t in got.get("tickets", []) if isinstance(t, dict)]
        if rewards != their_rewards:
            for ticket, reward in zip(score.get("tickets", []), their_rewards, strict=False):
                if ticket.get("reward") != reward:
                    camel = ticket.get("ticket", {}).get("camel")
                    return {
                        mine.get("leader"): "leg.score.leader",
                        mine.get("second"): "leg.score.second",
                    }.get(camel, "leg.score.others")
            return None
    for score, got in pairs:
        if not isinstance(got, dict):  # never: the loop above returned at it (for mypy)
            return None
        if score.get("partner_bonus") != got.get("partner_bonus"):
            return "partner.copy-best"
        if _pyramid_pay(got) not in (None, got.get("pyramid")):
            return "leg.score.pyramid"  # the same tickets and bonus: the rest is the pyramid's
        if score.get("total") == got.get("total") != got.get("paid") != score.get("paid"):
            return None  # floored otherwise (ticket by ticket, say): the netting rule
        if score.get("total") == got.get("total") == got.get("paid") != score.get("paid"):
            return "money.floor"  # the whole loss taken
        left_out = _left_out(score, got)
        if left_out is not None:
            return left_out
    return None


def _pyramid_pay(score: Mapping[str, Any]) -> int | None:
    """What a player's pyramid tickets added to the leg total the adapter reports: the total
    less its tickets' rewards and its partner bonus (each reported on its own), for a player
    holding pyramid tickets (else None)."""
    rewards = [t.get("reward") for t in score.get("tickets", []) if isinstance(t, dict)]
    parts = [score.get("total"), score.get("partner_bonus", 0), *rewards]
    numbers = [n for n in parts if isinstance(n, int)]
    if len(numbers) < len(parts) or not score.get("pyramid"):
        return None
    return numbers[0] - sum(numbers[1:])


def _left_out(score: Mapping[str, Any], got: Mapping[str, Any]) -> str | None:
    """The one part of a player's leg score (the same in both) whose omission from the sum
    makes the adapter's total: the rule paying that part."""
    total, their_total = score.get("total"), got.get("total")
    if not isinstance(total, int) or not isinstance(their_total, int) or total == their_total:
        return None
    parts = [
        ("leg.score.pyramid", score.get("pyramid")),
        ("partner.copy-best", score.get("partner_bonus")),
    ]
    explaining = {clause for clause, part in parts if part == total - their_total}
    return explaining.pop() if len(explaining) == 1 else None


# The members of a scoring event that name a camel, each with its place in the ranking.
RANKED_PLACES = {
    "leg_scored": (("leader", 0), ("second", 1)),
    "game_ended": (("winner_camel", 0), ("loser_camel", -1)),
}


def _rankings(ours: Sequence[Any], theirs: Sequence[Any], after: Any) -> set[str]:
    """The ranking rule behind each place of the step's rankings (a leg's leader and second,
    the race's winner and loser) that the adapter reports otherwise: a ranking of the camels
    past the line in another order (``rank.crossed-finish``) that comes with a stack on the
    track in another order too is one rule broken, the order of every stack (``rank.stack``),
    which the crossing rule only repeats for the unit past the line."""
    found = set()
    for mine, other in zip(ours, theirs, strict=False):
        if not isinstance(mine, dict) or not isinstance(other, dict):
            continue
        for place, _ in RANKED_PLACES.get(str(mine.get("type")), ()):
            if other.get("type") == mine.get("type") and mine.get(place) != other.get(place):
                found.add(ranking_clause(after, mine.get(place), other.get(place)))
    return found


def ranking_clause(position: Any, ours: Any, theirs: Any) -> str:
    """The ranking rule that puts the reference's camel ``ours`` where the adapter put
    ``theirs``: a crazy camel ranked (``rank.ignore-crazy``), one past the line clockwise
    (``rank.crossed-finish``) or carried back over it (``rank.carried-backwards``), two on one
    space (``rank.stack``), else ``rank.space``."""
    if str(theirs).startswith("crazy-"):
        return "rank.ignore-crazy"
    spaces = camel_spaces(position)
    first, second = spaces.get(ours), spaces.get(theirs)
    if any(s is not None and s > _LAST_SPACE for s in (first, second)):
        return "rank.crossed-finish"
    if any(s is not None and s < _FIRST_SPACE for s in (first, second)):
        return "rank.carried-backwards"
    return "rank.stack" if first == second else "rank.space"


def ranking_order_clause(position: Any, want: Sequence[Any], got: Sequence[Any]) -> str | None:
    """The ranking rule behind a ranking of ``position`` (the reference's state) given as
    ``got`` where the reference's is ``want``: ``rank.ignore-crazy`` when it ranks a crazy
    camel anywhere; else that of the first place taken by another camel
    (:func:`ranking_clause`), or ``rank.stack`` when the unit past the line is in another order
    and a stack on the track too (one rule for both); ``rank.one-ranking`` when it ranks the
    same camels first but more or fewer of them; None when they agree."""
    if list(want) == list(got):
        return None
    if any(str(camel).startswith("crazy-") for camel in got):
        return "rank.ignore-crazy"
    found = [
        ranking_clause(position, ours, theirs)
        for ours, theirs in zip(want, got, strict=False)
        if ours != theirs
    ]
    if not found:
        return "rank.one-ranking"
    return "rank.stack" if found[0] == "rank.crossed-finish" and "rank.stack" in found else found[0]


def track_of(state: Any) -> dict[str, Any]:
    """The track of a state (JSON), or an empty one."""
    track = state.get("track") if isinstance(state, dict) else None
    return track if isinstance(track, dict) else {}


def camel_spaces(state: Any) -> dict[str, int]:
    """The space of every camel on the track of a state (JSON)."""
    return {
        camel: int(space)
        for space, stack in track_of(state).items()
        if space.lstrip("-").isdigit() and isinstance(stack, list)
        for camel in stack
    }


def _tiles(state: Any) -> list[Mapping[str, Any]]:
    tiles = state.get("tiles") if isinstance(state, dict) else None
    return [t for t in tiles if isinstance(t, dict)] if isinstance(tiles, list) else []

"""Whether a state can arise under the rules.

:func:`validate_state` checks a state built from untrusted data (the codec calls it when it
loads a state) and raises :class:`~camelup.model.errors.InvalidState` for the first
impossibility it finds, with a stable ``code``, the ID of the clause the state contradicts and
the JSON pointer of the offending value in the canonical JSON form (``camelup.io.codec``). The
engine never calls it: the states that ``apply`` builds are valid by construction.

It states no rule of its own where a rule has a predicate: a tile on the track must be a tile
its owner could have put there (:func:`~camelup.rules.tiles.tile_space_problem`), a revealed
die shows a face (:func:`~camelup.model.dice.face_problem`), a bet is on a racing camel
(:func:`~camelup.rules.betting.bet_camel_problem`), a partnership is one that could have been
formed (:func:`~camelup.rules.partnership.partnership_problem`), a lone crazy camel past the
line is one that would not have wrapped (:func:`~camelup.rules.crazy.crossing_wraps`). What is
left here is what only a whole state can break: every camel once, the counts of dice, tickets
and cards, the seats.

The state derives its pyramid, ticket stacks, hands, partners and winners. The JSON form still
lists them for its readers; :func:`claims_problem` refuses a document whose copy disagrees.

Checks run in the order of the state's JSON members: player count, track, tiles, dice, leg
tickets, players (money, pyramid tickets), piles, partners, seats, leg.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import face_problem
from camelup.model.errors import PathPart, Violation
from camelup.model.ruleset import Ruleset
from camelup.model.state import State
from camelup.model.trace import implements
from camelup.model.track import FIRST_SPACE, LAST_SPACE, SLOTS
from camelup.rules import betting, crazy, partnership, tiles  # called through: see engine.py

__all__ = [
    "Claims",
    "claimed_partnerships",
    "claims_problem",
    "state_problem",
    "validate_state",
]

Check = Callable[[State], Iterator[Violation]]


def validate_state(state: State, pointer: str = "") -> None:
    """Raise InvalidState(code, clause, message, pointer) if ``state`` is impossible.

    ``pointer`` is prefixed to the pointer of the problem (where the state sits in a larger
    document).
    """
    problem = state_problem(state)
    if problem is not None:
        raise problem.invalid_state(pointer)


def state_problem(state: State) -> Violation | None:
    """The first reason ``state`` cannot arise, or None."""
    for check in _CHECKS:
        for problem in check(state):
            return problem
    return None


def _camel_clause(ruleset: Ruleset, camel: Camel) -> str:
    """The clause that lists the camels of the edition, for a camel on the track."""
    return "camels.crazy" if camel.is_crazy else f"camels.racing.{ruleset.edition.value}"


def _die_clause(ruleset: Ruleset, die: Die) -> str:
    return "camels.crazy" if die is Die.GREY else f"camels.racing.{ruleset.edition.value}"


def _is_seat(state: State, seat: int) -> bool:
    return 0 <= seat < len(state.players)


def _shape(state: State) -> Iterator[Violation]:
    ruleset = state.ruleset
    if len(state.players) != ruleset.players:
        message = (
            f"the ruleset is for {ruleset.players} players, the state has {len(state.players)}"
        )
        yield Violation(
            "player-count", f"ruleset.players.{ruleset.edition.value}", message, ("players",)
        )
    if len(state.track) != SLOTS:
        yield Violation(
            "track-size", "track.spaces", f"the track must keep {SLOTS} spaces", ("track",)
        )


def _track(state: State) -> Iterator[Violation]:
    ruleset = state.ruleset
    seen: set[Camel] = set()
    for space, stack in state.occupied():
        for height, camel in enumerate(stack):
            where: tuple[PathPart, ...] = ("track", space, height)
            if camel not in ruleset.camels:
                message = f"the {ruleset.edition.value} edition has no {camel.value} camel"
                yield Violation("unknown-camel", _camel_clause(ruleset, camel), message, where)
            if camel in seen:
                message = f"the {camel.value} camel is on the track twice"
                yield Violation("camel-twice", _camel_clause(ruleset, camel), message, where)
            seen.add(camel)
    for camel in ruleset.camels:
        if camel not in seen:
            message = f"the {camel.value} camel is not on the track"
            yield Violation("camel-missing", _camel_clause(ruleset, camel), message, ("track",))
    beyond = [space for space, _ in state.occupied() if not FIRST_SPACE <= space <= LAST_SPACE]
    if len(beyond) > 1:
        message = "only one unit can cross the finish line: the race ends at once"
        yield Violation("two-units-crossed", "rank.crossed-finish", message, ("track", beyond[1]))
    if beyond:
        yield from _crossing_unit(state, beyond[0])


def _crossing_unit(state: State, space: int) -> Iterator[Violation]:
    """Only a racing-led unit crosses clockwise, only a crazy-led one counterclockwise, and only
    one that would not have gone on round the loop instead."""
    unit = state.stack(space)
    where = ("track", space, 0)
    if space > LAST_SPACE and unit[0].is_crazy:
        message = "a crazy camel cannot lead a unit over the line clockwise"
        yield Violation("impossible-crossing", "end.crossing.racing", message, where)
    if space < FIRST_SPACE and not unit[0].is_crazy:
        message = "only a crazy camel leads a unit backwards over the line"
        yield Violation("impossible-crossing", "end.crossing.crazy", message, where)
    if space < FIRST_SPACE and crazy.crossing_wraps(state.ruleset, unit):
        message = "under crazy-finish-needs-racing a lone crazy camel goes round, not over"
        yield Violation("impossible-crossing", "crazy.wrap", message, where)


def _tiles(state: State) -> Iterator[Violation]:
    """Each tile must lie where its owner could have put it, the others lying where they do."""
    kind = tiles.tile_kind_clause(state.ruleset.edition)
    owners: set[int] = set()
    for index, tile in enumerate(state.tiles):
        if not _is_seat(state, tile.owner):
            message = f"there is no seat {tile.owner}"
            yield Violation("bad-seat", "setup.player-kit", message, ("tiles", index, "owner"))
        if tile.owner in owners:
            message = f"player {tile.owner} has only one tile"
            yield Violation("tile-twice", kind, message, ("tiles", index, "owner"))
        owners.add(tile.owner)
        # Earlier tiles only: of two tiles in conflict, the later one is named.
        before = attrs.evolve(state, tiles=state.tiles[:index])
        problem = tiles.tile_space_problem(before, tile.owner, tile.space, tile.side)
        if problem is not None:
            yield problem.at("tiles", index)


def _dice(state: State) -> Iterator[Violation]:
    ruleset = state.ruleset
    seen: set[Die] = set()
    for index, roll in enumerate(state.revealed):
        die = roll.die
        where: tuple[PathPart, ...] = ("revealed", index, "die")
        if die not in ruleset.dice:
            message = f"the {ruleset.edition.value} edition has no {die.value} die"
            yield Violation("unknown-die", _die_clause(ruleset, die), message, where)
        if die in seen:
            message = f"the {die.value} die is out of the pyramid twice"
            yield Violation("die-twice", "move.die.stays-out", message, where)
        seen.add(die)
        face = face_problem(roll)
        if face is not None:
            yield face.at("revealed", index)
    out = len(state.revealed)
    if out > ruleset.dice_per_leg or (out == ruleset.dice_per_leg and not state.is_over):
        message = f"{out} dice are out: the leg ended and was cleaned up at once"
        clause = f"leg.end.{ruleset.edition.value}"
        yield Violation("leg-not-cleaned-up", clause, message, ("revealed",))


def _leg_tickets(state: State) -> Iterator[Violation]:
    """The tickets held of a camel are the top ones of its stack: 5 first, then 3, ..."""
    ruleset = state.ruleset
    full = ruleset.leg_ticket_values
    count_clause = f"tickets.leg.{ruleset.edition.value}"
    taken: Counter[Camel] = Counter()
    for seat, player in enumerate(state.players):
        for index, ticket in enumerate(player.leg_tickets):
            where: tuple[PathPart, ...] = ("players", seat, "leg_tickets", index)
            problem = betting.bet_camel_problem(ruleset, ticket.camel, "leg tickets")
            if problem is not None:
                yield problem.at(*where, "camel")
                continue
            taken[ticket.camel] += 1
            if taken[ticket.camel] > len(full):
                message = f"more {ticket.camel.value} tickets are held than the edition has"
                yield Violation("leg-ticket-count", count_clause, message, where)
    for camel in ruleset.racing_camels:
        held = [
            (seat, index, ticket.value)
            for seat, player in enumerate(state.players)
            for index, ticket in enumerate(player.leg_tickets)
            if ticket.camel is camel
        ]
        expected = Counter(full[len(full) - len(held) :]) if len(held) <= len(full) else Counter()
        for seat, index, value in held:
            if expected[value] <= 0:
                message = (
                    f"tickets are taken from the top of the {camel.value} stack {list(full)}:"
                    f" {len(held)} held must be {sorted(full[len(full) - len(held) :])}"
                )
                where = ("players", seat, "leg_tickets", index, "value")
                yield Violation("ticket-not-from-top", "bet.leg.take-top", message, where)
            expected[value] -= 1


def _money_and_pyramid_tickets(state: State) -> Iterator[Violation]:
    for seat, player in enumerate(state.players):
        if player.money < 0:
            message = f"player {seat} has {player.money} EP"
            yield Violation("negative-money", "money.floor", message, ("players", seat, "money"))
        if player.pyramid_tickets < 0:
            message = f"player {seat} holds {player.pyramid_tickets} pyramid tickets"
            where = ("players", seat, "pyramid_tickets")
            yield Violation("pyramid-ticket-count", "tickets.pyramid", message, where)
    total = sum(player.pyramid_tickets for player in state.players)
    if total != len(state.revealed):
        message = f"{total} pyramid tickets are held but {len(state.revealed)} dice are revealed"
        yield Violation("pyramid-ticket-count", "move.pyramid.take-ticket", message, ("revealed",))


def _piles(state: State) -> Iterator[Violation]:
    placed: set[tuple[int, Camel]] = set()
    for name, pile in (("winner_pile", state.winner_pile), ("loser_pile", state.loser_pile)):
        for index, card in enumerate(pile):
            if not _is_seat(state, card.owner):
                message = f"there is no seat {card.owner}"
                yield Violation("bad-seat", "bet.finish.place", message, (name, index, "owner"))
            problem = betting.bet_camel_problem(state.ruleset, card.camel, "finish cards")
            if problem is not None:
                yield problem.at(name, index, "camel")
            if (card.owner, card.camel) in placed:
                message = f"player {card.owner} has only one {card.camel.value} finish card"
                yield Violation(
                    "finish-card-twice", "bet.finish.one-per-colour", message, (name, index)
                )
            placed.add((card.owner, card.camel))


def _partners(state: State) -> Iterator[Violation]:
    """Each partnership must be one the two seats could have formed, in the order given."""
    for index, (first, second) in enumerate(state.partnerships):
        # The JSON says it with each seat's partner; the first seat's names the pair, unless it
        # is no seat at all (a partner of -1): then the seat that named it chose it as partner.
        seat, partner = (first, second) if _is_seat(state, first) else (second, first)
        before = attrs.evolve(state, partnerships=state.partnerships[:index])
        problem = partnership.partnership_problem(before, seat, partner)
        if problem is not None:
            yield Violation(
                problem.code, problem.clause, problem.message, ("players", seat, "partner")
            )


def _seats_and_leg(state: State) -> Iterator[Violation]:
    if not _is_seat(state, state.to_move):
        yield Violation("bad-seat", "turn.order", f"there is no seat {state.to_move}", ("to_move",))
    if not _is_seat(state, state.start_player):
        message = f"there is no seat {state.start_player}"
        yield Violation("bad-seat", "setup.start-player", message, ("start_player",))
    if state.leg < 1:
        message = f"legs are numbered from 1, not {state.leg}"
        yield Violation("bad-leg", "leg.number", message, ("leg",))


_CHECKS: tuple[Check, ...] = (
    _shape,
    _track,
    _tiles,
    _dice,
    _leg_tickets,
    _money_and_pyramid_tickets,
    _piles,
    _partners,
    _seats_and_leg,
)


@attrs.frozen
class Claims:
    """What a state's JSON says about the members the model derives (the JSON keeps them for
    its readers): the pyramid, each racing camel's ticket stack, each hand in document order,
    and the winners (None for ``"result": null``). Each seat's partner is checked, and turned
    into the state's pairs, by :func:`claimed_partnerships`."""

    pyramid: tuple[Die, ...]
    ticket_stacks: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[Camel, ...], ...]
    winners: tuple[int, ...] | None


@implements("partner.swap")
def claimed_partnerships(
    partners: Sequence[int | None],
) -> tuple[tuple[tuple[int, int], ...], Violation | None]:
    """The state's partnerships from each seat's partner as the JSON lists them, and the first
    seat whose partner does not name it back (a partnership binds both seats). A partner that
    is no other seat is left for :func:`validate_state` to refuse."""
    pairs = set()
    for seat, partner in enumerate(partners):
        if partner is None:
            continue
        if 0 <= partner < len(partners) and partner != seat and partners[partner] != seat:
            message = f"player {seat}'s partner {partner} must name player {seat} as partner too"
            where = ("players", seat, "partner")
            return (), Violation("partner-asymmetric", "partner.swap", message, where)
        pairs.add((min(seat, partner), max(seat, partner)))
    return tuple(sorted(pairs)), None


def claims_problem(state: State, claims: Claims) -> Violation | None:
    """The first member of the JSON that disagrees with what ``state`` derives, or None.

    Call it on a valid state (after :func:`validate_state`): it compares, it does not judge.
    """
    ruleset = state.ruleset
    if claims.pyramid != state.pyramid:
        shown = [die.value for die in state.pyramid]
        message = f"the pyramid holds the dice not revealed, in ruleset order: {shown}"
        return Violation("inconsistent", "move.die.stays-out", message, ("pyramid",))
    for camel, claimed, derived in zip(
        ruleset.racing_camels, claims.ticket_stacks, state.ticket_stacks, strict=True
    ):
        if claimed != derived:
            message = f"with the tickets held, the {camel.value} stack reads {list(derived)}"
            return Violation(
                "inconsistent", "bet.leg.take-top", message, ("ticket_stacks", camel.value)
            )
    for seat, claimed_hand in enumerate(claims.hands):
        for index, camel in enumerate(claimed_hand):
            problem = betting.bet_camel_problem(ruleset, camel, "finish cards")
            if problem is not None:
                return problem.at("players", seat, "finish_cards", index)
        if frozenset(claimed_hand) != state.hand(seat):
            shown = [c.value for c in ruleset.racing_camels if c in state.hand(seat)]
            message = f"player {seat} holds every finish card not on a pile: {shown}"
            return Violation(
                "inconsistent", "cards.finish", message, ("players", seat, "finish_cards")
            )
    result = state.result
    if claims.winners is None and result is not None:
        message = "a unit has crossed the finish line: the race has ended"
        return Violation("inconsistent", _crossing_clause(state), message, ("result",))
    if claims.winners is not None and result is None:
        message = "the race has ended, but no camel has crossed the finish line"
        return Violation("no-crossing", "end.crossing.racing", message, ("result",))
    if claims.winners is not None and result is not None and claims.winners != result.winners:
        for index, seat in enumerate(claims.winners):
            if not _is_seat(state, seat):
                message = f"there is no seat {seat}"
                return Violation("bad-seat", "final.winners", message, ("result", "winners", index))
        message = f"the winners are the players with the most money, {list(result.winners)}"
        return Violation("wrong-winners", "final.winners", message, ("result", "winners"))
    return None


def _crossing_clause(state: State) -> str:
    beyond = next(space for space, _ in state.occupied() if not FIRST_SPACE <= space <= LAST_SPACE)
    return "end.crossing.racing" if beyond > LAST_SPACE else "end.crossing.crazy"

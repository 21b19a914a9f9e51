"""Whether a state can arise under the rules.

:func:`validate_state` checks a state built from untrusted data (the codec calls it when it
loads a state) and raises :class:`~camelup.model.errors.InvalidState` for the first impossibility it
finds, with a stable ``code``, the ID of the clause the state contradicts and the JSON pointer of
the offending value in the canonical JSON form (``camelup.io.codec``). The engine never calls it:
the states that ``apply`` builds are valid by construction.

Checks run in the order of the state's JSON members: player count, track, tiles, dice, leg
tickets, players (money, pyramid tickets, finish cards, partners), seats, leg, result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from camelup.model.camels import Camel, Die
from camelup.model.dice import face_problem
from camelup.model.errors import InvalidState
from camelup.model.ruleset import PYRAMID_TICKETS, Edition, Ruleset, Variant
from camelup.model.state import State
from camelup.model.track import FIRST_SPACE, LAST_SPACE, SLOTS, WHIRLWIND_SPACES
from camelup.rules.tiles import SIDES

__all__ = ["card_order", "validate_state"]


def validate_state(state: State, pointer: str = "") -> None:
    """Raise InvalidState(code, clause, message, pointer) if ``state`` is impossible.

    ``pointer`` is prefixed to the pointer of the problem (where the state sits in a larger
    document).
    """
    try:
        for check in _CHECKS:
            check(state)
    except InvalidState as problem:
        if not pointer:
            raise
        where = pointer + (problem.pointer or "")
        raise InvalidState(problem.code, problem.clause, problem.message, where) from None


def _fail(code: str, clause: str, message: str, *path: str | int) -> InvalidState:
    return InvalidState(code, clause, message, "".join(f"/{part}" for part in path))


def _camel_clause(ruleset: Ruleset, camel: Camel) -> str:
    """The clause that lists the camels of the edition, for a camel that does not belong."""
    if camel.is_crazy and ruleset.edition is Edition.FIRST:
        return "camels.crazy"
    if camel.is_crazy:
        return "bets.no-crazy"
    return f"camels.racing.{ruleset.edition.value}"


def _die_clause(ruleset: Ruleset, die: Die) -> str:
    return "camels.crazy" if die is Die.GREY else f"camels.racing.{ruleset.edition.value}"


def card_order(ruleset: Ruleset) -> Callable[[Camel], int]:
    """Sort key for camels: the racing camels of the edition in order, then the others."""
    racing = ruleset.racing_camels
    others = list(Camel)
    return lambda c: racing.index(c) if c in racing else len(racing) + others.index(c)


def _is_seat(state: State, seat: int) -> bool:
    return 0 <= seat < len(state.players)


def _check_shape(state: State) -> None:
    ruleset = state.ruleset
    if len(state.players) != ruleset.players:
        raise _fail(
            "player-count",
            f"ruleset.players.{ruleset.edition.value}",
            f"the ruleset is for {ruleset.players} players, the state has {len(state.players)}",
            "players",
        )
    if len(state.track) != SLOTS:
        raise _fail("track-size", "track.spaces", f"the track must keep {SLOTS} spaces", "track")
    if len(state.ticket_stacks) != len(ruleset.racing_camels):
        raise _fail(
            "ticket-stacks",
            "setup.leg-ticket-stacks",
            "one leg ticket stack per racing camel is needed",
            "ticket_stacks",
        )


def _check_track(state: State) -> None:
    ruleset = state.ruleset
    seen: set[Camel] = set()
    for space, stack in state.occupied():
        for height, camel in enumerate(stack):
            if camel not in ruleset.camels:
                raise _fail(
                    "unknown-camel",
                    "camels.crazy" if camel.is_crazy else f"camels.racing.{ruleset.edition.value}",
                    f"the {ruleset.edition.value} edition has no {camel.value} camel",
                    "track",
                    space,
                    height,
                )
            if camel in seen:
                clause = (
                    "camels.crazy" if camel.is_crazy else f"camels.racing.{ruleset.edition.value}"
                )
                message = f"the {camel.value} camel is on the track twice"
                raise _fail("camel-twice", clause, message, "track", space, height)
            seen.add(camel)
    for camel in ruleset.camels:
        if camel not in seen:
            clause = "camels.crazy" if camel.is_crazy else f"camels.racing.{ruleset.edition.value}"
            raise _fail(
                "camel-missing", clause, f"the {camel.value} camel is not on the track", "track"
            )
    beyond = [space for space, _ in state.occupied() if not FIRST_SPACE <= space <= LAST_SPACE]
    if beyond and state.result is None:
        clause = "end.crossing.racing" if beyond[0] > LAST_SPACE else "end.crossing.crazy"
        message = f"camels past the finish line on {beyond[0]}, but the race has not ended"
        raise _fail("camel-past-finish", clause, message, "track", beyond[0])
    if len(beyond) > 1:
        message = "only one unit can cross the finish line: the race ends at once"
        raise _fail("two-units-crossed", "rank.crossed-finish", message, "track", beyond[1])
    if state.result is not None and not beyond:
        message = "the race has ended, but no camel has crossed the finish line"
        raise _fail("no-crossing", "end.crossing.racing", message, "result")
    if beyond:
        _check_crossing_unit(state, beyond[0])


def _check_crossing_unit(state: State, space: int) -> None:
    """Only a racing-led unit crosses clockwise, only a crazy-led one counterclockwise, and under
    ``crazy-finish-needs-racing`` only one that carries a racing camel."""
    unit = state.stack(space)
    if space > LAST_SPACE and unit[0].is_crazy:
        message = "a crazy camel cannot lead a unit over the line clockwise"
        raise _fail("impossible-crossing", "end.crossing.racing", message, "track", space, 0)
    if space < FIRST_SPACE and not unit[0].is_crazy:
        message = "only a crazy camel leads a unit backwards over the line"
        raise _fail("impossible-crossing", "end.crossing.crazy", message, "track", space, 0)
    needs_racing = Variant.CRAZY_FINISH_NEEDS_RACING in state.ruleset.variants
    if space < FIRST_SPACE and needs_racing and all(camel.is_crazy for camel in unit):
        message = "under crazy-finish-needs-racing a lone crazy camel goes round, not over"
        raise _fail("impossible-crossing", "crazy.wrap", message, "track", space, 0)


def _check_tiles(state: State) -> None:
    ruleset = state.ruleset
    kind = "tiles.desert" if ruleset.edition is Edition.FIRST else "tiles.spectator"
    owners: set[int] = set()
    for index, tile in enumerate(state.tiles):
        space = tile.space
        if not _is_seat(state, tile.owner):
            message = f"there is no seat {tile.owner}"
            raise _fail("bad-seat", "setup.player-kit", message, "tiles", index, "owner")
        if tile.owner in owners:
            message = f"player {tile.owner} has only one tile"
            raise _fail("tile-twice", kind, message, "tiles", index, "owner")
        owners.add(tile.owner)
        if tile.side not in SIDES[ruleset.edition]:
            message = f"a {ruleset.edition.value}-edition tile has no side {tile.side.value}"
            raise _fail("tile-side", kind, message, "tiles", index, "side")
        if not FIRST_SPACE <= space <= LAST_SPACE:
            message = f"space {space} is not on the track"
            raise _fail(
                "tile-off-track", "tile.place.empty-space", message, "tiles", index, "space"
            )
        if space == FIRST_SPACE:
            message = "no tile may lie on space 1"
            raise _fail(
                "tile-space-one", "tile.place.not-space-one", message, "tiles", index, "space"
            )
        if ruleset.whirlwind and space in WHIRLWIND_SPACES:
            message = f"space {space} is a whirlwind space"
            raise _fail("tile-whirlwind", "whirlwind.no-tiles", message, "tiles", index, "space")
        if state.stack(space):
            message = f"space {space} holds a camel"
            raise _fail("tile-on-camel", "tile.place.empty-space", message, "tiles", index, "space")
        for other in state.tiles[:index]:
            if other.space == space:
                message = f"space {space} holds two tiles"
                raise _fail(
                    "tile-on-tile", "tile.place.empty-space", message, "tiles", index, "space"
                )
            if abs(other.space - space) == 1:
                message = f"the tiles on {other.space} and {space} are adjacent"
                raise _fail(
                    "tile-adjacent", "tile.place.not-adjacent", message, "tiles", index, "space"
                )


def _check_dice(state: State) -> None:
    ruleset = state.ruleset
    seen: set[Die] = set()
    for index, die in enumerate(state.pyramid):
        if die not in ruleset.dice:
            message = f"the {ruleset.edition.value} edition has no {die.value} die"
            raise _fail("unknown-die", _die_clause(ruleset, die), message, "pyramid", index)
        if die in seen:
            message = f"the {die.value} die is in the pyramid twice"
            raise _fail("die-twice", "move.die.stays-out", message, "pyramid", index)
        seen.add(die)
    if state.pyramid != tuple(die for die in ruleset.dice if die in seen):
        message = "the dice in the pyramid must be listed in ruleset order"
        raise _fail("pyramid-order", "setup.dice-in-pyramid", message, "pyramid")
    for index, roll in enumerate(state.revealed):
        die = roll.die
        if die not in ruleset.dice:
            message = f"the {ruleset.edition.value} edition has no {die.value} die"
            raise _fail("unknown-die", _die_clause(ruleset, die), message, "revealed", index, "die")
        if die in seen:
            message = f"the {die.value} die is out of the pyramid and also in it, or out twice"
            raise _fail("die-twice", "move.die.stays-out", message, "revealed", index, "die")
        seen.add(die)
        face = face_problem(roll)
        if face is not None:
            clause, field, message = face
            raise _fail("die-face", clause, message, "revealed", index, field)
    for die in ruleset.dice:
        if die not in seen:
            message = f"the {die.value} die is neither in the pyramid nor revealed"
            raise _fail("die-missing", "setup.dice-in-pyramid", message, "pyramid")
    out = len(state.revealed)
    if out > ruleset.dice_per_leg or (out == ruleset.dice_per_leg and state.result is None):
        message = f"{out} dice are out: the leg ended and was cleaned up at once"
        raise _fail("leg-not-cleaned-up", f"leg.end.{ruleset.edition.value}", message, "revealed")


def _check_leg_tickets(state: State) -> None:
    ruleset = state.ruleset
    racing = ruleset.racing_camels
    full = ruleset.leg_ticket_values
    count_clause = f"tickets.leg.{ruleset.edition.value}"
    held: dict[Camel, Counter[int]] = {}
    for camel, stack in zip(racing, state.ticket_stacks, strict=True):
        if len(stack) > len(full) or Counter(stack) - Counter(full):
            message = f"the {camel.value} stack holds tickets the edition does not have"
            raise _fail("leg-ticket-count", count_clause, message, "ticket_stacks", camel.value)
        if stack != full[: len(stack)]:
            message = f"tickets are taken from the top: the {camel.value} stack must read {full}"
            raise _fail(
                "ticket-stack-order", "bet.leg.take-top", message, "ticket_stacks", camel.value
            )
        held[camel] = Counter(full[len(stack) :])
    for seat, player in enumerate(state.players):
        for index, ticket in enumerate(player.leg_tickets):
            if ticket.camel not in racing:
                message = f"there are no leg tickets for {ticket.camel.value}"
                clause = _camel_clause(ruleset, ticket.camel)
                raise _fail(
                    "not-a-racing-camel",
                    clause,
                    message,
                    "players",
                    seat,
                    "leg_tickets",
                    index,
                    "camel",
                )
            if held[ticket.camel][ticket.value] <= 0:
                message = f"this {ticket.camel.value} {ticket.value} ticket is not out of its stack"
                raise _fail(
                    "leg-ticket-count",
                    count_clause,
                    message,
                    "players",
                    seat,
                    "leg_tickets",
                    index,
                    "value",
                )
            held[ticket.camel][ticket.value] -= 1
    for camel in racing:
        if +held[camel]:
            message = f"{camel.value} tickets are missing from both the stack and the players"
            raise _fail("leg-ticket-count", count_clause, message, "ticket_stacks", camel.value)


def _check_money_and_pyramid_tickets(state: State) -> None:
    for seat, player in enumerate(state.players):
        if player.money < 0:
            message = f"player {seat} has {player.money} EP"
            raise _fail("negative-money", "money.floor", message, "players", seat, "money")
        if player.pyramid_tickets < 0:
            message = f"player {seat} holds {player.pyramid_tickets} pyramid tickets"
            raise _fail(
                "pyramid-ticket-count",
                "tickets.pyramid",
                message,
                "players",
                seat,
                "pyramid_tickets",
            )
    total = sum(player.pyramid_tickets for player in state.players)
    if total > PYRAMID_TICKETS:
        message = f"{total} pyramid tickets are held, there are {PYRAMID_TICKETS}"
        raise _fail("pyramid-ticket-count", "tickets.pyramid", message, "players")
    if total != len(state.revealed):
        message = f"{total} pyramid tickets are held but {len(state.revealed)} dice are revealed"
        raise _fail("pyramid-ticket-count", "move.pyramid.take-ticket", message, "revealed")


def _check_finish_cards(state: State) -> None:
    ruleset = state.ruleset
    racing = ruleset.racing_camels
    order = card_order(ruleset)
    cards: list[set[Camel]] = []
    for seat, player in enumerate(state.players):
        hand = sorted(player.finish_cards, key=order)
        for index, camel in enumerate(hand):
            if camel not in racing:
                message = f"there are no finish cards for {camel.value}"
                clause = "bets.no-crazy" if camel.is_crazy else "cards.finish"
                raise _fail(
                    "not-a-racing-camel", clause, message, "players", seat, "finish_cards", index
                )
        cards.append(set(hand))
    for name, pile in (("winner_pile", state.winner_pile), ("loser_pile", state.loser_pile)):
        for index, card in enumerate(pile):
            if not _is_seat(state, card.owner):
                message = f"there is no seat {card.owner}"
                raise _fail("bad-seat", "bet.finish.place", message, name, index, "owner")
            if card.camel not in racing:
                message = f"there are no finish cards for {card.camel.value}"
                clause = "bets.no-crazy" if card.camel.is_crazy else "cards.finish"
                raise _fail("not-a-racing-camel", clause, message, name, index, "camel")
            if card.camel in cards[card.owner]:
                message = f"player {card.owner} has only one {card.camel.value} finish card"
                raise _fail("finish-card-twice", "bet.finish.one-per-colour", message, name, index)
            cards[card.owner].add(card.camel)
    for seat, held in enumerate(cards):
        for camel in racing:
            if camel not in held:
                message = f"player {seat}'s {camel.value} finish card is neither in hand nor placed"
                raise _fail(
                    "finish-card-missing", "cards.finish", message, "players", seat, "finish_cards"
                )


def _check_partners(state: State) -> None:
    for seat, player in enumerate(state.players):
        partner = player.partner
        if partner is None:
            continue
        if not state.ruleset.partnerships:
            message = "partnerships need the 2nd edition and 6 or more players"
            raise _fail("no-partnerships", "partner.six-plus", message, "players", seat, "partner")
        if not _is_seat(state, partner) or partner == seat:
            message = f"seat {partner} cannot be player {seat}'s partner"
            raise _fail("bad-partner", "partner.action", message, "players", seat, "partner")
        if state.players[partner].partner != seat:
            message = f"player {seat} is partnered with {partner}, but not the other way round"
            raise _fail("partner-asymmetric", "partner.swap", message, "players", seat, "partner")


def _check_seats_and_result(state: State) -> None:
    if not _is_seat(state, state.to_move):
        raise _fail("bad-seat", "turn.order", f"there is no seat {state.to_move}", "to_move")
    if not _is_seat(state, state.start_player):
        message = f"there is no seat {state.start_player}"
        raise _fail("bad-seat", "setup.start-player", message, "start_player")
    if state.leg < 1:
        raise _fail("bad-leg", "leg.number", f"legs are numbered from 1, not {state.leg}", "leg")
    if state.result is None:
        return
    winners = state.result.winners
    for index, seat in enumerate(winners):
        if not _is_seat(state, seat):
            message = f"there is no seat {seat}"
            raise _fail("bad-seat", "final.winners", message, "result", "winners", index)
    best = max(player.money for player in state.players)
    richest = tuple(seat for seat, player in enumerate(state.players) if player.money == best)
    if winners != richest:
        message = f"the winners are the players with the most money, {list(richest)}"
        raise _fail("wrong-winners", "final.winners", message, "result", "winners")


_CHECKS: tuple[Callable[[State], None], ...] = (
    _check_shape,
    _check_track,
    _check_tiles,
    _check_dice,
    _check_leg_tickets,
    _check_money_and_pyramid_tickets,
    _check_finish_cards,
    _check_partners,
    _check_seats_and_result,
)

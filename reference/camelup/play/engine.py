"""The engine: ``apply``, ``legal_actions`` and ``chance_outcomes``.

``apply(state, action)`` is pure: it returns a new state and the ordered events the action
caused, or raises :class:`~camelup.model.errors.IllegalAction` and leaves nothing changed. Dice
outcomes are part of the action, so nothing here is random.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import attrs

from camelup.model.actions import (
    Action,
    FormPartnership,
    MoveTile,
    PlaceFinishCard,
    PlaceTile,
    TakeLegTicket,
    TakePyramidTicket,
)
from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll, die_rolls
from camelup.model.errors import IllegalAction
from camelup.model.events import (
    DieRevealed,
    Event,
    FinishCardPlaced,
    GameEnded,
    LegStarted,
    LegTicketTaken,
    PartnershipFormed,
    PyramidTicketTaken,
    TilePlaced,
)
from camelup.model.ruleset import RACING_CAMELS, Edition
from camelup.model.state import FinishCard, LegTicket, Pile, Player, State, Tile, prime_derived
from camelup.model.trace import implements
from camelup.model.track import FIRST_SPACE, LAST_SPACE

# The predicates are called through their modules, so that one patched rule changes play,
# validation and the legal actions alike (tests/test_one_rule_once.py); so is the race kernel.
from camelup.rules import betting, money, movement, partnership, race, tiles, turn
from camelup.rules.final import score_finish_piles
from camelup.rules.leg import leg_is_over, next_start_player, players_for_new_leg, score_leg
from camelup.rules.ranking import ranking
from camelup.rules.tiles import SIDES
from camelup.rules.turn import next_seat


@attrs.frozen
class Result:
    """What ``apply`` returns: the new state and the events, in the order they happened."""

    state: State
    events: tuple[Event, ...]


def apply(state: State, action: Action) -> Result:
    """Carry out ``action`` in ``state``.

    Raises :class:`IllegalAction` (with a stable ``code`` and the violated ``clause``) when the
    action is not allowed; ``state`` is never changed, it is immutable.
    """
    problem = turn.turn_problem(state, action.player)
    if problem is not None:
        raise problem.illegal()
    if type(action) is TakePyramidTicket:
        return _take_pyramid_ticket(state, action)
    if type(action) is TakeLegTicket:
        return _take_leg_ticket(state, action)
    if type(action) is PlaceTile or type(action) is MoveTile:
        return _place_tile(state, action)
    if type(action) is PlaceFinishCard:
        return _place_finish_card(state, action)
    if type(action) is FormPartnership:
        return _form_partnership(state, action)
    raise IllegalAction("unknown-action", "turn.one-action", f"not an action: {action!r}")


def _replace_player(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


def _take_leg_ticket(state: State, action: TakeLegTicket) -> Result:
    problem = betting.leg_ticket_problem(state, action.camel)
    if problem is not None:
        raise problem.illegal()
    index = state.ruleset.racing_camels.index(action.camel)
    stacks = state.ticket_stacks
    ticket = LegTicket(action.camel, stacks[index][-1])
    player = state.players[action.player]
    players = _replace_player(
        state.players,
        action.player,
        Player(player.money, (*player.leg_tickets, ticket), player.pyramid_tickets),
    )
    stacks = stacks[:index] + (stacks[index][:-1],) + stacks[index + 1 :]
    new = _after_turn(state, action.player, players=players, ticket_stacks=stacks)
    return Result(new, (LegTicketTaken(action.player, ticket),))


def _after_turn(
    state: State,
    player: int,
    *,
    players: tuple[Player, ...] | None = None,
    tiles: tuple[Tile, ...] | None = None,
    winner_pile: tuple[FinishCard, ...] | None = None,
    loser_pile: tuple[FinishCard, ...] | None = None,
    partnerships: tuple[tuple[int, int], ...] | None = None,
    ticket_stacks: tuple[tuple[int, ...], ...] | None = None,
    hands: tuple[frozenset[Camel], ...] | None = None,
) -> State:
    """``state`` after ``player`` took an action other than the pyramid's: the members given
    replaced, play passed on, and primed with ``state``'s derived members, for such an action
    reveals no die and moves no camel, and changes the ticket stacks or the hands only as given.

    Built directly rather than with ``attrs.evolve``, which is several times slower.
    """
    after = State(
        ruleset=state.ruleset,
        track=state.track,
        tiles=state.tiles if tiles is None else tiles,
        revealed=state.revealed,
        players=state.players if players is None else players,
        winner_pile=state.winner_pile if winner_pile is None else winner_pile,
        loser_pile=state.loser_pile if loser_pile is None else loser_pile,
        to_move=next_seat(state, player),
        start_player=state.start_player,
        leg=state.leg,
        partnerships=state.partnerships if partnerships is None else partnerships,
    )
    return prime_derived(
        after,
        pyramid=state.pyramid,
        is_over=False,
        result=None,
        ticket_stacks=state.ticket_stacks if ticket_stacks is None else ticket_stacks,
        hands=state.hands if hands is None else hands,
    )


def _place_tile(state: State, action: PlaceTile | MoveTile) -> Result:
    problem = tiles.tile_action_problem(state, action.player, moving=type(action) is MoveTile)
    problem = problem or tiles.tile_space_problem(state, action.player, action.space, action.side)
    if problem is not None:
        raise problem.illegal()
    own = state.tile_of(action.player)
    others = tuple(t for t in state.tiles if t.owner != action.player)
    placed = tuple(
        sorted((*others, Tile(action.space, action.player, action.side)), key=lambda t: t.space)
    )
    clause = "tile.move.different-space" if own is not None else "tile.place.empty-space"
    event = TilePlaced(action.player, action.space, action.side, own.space if own else None, clause)
    return Result(_after_turn(state, action.player, tiles=placed), (event,))


@implements("bet.finish.pile-order")
def _place_finish_card(state: State, action: PlaceFinishCard) -> Result:
    problem = betting.finish_card_problem(state, action.player, action.camel)
    if problem is not None:
        raise problem.illegal()
    card = FinishCard(action.player, action.camel)
    hands = list(state.hands)
    hands[action.player] = hands[action.player] - {action.camel}
    if action.pile is Pile.WINNER:
        winner_pile, loser_pile = (*state.winner_pile, card), state.loser_pile
    else:
        winner_pile, loser_pile = state.winner_pile, (*state.loser_pile, card)
    new = _after_turn(
        state, action.player, winner_pile=winner_pile, loser_pile=loser_pile, hands=tuple(hands)
    )
    return Result(new, (FinishCardPlaced(action.player, action.pile),))


def _form_partnership(state: State, action: FormPartnership) -> Result:
    problem = partnership.partnership_problem(state, action.player, action.partner)
    if problem is not None:
        raise problem.illegal()
    pair = (min(action.player, action.partner), max(action.player, action.partner))
    new = _after_turn(state, action.player, partnerships=tuple(sorted((*state.partnerships, pair))))
    return Result(new, (PartnershipFormed(action.player, action.partner),))


@implements("move.pyramid.take-ticket", "leg.end.first", "leg.end.second", "end.final-leg-scoring")
def _take_pyramid_ticket(state: State, action: TakePyramidTicket) -> Result:
    roll = action.roll
    pyramid = state.pyramid
    problem = movement.roll_problem(pyramid, roll)
    if problem is not None:
        raise problem.illegal()
    events: list[Event] = [
        _ticket_taken(action.player),
        _die_revealed(roll.die, roll.value, roll.colour),
    ]
    track = list(state.track)
    moved = race.reveal(track, state.tiles, state.ruleset, roll, events)
    players = list(state.players)
    acting = players[action.player]
    players[action.player] = Player(acting.money, acting.leg_tickets, acting.pyramid_tickets + 1)
    paid = tuple(players)
    if moved.payments:
        paid = money.pay(paid, [(payment.owner, payment.amount) for payment in moved.payments])
    revealed = (*state.revealed, roll)
    # Built directly rather than with attrs.evolve, which is several times slower, and by
    # position (the order of State's fields), which is faster than by keyword.
    new = State(
        state.ruleset,
        tuple(track),
        state.tiles,
        revealed,
        paid,
        state.winner_pile,
        state.loser_pile,
        next_seat(state, action.player),
        state.start_player,
        state.leg,
        state.partnerships,
    )
    if moved.crossed:
        return Result(_end_game(new, events), tuple(events))
    if leg_is_over(state.ruleset, len(revealed)):
        return Result(_end_leg(new, action.player, events), tuple(events))
    out = pyramid.index(roll.die)
    # The roll took this die out and no unit crossed: what the new state would derive.
    prime_derived(new, pyramid=pyramid[:out] + pyramid[out + 1 :], is_over=False, result=None)
    return Result(new, tuple(events))


# Events are immutable values, so the two that open every pyramid action are made once per seat
# and per roll and then shared: building an attrs instance costs more than the rest of the
# action's own bookkeeping (each is some 4,000 instructions; a cached one a few hundred). The
# roll is keyed by its fields, as hashing a DieRoll runs attrs' __hash__ in Python; the event
# holds an equal roll.
@functools.cache
def _ticket_taken(player: int) -> PyramidTicketTaken:
    return PyramidTicketTaken(player)


@functools.cache
def _die_revealed(die: Die, value: int, colour: Camel | None) -> DieRevealed:
    return DieRevealed(DieRoll(die, value, colour))


@implements("tile.stays", "leg.number")
def _end_leg(state: State, last_taker: int, events: list[Event]) -> State:
    ranked = ranking(state.track)
    scored = score_leg(state.players, state.partnerships, ranked, state.leg)
    events.append(scored)
    passed = next_start_player(state.ruleset, last_taker, state.start_player)
    events.append(passed)
    events.append(LegStarted(state.leg + 1))
    new = State(  # by position, as in _take_pyramid_ticket
        state.ruleset,
        state.track,
        (),  # tiles
        (),  # revealed
        players_for_new_leg(state.players, scored),
        state.winner_pile,
        state.loser_pile,
        passed.player,  # to_move
        passed.player,  # start_player
        state.leg + 1,
        (),  # partnerships
    )
    # Every die is back in the pyramid, and no unit crossed (else the race would have ended).
    return prime_derived(new, pyramid=state.ruleset.dice, is_over=False, result=None)


def _end_game(state: State, events: list[Event]) -> State:
    ranked = ranking(state.track)
    scored = score_leg(state.players, state.partnerships, ranked, state.leg)
    events.append(scored)
    # the money after the leg's scoring, in a list the finish-pile scoring then settles in
    amounts = money.balances(state.players, [(score.player, score.paid) for score in scored.scores])
    events.extend(
        score_finish_piles(
            state.ruleset, amounts, state.winner_pile, state.loser_pile, ranked[0], ranked[-1]
        )
    )
    # both scorings paid at once: one new player per seat whose money changed
    paid = [after - p.money for p, after in zip(state.players, amounts, strict=True)]
    players = money.pay(state.players, enumerate(paid))
    ended = State(  # by position, as in _take_pyramid_ticket
        state.ruleset,
        state.track,
        state.tiles,
        state.revealed,
        players,
        state.winner_pile,
        state.loser_pile,
        state.to_move,
        state.start_player,
        state.leg,
        state.partnerships,
    )
    assert ended.result is not None  # a unit crossed the line: the state knows it is over
    events.append(GameEnded(ranked[0], ranked[-1], tuple(amounts), ended.result.winners))
    return ended


def chance_outcomes(state: State) -> tuple[tuple[DieRoll, Fraction], ...]:
    """Every die roll the pyramid action can produce now, with its exact probability
    (``move.pyramid.chance``, :func:`camelup.rules.race.roll_chances`): none once the game is
    over."""
    if state.is_over:
        return ()
    return race.roll_chances(state.pyramid)


# Rolls and actions are immutable values, so the ones legal_actions offers are built once per
# seat and pyramid (or edition) and shared; the caches stay small (64 pyramids per edition,
# eight seats; bounded all the same, for states with seats no ruleset has). Which of them are
# legal is still asked of the rules on every call.


@functools.cache
def _rolls_from(pyramid: tuple[Die, ...]) -> tuple[DieRoll, ...]:
    return tuple(roll for die in pyramid for roll in die_rolls(die))


@functools.lru_cache(maxsize=2048)
def _pyramid_actions(seat: int, pyramid: tuple[Die, ...]) -> tuple[TakePyramidTicket, ...]:
    return tuple(TakePyramidTicket(seat, roll) for roll in _rolls_from(pyramid))


@attrs.frozen
class _SeatActions:
    """Every action a seat could take in a ruleset but the pyramid's, by what decides it."""

    leg_tickets: tuple[tuple[Camel, TakeLegTicket], ...]
    place_tile: tuple[tuple[PlaceTile, ...], ...]  # by space, the edition's two sides
    move_tile: tuple[tuple[MoveTile, ...], ...]
    finish_cards: tuple[tuple[Camel, tuple[PlaceFinishCard, PlaceFinishCard]], ...]
    partnerships: tuple[tuple[int, FormPartnership], ...]


@functools.lru_cache(maxsize=256)
def _seat_actions(seat: int, edition: Edition, players: int) -> _SeatActions:
    racing = RACING_CAMELS[edition]
    sides = SIDES[edition]
    spaces = range(LAST_SPACE + 1)
    return _SeatActions(
        leg_tickets=tuple((camel, TakeLegTicket(seat, camel)) for camel in racing),
        place_tile=tuple(tuple(PlaceTile(seat, space, side) for side in sides) for space in spaces),
        move_tile=tuple(tuple(MoveTile(seat, space, side) for side in sides) for space in spaces),
        finish_cards=tuple(
            (
                camel,
                (
                    PlaceFinishCard(seat, camel, Pile.WINNER),
                    PlaceFinishCard(seat, camel, Pile.LOSER),
                ),
            )
            for camel in racing
        ),
        partnerships=tuple((other, FormPartnership(seat, other)) for other in range(players)),
    )


@implements("turn.actions.first", "turn.actions.second", "turn.always-an-action")
def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the player to move may take, the pyramid action once per possible roll."""
    if state.is_over:
        return ()
    seat = state.to_move
    ruleset = state.ruleset
    offered = _seat_actions(seat, ruleset.edition, ruleset.players)
    actions: list[Action] = []
    leg_ticket_problem = betting.leg_ticket_problem
    for camel, ticket in offered.leg_tickets:
        if leg_ticket_problem(state, camel) is None:
            actions.append(ticket)
    by_space = offered.move_tile if state.tile_of(seat) is not None else offered.place_tile
    side = SIDES[ruleset.edition][0]
    tile_space_problem = tiles.tile_space_problem
    for space in range(FIRST_SPACE, LAST_SPACE + 1):
        # Both sides of the edition are always allowed, so one check per space settles both.
        if tile_space_problem(state, seat, space, side) is None:
            actions.extend(by_space[space])
    actions.extend(_pyramid_actions(seat, state.pyramid))
    finish_card_problem = betting.finish_card_problem
    for camel, cards in offered.finish_cards:
        if finish_card_problem(state, seat, camel) is None:
            actions.extend(cards)
    partnership_problem = partnership.partnership_problem
    for other, form in offered.partnerships:
        if partnership_problem(state, seat, other) is None:
            actions.append(form)
    return tuple(actions)

"""The immutable game state and the pieces it holds.

Everything the rules track is here, in frozen attrs classes of tuples. The state stores each
fact once: what can be worked out from other members is derived, never stored beside them
(the pyramid from the revealed dice, the ticket stacks from the tickets held, the hands from
the finish piles, both sides of a partnership from one pair, whether the race is over from the
track, the winners from the money). So no two members can disagree. No validator runs when a
state is built: loading untrusted data goes through :func:`camelup.play.validation.validate_state`.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.enums import IdentityEnum
from camelup.model.ruleset import PYRAMID_TICKETS, Ruleset
from camelup.model.trace import implements, implements_value
from camelup.model.track import FIRST_SPACE, LAST_SPACE, MAX_SPACE, MIN_SPACE, Stack, slot

_FIRST_SLOT: Final = slot(FIRST_SPACE)
_PAST_LAST_SLOT: Final = slot(LAST_SPACE) + 1


class TileSide(IdentityEnum):
    """The face-up side of a desert tile (1st edition) or spectator tile (2nd edition)."""

    OASIS = "oasis"
    MIRAGE = "mirage"
    CHEERING = "cheering"
    BOOING = "booing"

    step: int  # +1 forward, -1 backward, in the moving unit's own direction


for _side in TileSide:
    _side.step = 1 if _side.value in ("oasis", "cheering") else -1


class Pile(IdentityEnum):
    """The two overall-bet piles on the board."""

    WINNER = "winner"
    LOSER = "loser"


@attrs.frozen
class Tile:
    """A player's tile on the track."""

    space: int
    owner: int
    side: TileSide


@attrs.frozen
class LegTicket:
    """A leg betting ticket (2nd edition) or leg betting tile (1st edition)."""

    camel: Camel
    value: int


@attrs.frozen
class FinishCard:
    """A finish card (race betting card) placed on a pile: who placed it, on which camel."""

    owner: int
    camel: Camel


implements_value("money.currency", __name__, "Player.money")  # a whole number of EP


@attrs.frozen
class Player:
    """One seat at the table: money, the leg tickets held, the pyramid tickets taken this leg.

    The finish cards in hand and the partner are the state's (:meth:`State.hand`,
    :meth:`State.partner_of`): both follow from what lies on the table.
    """

    money: int
    leg_tickets: tuple[LegTicket, ...] = ()
    pyramid_tickets: int = 0


@attrs.frozen
class GameResult:
    """How the game ended: the winning seats (several on a tie)."""

    winners: tuple[int, ...]


@attrs.frozen
class State:
    """A complete, immutable game position.

    ``track`` has one stack (bottom to top) per space from -2 to 19; use :meth:`stack` and
    :meth:`space_of` rather than indexing it. ``revealed`` lists the dice out of the pyramid in
    the order they came out. ``partnerships`` holds each partnership of this leg once, as a
    pair of seats, lower seat first, the pairs sorted.
    """

    ruleset: Ruleset
    track: tuple[Stack, ...]
    tiles: tuple[Tile, ...]
    revealed: tuple[DieRoll, ...]
    players: tuple[Player, ...]
    winner_pile: tuple[FinishCard, ...]
    loser_pile: tuple[FinishCard, ...]
    to_move: int
    start_player: int
    leg: int
    partnerships: tuple[tuple[int, int], ...] = ()

    @cached_property
    @implements("move.die.stays-out")
    def pyramid(self) -> tuple[Die, ...]:
        """The dice still in the pyramid, in ruleset order: the edition's dice but those out."""
        out = [roll.die for roll in self.revealed]
        return tuple(die for die in self.ruleset.dice if die not in out)

    @cached_property
    @implements("bet.leg.take-top")
    def ticket_stacks(self) -> tuple[tuple[int, ...], ...]:
        """Each racing camel's remaining leg tickets, bottom to top, in ``racing_camels`` order:
        the full stack less as many tickets, from the top, as the players hold of that camel."""
        held = [ticket.camel for player in self.players for ticket in player.leg_tickets]
        if not held:
            return self.ruleset.full_ticket_stacks
        full = self.ruleset.leg_ticket_values
        return tuple(
            full[: max(0, len(full) - held.count(camel))] for camel in self.ruleset.racing_camels
        )

    @cached_property
    @implements("bet.finish.permanent")
    def hands(self) -> tuple[frozenset[Camel], ...]:
        """Each seat's finish cards in hand: one per racing camel, less those it has placed."""
        racing = frozenset(self.ruleset.racing_camels)
        if not self.winner_pile and not self.loser_pile:
            return (racing,) * len(self.players)
        placed: list[set[Camel]] = [set() for _ in self.players]
        for card in (*self.winner_pile, *self.loser_pile):
            if 0 <= card.owner < len(placed):
                placed[card.owner].add(card.camel)
        return tuple(racing - cards for cards in placed)

    def hand(self, seat: int) -> frozenset[Camel]:
        return self.hands[seat]

    def partner_of(self, seat: int) -> int | None:
        """The seat's partner this leg, if it has one (a partnership binds both seats)."""
        for first, second in self.partnerships:
            if first == seat:
                return second
            if second == seat:
                return first
        return None

    @cached_property
    @implements("end.crossing.racing", "end.crossing.crazy")
    def is_over(self) -> bool:
        """The race is over once a unit has crossed the finish line: a camel stands past it."""
        track = self.track
        return any(track[:_FIRST_SLOT]) or any(track[_PAST_LAST_SLOT:])

    @cached_property
    @implements("final.winners")
    def result(self) -> GameResult | None:
        """None while the race goes on; then every seat with the most money (a tie shares)."""
        if not self.is_over:
            return None
        best = max(player.money for player in self.players)
        return GameResult(tuple(s for s, p in enumerate(self.players) if p.money == best))

    def stack(self, space: int) -> Stack:
        """The camels on ``space``, bottom to top (empty beyond the spaces the track keeps)."""
        if MIN_SPACE <= space <= MAX_SPACE:
            return self.track[slot(space)]
        return ()

    def space_of(self, camel: Camel) -> int:
        """The space ``camel`` stands on."""
        for index, stack in enumerate(self.track):
            if camel in stack:
                return index + MIN_SPACE
        raise KeyError(camel)

    def occupied(self) -> tuple[tuple[int, Stack], ...]:
        """Every non-empty space with its stack, from the rearmost to the foremost."""
        return tuple((i + MIN_SPACE, s) for i, s in enumerate(self.track) if s)

    def tile_at(self, space: int) -> Tile | None:
        for tile in self.tiles:
            if tile.space == space:
                return tile
        return None

    def tile_of(self, player: int) -> Tile | None:
        for tile in self.tiles:
            if tile.owner == player:
                return tile
        return None

    def ticket_stack(self, camel: Camel) -> tuple[int, ...]:
        return self.ticket_stacks[self.ruleset.racing_camels.index(camel)]

    @property
    def pyramid_tickets_left(self) -> int:
        return PYRAMID_TICKETS - len(self.revealed)


def prime_derived(
    state: State,
    *,
    pyramid: tuple[Die, ...],
    is_over: bool,
    result: GameResult | None,
    ticket_stacks: tuple[tuple[int, ...], ...] | None = None,
    hands: tuple[frozenset[Camel], ...] | None = None,
) -> State:
    """``state`` with members it derives filled in by a caller that has just worked them out
    anyway (the engine, which knows what an action changed and what it left as it was), so
    the state need not derive them again.

    Each value must be the one the state would derive; ``tests/test_derived_state.py`` checks
    that for every state the engine builds. Nothing is stored beside the derivation: these are
    the same cached members, filled early.
    """
    _fill(state, "pyramid", pyramid)
    _fill(state, "is_over", is_over)
    _fill(state, "result", result)
    if ticket_stacks is not None:
        _fill(state, "ticket_stacks", ticket_stacks)
    if hands is not None:
        _fill(state, "hands", hands)
    return state


_fill = object.__setattr__  # the frozen class refuses setattr; its cache slots take this

"""The immutable game state and the pieces it holds.

Everything the rules track is here, in frozen attrs classes of tuples and frozensets. The
state holds no derived data beyond what the hot path needs, and no validator runs when it is
built: loading untrusted data goes through :func:`camelup.validation.validate_state`.
"""

from __future__ import annotations

import enum

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.ruleset import PYRAMID_TICKETS, Ruleset
from camelup.model.track import MAX_SPACE, MIN_SPACE, Stack, slot
from camelup.trace import implements_value


class TileSide(enum.Enum):
    """The face-up side of a desert tile (1st edition) or spectator tile (2nd edition)."""

    OASIS = "oasis"
    MIRAGE = "mirage"
    CHEERING = "cheering"
    BOOING = "booing"

    step: int  # +1 forward, -1 backward, in the moving unit's own direction


for _side in TileSide:
    _side.step = 1 if _side.value in ("oasis", "cheering") else -1


class Pile(enum.Enum):
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
    """One seat at the table. ``finish_cards`` are the cards still in hand."""

    money: int
    leg_tickets: tuple[LegTicket, ...] = ()
    pyramid_tickets: int = 0
    finish_cards: frozenset[Camel] = frozenset()
    partner: int | None = None


@attrs.frozen
class GameResult:
    """How the game ended: the winning seats (several on a tie)."""

    winners: tuple[int, ...]


@attrs.frozen
class State:
    """A complete, immutable game position.

    ``track`` has one stack (bottom to top) per space from -2 to 19; use :meth:`stack` and
    :meth:`space_of` rather than indexing it. ``ticket_stacks`` follows
    ``ruleset.racing_camels`` and lists each colour's remaining values bottom to top.
    ``revealed`` lists the dice out of the pyramid in the order they came out.
    """

    ruleset: Ruleset
    track: tuple[Stack, ...]
    tiles: tuple[Tile, ...]
    pyramid: tuple[Die, ...]
    revealed: tuple[DieRoll, ...]
    ticket_stacks: tuple[tuple[int, ...], ...]
    players: tuple[Player, ...]
    winner_pile: tuple[FinishCard, ...]
    loser_pile: tuple[FinishCard, ...]
    to_move: int
    start_player: int
    leg: int
    result: GameResult | None = None

    @property
    def is_over(self) -> bool:
        return self.result is not None

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
        return PYRAMID_TICKETS - sum(p.pyramid_tickets for p in self.players)

"""Player actions. Every action names the acting seat; the pyramid action carries its die roll."""

from __future__ import annotations

import attrs

from camelup.model.camels import Camel
from camelup.model.dice import DieRoll
from camelup.model.state import Pile, TileSide


@attrs.frozen
class TakeLegTicket:
    """Take the top leg ticket of ``camel``'s stack."""

    player: int
    camel: Camel


@attrs.frozen
class PlaceTile:
    """Put one's own tile, which is not on the track, on ``space`` with ``side`` up."""

    player: int
    space: int
    side: TileSide


@attrs.frozen
class MoveTile:
    """Move one's own tile, already on the track, to another ``space`` with ``side`` up."""

    player: int
    space: int
    side: TileSide


@attrs.frozen
class TakePyramidTicket:
    """Take a pyramid ticket; ``roll`` is the die that then comes out and the face it shows."""

    player: int
    roll: DieRoll


@attrs.frozen
class PlaceFinishCard:
    """Put the finish card of ``camel`` from one's hand on the winner or loser pile."""

    player: int
    camel: Camel
    pile: Pile


@attrs.frozen
class FormPartnership:
    """Enter a betting partnership with ``partner`` (2nd edition, 6 or more players)."""

    player: int
    partner: int


Action = (
    TakeLegTicket | PlaceTile | MoveTile | TakePyramidTicket | PlaceFinishCard | FormPartnership
)
ACTION_TYPES = (
    TakeLegTicket,
    PlaceTile,
    MoveTile,
    TakePyramidTicket,
    PlaceFinishCard,
    FormPartnership,
)

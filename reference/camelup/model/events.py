"""Events: what happened during one action, in order, each naming the clause that caused it."""

from __future__ import annotations

from typing import Literal

import attrs

from camelup.model.camels import Camel
from camelup.model.dice import DieRoll
from camelup.model.state import LegTicket, Pile, TileSide

Placement = Literal["top", "underneath"]
Direction = Literal["clockwise", "counterclockwise"]


@attrs.frozen
class LegTicketTaken:
    player: int
    ticket: LegTicket
    clause: str = "bet.leg.take-top"


@attrs.frozen
class TilePlaced:
    player: int
    space: int
    side: TileSide
    from_space: int | None  # where it was, when the owner moved it
    clause: str


@attrs.frozen
class PyramidTicketTaken:
    player: int
    clause: str = "move.pyramid.take-ticket"


@attrs.frozen
class DieRevealed:
    roll: DieRoll
    clause: str = "move.pyramid.take-ticket"


@attrs.frozen
class CrazyCamelChosen:
    camel: Camel
    clause: str  # which selection rule decided


@attrs.frozen
class UnitMoved:
    """A camel unit moved from one space to another and was put on top of or under a stack."""

    unit: tuple[Camel, ...]
    from_space: int
    to_space: int
    placement: Placement
    clause: str


@attrs.frozen
class WhirlwindStep:
    """One step of a unit along a whirlwind arrow (or bounced back from space 8)."""

    unit: tuple[Camel, ...]
    from_space: int
    to_space: int
    clause: str


@attrs.frozen
class TilePaid:
    owner: int
    space: int
    amount: int
    clause: str = "tile.land.pay-owner"


@attrs.frozen
class FinishCardPlaced:
    player: int
    pile: Pile
    clause: str = "bet.finish.place"


@attrs.frozen
class PartnershipFormed:
    player: int
    partner: int
    clause: str = "partner.swap"


@attrs.frozen
class PlayerLegScore:
    """One player's leg scoring: each part, the total and what was actually paid (floor 0)."""

    player: int
    tickets: tuple[tuple[LegTicket, int], ...]
    pyramid: int
    partner_bonus: int
    total: int
    paid: int


@attrs.frozen
class LegScored:
    leg: int
    leader: Camel
    second: Camel
    scores: tuple[PlayerLegScore, ...]
    clause: str = "leg.score.net"


@attrs.frozen
class StartPlayerPassed:
    player: int
    clause: str


@attrs.frozen
class LegStarted:
    leg: int
    clause: str = "leg.cleanup"


@attrs.frozen
class RaceEnded:
    """A unit crossed the finish line: clockwise past 16, or counterclockwise past 1."""

    unit: tuple[Camel, ...]
    direction: Direction
    clause: str


@attrs.frozen
class FinishCardScored:
    pile: Pile
    owner: int
    camel: Camel
    correct: bool
    amount: int
    paid: int
    clause: str


@attrs.frozen
class GameEnded:
    winner_camel: Camel
    loser_camel: Camel
    money: tuple[int, ...]
    winners: tuple[int, ...]
    clause: str = "final.winners"


Event = (
    LegTicketTaken
    | TilePlaced
    | PyramidTicketTaken
    | DieRevealed
    | CrazyCamelChosen
    | UnitMoved
    | WhirlwindStep
    | TilePaid
    | FinishCardPlaced
    | PartnershipFormed
    | LegScored
    | StartPlayerPassed
    | LegStarted
    | RaceEnded
    | FinishCardScored
    | GameEnded
)

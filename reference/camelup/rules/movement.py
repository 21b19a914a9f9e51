"""Chapter 5: camel units, stacking and landing (``spec/05-movement.md``), with the tile step of
chapter 6 and the finish line of chapter 11 that end a move.

The functions here work on a *list* copy of the track owned by one caller (``apply``, or the odds
oracle through :func:`camelup.rules.race.reveal`); they never see or change a state that anybody
else holds. They append events only when given a list to append to (``events=None``: none are
made). Rules of other chapters are looked up through their modules (``whirlwind.…``,
``crazy.…``) at call time, so that every caller, and a test that patches a rule, reaches the same
code.
"""

from __future__ import annotations

import functools

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll, face_problem
from camelup.model.errors import Violation
from camelup.model.events import Direction, Event, RaceEnded, TilePaid, UnitMoved
from camelup.model.ruleset import Ruleset
from camelup.model.state import Tile
from camelup.model.trace import implements
from camelup.model.track import LAST_SPACE, MAX_SPACE, MIN_SPACE, Stack
from camelup.rules import crazy, whirlwind

Track = list[Stack]


@attrs.frozen
class Moved:
    """What revealing one die did to the race: the race kernel's result.

    ``landing`` is the space where the die's own move ended (after any whirlwind arrow, before
    any tile step): a tile acts only there (``move.only-final-space``), so callers that share
    moves across tile layouts key on it, through :attr:`reached`. ``crossed``: a unit crossed
    the finish line, which ends the race. ``payments``: what tiles owe their owners for this
    move, paid by :func:`camelup.rules.money.pay`.

    A slotted class, not a named tuple: the odds read ``crossed`` and ``payments`` of every
    move, and a slot is read several times faster than a named tuple's field (a descriptor
    that the interpreter does not specialise). Building one costs more, but every move shares
    one made once: an arrival or a crossing (below), or a tile landing (``_landed``).
    """

    landing: int
    crossed: bool
    payments: tuple[TilePaid, ...] = ()

    @property
    def reached(self) -> tuple[int, ...]:
        """The spaces where a tile acts on this move: only the landing (``move.only-final-space``).
        The odds share a move across tile layouts that put no tile on them, so a rule that lets
        a tile act elsewhere says so here, and the odds follow."""
        return (self.landing,)


# A move that meets no tile is known by its landing space and whether it crossed: made once per
# slot, then shared (it is immutable), because the odds make some 10^5 moves per leg. Which
# spaces are beyond the line is decided where the move is made, not here.
_ARRIVED = tuple(Moved(space, False) for space in range(MIN_SPACE, MAX_SPACE + 1))
_CROSSED = tuple(Moved(space, True) for space in range(MIN_SPACE, MAX_SPACE + 1))


@implements("move.die.stays-out")
def roll_problem(pyramid: tuple[Die, ...], roll: DieRoll) -> Violation | None:
    """The die must still be in the pyramid and show one of its faces."""
    if roll.die not in pyramid:
        message = f"the {roll.die.value} die is not in the pyramid"
        return Violation("die-not-in-pyramid", "move.die.stays-out", message, ("die",))
    return face_problem(roll)


@implements("move.stack.carry")
def lift_unit(track: Track, camel: Camel) -> tuple[int, Stack]:
    """Take ``camel`` and every camel above it off the track; the camels below stay.

    Returns the space it stood on and the unit, bottom to top.
    """
    index = 0  # counted by hand: enumerate's pairs cost a tenth of this hot function's time
    for stack in track:
        if camel in stack:
            height = stack.index(camel)
            track[index] = stack[:height]
            return index + MIN_SPACE, stack[height:]
        index += 1  # noqa: SIM113 (see above)
    raise KeyError(camel)


@implements("move.unit.lands-on-top")
def put_on_top(track: Track, unit: Stack, space: int) -> None:
    index = space - MIN_SPACE
    track[index] = track[index] + unit


@implements("tile.land.backward")
def put_underneath(track: Track, unit: Stack, space: int) -> None:
    """Booing and mirage: the unit goes under whatever is there and keeps its own order."""
    index = space - MIN_SPACE
    track[index] = unit + track[index]


@implements(
    "move.racing.clockwise",
    "crazy.move.counterclockwise",
    "crazy.carry",
    "move.only-final-space",
    "end.crossing.racing",
    "end.crossing.crazy",
    "crazy.no-wrap",
    "whirlwind.crazy-by-number",
)
def move_camel_unit(
    track: Track,
    tiles: tuple[Tile, ...],
    ruleset: Ruleset,
    camel: Camel,
    origin: int,
    unit: Stack,
    pips: int,
    events: list[Event] | None = None,
) -> Moved:
    """Move ``camel``'s unit by ``pips`` in its own direction.

    ``origin`` and ``unit`` are what :func:`lift_unit` returned when it took ``camel`` and
    everything on top of it off ``track``: the caller lifts, so that one lift serves every
    number of a die revealed on one track (the odds oracle). Racing camels go clockwise, crazy
    camels counterclockwise. Only the space where the move ends matters: there the unit goes on
    top, then a tile on that space pays its owner and pushes the unit one more space. Returns
    where the move ended, the tile payment (if any) and whether the unit crossed the finish
    line, which ends the race. Events go to ``events`` unless it is None.
    """
    if camel.is_crazy:
        direction, clause = -1, "crazy.move.counterclockwise"
        destination = origin - pips
        if destination < 1 and crazy.crossing_wraps(ruleset, unit):
            destination += LAST_SPACE
    else:
        direction, clause = 1, "move.racing.clockwise"
        if ruleset.whirlwind:
            destination = whirlwind.whirlwind_destination(track, unit, origin, pips, events)
        else:
            destination = origin + pips
    put_on_top(track, unit, destination)
    if events is not None:
        events.append(UnitMoved(unit, origin, destination, "top", clause))
    if destination > LAST_SPACE or destination < 1:
        if events is not None:
            crossing = "end.crossing.racing" if direction > 0 else "end.crossing.crazy"
            events.append(RaceEnded(unit, crossing_direction(destination), crossing))
        return _CROSSED[destination - MIN_SPACE]
    for tile in tiles:
        if tile.space == destination:
            return tile_step(track, ruleset, tile, unit, direction, events)
    return _ARRIVED[destination - MIN_SPACE]


@functools.cache  # at most one per seat, space and amount
def tile_payment(owner: int, space: int, amount: int) -> TilePaid:
    """A tile's payment to its owner, made once and then shared (an event is immutable):
    building an attrs instance costs some 4,000 instructions, and the odds meet a tile some
    10^4 times a leg."""
    return TilePaid(owner, space, amount)


@functools.cache  # at most two per tile (seat and space) and amount
def _landed(space: int, crossed: bool, owner: int, paid_on: int, amount: int) -> Moved:
    """:func:`tile_step`'s result, ``Moved(space, crossed, (TilePaid(owner, paid_on, amount),))``,
    made once and then shared (it is immutable): the odds meet a tile some 10^4 times a leg, and
    an attrs instance costs some 4,000 instructions to build. Keyed by the payment's fields, for
    hashing a TilePaid runs attrs' __hash__ in Python."""
    return Moved(space, crossed, (tile_payment(owner, paid_on, amount),))


@implements(
    "tile.land.pay-owner",
    "money.bank-unlimited",
    "tile.land.forward",
    "tile.land.crazy-reversed",
    "tile.land.off-track",
    "tile.land.no-chain",
    "whirlwind.tile-step",
)
def tile_step(
    track: Track,
    ruleset: Ruleset,
    tile: Tile,
    unit: Stack,
    direction: int,
    events: list[Event] | None = None,
) -> Moved:
    """The unit ended its move on ``tile``: the owner earns 1 EP, then the unit moves one space.

    Forward (oasis, cheering) puts it on top there; backward (mirage, booing) underneath. A
    unit led by a crazy camel uses its own direction, so "forward" is counterclockwise. The
    extra step is a plain one-space step (never a whirlwind arrow) and never ends on another
    tile, because tiles are never adjacent.
    """
    paid = tile_payment(tile.owner, tile.space, 1)
    if events is not None:
        events.append(paid)
    index = tile.space - MIN_SPACE
    track[index] = track[index][: len(track[index]) - len(unit)]
    target = tile.space + tile.side.step * direction
    if target > LAST_SPACE and direction < 0 and crazy.crossing_wraps(ruleset, unit):
        target -= LAST_SPACE  # the lone crazy camel goes on round the loop (RUL-24)
    if tile.side.step > 0:
        put_on_top(track, unit, target)
        placement, clause = "top", "tile.land.forward"
    else:
        put_underneath(track, unit, target)
        placement, clause = "underneath", "tile.land.backward"
    if events is not None:
        if direction < 0:
            clause = "tile.land.crazy-reversed"
        events.append(UnitMoved(unit, tile.space, target, placement, clause))  # type: ignore[arg-type]
    if target > LAST_SPACE or target < 1:
        if events is not None:
            events.append(RaceEnded(unit, crossing_direction(target), "tile.land.off-track"))
        return _landed(tile.space, True, paid.owner, paid.space, paid.amount)
    return _landed(tile.space, False, paid.owner, paid.space, paid.amount)


def crossing_direction(space: int) -> Direction:
    """Which way a unit that ended beyond the track crossed the finish line."""
    return "clockwise" if space > LAST_SPACE else "counterclockwise"

"""The race kernel: what revealing one die does to the track (chapters 5 to 8 and 11).

:func:`reveal` is the one place where a die roll becomes camel movement. ``apply`` calls it for
the pyramid action, with a list to record the events in; the odds oracle (:mod:`camelup.odds.exact`)
calls it, or its two halves (:func:`lift_mover`, then ``movement.move_camel_unit`` once per
number of the die), directly on a bare track, with no ``State``, ``Player`` or events at all.

The kernel composes the rules; it states none of them itself. Each rule is looked up through
its module at call time (``crazy.choose_crazy_camel``, ``movement.lift_unit`` and
``movement.move_camel_unit``, which in turn calls ``whirlwind.whirlwind_destination`` and
``movement.tile_step``), so every caller runs the same code, and a test that patches one rule
in its module changes both play and odds.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Final

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll, die_rolls
from camelup.model.events import CrazyCamelChosen, Event
from camelup.model.ruleset import Ruleset
from camelup.model.state import Tile
from camelup.model.trace import implements
from camelup.model.track import Stack
from camelup.rules import crazy, movement

Track = movement.Track
Moved = movement.Moved
_GREY: Final = Die.GREY  # looking a member up on its Enum class costs a Python call


@functools.cache  # a pure function of a few dozen pyramids: play and the odds ask it often
@implements("move.pyramid.chance")
def roll_chances(pyramid: tuple[Die, ...]) -> tuple[tuple[DieRoll, Fraction], ...]:
    """Every roll the pyramid action can produce with ``pyramid``'s dice in it, with its exact
    probability, in the order of ``pyramid`` and of :func:`camelup.model.dice.die_rolls`.

    Each die left in the pyramid is equally likely to come out; a racing die shows 1, 2 or 3
    with probability 1/3 each (two faces each); the grey die shows each of its six faces (1, 2,
    3 in white and in black) with probability 1/6. ``chance_outcomes`` (play), the odds and the
    Monte Carlo races all take the chances from here.
    """
    # Each roll die_rolls lists is one face of the grey die, or two faces of a racing die that
    # show the same number: equally likely once the die is drawn.
    chances: list[tuple[DieRoll, Fraction]] = []
    for die in pyramid:
        rolls = die_rolls(die)
        chance = Fraction(1, len(pyramid) * len(rolls))
        chances.extend((roll, chance) for roll in rolls)
    return tuple(chances)


@implements("move.pyramid.take-ticket", "move.racing.clockwise", "crazy.move.counterclockwise")
def reveal(
    track: Track,
    tiles: tuple[Tile, ...],
    ruleset: Ruleset,
    roll: DieRoll,
    events: list[Event] | None = None,
    crazy_choice: tuple[Camel, str] | None = None,
) -> Moved:
    """Reveal ``roll`` and move its camel on ``track``, a list of stacks changed in place.

    A racing die moves the racing camel of its colour clockwise; the grey die moves the crazy
    camel that chapter 7 selects (the only carrier, else the upper of two stacked crazy camels,
    else the colour of the number) counterclockwise. The unit carries every camel above its
    mover, follows the whirlwind arrows when the module is in play, and may land on a tile,
    which pays its owner and pushes the unit on by one space. The roll is not checked here: the
    caller passes a roll of a die still in the pyramid.

    Returns a :class:`~camelup.rules.movement.Moved`: the space where the die's move ended, the
    tile payment if the unit landed on a tile (for :func:`camelup.rules.money.pay`), and whether
    a unit crossed the finish line, which ends the race. The events (the crazy camel chosen, the
    moves, arrow steps, payment and race end) are appended to ``events`` when it is a list; with
    ``None`` nothing is recorded and no event object is made.

    For the grey die, ``crazy_choice`` may bring chapter 7's answer for this track and the
    roll's colour, ``crazy.choose_crazy_camel(track, roll.colour)``, asked by the caller before
    the move: the answer does not depend on the number, so a caller revealing the three numbers
    of one colour on one track (the odds oracle) asks once instead of three times. ``None``: the
    kernel asks.
    """
    camel, origin, unit = lift_mover(track, roll, crazy_choice, events)
    return movement.move_camel_unit(track, tiles, ruleset, camel, origin, unit, roll.value, events)


def lift_mover(
    track: Track,
    roll: DieRoll,
    crazy_choice: tuple[Camel, str] | None = None,
    events: list[Event] | None = None,
) -> tuple[Camel, int, Stack]:
    """The first half of :func:`reveal`: the camel that ``roll`` moves, and its unit lifted off
    ``track`` (``movement.lift_unit``), with the space it stood on.

    The camel and the unit do not depend on the number shown, so a caller revealing the three
    numbers of one die (of one colour, for the grey die) on one track lifts once, then moves a
    copy of the lifted track with ``movement.move_camel_unit`` for each number, as
    :func:`reveal` does for one.
    """
    die = roll.die
    if die is _GREY:
        if crazy_choice is None:
            crazy_choice = crazy.choose_crazy_camel(track, roll.colour)
        camel, clause = crazy_choice
        if events is not None:
            events.append(CrazyCamelChosen(camel, clause))
    else:
        camel = die.camel  # type: ignore[assignment]
    origin, unit = movement.lift_unit(track, camel)
    return camel, origin, unit

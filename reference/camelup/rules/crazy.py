"""Chapter 7: crazy camels and the grey die (``spec/07-crazy.md``)."""

from __future__ import annotations

from camelup.model.camels import CRAZY_CAMELS, Camel
from camelup.model.dice import DieRoll
from camelup.model.ruleset import Ruleset, Variant
from camelup.model.track import Stack
from camelup.trace import implements


@implements(
    "crazy.select.colour",
    "crazy.select.only-carrier",
    "crazy.select.top-of-other",
    "crazy.select.precedence",
)
def choose_crazy_camel(track: list[Stack] | tuple[Stack, ...], roll: DieRoll) -> tuple[Camel, str]:
    """Which crazy camel the grey die moves, and the clause that decided it.

    1. If exactly one crazy camel has a racing camel anywhere above it, that one moves.
    2. Otherwise, if one crazy camel sits directly on the other, the upper one moves.
    3. Otherwise the colour of the number shown decides.
    """
    white, black = CRAZY_CAMELS
    at_white = at_black = (-1, -1)  # (slot, height); -1 when not on the track
    found = 0
    for index, stack in enumerate(track):
        if stack:
            if white in stack:
                at_white = (index, stack.index(white))
                found += 1
            if black in stack:
                at_black = (index, stack.index(black))
                found += 1
            if found == 2:
                break
    white_carries = _carries_racing_camel(track, at_white)
    black_carries = _carries_racing_camel(track, at_black)
    if white_carries != black_carries:
        return (white if white_carries else black), "crazy.select.only-carrier"
    if at_white[0] == at_black[0] >= 0 and abs(at_white[1] - at_black[1]) == 1:
        return (white if at_white[1] > at_black[1] else black), "crazy.select.top-of-other"
    assert roll.colour is not None  # checked when the action was validated
    return roll.colour, "crazy.select.colour"


def _carries_racing_camel(track: list[Stack] | tuple[Stack, ...], at: tuple[int, int]) -> bool:
    """Whether a racing camel stands anywhere above the camel at ``at`` in its stack."""
    index, height = at
    return index >= 0 and not all([camel.is_crazy for camel in track[index][height + 1 :]])


@implements("crazy.wrap")
def crossing_wraps(ruleset: Ruleset, unit: Stack) -> bool:
    """Under ``crazy-finish-needs-racing`` a crazy camel carrying no racing camel does not finish:
    it goes on round the loop past space 1 to 16, 15, ... instead."""
    return Variant.CRAZY_FINISH_NEEDS_RACING in ruleset.variants and all(c.is_crazy for c in unit)

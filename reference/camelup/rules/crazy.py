"""Chapter 7: crazy camels and the grey die (``spec/07-crazy.md``)."""

from __future__ import annotations

from camelup.camels import CRAZY_CAMELS, Camel
from camelup.dice import DieRoll
from camelup.ruleset import Ruleset, Variant
from camelup.trace import implements
from camelup.track import Stack


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
    where: dict[Camel, tuple[int, int]] = {}
    for index, stack in enumerate(track):
        for height, camel in enumerate(stack):
            if camel.is_crazy:
                where[camel] = (index, height)
    carriers = [
        crazy
        for crazy in CRAZY_CAMELS
        if crazy in where
        and any(not c.is_crazy for c in track[where[crazy][0]][where[crazy][1] + 1 :])
    ]
    if len(carriers) == 1:
        return carriers[0], "crazy.select.only-carrier"
    white, black = where.get(CRAZY_CAMELS[0]), where.get(CRAZY_CAMELS[1])
    if white is not None and black is not None and white[0] == black[0]:
        if abs(white[1] - black[1]) == 1:
            upper = CRAZY_CAMELS[0] if white[1] > black[1] else CRAZY_CAMELS[1]
            return upper, "crazy.select.top-of-other"
    assert roll.colour is not None  # checked when the action was validated
    return roll.colour, "crazy.select.colour"


@implements("crazy.wrap")
def crossing_wraps(ruleset: Ruleset, unit: Stack) -> bool:
    """Under ``crazy-finish-needs-racing`` a crazy camel carrying no racing camel does not finish:
    it goes on round the loop past space 1 to 16, 15, ... instead."""
    return Variant.CRAZY_FINISH_NEEDS_RACING in ruleset.variants and all(c.is_crazy for c in unit)

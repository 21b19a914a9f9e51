"""Chapter 7: crazy camels and the grey die (``spec/07-crazy.md``)."""

from __future__ import annotations

from camelup.model.camels import CRAZY_CAMEL_SET as _CRAZY
from camelup.model.camels import CRAZY_CAMELS, Camel
from camelup.model.ruleset import Ruleset, Variant
from camelup.model.trace import implements
from camelup.model.track import Stack

# The rules that choose the crazy camel the grey die moves, in the order they are tried
# (crazy.select.precedence): the exceptions first, the colour of the number last.
# choose_crazy_camel tries them in this order; the judge reads it to name the rule behind a
# choice made otherwise, so the order is stated here once.
SELECTION_ORDER = ("crazy.select.only-carrier", "crazy.select.top-of-other", "crazy.select.colour")


@implements(
    "crazy.select.colour",
    "crazy.select.only-carrier",
    "crazy.select.top-of-other",
    "crazy.select.precedence",
)
def choose_crazy_camel(
    track: list[Stack] | tuple[Stack, ...], colour: Camel | None
) -> tuple[Camel, str]:
    """Which crazy camel the grey die moves, and the clause that decided it.

    ``colour`` is the colour of the number shown (``DieRoll.colour``): the choice depends
    on the track and that colour, never on the number itself.

    1. If exactly one crazy camel has a racing camel anywhere above it, that one moves.
    2. Otherwise, if one crazy camel sits directly on the other, the upper one moves.
    3. Otherwise the colour of the number shown decides.
    """
    white, black = CRAZY_CAMELS
    white_stack = black_stack = None
    # the occupied spaces only, from the front: the crazy camels start ahead of the racing camels
    # and are found sooner that way (which way the track is read changes nothing else)
    for stack in filter(None, reversed(track)):
        if white in stack:
            white_stack = stack
            if black_stack is not None:
                break
        if black in stack:
            black_stack = stack
            if white_stack is not None:
                break
    white_carries = white_stack is not None and _carries_racing_camel(white_stack, white)
    black_carries = black_stack is not None and _carries_racing_camel(black_stack, black)
    if white_carries is not black_carries:
        return (white if white_carries else black), "crazy.select.only-carrier"
    if white_stack is not None and white_stack is black_stack:  # one stack holds both
        white_above_black = white_stack.index(white) - white_stack.index(black)
        if white_above_black == 1 or white_above_black == -1:
            return (white if white_above_black == 1 else black), "crazy.select.top-of-other"
    assert colour is not None  # a grey roll shows a colour: checked when it was validated
    return colour, "crazy.select.colour"


def _carries_racing_camel(stack: Stack, camel: Camel) -> bool:
    """Whether a racing camel stands anywhere above ``camel`` in ``stack``: whether the camels
    above it are not crazy camels only (a set test in C: the odds ask it some 10^4 times a leg)."""
    return not _CRAZY.issuperset(stack[stack.index(camel) + 1 :])


@implements("crazy.wrap")
def crossing_wraps(ruleset: Ruleset, unit: Stack) -> bool:
    """Under ``crazy-finish-needs-racing`` a crazy camel carrying no racing camel does not finish:
    it goes on round the loop past space 1 to 16, 15, ... instead."""
    return Variant.CRAZY_FINISH_NEEDS_RACING in ruleset.variants and all(c.is_crazy for c in unit)

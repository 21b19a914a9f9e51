"""A die roll: which die came out of the pyramid and which face it shows."""

from __future__ import annotations

import functools
from typing import Final

import attrs

from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.errors import Violation
from camelup.model.trace import implements


@attrs.frozen(repr=False)
class DieRoll:
    """The chance outcome of the pyramid action.

    ``value`` is 1, 2 or 3. For the grey die ``colour`` is the colour of the number shown,
    ``Camel.CRAZY_WHITE`` or ``Camel.CRAZY_BLACK``; for a racing die it is ``None``.
    """

    die: Die
    value: int
    colour: Camel | None = None

    def __repr__(self) -> str:
        colour = "" if self.colour is None else f", {self.colour!r}"
        return f"DieRoll({self.die!r}, {self.value}{colour})"


FACE_VALUES: Final = (1, 2, 3)
_GREY: Final = Die.GREY  # looking a member up on its Enum class costs a Python call


@implements("dice.racing-faces", "dice.grey-faces")
def face_problem(roll: DieRoll) -> Violation | None:
    """Why ``roll`` shows no face of its die, or None.

    A racing die shows 1, 2 or 3 (each on two faces) and no colour; the grey die shows 1, 2 or
    3 in white or in black, so its roll names the crazy camel of that colour. ``where`` names
    the member of the roll at fault.
    """
    grey = roll.die is _GREY
    clause = "dice.grey-faces" if grey else "dice.racing-faces"
    if roll.value not in FACE_VALUES:
        return Violation("die-face", clause, "a die shows 1, 2 or 3", ("value",))
    if grey and (roll.colour is None or not roll.colour.is_crazy):
        message = "a grey-die roll shows a white or a black number"
        return Violation("die-face", clause, message, ("colour",))
    if not grey and roll.colour is not None:
        return Violation("die-face", clause, "a racing die has no crazy colour", ("colour",))
    return None


@functools.cache
@implements("dice.racing-faces", "dice.grey-faces")
def die_rolls(die: Die) -> tuple[DieRoll, ...]:
    """Every roll ``die`` can show: 1, 2 or 3, and for the grey die each number in white and in
    black (white first), as :func:`face_problem` accepts them."""
    if die is _GREY:
        return tuple(
            DieRoll(die, value, colour) for colour in CRAZY_CAMELS for value in FACE_VALUES
        )
    return tuple(DieRoll(die, value) for value in FACE_VALUES)

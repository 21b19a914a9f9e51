"""A die roll: which die came out of the pyramid and which face it shows."""

from __future__ import annotations

import attrs

from camelup.camels import Camel, Die


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

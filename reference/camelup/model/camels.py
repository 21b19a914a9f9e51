"""Camels and dice: one enum member per piece."""

from __future__ import annotations

from typing import Final

from camelup.model.enums import IdentityEnum


class Camel(IdentityEnum):
    """A camel. The racing camels of each edition differ; crazy camels exist in the 2nd only.

    White is a *racing* camel in the 1st edition; the 2nd edition's white camel is crazy and is
    a different member (``CRAZY_WHITE``).
    """

    BLUE = "blue"
    GREEN = "green"
    ORANGE = "orange"
    YELLOW = "yellow"
    WHITE = "white"
    RED = "red"
    PURPLE = "purple"
    CRAZY_WHITE = "crazy-white"
    CRAZY_BLACK = "crazy-black"

    # Set once below; a plain attribute is much cheaper on the hot path than a property.
    is_crazy: bool

    def __repr__(self) -> str:
        return f"Camel.{self.name}"


for _camel in Camel:
    _camel.is_crazy = _camel.value.startswith("crazy-")

CRAZY_CAMELS: Final[tuple[Camel, Camel]] = (Camel.CRAZY_WHITE, Camel.CRAZY_BLACK)
# The same as a set, for a test in C on the hot paths of the rules (ranking, the crazy choice).
CRAZY_CAMEL_SET: Final[frozenset[Camel]] = frozenset(CRAZY_CAMELS)


class Die(IdentityEnum):
    """A die in the pyramid: one per racing camel, and the grey die of the 2nd edition."""

    BLUE = "blue"
    GREEN = "green"
    ORANGE = "orange"
    YELLOW = "yellow"
    WHITE = "white"
    RED = "red"
    PURPLE = "purple"
    GREY = "grey"

    camel: Camel | None  # the racing camel it moves; None for the grey die

    def __repr__(self) -> str:
        return f"Die.{self.name}"


for _die in Die:
    _die.camel = None if _die.value == "grey" else Camel(_die.value)

DIE_OF_CAMEL: dict[Camel, Die] = {die.camel: die for die in Die if die.camel is not None}

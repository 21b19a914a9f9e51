"""The race track: 16 spaces, the finish line between 16 and 1, and the few spaces beyond it.

A camel unit that crosses the finish line ends the race on a space past the line: 17 to 19
clockwise, 0 to -2 counterclockwise. The track keeps those spaces so that the final position
of every camel stays on record (and ranks by the same rule as everywhere else).
"""

from __future__ import annotations

from typing import Final

from camelup.model.camels import Camel
from camelup.model.trace import implements_value

FIRST_SPACE: Final = 1
LAST_SPACE: Final = 16
MIN_SPACE: Final = -2  # a crazy camel on space 1 moving 3 counterclockwise
MAX_SPACE: Final = 19  # a racing camel on space 16 moving 3 clockwise
SLOTS: Final = MAX_SPACE - MIN_SPACE + 1
WHIRLWIND_SPACES: Final = (6, 7, 8)

Stack = tuple[Camel, ...]

implements_value("track.spaces", __name__, "LAST_SPACE")


def slot(space: int) -> int:
    """Index of ``space`` in a track tuple."""
    return space - MIN_SPACE

"""Chapter 9: ranking the racing camels (``spec/09-ranking.md``)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from camelup.model.camels import CRAZY_CAMEL_SET as _CRAZY
from camelup.model.camels import CRAZY_CAMELS, Camel
from camelup.model.trace import implements
from camelup.model.track import Stack

_WHITE, _BLACK = CRAZY_CAMELS


@implements(
    "rank.space",
    "rank.stack",
    "rank.ignore-crazy",
    "rank.crossed-finish",
    "rank.carried-backwards",
    "rank.one-ranking",
    "whirlwind.rank",
)
def ranking(track: Sequence[Stack]) -> tuple[Camel, ...]:
    """The racing camels from first to last.

    The foremost space first and, on one space, the higher camel first; crazy camels are
    skipped. Because the track keeps the spaces beyond the finish line, a unit that crossed
    clockwise (spaces 17+) is ahead of everyone, top first, and racing camels carried
    backwards over the line (spaces 0 and below) are behind everyone, the bottom one last.
    Whirlwind spaces rank by their number like any other space.
    """
    # Every camel from the back of the track to the front, each stack bottom to top. Joining the
    # stacks in C (adding an empty one costs nothing) is markedly cheaper than a loop over every
    # space. The ranking depends on that order alone, and the camels have few orders (at most
    # 7! = 5,040), so each order is ranked once (_ranked): the odds oracle ranks some 10^4
    # tracks a leg, most of them in an order ranked before.
    return _ranked(sum(track, ()))


@functools.cache
def _ranked(back_to_front: Stack) -> tuple[Camel, ...]:
    """The racing camels of ``back_to_front`` (the track's camels from the back to the front,
    each stack bottom to top) from first to last: read backwards, crazy camels skipped."""
    front_to_back = back_to_front[::-1]
    if _CRAZY.isdisjoint(front_to_back):  # no crazy camel to skip (the first edition)
        return front_to_back
    racing = list(front_to_back)  # each camel stands once on the track: remove each crazy one
    if _WHITE in racing:
        racing.remove(_WHITE)
    if _BLACK in racing:
        racing.remove(_BLACK)
    return tuple(racing)

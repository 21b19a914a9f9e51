"""Chapter 9: ranking the racing camels (``spec/09-ranking.md``)."""

from __future__ import annotations

from collections.abc import Sequence

from camelup.model.camels import Camel
from camelup.model.track import Stack
from camelup.trace import implements


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
    return tuple(
        [c for stack in reversed(track) if stack for c in reversed(stack) if not c.is_crazy]
    )

"""Chapter 8: the whirlwind spaces 6, 7 and 8 (``spec/08-whirlwind.md``)."""

from __future__ import annotations

from camelup.model.events import Event, WhirlwindStep
from camelup.model.trace import implements
from camelup.model.track import MIN_SPACE, Stack

_SIX, _SEVEN, _EIGHT, _NINE = 6, 7, 8, 9


@implements(
    "whirlwind.spaces",
    "whirlwind.leave-six",
    "whirlwind.leave-seven",
    "whirlwind.leave-eight",
    "whirlwind.bounce",
    "whirlwind.step-per-pip",
)
def whirlwind_destination(
    track: list[Stack], unit: Stack, origin: int, pips: int, events: list[Event] | None = None
) -> int:
    """Walk ``unit`` (already lifted off ``track``) clockwise ``pips`` steps through the whirlwind.

    Each step uses one pip. Leaving 6 goes to 8, leaving 7 goes to 6; leaving 8 goes on to 9
    only if another camel stands on 6, 7 or 8 (a camel left behind on 8 counts) or every other
    racing camel is on 9 or beyond, and otherwise back to 7. The condition is checked every time.
    Each arrow step is recorded in ``events`` unless it is None.
    """
    position = origin
    for _ in range(pips):
        if position == _SIX:
            following, clause = _EIGHT, "whirlwind.leave-six"
        elif position == _SEVEN:
            following, clause = _SIX, "whirlwind.leave-seven"
        elif position == _EIGHT:
            if _other_camel_in_whirlwind(track) or _all_others_at_nine_or_beyond(track):
                following, clause = _NINE, "whirlwind.leave-eight"
            else:
                following, clause = _SEVEN, "whirlwind.bounce"
        else:
            position += 1
            continue
        if events is not None:
            events.append(WhirlwindStep(unit, position, following, clause))
        position = following
    return position


def _other_camel_in_whirlwind(track: list[Stack]) -> bool:
    return any(track[space - MIN_SPACE] for space in (_SIX, _SEVEN, _EIGHT))


def _all_others_at_nine_or_beyond(track: list[Stack]) -> bool:
    """Condition (b) looks at racing camels only (RUL-49): a crazy camel behind space 9 would
    otherwise trap the last racing camel in the loop for the rest of the game."""
    return not any(not camel.is_crazy for stack in track[: _NINE - MIN_SPACE] for camel in stack)

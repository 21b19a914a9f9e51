"""Board diagrams of a game state: SVG for pages, text for a terminal.

>>> from camelup.tools.render import state_svg, state_text
>>> from camelup import Ruleset, Edition, Setup, DieRoll, Die, new_game
>>> ruleset = Ruleset(Edition.FIRST, players=3)
>>> setup = Setup(racing_rolls=tuple(DieRoll(Die(c.value), 1) for c in ruleset.racing_camels),
...               stacking=ruleset.racing_camels)
>>> state = new_game(ruleset, setup)
>>> state_svg(state).startswith("<svg xmlns='http://www.w3.org/2000/svg'")
True
>>> state_text(state, color=False).splitlines()[2].split()  # the top of space 1's stack
['|', 'W', '|']

Both are pure functions of the state (and, optionally, of the events of the step that led to
it); a docs generator calls them directly, ``camelup render`` is a thin command around them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from camelup.io.replay import Frame, replay
from camelup.tools.render.text import state_text

if TYPE_CHECKING:
    from camelup.tools.render.svg import state_svg, step_svgs


def __getattr__(name: str) -> Any:
    """``state_svg`` and ``step_svgs``, imported when first asked for: the SVG code needs
    :mod:`xml.sax.saxutils`, whose own imports (``urllib.request``, ``http.client``, ``ssl``)
    would cost some 20 ms to a command that draws no SVG (``camelup odds`` uses
    :mod:`camelup.tools.render.odds_text`)."""
    if name in ("state_svg", "step_svgs"):
        from camelup.tools.render import svg

        found = globals()[name] = getattr(svg, name)
        return found
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Frame", "replay", "state_svg", "state_text", "step_svgs"]

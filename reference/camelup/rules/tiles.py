"""Chapter 6: placing and moving desert and spectator tiles (``spec/06-tiles.md``).

What a tile does when a unit lands on it is part of the move, in ``rules/movement.py``.
"""

from __future__ import annotations

import functools
from typing import Final

from camelup.model.errors import Violation
from camelup.model.ruleset import Edition, Variant
from camelup.model.state import State, TileSide
from camelup.model.trace import implements
from camelup.model.track import LAST_SPACE, MIN_SPACE, WHIRLWIND_SPACES

SIDES = {
    Edition.FIRST: (TileSide.OASIS, TileSide.MIRAGE),
    Edition.SECOND: (TileSide.CHEERING, TileSide.BOOING),
}


def tile_kind_clause(edition: Edition) -> str:
    """The clause that says what tiles the edition has (desert or spectator tiles)."""
    return "tiles.desert" if edition is Edition.FIRST else "tiles.spectator"


@implements("tile.move.different-space")
def tile_action_problem(state: State, player: int, moving: bool) -> Violation | None:
    """A tile not yet on the track is placed; one already on the track can only be moved."""
    own = state.tile_of(player)
    if not moving and own is not None:
        message = "the tile is on the track: move it"
        return Violation("tile-already-placed", "tile.move.different-space", message)
    if moving and own is None:
        message = "the tile is not on the track"
        return Violation("tile-not-placed", "tile.move.different-space", message)
    return None


@implements(
    "tiles.desert",
    "tiles.spectator",
    "tile.place.side",
    "tile.place.empty-space",
    "tile.place.not-adjacent",
    "tile.place.not-space-one",
    "tile.move.different-space",
    "tile.move.old-space-blocks",
    "whirlwind.no-tiles",
)
def tile_space_problem(state: State, player: int, space: int, side: TileSide) -> Violation | None:
    """Why ``player`` may not put their tile on ``space`` with ``side`` up, or None if they may.

    The space must be on the track, not space 1, not a whirlwind space when the module is in
    play, hold no camel and no tile, and not lie next to another player's tile. A tile already
    on the track must move to a different space; its own old space does not block the
    neighbouring spaces (unless the variant ``tile-move-old-space-blocks`` is selected).
    ``where`` is ``("side",)`` or ``("space",)``, the member of the action at fault.
    """
    ruleset = state.ruleset
    edition = ruleset.edition
    if side not in SIDES[edition]:
        message = f"a {edition.value}-edition tile has no side {side.value}"
        return Violation("tile-side", tile_kind_clause(edition), message, ("side",))
    if not 1 <= space <= LAST_SPACE:
        message = f"space {space} is not on the track"
        return Violation("tile-off-track", "tile.place.empty-space", message, ("space",))
    if space == 1:
        return _refused("tile-space-one", "tile.place.not-space-one", "no tile may lie on space 1")
    if ruleset.whirlwind and space in WHIRLWIND_SPACES:
        return _refused(
            "tile-whirlwind", "whirlwind.no-tiles", "space {} is a whirlwind space", space
        )
    own = state.tile_of(player)
    if own is not None and own.space == space:
        template = "the tile already lies on space {}"
        return _refused("tile-same-space", "tile.move.different-space", template, space)
    if state.track[space - MIN_SPACE]:  # the space is on the track: state.stack(space)
        return _refused("tile-on-camel", "tile.place.empty-space", "space {} holds a camel", space)
    for tile in state.tiles:
        if tile.space == space:
            return _refused(
                "tile-on-tile", "tile.place.empty-space", "space {} holds a tile", space
            )
        if abs(tile.space - space) == 1:
            if tile.owner != player:
                template = "space {} is next to a tile on {}"
                return _refused(
                    "tile-adjacent", "tile.place.not-adjacent", template, space, tile.space
                )
            if _OLD_SPACE_BLOCKS in ruleset.variants:
                template = "space {} is next to this player's own tile on {}"
                return _refused(
                    "tile-adjacent", "tile.move.old-space-blocks", template, space, tile.space
                )
    return None


_OLD_SPACE_BLOCKS: Final = Variant.TILE_MOVE_OLD_SPACE_BLOCKS  # a constant: see rules/race.py


@functools.lru_cache(maxsize=4096, typed=True)
def _refused(code: str, clause: str, template: str, *spaces: int) -> Violation:
    """The violation of a space on the track, made once and then shared (it is immutable):
    ``legal_actions`` asks about every space of every position, and most are refused. The
    spaces are on the track or next to it, so the cache holds a few hundred at most."""
    return Violation(code, clause, template.format(*spaces), ("space",))

"""Chapter 6: placing and moving desert and spectator tiles (``spec/06-tiles.md``).

What a tile does when a unit lands on it is part of the move, in ``rules/movement.py``.
"""

from __future__ import annotations

from camelup.model.errors import Violation
from camelup.model.ruleset import Edition, Variant
from camelup.model.state import State, TileSide
from camelup.model.track import LAST_SPACE, WHIRLWIND_SPACES
from camelup.trace import implements

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
    edition = state.ruleset.edition
    if side not in SIDES[edition]:
        message = f"a {edition.value}-edition tile has no side {side.value}"
        return Violation("tile-side", tile_kind_clause(edition), message, ("side",))
    at = ("space",)
    if not 1 <= space <= LAST_SPACE:
        message = f"space {space} is not on the track"
        return Violation("tile-off-track", "tile.place.empty-space", message, at)
    if space == 1:
        message = "no tile may lie on space 1"
        return Violation("tile-space-one", "tile.place.not-space-one", message, at)
    if state.ruleset.whirlwind and space in WHIRLWIND_SPACES:
        message = f"space {space} is a whirlwind space"
        return Violation("tile-whirlwind", "whirlwind.no-tiles", message, at)
    own = state.tile_of(player)
    if own is not None and own.space == space:
        message = f"the tile already lies on space {space}"
        return Violation("tile-same-space", "tile.move.different-space", message, at)
    if state.stack(space):
        message = f"space {space} holds a camel"
        return Violation("tile-on-camel", "tile.place.empty-space", message, at)
    old_space_blocks = Variant.TILE_MOVE_OLD_SPACE_BLOCKS in state.ruleset.variants
    for tile in state.tiles:
        if tile.space == space:
            message = f"space {space} holds a tile"
            return Violation("tile-on-tile", "tile.place.empty-space", message, at)
        if abs(tile.space - space) == 1:
            if tile.owner != player:
                message = f"space {space} is next to a tile on {tile.space}"
                return Violation("tile-adjacent", "tile.place.not-adjacent", message, at)
            if old_space_blocks:
                message = f"space {space} is next to this player's own tile on {tile.space}"
                return Violation("tile-adjacent", "tile.move.old-space-blocks", message, at)
    return None

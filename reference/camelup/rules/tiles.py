"""Chapter 6: placing and moving desert and spectator tiles (``spec/06-tiles.md``).

What a tile does when a unit lands on it is part of the move, in ``rules/movement.py``.
"""

from __future__ import annotations

from camelup.model.errors import IllegalAction
from camelup.model.ruleset import Edition, Variant
from camelup.model.state import State, TileSide
from camelup.model.track import LAST_SPACE, WHIRLWIND_SPACES
from camelup.trace import implements

SIDES = {
    Edition.FIRST: (TileSide.OASIS, TileSide.MIRAGE),
    Edition.SECOND: (TileSide.CHEERING, TileSide.BOOING),
}


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
def tile_space_problem(
    state: State, player: int, space: int, side: TileSide
) -> IllegalAction | None:
    """Why ``player`` may not put their tile on ``space`` with ``side`` up, or None if they may.

    The space must be on the track, not space 1, not a whirlwind space when the module is in
    play, hold no camel and no tile, and not lie next to another player's tile. A tile already
    on the track must move to a different space; its own old space does not block the
    neighbouring spaces (unless the variant ``tile-move-old-space-blocks`` is selected).
    """
    edition = state.ruleset.edition
    if side not in SIDES[edition]:
        clause = "tiles.desert" if edition is Edition.FIRST else "tiles.spectator"
        return IllegalAction(
            "tile-side", clause, f"a {edition.value}-edition tile has no side {side.value}"
        )
    if not 1 <= space <= LAST_SPACE:
        return IllegalAction(
            "tile-off-track", "tile.place.empty-space", f"space {space} is not on the track"
        )
    if space == 1:
        return IllegalAction(
            "tile-space-one", "tile.place.not-space-one", "no tile may lie on space 1"
        )
    if state.ruleset.whirlwind and space in WHIRLWIND_SPACES:
        return IllegalAction(
            "tile-whirlwind", "whirlwind.no-tiles", f"space {space} is a whirlwind space"
        )
    own = state.tile_of(player)
    if own is not None and own.space == space:
        return IllegalAction(
            "tile-same-space",
            "tile.move.different-space",
            f"the tile already lies on space {space}",
        )
    if state.stack(space):
        return IllegalAction(
            "tile-on-camel", "tile.place.empty-space", f"space {space} holds a camel"
        )
    old_space_blocks = Variant.TILE_MOVE_OLD_SPACE_BLOCKS in state.ruleset.variants
    for tile in state.tiles:
        if tile.space == space:
            return IllegalAction(
                "tile-on-tile", "tile.place.empty-space", f"space {space} holds a tile"
            )
        if abs(tile.space - space) == 1:
            if tile.owner != player:
                return IllegalAction(
                    "tile-adjacent",
                    "tile.place.not-adjacent",
                    f"space {space} is next to a tile on {tile.space}",
                )
            if old_space_blocks:
                return IllegalAction(
                    "tile-adjacent",
                    "tile.move.old-space-blocks",
                    f"space {space} is next to this player's own tile on {tile.space}",
                )
    return None

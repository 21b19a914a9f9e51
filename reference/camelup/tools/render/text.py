"""A state as one readable block of text for a terminal, coloured with ANSI codes on request.

The text is ASCII (and the ANSI codes, when asked for), so it prints on any terminal.

The layout follows the SVG: spaces left to right in clockwise order, each stack growing
upwards, the finish line (``|``) after space 16 and before space 1. Every camel is written as
its label (``B``, ``G``, ...; ``<W``/``<K`` for the crazy camels, the ``<`` pointing the way
they run), so the text reads the same with colour or without it; colour only adds the
camel's background.
"""

from __future__ import annotations

from collections.abc import Iterable

from camelup.model.camels import Camel
from camelup.model.state import State
from camelup.model.track import FIRST_SPACE, LAST_SPACE
from camelup.tools.render.board import (
    Board,
    board,
    camel_look,
    camel_mark,
    die_look,
    legend,
    player_line,
    roll_label,
    tile_label,
)

CELL = 4  # characters per space
RESET = "\x1b[0m"


def camel_text(camel: Camel) -> str:
    """The camel's label in the text form: ``B``, or ``<W`` for a crazy camel."""
    return camel_mark(camel)


def _paint(text: str, background: int, light_ink: bool, color: bool) -> str:
    if not color:
        return text
    ink = 231 if light_ink else 16
    return f"\x1b[48;5;{background}m\x1b[38;5;{ink}m{text}{RESET}"


def _camel_cell(camel: Camel, color: bool) -> str:
    look = camel_look(camel)
    # The colour's letter stands under the units digit of the space number; a crazy camel's
    # arrow goes before it.
    label = camel_text(camel).rjust(2).ljust(CELL - 1)
    return _paint(label, look.ansi, look.ink == "#ffffff", color) + " "


def _columns(drawing: Board) -> list[tuple[int | None, int]]:
    """(space or None for the finish line, width) from left to right."""
    out: list[tuple[int | None, int]] = []
    for space in drawing.spaces:
        if space == FIRST_SPACE:
            out.append((None, 2))
        out.append((space, CELL))
        if space == LAST_SPACE:
            out.append((None, 2))
    return out


def _track_rows(drawing: Board, color: bool) -> list[str]:
    stacks = dict(drawing.stacks)
    tiles = {tile.space: tile for tile in drawing.tiles}
    columns = _columns(drawing)
    height = max((len(s) for s in stacks.values()), default=0)
    rows: list[str] = []
    for level in reversed(range(height)):
        line = ""
        for space, width in columns:
            if space is None:
                line += "| "
                continue
            stack = stacks[space]
            line += _camel_cell(stack[level], color) if level < len(stack) else " " * width
        rows.append(line.rstrip())
    tile_row = ""
    number_row = ""
    mark_row = ""
    for space, width in columns:
        if space is None:
            tile_row += "| "
            number_row += "| "
            mark_row += "| "
            continue
        tile = tiles.get(space)
        tile_row += (tile_label(tile) if tile else "").ljust(width)
        number_row += str(space).rjust(2).ljust(width)
        mark_row += ("~~" if space in drawing.whirlwind else "").rjust(2).ljust(width)
    if drawing.tiles:
        rows.append(tile_row.rstrip())
    rows.append(number_row.rstrip())
    if drawing.whirlwind:
        rows.append(mark_row.rstrip())
    return rows


def _dice(state: State, color: bool) -> str:
    inside = [
        _paint(die_look(d).label, die_look(d).ansi, die_look(d).ink == "#ffffff", color)
        for d in state.pyramid
    ]
    out = [
        _paint(roll_label(r), die_look(r.die).ansi, die_look(r.die).ink == "#ffffff", color)
        for r in state.revealed
    ]
    return f"pyramid: {' '.join(inside) or 'empty'}   revealed: {' '.join(out) or 'none'}"


def _tickets(state: State) -> str:
    parts = []
    for camel in state.ruleset.racing_camels:
        left = " ".join(str(v) for v in reversed(state.ticket_stack(camel))) or "none"
        parts.append(f"{camel_look(camel).label} {left}")
    return "leg tickets (top first): " + " | ".join(parts)


def _moves(drawing: Board) -> list[str]:
    lines = []
    for arrow in drawing.arrows:
        unit = " ".join(camel_text(c) for c in arrow.unit)
        how = ", underneath" if arrow.underneath else ""
        via = (
            f" (by {' -> '.join(str(s) for s in arrow.path)})"
            if arrow.detour or arrow.wraps
            else ""
        )
        lines.append(
            f"move {arrow.order}: [{unit}] {arrow.from_space} -> {arrow.to_space}{via}{how}"
        )
    return lines


def _legend(state: State, drawing: Board) -> str:
    parts = [f"{entry.mark} {entry.meaning}" for entry in legend(state, drawing)]
    return "key: " + "; ".join(parts)


def state_text(state: State, *, color: bool, move: Iterable[object] | None = None) -> str:
    """The board of ``state`` as a block of text lines (ANSI colour only when ``color``).

    ``move``, as for :func:`camelup.tools.render.svg.state_svg`, lists the step's unit moves.
    """
    drawing = board(state, move)
    lines = [drawing.title, *([drawing.variants] if drawing.variants else []), ""]
    lines += _track_rows(drawing, color)
    lines.append("")
    lines += _moves(drawing)
    lines.append(_dice(state, color))
    lines.append(_tickets(state))
    lines += [player_line(state, seat, p, ", ") for seat, p in enumerate(state.players)]
    lines.append(_legend(state, drawing))
    return "\n".join(lines) + "\n"

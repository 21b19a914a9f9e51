"""A state as a small, self-contained SVG board diagram.

The track is drawn as a straight row of spaces in clockwise order, left to right, so a racing
camel runs to the right and a crazy camel to the left; the finish line stands at both ends
(after space 16 and before space 1), and the spaces past it appear only when a camel stands
there. Each stack grows upwards, bottom camel lowest. Every camel carries a text label (its
colour's initial; ``<W``/``<K`` for the crazy camels) so that the diagram reads without
telling colours apart. The marks are those of the terminal's board
(:mod:`camelup.tools.render.text`), and a key under the board explains each one it uses
(:func:`camelup.tools.render.board.legend`). No text is smaller than 12 px, and every text
colour has a contrast of at least 4.5:1 on its background (WCAG AA).

The output uses presentation attributes only: no ``<style>`` (which would leak into an HTML
page that inlines the SVG), no ``id`` (two diagrams on one page would clash), no script, no
font or image to fetch.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from camelup.model.camels import Camel
from camelup.model.state import State
from camelup.model.track import FIRST_SPACE, LAST_SPACE
from camelup.tools.render.board import (
    Board,
    arrow_words,
    board,
    camel_look,
    camel_mark,
    die_look,
    legend,
    player_line,
    roll_label,
    spaces_shown,
    tile_label,
    tile_words,
)

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

MARGIN = 8
COLUMN = 40  # width of one space: room for a tile's "+1P2" at 12 px
LINE_GAP = 12  # room for the finish line between space 16 and 17, and between 0 and 1
CAMEL_HEIGHT = 18
CAMEL_STEP = 20
HEADER = 28
VARIANTS_LINE = 16  # a second header line naming the variants, when there are any
ARROW_LANE = 17  # each arrow of a step runs in its own lane, with its label above it
ARROW_FOOT = 14  # from the lowest lane down to the top of the stacks
GROUND = 36
LINE_LABEL = 16  # under the track: the word "finish" at each finish line
WHIRLWIND_BAND = 30
ROW = 24
MOVE_INK = "#c0392b"  # the arrows of the step drawn (5.4:1 on white)
PLAYER_ROW = 18
SMALLEST = 12  # the smallest text, in px at the natural size
LEGEND_ROW = 17
MARK_WIDTH = 84  # the legend's column of marks
CHARACTER = 6.8  # the mean width of a 12 px character, to wrap the legend's lines

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def _attr(value: object) -> str:
    return quoteattr(str(value))


class _Canvas:
    """Collects SVG elements; every coordinate is rounded to keep the file small."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: int | None = None,
        fill: str = "#000000",
        anchor: str | None = None,
        weight: str = "normal",
    ) -> None:
        # The root sets the usual font, size, ink and anchor; only differences are written.
        extra = "" if size is None else f" font-size='{size}'"
        extra += "" if fill == "#000000" else f" fill='{fill}'"
        extra += "" if anchor is None else f" text-anchor='{anchor}'"  # None: the group's
        extra += " font-weight='bold'" if weight == "bold" else ""
        self.add(f"<text x='{x:.0f}' y='{y:.0f}'{extra}>{escape(content)}</text>")

    def polyline(
        self, points: list[tuple[float, float]], stroke: str, *, dash: bool = False
    ) -> None:
        dashed = " stroke-dasharray='5 3'" if dash else ""
        joined = " ".join(f"{x:.0f},{y:.0f}" for x, y in points)
        self.add(
            f"<polyline points='{joined}' fill='none' stroke='{stroke}' stroke-width='2'{dashed}/>"
        )

    def rect(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        fill: str,
        *,
        stroke: str | None = "#555555",
        radius: int = 0,
        dash: bool = False,
    ) -> None:
        extra = f" rx='{radius}'" if radius else ""
        extra += " stroke-dasharray='3 2'" if dash else ""
        extra += "" if stroke is None else f" stroke='{stroke}'"  # None: the group's stroke
        self.add(
            f"<rect x='{x:.0f}' y='{y:.0f}' width='{width:.0f}' height='{height:.0f}'"
            f" fill='{fill}'{extra}/>"
        )


class _Layout:
    """Where things go: x of each space, y of the bands."""

    def __init__(self, drawing: Board) -> None:
        self.drawing = drawing
        self.x: dict[int, float] = {}
        x = float(MARGIN)
        for space in drawing.spaces:
            if space in (FIRST_SPACE, LAST_SPACE + 1):  # the finish line lies just before
                x += LINE_GAP
            self.x[space] = x
            x += COLUMN
        self.width = x + LINE_GAP + MARGIN
        self.arrow_top = HEADER + (VARIANTS_LINE if drawing.variants else 0)
        lanes = max(2, len(drawing.arrows))
        self.stack_top = self.arrow_top + ARROW_LANE * lanes + ARROW_FOOT
        self.ground = self.stack_top + drawing.tallest * CAMEL_STEP + 2
        self.whirlwind_top = self.ground + GROUND
        below = self.whirlwind_top + (WHIRLWIND_BAND if drawing.whirlwind else LINE_LABEL)
        self.panel_top = below + 6

    def centre(self, space: int) -> float:
        return self.x[space] + COLUMN / 2

    def line_x(self, before_space: int) -> float:
        """x of the finish line drawn just before ``before_space`` (1, or 17)."""
        if before_space in self.x:
            return self.x[before_space] - LINE_GAP / 2
        return self.x[LAST_SPACE] + COLUMN + LINE_GAP / 2  # nothing past 16: the line ends it


def _draw_header(canvas: _Canvas, drawing: Board) -> None:
    canvas.text(MARGIN, 19, drawing.title, size=14, anchor="start", weight="bold")
    if drawing.variants:
        canvas.text(MARGIN, 19 + VARIANTS_LINE, drawing.variants, anchor="start")


def _draw_spaces(canvas: _Canvas, layout: _Layout) -> None:
    drawing = layout.drawing
    tiles = {tile.space: tile for tile in drawing.tiles}
    # The spaces share one stroke and the numbers one size: set once on their group.
    canvas.add("<g stroke='#b59a5b'>")
    for space in drawing.spaces:
        fill = "#f3e2b8" if space in drawing.whirlwind else "#fbf6e9"
        if not FIRST_SPACE <= space <= LAST_SPACE:
            fill = "#eeeeee"  # past the finish line
        canvas.rect(layout.x[space] + 1, layout.ground, COLUMN - 2, GROUND - 2, fill, stroke=None)
    canvas.add("</g>")
    for space in drawing.spaces:
        canvas.text(layout.x[space] + COLUMN / 2, layout.ground + GROUND - 6, str(space))
    for space in drawing.spaces:
        x = layout.x[space]
        tile = tiles.get(space)
        if tile is not None:
            forward = tile.side.step > 0
            canvas.add(
                f"<g data-tile={_attr(space)} data-owner={_attr(tile.owner)}"
                f" data-side={_attr(tile.side.value)}>"
                f"<title>{escape(f'tile on space {space}: {tile_words(tile)}')}</title>"
            )
            canvas.rect(
                x + 2,
                layout.ground + 2,
                COLUMN - 4,
                16,
                "#bfe3b4" if forward else "#f2b8b5",
                stroke="#333333",
                radius=2,
            )
            canvas.text(x + COLUMN / 2, layout.ground + 14, tile_label(tile), size=SMALLEST)
            canvas.add("</g>")


def _draw_finish_lines(canvas: _Canvas, layout: _Layout) -> None:
    top = layout.stack_top - 4
    bottom = layout.ground + GROUND - 2
    for before in (FIRST_SPACE, LAST_SPACE + 1):
        x = layout.line_x(before)
        canvas.add(
            f"<g data-finish-line={_attr(before - 1)}><title>finish line between space 16 and"
            f" space 1</title><line x1='{x:.0f}' y1='{top:.0f}' x2='{x:.0f}' y2='{bottom:.0f}'"
            " stroke='#000000' stroke-width='4'/><line"
            f" x1='{x:.0f}' y1='{top:.0f}' x2='{x:.0f}' y2='{bottom:.0f}' stroke='#ffffff'"
            " stroke-width='4' stroke-dasharray='4 4'/></g>"
        )
        canvas.text(x, bottom + 13, "finish", size=SMALLEST)


def _draw_camel(canvas: _Canvas, layout: _Layout, space: int, level: int, camel: Camel) -> None:
    look = camel_look(camel)
    x = layout.x[space] + 3
    y = layout.ground - (level + 1) * CAMEL_STEP
    width = COLUMN - 6
    ordinal = _ORDINALS.get(level + 1, f"{level + 1}th")
    where = f"{look.name} camel on space {space}, {ordinal} from the bottom"
    canvas.add(
        f"<g data-camel={_attr(camel.value)} data-space={_attr(space)} data-level={_attr(level)}>"
        f"<title>{escape(where)}</title>"
    )
    canvas.rect(
        x, y, width, CAMEL_HEIGHT, look.fill, stroke="#333333", radius=4, dash=camel.is_crazy
    )
    canvas.text(x + width / 2, y + 14, camel_mark(camel), fill=look.ink, weight="bold")
    canvas.add("</g>")


def _draw_stacks(canvas: _Canvas, layout: _Layout) -> None:
    for space, stack in layout.drawing.stacks:
        for level, camel in enumerate(stack):
            _draw_camel(canvas, layout, space, level, camel)


def _draw_whirlwind(canvas: _Canvas, layout: _Layout) -> None:
    spaces = layout.drawing.whirlwind
    if not spaces:
        return
    six, seven, eight = spaces
    top = layout.whirlwind_top
    canvas.add(
        "<g data-whirlwind='6 7 8'><title>whirlwind: leaving 6 goes to 8, leaving 7 goes"
        " to 6; from 8 on to 9 only if another camel is on 6-8 or all others are past"
        " 9, else back to 7</title>"
    )
    # 6 -> 8 swings low under 7; 7 -> 6 is a short, shallow arc. Both start and end a little
    # off the centre of their spaces so that the two arrows never meet on space 6.
    for start, end, depth, offset in ((six, eight, 22, -5), (seven, six, 10, 5)):
        x1, x2 = layout.centre(start) + offset, layout.centre(end) + offset
        control_x, control_y = (x1 + x2) / 2, top + depth
        canvas.add(
            f"<path d='M{x1:.0f},{top:.0f} Q{control_x:.0f},{control_y:.0f} {x2:.0f},{top:.0f}'"
            " fill='none' stroke='#8a6d2f' stroke-width='1.5'/>"
        )
        canvas.add(_arrowhead(x2, top, x2 - control_x, top - control_y, "#8a6d2f"))
    canvas.text(layout.x[eight] + COLUMN + 2, top + 17, "~~ whirlwind 6→8, 7→6", anchor="start")
    canvas.add("</g>")


def _arrowhead(x: float, y: float, dx: float, dy: float, fill: str, size: float = 7) -> str:
    """A triangle with its tip at (x, y), pointing along (dx, dy)."""
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    back_x, back_y = x - ux * size, y - uy * size
    half = size / 2
    left = (back_x - uy * half, back_y + ux * half)
    right = (back_x + uy * half, back_y - ux * half)
    return (
        f"<polygon points='{x:.0f},{y:.0f} {left[0]:.0f},{left[1]:.0f}"
        f" {right[0]:.0f},{right[1]:.0f}' fill='{fill}'/>"
    )


def _draw_arrows(canvas: _Canvas, layout: _Layout) -> None:
    bottom = layout.stack_top - 2
    for arrow in layout.drawing.arrows:
        # Each arrow leaves a little left of its space's centre and arrives a little right of
        # it, and each later arrow runs in a lane of its own, higher up, so that a tile step
        # starting where the die move ended never shares a line with it.
        # The vertical legs shift by lane too, so that two arrows leaving (or reaching) one
        # space never share a line either.
        shift = 4 * ((arrow.order - 1) % 3)
        x1 = layout.centre(arrow.from_space) - 6 - shift
        x2 = layout.centre(arrow.to_space) + 6 + shift
        level = bottom - ARROW_FOOT + 4 - ARROW_LANE * (arrow.order - 1)
        canvas.add(
            f"<g data-move={_attr(arrow.order)} data-from={_attr(arrow.from_space)}"
            f" data-to={_attr(arrow.to_space)}><title>{escape(arrow_words(arrow))}</title>"
        )
        if arrow.wraps:
            # Round the loop: out through the finish line at one end, in at the other.
            leaving_left = arrow.path[1] < arrow.path[0] or arrow.path[0] == FIRST_SPACE
            exit_x = (
                layout.line_x(FIRST_SPACE) - 4
                if leaving_left
                else layout.line_x(LAST_SPACE + 1) + 4
            )
            entry_x = (
                layout.line_x(LAST_SPACE + 1) + 4
                if leaving_left
                else layout.line_x(FIRST_SPACE) - 4
            )
            canvas.polyline([(x1, bottom), (x1, level), (exit_x, level)], MOVE_INK)
            canvas.polyline([(entry_x, level), (x2, level), (x2, bottom - 6)], MOVE_INK, dash=True)
        else:
            canvas.polyline([(x1, bottom), (x1, level), (x2, level), (x2, bottom - 6)], MOVE_INK)
        canvas.add(_arrowhead(x2, bottom, 0, 1, MOVE_INK, size=8))
        label = camel_mark(arrow.unit[0])
        if arrow.detour or arrow.wraps:
            label += " " + "→".join(str(space) for space in arrow.path)
        if len(layout.drawing.arrows) > 1:
            label = f"{arrow.order}: {label}"
        # At the arrow's start, where no later arrow of the step passes.
        canvas.text(
            x1 + 3, level - 3, label, size=SMALLEST, fill=MOVE_INK, anchor="start", weight="bold"
        )
        canvas.add("</g>")


def _die_box(
    canvas: _Canvas, x: float, y: float, fill: str, ink: str, label: str, title: str
) -> float:
    width = 12 + 8 * len(label)
    canvas.add(f"<g><title>{escape(title)}</title>")
    canvas.rect(x, y, width, 18, fill, stroke="#333333", radius=3)
    canvas.text(x + width / 2, y + 14, label, fill=ink, weight="bold")
    canvas.add("</g>")
    return x + width + 4


def _draw_panel(canvas: _Canvas, layout: _Layout, state: State) -> float:
    y = layout.panel_top
    x = canvas_x = float(MARGIN)
    canvas.text(x, y + 14, "pyramid:", anchor="start", weight="bold")
    x += 70
    canvas.add("<g data-dice='pyramid'>")
    for die in state.pyramid:
        look = die_look(die)
        x = _die_box(
            canvas, x, y, look.fill, look.ink, look.label, f"{look.name} die in the pyramid"
        )
    canvas.add("</g>")
    if not state.pyramid:
        canvas.text(x, y + 14, "empty", anchor="start")
        x += 46
    x += 12
    canvas.text(x, y + 14, "revealed:", anchor="start", weight="bold")
    x += 76
    canvas.add("<g data-dice='revealed'>")
    for roll in state.revealed:
        look = die_look(roll.die)
        shown = "" if roll.colour is None else f" in {camel_look(roll.colour).name.split()[-1]}"
        title = f"{look.name} die showed {roll.value}{shown}"
        x = _die_box(canvas, x, y, look.fill, look.ink, roll_label(roll), title)
    canvas.add("</g>")
    if not state.revealed:
        canvas.text(x, y + 14, "none", anchor="start")
    y += ROW
    x = canvas_x
    canvas.text(x, y + 14, "leg tickets (top first):", anchor="start", weight="bold")
    x += 158
    for camel in state.ruleset.racing_camels:
        look = camel_look(camel)
        values = state.ticket_stack(camel)
        left = " ".join(str(v) for v in reversed(values)) or "none"
        title = f"{look.name} leg tickets left, top first: {left}"
        canvas.add(f"<g data-tickets={_attr(camel.value)}><title>{escape(title)}</title>")
        canvas.rect(x, y, 18, 18, look.fill, stroke="#333333", radius=3)
        canvas.text(x + 9, y + 14, look.label, fill=look.ink, weight="bold")
        canvas.text(x + 22, y + 14, left, anchor="start")
        canvas.add("</g>")
        x += 26 + 7 * len(left) + 10
    y += ROW
    for seat, player in enumerate(state.players):
        line = player_line(state, seat, player)
        canvas.add(
            f"<g data-player={_attr(seat)} data-money={_attr(player.money)}>"
            f"<title>{escape(line)}</title>"
        )
        canvas.text(MARGIN, y + seat * PLAYER_ROW + 14, line, anchor="start")
        canvas.add("</g>")
    return y + len(state.players) * PLAYER_ROW + MARGIN


def _draw_legend(canvas: _Canvas, state: State, drawing: Board, top: float, width: float) -> float:
    """The key under the board: each mark it uses, as drawn, and its meaning in words."""
    # The key's texts share a size and an anchor: set once on its group.
    canvas.add("<g data-legend='key' font-size='12' text-anchor='start'>")
    canvas.add(
        f"<line x1='{MARGIN}' y1='{top:.0f}' x2='{width - MARGIN:.0f}' y2='{top:.0f}'"
        " stroke='#b59a5b'/>"
    )
    y = top + 4
    canvas.text(MARGIN, y + 14, "Key", size=13, weight="bold")
    y += LEGEND_ROW + 2
    room = max(20, int((width - MARGIN * 2 - MARK_WIDTH) / CHARACTER))
    for entry in legend(state, drawing):
        lines = textwrap.wrap(entry.meaning, room) or [""]
        canvas.add(f"<g><title>{escape(f'{entry.mark}: {entry.meaning}')}</title>")
        canvas.text(MARGIN, y + 13, entry.mark, weight="bold")
        for index, line in enumerate(lines):
            canvas.text(MARGIN + MARK_WIDTH, y + 13 + index * LEGEND_ROW, line)
        canvas.add("</g>")
        y += LEGEND_ROW * len(lines)
    canvas.add("</g>")
    return y + MARGIN


def state_svg(
    state: State, *, move: Iterable[object] | None = None, also: Iterable[int] = ()
) -> str:
    """The board diagram of ``state`` as SVG text (a few KB, self-contained).

    ``move`` is optional: the events of the step that led to ``state`` (what
    :func:`camelup.apply` returned); each ``UnitMoved`` among them is drawn as a numbered
    arrow from the space the unit left to the space it reached. ``also`` names spaces to show
    even when empty, so that two diagrams of one step cover the same spaces and line up.
    """
    drawing = board(state, move, also)
    layout = _Layout(drawing)
    canvas = _Canvas()
    _draw_header(canvas, drawing)
    _draw_spaces(canvas, layout)
    _draw_whirlwind(canvas, layout)
    _draw_finish_lines(canvas, layout)
    _draw_stacks(canvas, layout)
    _draw_arrows(canvas, layout)
    width = max(layout.width, 560.0)  # room for the panel's lines on a short track
    height = _draw_panel(canvas, layout, state)
    height = _draw_legend(canvas, state, drawing, height, width)
    head = (
        f"<svg xmlns='{SVG_NAMESPACE}' viewBox='0 0 {width:.0f} {height:.0f}'"
        f" width='{width:.0f}' height='{height:.0f}' role='img' font-family='sans-serif'"
        " font-size='13' text-anchor='middle'>"
        f"<title>{escape(drawing.title)}</title>"
        f"<rect width='{width:.0f}' height='{height:.0f}' fill='#ffffff'/>"
    )
    return head + "".join(canvas.parts) + "</svg>\n"


def step_svgs(before: State, after: State, events: Iterable[object]) -> tuple[str, str]:
    """The two diagrams of one step, before and after it: both show the same spaces, so that
    each space stands at the same place in both, and the after one draws the step's moves.
    The rulings' pages and their live boards draw a step through this one function."""
    events = tuple(events)
    shown = {*spaces_shown(before), *board(after, events).spaces}
    return state_svg(before, also=shown), state_svg(after, move=events, also=shown)

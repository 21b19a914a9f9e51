"""What a board diagram shows, read from a :class:`~camelup.model.state.State` once.

The SVG and the text renderers draw the same facts; this module decides what they are (which
spaces appear, how each camel is labelled, which arrows a step drew) so that the two never
disagree. It reads the state only through its public accessors (``track``/``stack``/
``occupied``, ``tiles``, ``pyramid``, ``revealed``, ``ticket_stack``, ``players``,
``ruleset``), never through how the state stores them.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from camelup.model.camels import Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.events import DieRevealed, UnitMoved, WhirlwindStep
from camelup.model.ruleset import Edition
from camelup.model.state import Player, State, Tile
from camelup.model.track import FIRST_SPACE, LAST_SPACE, WHIRLWIND_SPACES, Stack

MAX_PIPS = 3  # the most spaces one move (a die, or a tile step) covers
MIN_STACK_ROWS = 3  # a diagram of a spread-out field keeps some height for the arrows


@attrs.frozen
class Look:
    """How one camel or die is drawn: a fill colour, a text colour that reads on it, and a
    short label, so that nobody needs to tell the colours apart to read the diagram."""

    name: str
    label: str
    fill: str
    ink: str
    ansi: int  # xterm-256 background colour for the terminal


_RACING_LOOKS = {
    Camel.BLUE: Look("blue", "B", "#2f6fd0", "#ffffff", 26),
    Camel.GREEN: Look("green", "G", "#23803a", "#ffffff", 28),  # dark enough for white text
    Camel.ORANGE: Look("orange", "O", "#f28c28", "#000000", 208),
    Camel.YELLOW: Look("yellow", "Y", "#f5d023", "#000000", 220),
    Camel.WHITE: Look("white", "W", "#ffffff", "#000000", 231),
    Camel.RED: Look("red", "R", "#d33b32", "#ffffff", 160),
    Camel.PURPLE: Look("purple", "P", "#8a4fc0", "#ffffff", 91),
    # Crazy camels: "<" points the way they run, counterclockwise (leftwards in a diagram).
    Camel.CRAZY_WHITE: Look("crazy white", "<W", "#f4f4f4", "#000000", 255),
    Camel.CRAZY_BLACK: Look("crazy black", "<K", "#222222", "#ffffff", 235),
}
# Light grey under black text; the colour of the number it showed is written, "w" or "k".
_GREY_DIE = Look("grey", "Gy", "#c4c4c4", "#000000", 244)


def camel_look(camel: Camel) -> Look:
    return _RACING_LOOKS[camel]


def camel_mark(camel: Camel) -> str:
    """How a camel is written in every diagram: ``B``, or ``<W``/``<K`` for a crazy camel,
    the ``<`` pointing the way it runs (counterclockwise, leftwards)."""
    return camel_look(camel).label


def die_look(die: Die) -> Look:
    return _GREY_DIE if die.camel is None else _RACING_LOOKS[die.camel]


def roll_label(roll: DieRoll) -> str:
    """``O3`` for a racing die; ``Gy3w`` / ``Gy3k`` for the grey die (white or black number)."""
    label = f"{die_look(roll.die).label}{roll.value}"
    if roll.colour is not None:
        label += "w" if roll.colour is Camel.CRAZY_WHITE else "k"
    return label


def tile_label(tile: Tile) -> str:
    """``+1P2`` for player 2's tile on its forward side, ``-1P2`` on its backward side."""
    return f"{'+1' if tile.side.step > 0 else '-1'}P{tile.owner}"


def tile_words(tile: Tile) -> str:
    """``mirage, player 2`` (the side by its edition's name, and the owner's seat)."""
    return f"{tile.side.value}, player {tile.owner}"


def player_line(state: State, seat: int, player: Player, separator: str = " · ") -> str:
    """``player 0: 3 EP · leg tickets B5 G3 · pyramid tickets 1 (to move, start)``.

    Seats are spelled out: ``P5`` would read as the purple 5 ticket of the second edition.
    """
    parts = [f"player {seat}: {player.money} EP"]
    if player.leg_tickets:
        held = " ".join(f"{camel_look(t.camel).label}{t.value}" for t in player.leg_tickets)
        parts.append(f"leg tickets {held}")
    if player.pyramid_tickets:
        parts.append(f"pyramid tickets {player.pyramid_tickets}")
    partner = state.partner_of(seat)
    if partner is not None:
        parts.append(f"partner: player {partner}")
    marks = []
    if state.result is None and seat == state.to_move:
        marks.append("to move")
    if seat == state.start_player:
        marks.append("start")
    text = separator.join(parts)
    return f"{text} ({', '.join(marks)})" if marks else text


@attrs.frozen
class Arrow:
    """One move of a camel unit in the step drawn: ``order`` counts from 1 in event order."""

    order: int
    unit: tuple[Camel, ...]
    from_space: int
    to_space: int
    underneath: bool  # a booing or mirage step put the unit under the camels there
    path: tuple[int, ...]  # every space passed through, from first to last (whirlwind arrows)

    @property
    def wraps(self) -> bool:
        """Whether the unit went round the loop between space 1 and space 16 without ending
        the race (a crazy camel under the variant ``crazy-finish-needs-racing``)."""
        return any(abs(a - b) > MAX_PIPS for a, b in zip(self.path, self.path[1:], strict=False))

    @property
    def detour(self) -> bool:
        """Whether the unit went another way than straight from ``from_space`` to ``to_space``
        (the whirlwind's arrows and bounce)."""
        step = 1 if self.to_space >= self.from_space else -1
        return self.path != tuple(range(self.from_space, self.to_space + step, step))


@attrs.frozen
class Board:
    """The facts one diagram shows, in drawing order."""

    title: str  # the rule set and where the game stands
    variants: str  # the selected variants, "" for none
    spaces: tuple[int, ...]  # left to right: the clockwise order of the track
    stacks: tuple[tuple[int, Stack], ...]  # every shown space, bottom to top
    tallest: int  # rows to leave for stacks: the tallest one, and never fewer than 3
    tiles: tuple[Tile, ...]
    whirlwind: tuple[int, ...]
    arrows: tuple[Arrow, ...]
    crazy_camels: bool


def spaces_shown(state: State, extra: Iterable[int] = ()) -> tuple[int, ...]:
    """Spaces 1 to 16, and the spaces past the finish line (0, -1, -2 before space 1; 17, 18,
    19 after space 16) from the line out to the farthest one that holds a camel or that an
    arrow of the step reaches."""
    reached = {space for space, _ in state.occupied()} | set(extra)
    lowest = min([FIRST_SPACE, *reached])
    highest = max([LAST_SPACE, *reached])
    return tuple(range(lowest, highest + 1))


def arrows_of(events: Iterable[object]) -> tuple[Arrow, ...]:
    """The unit moves of a step (its ``UnitMoved`` events), in order, each with the path the
    ``WhirlwindStep`` events before it describe; other events are ignored, so a caller may
    pass everything :func:`camelup.apply` returned."""
    arrows: list[Arrow] = []
    detours: list[WhirlwindStep] = []  # the engine reports a move's arrow steps before it
    for event in events:
        if isinstance(event, WhirlwindStep):
            detours.append(event)
        elif isinstance(event, UnitMoved):
            arrows.append(
                Arrow(
                    len(arrows) + 1,
                    event.unit,
                    event.from_space,
                    event.to_space,
                    event.placement == "underneath",
                    _path(event, detours),
                )
            )
            detours = []
    return tuple(arrows)


def _path(move: UnitMoved, detours: list[WhirlwindStep]) -> tuple[int, ...]:
    """Spaces from ``move.from_space`` to ``move.to_space``, one per pip, through the
    whirlwind steps: plain steps go one space at a time in the unit's direction."""
    path = [move.from_space]

    def walk_to(space: int) -> None:
        # One move covers at most 3 pips, so a longer jump went round the loop the short way,
        # past space 1 onto 16 or past 16 onto 1 (only under crazy-finish-needs-racing).
        wraps = abs(space - path[-1]) > MAX_PIPS
        step = (1 if space > path[-1] else -1) * (-1 if wraps else 1)
        while path[-1] != space:
            following = path[-1] + step
            if wraps and following < FIRST_SPACE:
                following = LAST_SPACE
            elif wraps and following > LAST_SPACE:
                following = FIRST_SPACE
            path.append(following)

    for detour in detours:
        walk_to(detour.from_space)
        path.append(detour.to_space)
    walk_to(move.to_space)
    return tuple(path)


def describe_ruleset(state: State) -> str:
    ruleset = state.ruleset
    edition = "first edition" if ruleset.edition is Edition.FIRST else "second edition"
    parts = [edition, *(m.value for m in sorted(ruleset.modules, key=lambda m: m.value))]
    return f"{' + '.join(parts)}, {ruleset.players} players"


def describe_variants(state: State) -> str:
    """``variants: a, b`` (sorted), or "" when the ruleset selects none."""
    names = sorted(v.value for v in state.ruleset.variants)
    return f"variants: {', '.join(names)}" if names else ""


def status_line(state: State) -> str:
    """``leg 2, player 1 to move``, or who won once the race is over."""
    if state.result is not None:
        seats = ", ".join(f"player {seat}" for seat in state.result.winners)
        verb = "wins" if len(state.result.winners) == 1 else "share the win"
        return f"leg {state.leg}, race over: {seats} {verb}"
    return f"leg {state.leg}, player {state.to_move} to move"


def board(state: State, events: Iterable[object] | None = None, also: Iterable[int] = ()) -> Board:
    """The facts to draw; ``also`` adds spaces to show (so that the boards before and after a
    step cover the same spaces, and line up)."""
    arrows = arrows_of(events or ())
    reached = [s for a in arrows for s in (a.from_space, a.to_space)]
    spaces = spaces_shown(state, [*reached, *also])
    return Board(
        title=f"Camel Up: {describe_ruleset(state)}; {status_line(state)}",
        variants=describe_variants(state),
        spaces=spaces,
        stacks=tuple((space, state.stack(space)) for space in spaces),
        tallest=max([MIN_STACK_ROWS, *(len(stack) for _, stack in state.occupied())]),
        tiles=tuple(sorted(state.tiles, key=lambda t: t.space)),
        whirlwind=WHIRLWIND_SPACES if state.ruleset.whirlwind else (),
        arrows=arrows,
        crazy_camels=any(c.is_crazy for c in state.ruleset.camels),
    )


@attrs.frozen
class LegendEntry:
    """One mark a diagram uses, written as both renderers write it, and what it means."""

    mark: str
    meaning: str


def legend(state: State, drawing: Board) -> tuple[LegendEntry, ...]:
    """The key of a diagram: every mark it uses, in one notation for the SVG and the text."""
    racing = " ".join(camel_look(c).label for c in state.ruleset.racing_camels)
    entries = [
        LegendEntry(racing, "racing camels, by initial; a stack reads bottom to top, upwards"),
        LegendEntry("|", "the finish line, between space 16 and space 1"),
    ]
    past = [s for s in drawing.spaces if not FIRST_SPACE <= s <= LAST_SPACE]
    if past:
        entries.append(LegendEntry(" ".join(map(str, past)), "spaces past the finish line"))
    if drawing.crazy_camels:
        entries.append(
            LegendEntry(
                "<W <K",
                "crazy camels (white, black; dashed outline): they run counterclockwise, leftwards",
            )
        )
    reversed_for_crazy = " (a crazy-led unit: the other way)" if drawing.crazy_camels else ""
    for tile in drawing.tiles:
        step = "forward" if tile.side.step > 0 else "back"
        entries.append(
            LegendEntry(
                tile_label(tile),
                f"{tile.side.value} tile of player {tile.owner} on space {tile.space}:"
                f" a unit landing there steps 1 space {step}{reversed_for_crazy},"
                f" and player {tile.owner} earns 1 EP",
            )
        )
    if drawing.whirlwind:
        entries.append(
            LegendEntry(
                "~~",
                "whirlwind (6-8): leaving 6 goes to 8, leaving 7 goes to 6; from 8 on to 9 only"
                " if another camel is on 6-8 or all the others are past 9, else back to 7",
            )
        )
    racing_roll = next((r for r in state.revealed if r.colour is None), None)
    if racing_roll is not None:
        name = die_look(racing_roll.die).name
        entries.append(
            LegendEntry(
                roll_label(racing_roll),
                f"a die out of the pyramid and what it showed: here {name}, {racing_roll.value}",
            )
        )
    grey_roll = next((r for r in state.revealed if r.colour is not None), None)
    if grey_roll is not None and grey_roll.colour is not None:
        colour = camel_look(grey_roll.colour).name.split()[-1]
        entries.append(
            LegendEntry(
                roll_label(grey_roll),
                f"the grey die out of the pyramid: here {grey_roll.value} in {colour}"
                " (w white, k black)",
            )
        )
    if any(die.camel is None for die in state.pyramid):
        entries.append(LegendEntry("Gy", "the grey die (crazy camels), still in the pyramid"))
    if drawing.arrows:
        entries.append(
            LegendEntry(
                "1: B", "the moves of the step drawn, numbered in order, by the unit's bottom camel"
            )
        )
    entries.append(LegendEntry("EP", "money (Egyptian pounds)"))
    return tuple(entries)


def roll_words(roll: DieRoll) -> str:
    """``the grey die showed 3 in black``."""
    colour = "" if roll.colour is None else f" in {camel_look(roll.colour).name.split()[-1]}"
    return f"the {die_look(roll.die).name} die showed {roll.value}{colour}"


def arrow_words(arrow: Arrow) -> str:
    """``move 1: blue, green from space 3 to 5`` (and the way, and "underneath", if so)."""
    names = ", ".join(camel_look(c).name for c in arrow.unit)
    how = " (underneath)" if arrow.underneath else ""
    via = f" by {'→'.join(str(s) for s in arrow.path)}" if arrow.detour or arrow.wraps else ""
    return (
        f"move {arrow.order}: {names} from space {arrow.from_space} to {arrow.to_space}{via}{how}"
    )


def step_words(before: State, after: State, events: Iterable[object]) -> str:
    """A step in words, for a diagram's text alternative: the die roll, each move, and each
    player's money and tickets that changed."""
    events = tuple(events)
    parts = [roll_words(e.roll) for e in events if isinstance(e, DieRevealed)]
    parts += [arrow_words(arrow) for arrow in arrows_of(events)]
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        changes = [f"{old.money} → {new.money} EP"] if old.money != new.money else []
        if old.leg_tickets != new.leg_tickets:
            held = " ".join(f"{camel_look(t.camel).label}{t.value}" for t in new.leg_tickets)
            changes.append(f"leg tickets {held}" if held else "leg tickets returned")
        if old.pyramid_tickets != new.pyramid_tickets:
            changes.append(f"pyramid tickets {old.pyramid_tickets} → {new.pyramid_tickets}")
        if changes:
            parts.append(f"player {seat}: {', '.join(changes)}")
    if after.result is not None and before.result is None:
        parts.append(status_line(after))
    return "; ".join(parts) or "nothing moved"

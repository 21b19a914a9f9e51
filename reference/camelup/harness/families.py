"""Movement families: every one-step movement situation up to a small size, recorded from the
reference engine, one case per outcome class (``camelup conformance generate`` writes them to
``generated/movement-<family>.json``; the rule is documented in ``conformance/README.md``).

A *situation* is a position of a fresh leg (every die in the pyramid, 3 players, 3 coins each,
seat 0 to move) and one pyramid action, built from five choices, each enumerated in full:

* the **unit** that moves (:data:`UNITS`): a lone camel; the top 1 to n-1 camels of a stack of
  n <= 4, or the whole stack; in the 2nd edition a lone crazy camel, a crazy camel carrying racing
  camels (the grey die shows the *other* crazy camel's colour, so the only-carrier rule decides),
  a racing camel carrying a crazy camel with a racing camel on top (so that an engine leaving
  every rider behind and one leaving only crazy riders behind fail it differently), and one
  crazy camel directly on the other (the grey die shows the lower one's colour);
* where it **starts** (:data:`RACING_STARTS`, :data:`CRAZY_STARTS`): space 1, the spaces around
  the whirlwind, the last spaces before the line in its own direction;
* a **tile** (none, or one on the 1st, 2nd or 3rd space ahead in the unit's direction, either
  side up, owned by the player to move or by another player);
* a **bystander** (none, or one racing camel on the space the unit starts from, or 1 to 4
  spaces ahead): something to land on, and something for a tile's push to land on or under;
* the **die face**, 1 to 3;

and, in a family with the whirlwind module, where the camels not in play wait (behind the
whirlwind or beyond it, which decides whether space 8 lets a unit through). The camels not
used wait on one stack out of reach, crazy camels on top. A combination that is not a legal
position (a tile on a camel, on space 1 or on a whirlwind space) is skipped.

Each situation is played once by the reference; its **outcome class** is what happened, told
with the camels named by role instead of colour and without space numbers
(:func:`outcome_class`). The first situation of each class, in enumeration order, becomes a
case; the others are redundant and left out. A case checks the whole state after the step and
the whole event list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from camelup.harness.suite import Case, EventsCheck
from camelup.io.codec import to_json
from camelup.model.actions import TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, DIE_OF_CAMEL, Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.events import Event, RaceEnded, TilePaid, UnitMoved, WhirlwindStep
from camelup.model.ruleset import STARTING_MONEY, Edition, Module, Ruleset, Variant
from camelup.model.state import Player, State, Tile, TileSide
from camelup.model.track import LAST_SPACE, SLOTS, WHIRLWIND_SPACES, Stack, slot
from camelup.play.engine import apply
from camelup.play.validation import state_problem
from camelup.rules.tiles import SIDES

PLAYERS = 3
FACES = (1, 2, 3)
RACING_STARTS = (1, 5, 6, 7, 8, 14, 15, 16)
CRAZY_STARTS = (16, 10, 9, 8, 7, 3, 2, 1)
WHIRLWIND_STARTS = (4, 5, 6, 7, 8)
CRAZY_WHIRLWIND_STARTS = (10, 9, 8, 7, 6)
TILE_OFFSETS = (1, 2, 3)
BYSTANDER_OFFSETS = (None, 1, 2, 3, 4)
OWNERS = (0, 1)  # the player to move, another player
_WW = frozenset({Module.WHIRLWIND})


@attrs.frozen
class Family:
    """A rule set whose movement the families cover (one generated file each), and the part of
    the situations its rule set changes: the starts of each direction, and the units."""

    name: str
    ruleset: Ruleset
    racing_starts: tuple[int, ...] = RACING_STARTS
    crazy_starts: tuple[int, ...] = CRAZY_STARTS
    crazy_units_only: bool = False
    owners: tuple[int, ...] = OWNERS


FAMILIES: tuple[Family, ...] = (
    Family("movement-first", Ruleset(Edition.FIRST, PLAYERS)),
    Family("movement-second", Ruleset(Edition.SECOND, PLAYERS)),
    Family(
        "movement-first-whirlwind",
        Ruleset(Edition.FIRST, PLAYERS, _WW),
        racing_starts=WHIRLWIND_STARTS,
        owners=(),
    ),
    Family(
        "movement-second-whirlwind",
        Ruleset(Edition.SECOND, PLAYERS, _WW, frozenset({Variant.WHIRLWIND_SECOND_EDITION})),
        racing_starts=WHIRLWIND_STARTS,
        crazy_starts=CRAZY_WHIRLWIND_STARTS,
        owners=(),
    ),
    Family(
        "movement-second-crazy-finish-needs-racing",
        Ruleset(Edition.SECOND, PLAYERS, variants=frozenset({Variant.CRAZY_FINISH_NEEDS_RACING})),
        crazy_units_only=True,
    ),
)
"""The rule sets whose movement differs (the variants left out change no move). The whirlwind
families start only around the whirlwind, and the crazy-finish variant moves only units led by
a crazy camel: elsewhere they move as the plain families do."""


@attrs.frozen
class Unit:
    """A moving unit's shape: ``stack`` is the start space's stack, bottom to top, as roles
    (``R`` a racing camel, ``W``/``B`` the white/black crazy camel); ``mover`` its index."""

    name: str  # the situation class of the unit
    stack: str
    mover: int
    crazy_colour: str = ""  # for the grey die: the colour it shows, ``W`` or ``B``


def _racing_units() -> list[Unit]:
    units = [Unit("lone", "R", 0)]
    for size in (2, 3, 4):
        for mover in range(size):
            name = "whole-stack" if mover == 0 else "top-of-stack"
            units.append(Unit(name, "R" * size, mover))
    return units


UNITS = {
    Edition.FIRST: tuple(_racing_units()),
    Edition.SECOND: (
        *_racing_units(),
        Unit("lone-crazy", "W", 0, "W"),
        Unit("crazy-carrying-racing", "WR", 0, "B"),
        Unit("crazy-carrying-racing", "WRR", 0, "B"),
        Unit("racing-carrying-crazy", "RWR", 0),
        Unit("racing-carrying-crazy", "RRWR", 1),
        Unit("crazy-on-crazy", "WB", 1, "W"),
    ),
}
"""Every unit shape of each edition (the names are the unit's situation class)."""


UNIT_TEXT = {
    "lone": "a lone racing camel",
    "top-of-stack": "the top of a stack",
    "whole-stack": "a whole stack",
    "lone-crazy": "a lone crazy camel",
    "crazy-carrying-racing": "a crazy camel carrying racing camels, the other's colour shown,",
    "racing-carrying-crazy": "a racing camel carrying a crazy camel and a racing camel",
    "crazy-on-crazy": "a crazy camel on the other, the lower one's colour shown,",
}


@attrs.frozen
class Situation:
    """One position and the pyramid action taken in it."""

    family: Family
    unit: Unit
    start: int
    tile: tuple[int, TileSide, int] | None  # offset ahead, side, owner
    bystander: int | None  # offset ahead (0: on the start space)
    parked: int  # the space where the camels not used wait
    face: int
    state: State
    action: TakePyramidTicket

    def slug(self) -> str:
        unit = self.unit
        size = len(unit.stack)
        parts = [unit.name]
        if size > 1:
            parts.append(f"{size - unit.mover}-of-{size}")
        parts.append(f"from-{self.start}")
        if self.tile is not None:
            offset, side, owner = self.tile
            whose = "own" if owner == self.state.to_move else "other"
            parts.append(f"{side.value}-{whose}-ahead-{offset}")
        if self.bystander is not None:
            parts.append(f"camel-ahead-{self.bystander}")
        parts.append(f"parked-{self.parked}")
        parts.append(f"die-{self.face}")
        return "-".join(parts)


def _camels(ruleset: Ruleset, unit: Unit) -> tuple[dict[str, list[Camel]], list[Camel]]:
    """The camels that play the roles of ``unit`` and the bystander, and those left over."""
    racing = list(ruleset.racing_camels)
    white, black = CRAZY_CAMELS
    crazy = {"W": [white], "B": [black]} if ruleset.edition is Edition.SECOND else {}
    roles: dict[str, list[Camel]] = {"R": racing[: unit.stack.count("R")], **crazy}
    rest = racing[unit.stack.count("R") :]
    return roles, rest


def _direction(unit: Unit) -> int:
    return -1 if unit.stack[unit.mover] in "WB" else 1


def _ahead(start: int, offset: int, direction: int) -> int:
    return start + offset * direction


def _parking(family: Family, start: int, direction: int) -> tuple[int, ...]:
    """Where the unused camels may wait: out of every reach (the unit's, a tile's push, a lone
    crazy camel's wrap round the loop), off the whirlwind; with the whirlwind module one space
    behind it and one beyond it, since whether every other racing camel is past 8 decides the
    exit from 8."""
    reach = {start + k * direction for k in range(-2, 6)}
    reach |= {s + LAST_SPACE for s in reach} | {s - LAST_SPACE for s in reach}
    free = [s for s in range(2, LAST_SPACE + 1) if s not in reach and s not in WHIRLWIND_SPACES]
    if not family.ruleset.whirlwind:
        return (free[-1],) if direction > 0 else (free[0],)
    behind = [s for s in free if s < min(WHIRLWIND_SPACES)]
    beyond = [s for s in free if s > max(WHIRLWIND_SPACES)]
    return tuple(spaces[-1] for spaces in (behind, beyond) if spaces)


def situations(family: Family) -> Iterator[Situation]:
    """Every situation of ``family``, in a fixed order; impossible positions are skipped."""
    ruleset = family.ruleset
    sides = SIDES[ruleset.edition]
    for unit in UNITS[ruleset.edition]:
        direction = _direction(unit)
        if family.crazy_units_only and direction > 0:
            continue
        for start in family.crazy_starts if direction < 0 else family.racing_starts:
            for parked in _parking(family, start, direction):
                tiles: list[tuple[int, TileSide, int] | None] = [None]
                tiles += [(o, s, w) for o in TILE_OFFSETS for s in sides for w in family.owners]
                for tile in tiles:
                    for bystander in BYSTANDER_OFFSETS:
                        state = _position(family, unit, start, tile, bystander, parked)
                        if state is None:
                            continue
                        for face in FACES:
                            if not _within_reach(tile, bystander, face):
                                continue
                            action = TakePyramidTicket(0, _roll(ruleset, unit, face))
                            yield Situation(
                                family, unit, start, tile, bystander, parked, face, state, action
                            )


def _within_reach(tile: tuple[int, TileSide, int] | None, bystander: int | None, face: int) -> bool:
    """Whether the tile and the bystander can matter to a move of ``face`` spaces: a tile on
    the landing space or passed over, a camel on the landing space or on the space a tile's push
    reaches. Beyond that they are the situation without them."""
    if tile is not None and tile[0] > face:
        return False
    return bystander is None or bystander <= face + 1


def _roll(ruleset: Ruleset, unit: Unit, face: int) -> DieRoll:
    mover = unit.stack[unit.mover]
    if mover == "R":
        racing = ruleset.racing_camels
        return DieRoll(DIE_OF_CAMEL[racing[unit.stack[: unit.mover].count("R")]], face)
    white, black = CRAZY_CAMELS
    return DieRoll(Die.GREY, face, white if unit.crazy_colour == "W" else black)


def _position(
    family: Family,
    unit: Unit,
    start: int,
    tile: tuple[int, TileSide, int] | None,
    bystander: int | None,
    parked: int,
) -> State | None:
    ruleset = family.ruleset
    direction = _direction(unit)
    roles, rest = _camels(ruleset, unit)
    track: list[Stack] = [() for _ in range(SLOTS)]
    racing = iter(roles["R"])  # the racing camels in the order they are stacked
    origin = [next(racing) if role == "R" else roles[role][0] for role in unit.stack]
    track[slot(start)] = tuple(origin)
    waiting = list(rest)
    if bystander is not None:
        if not waiting:
            return None
        space = _ahead(start, bystander, direction)
        if not 1 <= space <= LAST_SPACE:
            return None
        track[slot(space)] = (*track[slot(space)], waiting.pop(0))
    if ruleset.edition is Edition.SECOND:
        waiting += [c for c in CRAZY_CAMELS if c not in origin]
    if waiting:
        track[slot(parked)] = tuple(waiting)
    tiles: tuple[Tile, ...] = ()
    if tile is not None:
        offset, side, owner = tile
        space = _ahead(start, offset, direction)
        if not 1 <= space <= LAST_SPACE:
            return None
        tiles = (Tile(space, owner, side),)
    players = tuple(Player(STARTING_MONEY) for _ in range(ruleset.players))
    state = State(ruleset, tuple(track), tiles, (), players, (), (), 0, 0, 1)
    return None if state_problem(state) is not None else state


def _role_names(situation: Situation) -> dict[Camel, str]:
    """Each camel's role in the situation: ``U<i>`` the unit (bottom first), ``L<i>`` the camels
    left below it, ``X`` the bystander, ``P`` a waiting camel."""
    state = situation.state
    names: dict[Camel, str] = {}
    origin = state.stack(situation.start)
    mover = situation.unit.mover
    for height, camel in enumerate(origin):
        if height < mover:
            names[camel] = "L"
        else:
            names[camel] = "U-bottom" if height == mover else "U-above"
    for space, stack in state.occupied():
        if space not in (situation.start, situation.parked):
            for camel in stack:
                names[camel] = "X"
    for camel in state.stack(situation.parked):
        names.setdefault(camel, "P")
    return names


def outcome_class(situation: Situation, events: Sequence[Event], after: State) -> tuple[Any, ...]:
    """What happened, told without colours and space numbers: the unit's shape, each event's
    kind, clause and placement with the camels it moved named by role (the unit's bottom camel,
    those above it, the camels left below, a bystander), whether a tile paid the player to move,
    which way the race ended, the camels on each space the move touched (runs of one role
    merged), and whether the unit passed over a tile. Two situations of one class test the same
    rules the same way, so one case stands for both."""
    names = _role_names(situation)
    start = situation.start
    described: list[Any] = []
    touched = {start}
    for event in events:
        if isinstance(event, UnitMoved | WhirlwindStep):
            touched |= {event.from_space, event.to_space}
            placement = event.placement if isinstance(event, UnitMoved) else "step"
            described.append(
                (
                    type(event).__name__,
                    event.clause,
                    placement,
                    _runs(names[c] for c in event.unit),
                )
            )
        elif isinstance(event, TilePaid):
            described.append(("TilePaid", event.owner == situation.state.to_move))
        elif isinstance(event, RaceEnded):
            described.append(("RaceEnded", event.clause, event.direction))
        else:
            described.append((type(event).__name__, getattr(event, "clause", "")))
    stacks = tuple(
        _runs(names[c] for c in after.stack(space))
        for space in sorted(touched)
        if after.stack(space)
    )
    unit = situation.unit
    return (unit.name, _runs(unit.stack), tuple(described), stacks, _passes_tile(situation))


def _runs(roles: Iterable[str]) -> tuple[str, ...]:
    """Roles with repeats in a row merged: one camel below or three is the same situation."""
    merged: list[str] = []
    for role in roles:
        if not merged or merged[-1] != role:
            merged.append(role)
    return tuple(merged)


def _passes_tile(situation: Situation) -> bool:
    return situation.tile is not None and situation.tile[0] < situation.face


def reach_class(events: Sequence[Event], after: State) -> str:
    """The situation class of what the unit met, read from what happened: the line, a forward
    or a backward tile, the whirlwind, a stack to land on, or open track."""
    moves = [e for e in events if isinstance(e, UnitMoved)]
    if any(isinstance(e, RaceEnded) for e in events):
        return "line"
    if any(isinstance(e, TilePaid) for e in events):
        pushed = moves[-1]
        forward = pushed.clause == "tile.land.forward" or (
            pushed.clause == "tile.land.crazy-reversed" and pushed.placement == "top"
        )
        return "forward-tile" if forward else "backward-tile"
    if any(isinstance(e, WhirlwindStep) for e in events):
        return "whirlwind"
    landed = moves[-1]
    return "stack" if len(after.stack(landed.to_space)) > len(landed.unit) else "open"


REACH_CLASSES = ("open", "stack", "forward-tile", "backward-tile", "whirlwind", "line")
REF_PREFIX = "camelup conformance generate, movement family "


def situation_class(source: Mapping[str, Any]) -> tuple[str, str] | None:
    """The (unit, reach) situation class a family case's ``source`` names, else None."""
    ref = source.get("ref", "")
    if source.get("kind") != "generated" or not ref.startswith(REF_PREFIX):
        return None
    unit, _, reach = ref[len(REF_PREFIX) :].partition(" x ")
    return unit, reach


def primary_clause(events: Sequence[Event]) -> str:
    """The clause that decides where the unit ends: the race's end, else the tile's push, else
    the last whirlwind arrow, else the move itself."""
    for kind in (RaceEnded, TilePaid, WhirlwindStep, UnitMoved):
        found = [e for e in events if isinstance(e, kind)]
        if found:
            if kind is TilePaid:
                return [e for e in events if isinstance(e, UnitMoved)][-1].clause
            return str(found[-1].clause)
    raise ValueError("a pyramid action that moved nothing")


def family_cases(family: Family) -> list[dict[str, Any]]:
    """The cases of ``family``: the first situation of each outcome class (JSON, keys in the
    suite's order)."""
    seen: set[tuple[Any, ...]] = set()
    cases = []
    for situation in situations(family):
        result = apply(situation.state, situation.action)
        key = outcome_class(situation, result.events, result.state)
        if key in seen:
            continue
        seen.add(key)
        cases.append(_case(situation, result.events, result.state))
    return cases


def _case(situation: Situation, events: Sequence[Event], after: State) -> dict[str, Any]:
    family = situation.family
    clause = primary_clause(events)
    recorded = [to_json(e) for e in events]
    clauses = dict.fromkeys([clause, *(e["clause"] for e in recorded)])
    reach = reach_class(events, after)
    state = to_json(after)
    expect: list[dict[str, Any]] = [
        {"after": 1, "events": recorded, "match": "sequence"},
        {"after": 1, "state": {"/track": state["track"]}},
    ]
    players = {"/players": state["players"]}
    if any(isinstance(e, TilePaid) for e in events):
        expect.append({"after": 1, "state": players, "clause": "tile.land.pay-owner"})
        players = {}
    rest = {f"/{key}": value for key, value in state.items() if key not in ("ruleset", "track")}
    rest.pop("/players")
    if after.result is None:
        rest.update(players)
        expect.append({"after": 1, "state": rest, "clause": "move.pyramid.take-ticket"})
    else:
        expect.append({"after": 1, "state": {**rest, **players}})
    return {
        "id": f"generated.{family.name}/{situation.slug()}",
        "description": f"{_describe(situation)} ({reach})",
        "clauses": list(clauses),
        "source": {
            "kind": "generated",
            "ref": f"{REF_PREFIX}{situation.unit.name} x {reach}",
        },
        "ruleset": to_json(family.ruleset),
        "given": {"state": to_json(situation.state)},
        "steps": [{"action": to_json(situation.action)}],
        "expect": expect,
    }


def _describe(situation: Situation) -> str:
    unit = situation.unit
    size = len(unit.stack)
    what = UNIT_TEXT[unit.name]
    if size > 1:
        what += f" ({size - unit.mover} of {size} camels)"
    text = f"{what} on space {situation.start} moves {situation.face}"
    if situation.tile is not None:
        offset, side, owner = situation.tile
        whose = "the mover's" if owner == situation.state.to_move else "another player's"
        text += f", {whose} {side.value} tile {offset} ahead"
    if situation.bystander is not None:
        text += f", a camel {situation.bystander} ahead"
    return text


def clause_matrix(cases: Iterable[Case]) -> dict[str, Counter[tuple[str, str]]]:
    """For each clause an event of a family case names, sorted: how many family cases of each
    situation class (unit, reach) name it."""
    matrix: dict[str, Counter[tuple[str, str]]] = {}
    for case in cases:
        situation = situation_class(case.source)
        if situation is None:
            continue
        named = {
            event.get("clause")
            for check in case.checks
            if isinstance(check, EventsCheck)
            for event in check.events
        }
        for clause in sorted(c for c in named if isinstance(c, str)):
            matrix.setdefault(clause, Counter())[situation] += 1
    return dict(sorted(matrix.items()))

"""Shared builders for the rule tests: explicit states from a compact description.

A board is written as ``{space: "B G Y"}``: the camels on that space bottom to top, by code.

- first edition: ``B`` blue, ``G`` green, ``O`` orange, ``Y`` yellow, ``W`` white (a racing camel)
- second edition: ``B`` blue, ``G`` green, ``R`` red, ``Y`` yellow, ``P`` purple, and the crazy
  camels ``cW`` (white) and ``cK`` (black)

Every camel of the rule set must be placed exactly once, so that every built state is one the
rules can reach as far as the board goes. Nothing here calls the engine's rules: states are
assembled directly through the ``State`` constructor.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from camelup import (
    Camel,
    Die,
    DieRoll,
    Edition,
    FinishCard,
    IllegalAction,
    LegTicket,
    Module,
    Player,
    Result,
    Ruleset,
    State,
    TakePyramidTicket,
    Tile,
    TileSide,
    Variant,
    apply,
)
from camelup.model.track import MAX_SPACE, MIN_SPACE, SLOTS, slot
from camelup.spec.registry import load_registry

FIRST_CODES: dict[str, Camel] = {
    "B": Camel.BLUE,
    "G": Camel.GREEN,
    "O": Camel.ORANGE,
    "Y": Camel.YELLOW,
    "W": Camel.WHITE,
}
SECOND_CODES: dict[str, Camel] = {
    "B": Camel.BLUE,
    "G": Camel.GREEN,
    "R": Camel.RED,
    "Y": Camel.YELLOW,
    "P": Camel.PURPLE,
    "cW": Camel.CRAZY_WHITE,
    "cK": Camel.CRAZY_BLACK,
}
CW, CK = Camel.CRAZY_WHITE, Camel.CRAZY_BLACK


def ruleset(
    edition: str = "first",
    players: int = 4,
    *,
    whirlwind: bool = False,
    variants: Iterable[Variant] = (),
) -> Ruleset:
    modules = frozenset({Module.WHIRLWIND}) if whirlwind else frozenset()
    return Ruleset(Edition(edition), players, modules, frozenset(variants))


def codes(rules: Ruleset) -> dict[str, Camel]:
    return FIRST_CODES if rules.edition is Edition.FIRST else SECOND_CODES


def camel(rules: Ruleset, code: str) -> Camel:
    return codes(rules)[code]


def camels(rules: Ruleset, text: str) -> tuple[Camel, ...]:
    """``"W B"`` -> (white, blue): a stack or unit, bottom to top."""
    return tuple(camel(rules, c) for c in text.split())


def code_of(rules: Ruleset, piece: Camel) -> str:
    for code, value in codes(rules).items():
        if value is piece:
            return code
    raise KeyError(piece)


def die(rules: Ruleset, code: str) -> Die:
    """The die of a racing camel by its code, or ``"grey"``."""
    if code == "grey":
        return Die.GREY
    return Die(camel(rules, code).value)


def build(
    rules: Ruleset,
    board: Mapping[int, str],
    *,
    tiles: Sequence[tuple[int, int, TileSide]] = (),
    money: Sequence[int] | None = None,
    leg_tickets: Mapping[int, Sequence[tuple[str, int]]] | None = None,
    pyramid_tickets: Mapping[int, int] | None = None,
    revealed: Sequence[str] = (),
    winner_pile: Sequence[tuple[int, str]] = (),
    loser_pile: Sequence[tuple[int, str]] = (),
    partners: Mapping[int, int] | None = None,
    ticket_stacks: Mapping[str, tuple[int, ...]] | None = None,
    to_move: int = 0,
    start_player: int = 0,
    leg: int = 1,
) -> State:
    """A state from a compact description.

    ``tiles``: (space, owner, side). ``leg_tickets``: seat -> [(colour code, value)]; unless
    ``ticket_stacks`` is given, the held values are taken off their colour's stack.
    ``revealed``: codes of the dice out of the pyramid this leg (``"grey"`` for the grey die);
    their number must equal the pyramid tickets held. Placed finish cards (``winner_pile``,
    ``loser_pile``: (owner, colour code), first placed first) leave their owner's hand.
    ``partners``: seat -> partner seat, one entry per partnership.
    """
    n = rules.players
    track: list[tuple[Camel, ...]] = [()] * SLOTS
    seen: list[Camel] = []
    for space, text in board.items():
        assert MIN_SPACE <= space <= MAX_SPACE, space
        stack = camels(rules, text)
        track[slot(space)] = stack
        seen.extend(stack)
    assert sorted(c.value for c in seen) == sorted(c.value for c in rules.camels), (
        f"every camel exactly once, got {[c.value for c in seen]}"
    )
    money = list(money) if money is not None else [3] * n
    assert len(money) == n
    held = {
        seat: [LegTicket(camel(rules, c), v) for c, v in t]
        for seat, t in (leg_tickets or {}).items()
    }
    pyr = dict(pyramid_tickets or {})
    assert sum(pyr.values()) == len(revealed), "one pyramid ticket per revealed die"
    winner = tuple(FinishCard(o, camel(rules, c)) for o, c in winner_pile)
    loser = tuple(FinishCard(o, camel(rules, c)) for o, c in loser_pile)
    placed = [(card.owner, card.camel) for card in winner + loser]
    assert len(set(placed)) == len(placed), "a colour placed twice by one player"
    pairs = tuple(sorted((min(a, b), max(a, b)) for a, b in (partners or {}).items()))
    if ticket_stacks is not None:
        # The stacks follow from the tickets held: the missing ones go to the last seat.
        assert not held, "give leg_tickets or ticket_stacks, not both"
        for racing in rules.racing_camels:
            left = ticket_stacks.get(code_of(rules, racing), rules.leg_ticket_values)
            taken = rules.leg_ticket_values[len(left) :][::-1]
            held.setdefault(n - 1, []).extend(LegTicket(racing, v) for v in taken)
    players = tuple(Player(money[s], tuple(held.get(s, ())), pyr.get(s, 0)) for s in range(n))
    out = tuple(die(rules, d) for d in revealed)
    rolls = tuple(DieRoll(d, 1, CW if d is Die.GREY else None) for d in out)
    state = State(
        rules,
        tuple(track),
        tuple(sorted((Tile(s, o, side) for s, o, side in tiles), key=lambda t: t.space)),
        rolls,
        players,
        winner,
        loser,
        to_move,
        start_player,
        leg,
        pairs,
    )
    if ticket_stacks is not None:
        wanted = tuple(
            ticket_stacks.get(code_of(rules, c), rules.leg_ticket_values)
            for c in rules.racing_camels
        )
        assert state.ticket_stacks == wanted, "ticket_stacks must read bottom to top"
    return state


def board(state: State) -> dict[int, str]:
    """The occupied spaces of ``state`` as ``{space: "B G"}``, for whole-board assertions."""
    return {
        space: " ".join(code_of(state.ruleset, c) for c in stack)
        for space, stack in state.occupied()
    }


def roll(rules: Ruleset, code: str, value: int, colour: str | None = None) -> DieRoll:
    """``roll(r, "B", 2)``; for the grey die ``roll(r, "grey", 2, "cK")``."""
    return DieRoll(die(rules, code), value, None if colour is None else camel(rules, colour))


def pyramid(state: State, code: str, value: int, colour: str | None = None) -> Result:
    """The player to move takes a pyramid ticket and the given die comes out showing ``value``."""
    return apply(state, TakePyramidTicket(state.to_move, roll(state.ruleset, code, value, colour)))


def events_of(result: Result, kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in result.events if type(e) is kind]


def money(state: State) -> list[int]:
    return [p.money for p in state.players]


def assert_illegal(state: State, action: object, code: str, clause: str) -> IllegalAction:
    """``apply`` refuses ``action`` with ``code`` and ``clause``, and ``state`` is unchanged."""
    assert clause in load_registry().clause_ids, f"test names unknown clause {clause}"
    snapshot = (state.track, state.tiles, state.players, state.pyramid, state.to_move)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert caught.value.code == code, caught.value
    assert caught.value.clause == clause, caught.value
    assert (state.track, state.tiles, state.players, state.pyramid, state.to_move) == snapshot
    return caught.value


def wire_rolls(text: str) -> list[dict[str, Any]]:
    """``"blue 1, green 2"`` as the rolls of a setup in wire form."""
    return [{"die": d, "value": int(v)} for d, v in (roll.split() for roll in text.split(", "))]


# A second-edition setup in wire form (a case's "given"), 3 seats and both crazy camels.
SETUP_SECOND: dict[str, Any] = {
    "racing_rolls": wire_rolls("blue 1, green 2, red 3, yellow 1, purple 2"),
    "stacking": ["blue", "green", "red", "yellow", "purple"],
    "start_player": 0,
    "crazy_rolls": [
        {"die": "grey", "value": 1, "colour": "crazy-white"},
        {"die": "grey", "value": 2, "colour": "crazy-black"},
    ],
    "first_crazy": "crazy-white",
}  # track: 1 blue yellow, 2 green purple, 3 red, 15 crazy-black, 16 crazy-white

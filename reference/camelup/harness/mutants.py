"""Mutation testing: a catalogue of plausible wrong rule implementations of the reference engine.

A suite is as good as the wrong programs it rejects. Each :class:`Mutant` is one small, named
mistake, most of them ones that public Camel Up implementations are known to make: a rule
function of ``camelup.rules`` (or an engine step) replaced at run time by a wrong version, a
wrapper around the real one or a re-implementation with the one mistake. Nothing here changes
the engine unless a mutant is applied: :func:`applied` is a context manager that restores every
replaced attribute on exit, :func:`activate` (``python -m camelup.adapter --mutant NAME``)
applies one for the rest of the process.

A function is replaced in its own module and under every other name a loaded ``camelup`` module
holds it by (``engine`` imports ``score_leg`` by name, for instance), so that play, validation,
the legal actions and the odds all see the same wrong rule.

``camelup conformance mutants`` runs the suite against every mutant. This module needs only the
engine below it: it sits beside the adapter, which loads it for ``--mutant``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

import attrs

# Loaded before any patch, so that the names they import are found and patched as well (and a
# module imported later cannot keep a patched function after the patch is undone).
import camelup.harness.adapter
import camelup.odds.exact
import camelup.play.validation  # noqa: F401
from camelup.model import dice
from camelup.model.actions import PlaceFinishCard, TakeLegTicket, TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, Camel
from camelup.model.dice import DieRoll
from camelup.model.errors import Violation
from camelup.model.events import (
    Event,
    FinishCardPlaced,
    FinishCardScored,
    LegScored,
    LegTicketTaken,
    PlayerLegScore,
    PyramidTicketTaken,
    RaceEnded,
    StartPlayerPassed,
    TilePaid,
    UnitMoved,
    WhirlwindStep,
)
from camelup.model.ruleset import Edition, Ruleset, Variant
from camelup.model.state import FinishCard, GameResult, LegTicket, Pile, Player, State, Tile
from camelup.model.track import LAST_SPACE, MIN_SPACE, WHIRLWIND_SPACES, Stack, slot
from camelup.play import engine
from camelup.rules import (
    betting,
    crazy,
    final,
    leg,
    movement,
    partnership,
    ranking,
    setup,
    tiles,
    turn,
    whirlwind,
)

Track = list[Stack]


def camelup_modules() -> list[ModuleType]:
    """The loaded camelup modules, ``__main__`` included when it is one (``python -m ...``)."""
    found = []
    for module in list(sys.modules.values()):
        spec = getattr(module, "__spec__", None)
        name = spec.name if spec is not None else getattr(module, "__name__", "")
        if isinstance(module, ModuleType) and name.startswith("camelup"):
            found.append(module)
    return found


class Patcher:
    """Replaces attributes and remembers what was there, to put it back."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def replace(self, owner: ModuleType | type, name: str, new: Any) -> None:
        """Set ``owner.name`` to ``new``; for a module, also every other loaded camelup module's
        name for the same object (a ``from ... import`` of it)."""
        original = vars(owner)[name]
        holders: list[tuple[Any, str]] = [(owner, name)]
        if isinstance(owner, ModuleType):
            for module in camelup_modules():
                if module is owner:
                    continue
                holders.extend(
                    (module, key) for key, value in vars(module).items() if value is original
                )
        for holder, key in holders:
            self._saved.append((holder, key, vars(holder)[key]))
            setattr(holder, key, new)

    @property
    def saved(self) -> tuple[tuple[Any, str, Any], ...]:
        """Each replaced attribute, in the order replaced: its holder, name and original."""
        return tuple(self._saved)

    def restore(self) -> None:
        while self._saved:
            holder, key, value = self._saved.pop()
            setattr(holder, key, value)


@attrs.frozen
class Mutant:
    """One wrong implementation: its name, the clause it breaks, the mistake in one line."""

    name: str
    clause: str
    description: str
    patch: Callable[[Patcher], None] = attrs.field(repr=False)


CATALOGUE: dict[str, Mutant] = {}


def _mutant(
    name: str, clause: str, description: str
) -> Callable[[Callable[[Patcher], None]], Callable[[Patcher], None]]:
    def register(patch: Callable[[Patcher], None]) -> Callable[[Patcher], None]:
        assert name not in CATALOGUE, name
        CATALOGUE[name] = Mutant(name, clause, description, patch)
        return patch

    return register


def mutants(names: Sequence[str] = ()) -> tuple[Mutant, ...]:
    """The named mutants (all when ``names`` is empty); KeyError names an unknown one."""
    if not names:
        return tuple(CATALOGUE.values())
    return tuple(CATALOGUE[name] for name in names)


_ACTIVE: list[Patcher] = []  # the patchers whose replacements are in place, oldest first


def active() -> bool:
    """Whether a mutant is applied in this process (the engine here is not the reference)."""
    return bool(_ACTIVE)


@contextlib.contextmanager
def applied(mutant: Mutant) -> Iterator[None]:
    """Run the body with ``mutant``'s patch in place; everything is restored afterwards."""
    patcher = Patcher()
    _ACTIVE.append(patcher)
    try:
        mutant.patch(patcher)
        yield
    finally:
        patcher.restore()
        _ACTIVE.remove(patcher)


@contextlib.contextmanager
def lifted() -> Iterator[None]:
    """Run the body on the real engine: every active patch undone, and put back after.

    The conformance runner computes the reference's states this way, so that a mutant run
    in-process is compared with the reference and not with itself.
    """
    patched = [
        (holder, key, vars(holder)[key], original)
        for patcher in _ACTIVE
        for holder, key, original in patcher.saved
    ]
    for holder, key, _, original in reversed(patched):
        setattr(holder, key, original)
    try:
        yield
    finally:
        for holder, key, replacement, _ in patched:
            setattr(holder, key, replacement)


def activate(name: str) -> Mutant:
    """Apply the mutant ``name`` for the rest of the process (the adapter's ``--mutant``)."""
    mutant = CATALOGUE[name]
    patcher = Patcher()
    _ACTIVE.append(patcher)
    mutant.patch(patcher)
    # The hello names the mutant, in the adapter module and in ``__main__`` when that is the
    # adapter run as ``python -m camelup.adapter`` (a second copy of the module).
    for module in camelup_modules():
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.name == "camelup.harness.adapter":
            patcher.replace(module, "hello_reply", _naming_hello(vars(module)["hello_reply"], name))
    return mutant


def _naming_hello(hello: Callable[[], dict[str, Any]], name: str) -> Callable[[], dict[str, Any]]:
    def hello_reply() -> dict[str, Any]:
        reply = hello()
        reply["implementation"] = {**reply["implementation"], "name": f"camelup-mutant:{name}"}
        return reply

    return hello_reply


# --------------------------------------------------------------------------------------------
# Re-implementations with knobs: each mutant below turns exactly one knob away from the rule.
# --------------------------------------------------------------------------------------------


def _tile_space_problem(
    state: State,
    player: int,
    space: int,
    side: Any,
    *,
    off_track: bool = True,
    space_one: bool = True,
    space_two_blocked: bool = False,
    whirlwind_blocks: bool = True,
    same_space: bool = True,
    camel_blocks: Callable[[Camel], bool] = lambda camel: True,
    tile_blocks: bool = True,
    adjacency: Callable[[int, int], bool] = lambda tile, space: abs(tile - space) == 1,
    own_blocks: bool | None = None,
    sides_checked: bool = True,
    adjacent_code: str = "tile-adjacent",
) -> Violation | None:
    """:func:`camelup.rules.tiles.tile_space_problem`, each of its checks a knob."""
    edition = state.ruleset.edition
    if sides_checked and side not in tiles.SIDES[edition]:
        return Violation("tile-side", tiles.tile_kind_clause(edition), "wrong side", ("side",))
    at = ("space",)
    if off_track and not 1 <= space <= LAST_SPACE:
        return Violation("tile-off-track", "tile.place.empty-space", "off the track", at)
    if space_one and space == 1:
        return Violation("tile-space-one", "tile.place.not-space-one", "space 1", at)
    if space_two_blocked and space == 2:
        return Violation("tile-space-one", "tile.place.not-space-one", "next to space 1", at)
    if whirlwind_blocks and state.ruleset.whirlwind and space in WHIRLWIND_SPACES:
        return Violation("tile-whirlwind", "whirlwind.no-tiles", "a whirlwind space", at)
    own = state.tile_of(player)
    if same_space and own is not None and own.space == space:
        return Violation("tile-same-space", "tile.move.different-space", "same space", at)
    if any(camel_blocks(camel) for camel in state.stack(space)):
        return Violation("tile-on-camel", "tile.place.empty-space", "holds a camel", at)
    if own_blocks is None:
        own_blocks = Variant.TILE_MOVE_OLD_SPACE_BLOCKS in state.ruleset.variants
    for tile in state.tiles:
        if tile_blocks and tile.space == space:
            return Violation("tile-on-tile", "tile.place.empty-space", "holds a tile", at)
        if tile.space != space and adjacency(tile.space, space):
            if tile.owner != player:
                return Violation(adjacent_code, "tile.place.not-adjacent", "next to a tile", at)
            if own_blocks:
                return Violation("tile-adjacent", "tile.move.old-space-blocks", "own tile", at)
    return None


def _tile_knob(p: Patcher, **knobs: Any) -> None:
    def problem(state: State, player: int, space: int, side: Any) -> Violation | None:
        return _tile_space_problem(state, player, space, side, **knobs)

    p.replace(tiles, "tile_space_problem", problem)


def _tile_step(
    track: Track,
    ruleset: Ruleset,
    tile: Tile,
    unit: Stack,
    direction: int,
    events: list[Event] | None = None,
    *,
    amount: Callable[[Stack], int] = lambda unit: 1,
    forward_underneath: bool = False,
    backward_on_top: bool = False,
    backward_reversed: bool = False,
    crazy_reversed: bool = True,
    direction_of: Callable[[Stack, int], int] | None = None,
    stop_at_sixteen: bool = False,
    on_origin_on_top: Callable[[int], bool] = lambda target: False,
) -> movement.Moved:
    """:func:`camelup.rules.movement.tile_step`, each of its parts a knob."""
    paid = TilePaid(tile.owner, tile.space, amount(unit))
    if events is not None:
        events.append(paid)
    index = tile.space - MIN_SPACE
    track[index] = track[index][: len(track[index]) - len(unit)]
    if direction_of is not None:
        direction = direction_of(unit, direction)
    elif not crazy_reversed:
        direction = 1
    target = tile.space + tile.side.step * direction
    if target > LAST_SPACE and direction < 0 and crazy.crossing_wraps(ruleset, unit):
        target -= LAST_SPACE
    if stop_at_sixteen and target > LAST_SPACE:
        target = LAST_SPACE
    slot_index = target - MIN_SPACE
    forward = tile.side.step > 0
    clause = "tile.land.forward" if forward else "tile.land.backward"
    on_top = not forward_underneath if forward else backward_on_top or on_origin_on_top(target)
    if on_top:
        track[slot_index] = track[slot_index] + unit
        placement = "top"
    elif backward_reversed:
        for camel in unit:  # each camel slid in at the bottom on its own: the unit turns over
            track[slot_index] = (camel, *track[slot_index])
        placement = "underneath"
    else:
        track[slot_index] = unit + track[slot_index]
        placement = "underneath"
    if events is not None:
        if direction < 0:
            clause = "tile.land.crazy-reversed"
        events.append(UnitMoved(unit, tile.space, target, placement, clause))  # type: ignore[arg-type]
    if target > LAST_SPACE or target < 1:
        if events is not None:
            events.append(
                RaceEnded(unit, movement.crossing_direction(target), "tile.land.off-track")
            )
        return movement.Moved(tile.space, True, (paid,))
    return movement.Moved(tile.space, False, (paid,))


def _step_knob(p: Patcher, **knobs: Any) -> None:
    def step(
        track: Track,
        ruleset: Ruleset,
        tile: Tile,
        unit: Stack,
        direction: int,
        events: list[Event] | None = None,
    ) -> movement.Moved:
        return _tile_step(track, ruleset, tile, unit, direction, events, **knobs)

    p.replace(movement, "tile_step", step)


def _move_camel_unit(
    track: Track,
    tile_list: tuple[Tile, ...],
    ruleset: Ruleset,
    camel: Camel,
    origin: int,
    unit: Stack,
    pips: int,
    events: list[Event] | None = None,
    *,
    racing_pips: Callable[[int], int] = lambda pips: pips,
    crazy_direction: int = -1,
    crazy_wraps: bool = False,
    crazy_held_on_one: bool = False,
    crazy_alone: bool = False,
    racing_drops_crazy: bool = False,
    passed_tiles_fire: bool = False,
    stop_past_line_on: int | None = None,
    crazy_arrows: bool = False,
) -> movement.Moved:
    """:func:`camelup.rules.movement.move_camel_unit`, each of its parts a knob."""
    if camel.is_crazy and crazy_alone and len(unit) > 1:
        track[origin - MIN_SPACE] = track[origin - MIN_SPACE] + unit[1:]
        unit = unit[:1]
    if not camel.is_crazy and racing_drops_crazy:
        riders = tuple(c for c in unit[1:] if c.is_crazy)
        track[origin - MIN_SPACE] = track[origin - MIN_SPACE] + riders
        unit = tuple(c for c in unit if c is camel or not c.is_crazy)
    if camel.is_crazy:
        direction, clause = crazy_direction, "crazy.move.counterclockwise"
        if crazy_arrows and ruleset.whirlwind and origin >= 8 and origin - pips < 8:
            destination = origin - pips - 1  # the 6-to-8 arrow taken backwards: 8 goes to 6
        else:
            destination = origin + crazy_direction * pips
        if destination < 1 and (crazy_wraps or crazy.crossing_wraps(ruleset, unit)):
            destination += LAST_SPACE
        if destination < 1 and crazy_held_on_one:
            destination = 1
    else:
        direction, clause = 1, "move.racing.clockwise"
        pips = racing_pips(pips)
        if ruleset.whirlwind:
            destination = whirlwind.whirlwind_destination(track, unit, origin, pips, events)
        else:
            destination = origin + pips
            if passed_tiles_fire:
                passed = [t.space for t in tile_list if origin < t.space < destination]
                destination = min(passed, default=destination)
        if stop_past_line_on is not None and destination > LAST_SPACE:
            destination = stop_past_line_on
    movement.put_on_top(track, unit, destination)
    if events is not None:
        events.append(UnitMoved(unit, origin, destination, "top", clause))
    if destination > LAST_SPACE or destination < 1:
        if events is not None:
            crossing = "end.crossing.racing" if direction > 0 else "end.crossing.crazy"
            events.append(RaceEnded(unit, movement.crossing_direction(destination), crossing))
        return movement.Moved(destination, True)
    for tile in tile_list:
        if tile.space == destination:
            return movement.tile_step(track, ruleset, tile, unit, direction, events)
    return movement.Moved(destination, False)


def _move_knob(p: Patcher, **knobs: Any) -> None:
    def move(
        track: Track,
        tile_list: tuple[Tile, ...],
        ruleset: Ruleset,
        camel: Camel,
        origin: int,
        unit: Stack,
        pips: int,
        events: list[Event] | None = None,
    ) -> movement.Moved:
        return _move_camel_unit(
            track, tile_list, ruleset, camel, origin, unit, pips, events, **knobs
        )

    p.replace(movement, "move_camel_unit", move)


def _choose_crazy_camel(
    track: list[Stack] | tuple[Stack, ...],
    colour: Camel | None,
    *,
    only_carrier: bool = True,
    direct_carrier_only: bool = False,
    top_of_other: bool = True,
    lower_moves: bool = False,
    any_gap: bool = False,
    colour_swapped: bool = False,
) -> tuple[Camel, str]:
    """:func:`camelup.rules.crazy.choose_crazy_camel`, each exception a knob."""
    white, black = CRAZY_CAMELS
    where: dict[Camel, tuple[int, int]] = {white: (-1, -1), black: (-1, -1)}
    for index, stack in enumerate(track):
        for height, camel in enumerate(stack):
            if camel.is_crazy:
                where[camel] = (index, height)

    def carries(camel: Camel) -> bool:
        index, height = where[camel]
        if index < 0:
            return False
        above = track[index][height + 1 :]
        if direct_carrier_only:
            return bool(above) and not above[0].is_crazy
        return any(not c.is_crazy for c in above)

    if only_carrier and carries(white) != carries(black):
        return (white if carries(white) else black), "crazy.select.only-carrier"
    (w_index, w_height), (b_index, b_height) = where[white], where[black]
    stacked = w_index == b_index >= 0 and (any_gap or abs(w_height - b_height) == 1)
    if top_of_other and stacked:
        upper = white if w_height > b_height else black
        lower = black if upper is white else white
        return (lower if lower_moves else upper), "crazy.select.top-of-other"
    assert colour is not None
    if colour_swapped:
        return (black if colour is white else white), "crazy.select.colour"
    return colour, "crazy.select.colour"


def _crazy_knob(p: Patcher, **knobs: Any) -> None:
    def choose(track: list[Stack] | tuple[Stack, ...], colour: Camel | None) -> tuple[Camel, str]:
        return _choose_crazy_camel(track, colour, **knobs)

    p.replace(crazy, "choose_crazy_camel", choose)


def _whirlwind_destination(
    track: list[Stack],
    unit: Stack,
    origin: int,
    pips: int,
    events: list[Event] | None = None,
    *,
    six_to: int = 8,
    seven_to: int = 6,
    bounce: bool = True,
    condition_spaces: tuple[int, ...] = (6, 7, 8),
    crazy_count_for_b: bool = False,
    counts_itself: bool = False,
) -> int:
    """:func:`camelup.rules.whirlwind.whirlwind_destination`, each arrow and condition a knob."""

    def let_through() -> bool:
        if any(track[space - MIN_SPACE] for space in condition_spaces):
            return True
        if counts_itself and origin in condition_spaces:
            return True  # as if the unit still stood where it started
        behind = [c for stack in track[: 9 - MIN_SPACE] for c in stack]
        return not any(crazy_count_for_b or not c.is_crazy for c in behind)

    position = origin
    for _ in range(pips):
        if position == 6:
            following, clause = six_to, "whirlwind.leave-six"
        elif position == 7:
            following, clause = seven_to, "whirlwind.leave-seven"
        elif position == 8:
            if not bounce or let_through():
                following, clause = 9, "whirlwind.leave-eight"
            else:
                following, clause = 7, "whirlwind.bounce"
        else:
            position += 1
            continue
        if events is not None:
            events.append(WhirlwindStep(unit, position, following, clause))
        position = following
    return position


def _whirlwind_knob(p: Patcher, **knobs: Any) -> None:
    def destination(
        track: list[Stack], unit: Stack, origin: int, pips: int, events: list[Event] | None = None
    ) -> int:
        return _whirlwind_destination(track, unit, origin, pips, events, **knobs)

    p.replace(whirlwind, "whirlwind_destination", destination)


def _ranking(
    track: Sequence[Stack],
    *,
    lower_ahead: bool = False,
    count_crazy: bool = False,
    crossed_bottom_first: bool = False,
    backwards_wrap: bool = False,
    backwards_bottom_ahead: bool = False,
) -> tuple[Camel, ...]:
    """:func:`camelup.rules.ranking.ranking`, each ordering rule a knob."""
    keyed: list[tuple[int, int, Camel]] = []
    for index, stack in enumerate(track):
        space = index + MIN_SPACE
        for height, camel in enumerate(stack):
            if camel.is_crazy and not count_crazy:
                continue
            order = -height if lower_ahead else height
            if space > LAST_SPACE and crossed_bottom_first:
                order = -height
            if space < 1 and backwards_bottom_ahead:
                order = -height
            where = space + LAST_SPACE if space < 1 and backwards_wrap else space
            keyed.append((where, order, camel))
    keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
    return tuple(camel for _, _, camel in keyed)


def _ranking_knob(p: Patcher, **knobs: Any) -> None:
    def rank(track: Sequence[Stack]) -> tuple[Camel, ...]:
        return _ranking(track, **knobs)

    p.replace(ranking, "ranking", rank)


def _score_leg(
    players: tuple[Player, ...],
    partnerships: tuple[tuple[int, int], ...],
    ranked: tuple[Camel, ...],
    number: int,
    *,
    floor: bool = True,
    floor_per_ticket: bool = False,
    pyramid: Callable[[int], int] = lambda tickets: tickets,
    bonus_of: Callable[[Player, Camel, Camel], int] | None = None,
    bonus_for: Callable[[int, int], bool] = lambda seat, partner: True,
) -> LegScored:
    """:func:`camelup.rules.leg.score_leg`, the floor, the pyramid and the bonus as knobs."""
    leader, second = ranked[0], ranked[1]
    partner_of: dict[int, int] = {}
    for first, other in partnerships:
        partner_of[first], partner_of[other] = other, first
    scores = []
    for seat, player in enumerate(players):
        parts = [pyramid(player.pyramid_tickets)]
        tickets = tuple((t, leg.ticket_reward(t, leader, second)) for t in player.leg_tickets)
        parts.extend(reward for _, reward in tickets)
        bonus = 0
        if seat in partner_of and bonus_for(seat, partner_of[seat]):
            partner = players[partner_of[seat]]
            bonus = (bonus_of or leg.partner_bonus)(partner, leader, second)
            parts.append(bonus)
        total = sum(parts)
        if floor_per_ticket:
            money = player.money
            for part in parts:
                money = max(0, money + part)
            paid = money - player.money
        elif floor:
            paid = max(0, player.money + total) - player.money
        else:
            paid = total
        scores.append(PlayerLegScore(seat, tickets, player.pyramid_tickets, bonus, total, paid))
    return LegScored(number, leader, second, tuple(scores))


def _leg_knob(p: Patcher, **knobs: Any) -> None:
    def score(
        players: tuple[Player, ...],
        partnerships: tuple[tuple[int, int], ...],
        ranked: tuple[Camel, ...],
        number: int,
    ) -> LegScored:
        return _score_leg(players, partnerships, ranked, number, **knobs)

    p.replace(leg, "score_leg", score)


def _card_amounts(
    pile: tuple[FinishCard, ...],
    camel: Camel,
    *,
    later: int = 1,
    wrong: int = -1,
    slot_by_position: bool = False,
    per_player: bool = False,
) -> list[int]:
    """:func:`camelup.rules.final.card_amounts`, the payouts as knobs."""
    amounts = []
    correct: dict[int, int] = {}
    for position, card in enumerate(pile):
        key = card.owner if per_player else -1
        if card.camel is camel:
            rank = position if slot_by_position else correct.get(key, 0)
            payouts = final.CORRECT_CARD_PAYOUTS
            amounts.append(payouts[rank] if rank < len(payouts) else later)
            correct[key] = correct.get(key, 0) + 1
        else:
            amounts.append(wrong)
    return amounts


def _cards_knob(p: Patcher, **knobs: Any) -> None:
    def amounts(pile: tuple[FinishCard, ...], camel: Camel) -> list[int]:
        return _card_amounts(pile, camel, **knobs)

    p.replace(final, "card_amounts", amounts)


def _score_finish_piles(
    ruleset: Ruleset,
    money: list[int],
    winner_pile: tuple[FinishCard, ...],
    loser_pile: tuple[FinishCard, ...],
    winner: Camel,
    loser: Camel,
    *,
    floor: bool = True,
    net: bool | None = None,
    last_first: bool = False,
    loser_first: bool = False,
) -> list[FinishCardScored]:
    """:func:`camelup.rules.final.score_finish_piles`, the order, netting and floor as knobs."""
    if net is None:
        net = Variant.FINAL_SCORING_NET in ruleset.variants
    piles = [(winner_pile, Pile.WINNER, winner), (loser_pile, Pile.LOSER, loser)]
    if loser_first:
        piles.reverse()
    events: list[FinishCardScored] = []
    for pile, name, camel in piles:
        amounts = final.card_amounts(pile, camel)
        order = list(zip(pile, amounts, strict=True))
        if last_first:
            order.reverse()
        if net:
            totals: dict[int, int] = {}
            for card, amount in order:
                totals[card.owner] = totals.get(card.owner, 0) + amount
            paid_now: dict[int, int] = {}
            for owner, total in totals.items():
                after = max(0, money[owner] + total) if floor else money[owner] + total
                paid_now[owner] = after - money[owner]
                money[owner] = after
            for card, amount in order:
                paid = paid_now.pop(card.owner, 0)
                correct = card.camel is camel
                events.append(
                    FinishCardScored(
                        name, card.owner, card.camel, correct, amount, paid, "final.net"
                    )
                )
            continue
        for card, amount in order:
            after = max(0, money[card.owner] + amount) if floor else money[card.owner] + amount
            paid = after - money[card.owner]
            money[card.owner] = after
            clause = "final.correct-pays" if amount > 0 else "final.wrong-costs"
            events.append(
                FinishCardScored(name, card.owner, card.camel, amount > 0, amount, paid, clause)
            )
    return events


def _piles_knob(p: Patcher, **knobs: Any) -> None:
    def score(
        ruleset: Ruleset,
        money: list[int],
        winner_pile: tuple[FinishCard, ...],
        loser_pile: tuple[FinishCard, ...],
        winner: Camel,
        loser: Camel,
    ) -> list[FinishCardScored]:
        return _score_finish_piles(ruleset, money, winner_pile, loser_pile, winner, loser, **knobs)

    p.replace(final, "score_finish_piles", score)


def _wrap_engine(
    p: Patcher, name: str, after: Callable[[State, Any, engine.Result], engine.Result]
) -> None:
    """Replace the engine step ``name`` by the real one followed by ``after``."""
    original = vars(engine)[name]

    def step(state: State, action: Any) -> engine.Result:
        return after(state, action, original(state, action))

    p.replace(engine, name, step)


def _wrap_setup(
    p: Patcher,
    change: Callable[[State, setup.Setup], State],
    given: Callable[[setup.Setup], setup.Setup] = lambda s: s,
) -> None:
    original = setup.new_game

    def new_game(ruleset: Ruleset, inputs: setup.Setup) -> State:
        changed = given(inputs)
        return change(original(ruleset, changed), changed)

    p.replace(setup, "new_game", new_game)


def _with_track(state: State, track: list[Stack]) -> State:
    return attrs.evolve(state, track=tuple(track))


def _error_code(
    p: Patcher,
    owner: ModuleType,
    name: str,
    code: str,
    new_code: str | None = None,
    new_clause: str | None = None,
) -> None:
    """The rule ``owner.name`` reports ``code`` as another code or clause (the same verdict)."""
    original = vars(owner)[name]

    def check(*args: Any) -> Any:
        problem = original(*args)
        if isinstance(problem, Violation) and problem.code == code:
            return attrs.evolve(
                problem, code=new_code or problem.code, clause=new_clause or problem.clause
            )
        return problem

    p.replace(owner, name, check)


# --------------------------------------------------------------------------------------------
# Chapter 1: components and dice faces
# --------------------------------------------------------------------------------------------


def _faces(p: Patcher, grey: bool) -> None:
    original = dice.face_problem

    def face_problem(roll: DieRoll) -> Violation | None:
        if roll.value == 4 and (roll.die.camel is None) == grey:
            return None
        return original(roll)

    p.replace(dice, "face_problem", face_problem)


@_mutant("racing-die-shows-four", "dice.racing-faces", "a racing die may show 4")
def _racing_four(p: Patcher) -> None:
    _faces(p, grey=False)


@_mutant("grey-die-shows-four", "dice.grey-faces", "the grey die may show 4")
def _grey_four(p: Patcher) -> None:
    _faces(p, grey=True)


@_mutant(
    "bets-on-crazy-camels",
    "bets.no-crazy",
    "crazy camels count as bettable colours (with an empty ticket stack and no card in hand)",
)
def _bets_crazy(p: Patcher) -> None:
    original = betting.bet_camel_problem
    original_leg = betting.leg_ticket_problem

    def problem(ruleset: Ruleset, camel: Camel, kind: Any) -> Violation | None:
        return None if camel.is_crazy else original(ruleset, camel, kind)

    def leg_problem(state: State, camel: Camel) -> Violation | None:
        if camel.is_crazy:
            return Violation("ticket-stack-empty", "bet.leg.empty-stack", "empty", ("camel",))
        return original_leg(state, camel)

    p.replace(betting, "bet_camel_problem", problem)
    p.replace(betting, "leg_ticket_problem", leg_problem)


@_mutant(
    "bets-on-other-edition-colours",
    "camels.racing.second",
    "a bet on the other edition's colours is refused as an empty stack, not as no such camel",
)
def _bets_other_edition(p: Patcher) -> None:
    original_leg = betting.leg_ticket_problem

    def leg_problem(state: State, camel: Camel) -> Violation | None:
        if not camel.is_crazy and camel not in state.ruleset.racing_camels:
            return Violation("ticket-stack-empty", "bet.leg.empty-stack", "empty", ("camel",))
        return original_leg(state, camel)

    p.replace(betting, "leg_ticket_problem", leg_problem)


# --------------------------------------------------------------------------------------------
# Chapter 2: setup
# --------------------------------------------------------------------------------------------


@_mutant("setup-five-coins", "setup.money", "each player starts with 5 EP instead of 3")
def _setup_money(p: Patcher) -> None:
    _wrap_setup(
        p, lambda state, _: attrs.evolve(state, players=tuple(Player(5) for _ in state.players))
    )


@_mutant(
    "setup-stack-reversed",
    "setup.stack-order",
    "camels sharing a start space are stacked in reverse order (each new one at the bottom)",
)
def _setup_stack(p: Patcher) -> None:
    _wrap_setup(
        p, lambda state, _: state, lambda s: attrs.evolve(s, stacking=tuple(reversed(s.stacking)))
    )


def _shift_racing_start(state: State, _: setup.Setup) -> State:
    track = list(state.track)
    for space in (3, 2, 1):
        track[slot(space + 1)] = track[slot(space)] + track[slot(space + 1)]
        track[slot(space)] = ()
    return _with_track(state, track)


@_mutant(
    "setup-racing-one-ahead",
    "setup.racing-camels",
    "a racing camel starts one space beyond its die's value (counted as a move from space 1)",
)
def _setup_ahead(p: Patcher) -> None:
    _wrap_setup(p, _shift_racing_start)


@_mutant("setup-crazy-spaces-mirrored", "setup.crazy-space", "a grey 1 places on 14 and a 3 on 16")
def _setup_crazy_mirror(p: Patcher) -> None:
    def given(s: setup.Setup) -> setup.Setup:
        rolls = tuple(attrs.evolve(r, value=4 - r.value) for r in s.crazy_rolls)
        return attrs.evolve(s, crazy_rolls=rolls)

    _wrap_setup(p, lambda state, _: state, given)


@_mutant(
    "setup-crazy-first-by-colour",
    "setup.crazy-space",
    "the first grey roll places the crazy camel of its colour, not the one chosen (RUL-03)",
)
def _setup_crazy_colour(p: Patcher) -> None:
    def given(s: setup.Setup) -> setup.Setup:
        if s.crazy_rolls and s.crazy_rolls[0].colour is not None:
            return attrs.evolve(s, first_crazy=s.crazy_rolls[0].colour)
        return s

    _wrap_setup(p, lambda state, _: state, given)


def _second_crazy_under(state: State, _: setup.Setup) -> State:
    track = list(state.track)
    for index, stack in enumerate(track):
        if len(stack) == 2 and all(c.is_crazy for c in stack):
            track[index] = (stack[1], stack[0])
    return _with_track(state, track)


@_mutant(
    "setup-second-crazy-underneath",
    "setup.crazy-second",
    "a second crazy camel placed on the first one's space goes underneath it",
)
def _setup_crazy_under(p: Patcher) -> None:
    _wrap_setup(p, _second_crazy_under)


@_mutant("setup-start-seat-zero", "setup.start-player", "seat 0 always starts, whatever the input")
def _setup_start(p: Patcher) -> None:
    _wrap_setup(p, lambda state, _: attrs.evolve(state, to_move=0, start_player=0))


# --------------------------------------------------------------------------------------------
# Chapter 3: turns
# --------------------------------------------------------------------------------------------


@_mutant("turn-passes-right", "turn.order", "play passes to the right (seat - 1)")
def _turn_right(p: Patcher) -> None:
    p.replace(turn, "next_seat", lambda state, player: (player - 1) % state.ruleset.players)


@_mutant(
    "turn-anyone-may-act", "turn.order", "an action by a player who is not to move is accepted"
)
def _turn_anyone(p: Patcher) -> None:
    original = turn.turn_problem

    def problem(state: State, player: int) -> Violation | None:
        found = original(state, player)
        return None if found is not None and found.code == "not-your-turn" else found

    p.replace(turn, "turn_problem", problem)


@_mutant("turn-play-after-race-end", "turn.game-over", "actions are accepted after the race ended")
def _turn_after_end(p: Patcher) -> None:
    def problem(state: State, player: int) -> Violation | None:
        if player != state.to_move:
            return Violation("not-your-turn", "turn.order", "not your turn", ("player",))
        return None

    p.replace(turn, "turn_problem", problem)


@_mutant(
    "finish-card-keeps-turn",
    "turn.order",
    "placing a finish card does not pass the turn (camelcalc's make_overall_bet)",
)
def _finish_keeps_turn(p: Patcher) -> None:
    _wrap_engine(
        p,
        "_place_finish_card",
        lambda state, action, result: engine.Result(
            attrs.evolve(result.state, to_move=action.player), result.events
        ),
    )


# --------------------------------------------------------------------------------------------
# Chapter 4: betting
# --------------------------------------------------------------------------------------------


@_mutant(
    "leg-ticket-from-bottom",
    "bet.leg.take-top",
    "the bottom (lowest) leg ticket is taken, not the top one",
)
def _ticket_bottom(p: Patcher) -> None:
    def take(state: State, action: TakeLegTicket) -> engine.Result:
        problem = betting.leg_ticket_problem(state, action.camel)
        if problem is not None:
            raise problem.illegal()
        ticket = LegTicket(action.camel, state.ticket_stack(action.camel)[0])
        player = state.players[action.player]
        held = attrs.evolve(player, leg_tickets=(*player.leg_tickets, ticket))
        players = state.players[: action.player] + (held,) + state.players[action.player + 1 :]
        new = attrs.evolve(state, players=players, to_move=turn.next_seat(state, action.player))
        return engine.Result(new, (LegTicketTaken(action.player, ticket),))

    p.replace(engine, "_take_leg_ticket", take)


@_mutant(
    "leg-ticket-one-per-colour",
    "bet.leg.any-number",
    "a player may hold only one leg ticket of each colour",
)
def _ticket_one(p: Patcher) -> None:
    original = betting.leg_ticket_problem

    def problem(state: State, camel: Camel) -> Violation | None:
        held = state.players[state.to_move].leg_tickets
        if any(t.camel is camel for t in held):
            return Violation("ticket-stack-empty", "bet.leg.any-number", "one per colour")
        return original(state, camel)

    p.replace(betting, "leg_ticket_problem", problem)


@_mutant(
    "leg-ticket-stack-never-empty",
    "bet.leg.empty-stack",
    "an empty colour still deals leg tickets (worth 2) instead of refusing",
)
def _ticket_endless(p: Patcher) -> None:
    original = betting.leg_ticket_problem

    def problem(state: State, camel: Camel) -> Violation | None:
        found = original(state, camel)
        return None if found is not None and found.code == "ticket-stack-empty" else found

    def take(state: State, action: TakeLegTicket) -> engine.Result:
        found = problem(state, action.camel)
        if found is not None:
            raise found.illegal()
        stack = state.ticket_stack(action.camel)
        ticket = LegTicket(action.camel, stack[-1] if stack else 2)
        player = state.players[action.player]
        held = attrs.evolve(player, leg_tickets=(*player.leg_tickets, ticket))
        players = state.players[: action.player] + (held,) + state.players[action.player + 1 :]
        new = attrs.evolve(state, players=players, to_move=turn.next_seat(state, action.player))
        return engine.Result(new, (LegTicketTaken(action.player, ticket),))

    p.replace(betting, "leg_ticket_problem", problem)
    p.replace(engine, "_take_leg_ticket", take)


@_mutant(
    "finish-card-reusable",
    "bet.finish.one-per-colour",
    "a finish card already placed can be placed again (the hand is never checked)",
)
def _card_reusable(p: Patcher) -> None:
    def problem(state: State, player: int, camel: Camel) -> Violation | None:
        found = betting.bet_camel_problem(state.ruleset, camel, "finish cards")
        return None if found is None else found.at("camel")

    p.replace(betting, "finish_card_problem", problem)


def _place_card(
    state: State, action: PlaceFinishCard, *, bottom: bool = False, same_pile_only: bool = False
) -> engine.Result:
    if same_pile_only:
        found = betting.bet_camel_problem(state.ruleset, action.camel, "finish cards")
        pile = state.winner_pile if action.pile is Pile.WINNER else state.loser_pile
        if found is None and FinishCard(action.player, action.camel) in pile:
            found = Violation(
                "card-not-in-hand", "bet.finish.one-per-colour", "already on this pile"
            )
    else:
        found = betting.finish_card_problem(state, action.player, action.camel)
    if found is not None:
        raise found.illegal()
    card = FinishCard(action.player, action.camel)
    old = state.winner_pile if action.pile is Pile.WINNER else state.loser_pile
    pile = (card, *old) if bottom else (*old, card)
    if action.pile is Pile.WINNER:
        new = attrs.evolve(state, winner_pile=pile)
    else:
        new = attrs.evolve(state, loser_pile=pile)
    new = attrs.evolve(new, to_move=turn.next_seat(state, action.player))
    return engine.Result(new, (FinishCardPlaced(action.player, action.pile),))


@_mutant(
    "finish-card-same-colour-both-piles",
    "bet.finish.one-per-colour",
    "a player may put the same colour on both finish piles (only the chosen pile is checked)",
)
def _card_both_piles(p: Patcher) -> None:
    p.replace(
        engine,
        "_place_finish_card",
        lambda state, action: _place_card(state, action, same_pile_only=True),
    )


@_mutant(
    "finish-card-at-bottom",
    "bet.finish.pile-order",
    "a placed finish card goes under its pile, so the pile lists the newest card first",
)
def _card_bottom(p: Patcher) -> None:
    p.replace(
        engine, "_place_finish_card", lambda state, action: _place_card(state, action, bottom=True)
    )


@_mutant(
    "finish-cards-back-at-leg-end",
    "bet.finish.permanent",
    "the finish piles go back to the hands at leg cleanup",
)
def _cards_back(p: Patcher) -> None:
    original = engine._end_leg

    def end_leg(state: State, last_taker: int, events: list[Event]) -> State:
        return attrs.evolve(original(state, last_taker, events), winner_pile=(), loser_pile=())

    p.replace(engine, "_end_leg", end_leg)


# --------------------------------------------------------------------------------------------
# Chapter 5: the pyramid action and movement
# --------------------------------------------------------------------------------------------


@_mutant("unit-order-reversed", "move.stack.carry", "a moving unit is turned upside down")
def _unit_reversed(p: Patcher) -> None:
    original = movement.lift_unit

    def lift(track: Track, camel: Camel) -> tuple[int, Stack]:
        space, unit = original(track, camel)
        return space, tuple(reversed(unit))

    p.replace(movement, "lift_unit", lift)


@_mutant("mover-leaves-riders", "move.stack.carry", "a camel moves alone; the camels on it stay")
def _mover_alone(p: Patcher) -> None:
    original = movement.lift_unit

    def lift(track: Track, camel: Camel) -> tuple[int, Stack]:
        space, unit = original(track, camel)
        track[space - MIN_SPACE] = track[space - MIN_SPACE] + unit[1:]
        return space, unit[:1]

    p.replace(movement, "lift_unit", lift)


@_mutant(
    "mover-takes-whole-stack", "move.stack.carry", "the camels below the mover are carried too"
)
def _mover_whole(p: Patcher) -> None:
    original = movement.lift_unit

    def lift(track: Track, camel: Camel) -> tuple[int, Stack]:
        space, unit = original(track, camel)
        below = track[space - MIN_SPACE]
        track[space - MIN_SPACE] = ()
        return space, below + unit

    p.replace(movement, "lift_unit", lift)


@_mutant(
    "unit-lands-underneath",
    "move.unit.lands-on-top",
    "every unit goes under the camels it lands on",
)
def _lands_under(p: Patcher) -> None:
    p.replace(movement, "put_on_top", movement.put_underneath)


@_mutant(
    "crazy-unit-lands-underneath",
    "move.unit.lands-on-top",
    "a crazy-led unit goes under the camels it lands on (camel-up-solver's move_camel)",
)
def _crazy_lands_under(p: Patcher) -> None:
    def put(track: Track, unit: Stack, space: int) -> None:
        index = space - MIN_SPACE
        track[index] = unit + track[index] if unit[0].is_crazy else track[index] + unit

    p.replace(movement, "put_on_top", put)


@_mutant(
    "racing-move-one-short",
    "move.racing.clockwise",
    "a racing camel moves one space less (counts its start space)",
)
def _one_short(p: Patcher) -> None:
    _move_knob(p, racing_pips=lambda pips: pips - 1)


@_mutant(
    "passed-tile-fires", "move.only-final-space", "a tile passed over stops the unit and fires"
)
def _passed_tile(p: Patcher) -> None:
    _move_knob(p, passed_tiles_fire=True)


@_mutant(
    "die-drawn-twice", "move.die.stays-out", "a die already out of the pyramid can be drawn again"
)
def _die_twice(p: Patcher) -> None:
    p.replace(movement, "roll_problem", lambda pyramid, roll: dice.face_problem(roll))


@_mutant(
    "pyramid-coin-at-once",
    "move.pyramid.take-ticket",
    "the pyramid action pays 1 EP at once instead of a ticket paid at leg scoring (camelcalc)",
)
def _coin_at_once(p: Patcher) -> None:
    def after(state: State, action: TakePyramidTicket, result: engine.Result) -> engine.Result:
        new = result.state
        if new.leg != state.leg or new.is_over:
            return result
        player = new.players[action.player]
        paid = Player(player.money + 1, player.leg_tickets, player.pyramid_tickets - 1)
        players = new.players[: action.player] + (paid,) + new.players[action.player + 1 :]
        return engine.Result(attrs.evolve(new, players=players), result.events)

    _wrap_engine(p, "_take_pyramid_ticket", after)


# --------------------------------------------------------------------------------------------
# Chapter 6: tiles
# --------------------------------------------------------------------------------------------


@_mutant("tile-on-space-one", "tile.place.not-space-one", "a tile may be placed on space 1")
def _tile_one(p: Patcher) -> None:
    _tile_knob(p, space_one=False)


@_mutant("tile-beyond-sixteen", "tile.place.empty-space", "a tile may be placed beyond space 16")
def _tile_beyond(p: Patcher) -> None:
    _tile_knob(p, off_track=False)


@_mutant(
    "tile-not-on-space-two", "tile.place.not-space-one", "space 2 is refused as next to the start"
)
def _tile_two(p: Patcher) -> None:
    _tile_knob(p, space_two_blocked=True)


@_mutant("tile-on-camel", "tile.place.empty-space", "a tile may be placed under a camel")
def _tile_camel(p: Patcher) -> None:
    _tile_knob(p, camel_blocks=lambda camel: False)


@_mutant(
    "tile-on-crazy-camel",
    "tile.place.empty-space",
    "only racing camels block a tile; a crazy camel does not",
)
def _tile_crazy(p: Patcher) -> None:
    _tile_knob(p, camel_blocks=lambda camel: not camel.is_crazy)


@_mutant("tile-on-tile", "tile.place.empty-space", "a tile may go on another player's tile")
def _tile_tile(p: Patcher) -> None:
    _tile_knob(p, tile_blocks=False)


@_mutant("tile-adjacent-allowed", "tile.place.not-adjacent", "a tile may go next to another tile")
def _tile_adjacent(p: Patcher) -> None:
    _tile_knob(p, adjacency=lambda tile, space: False)


@_mutant(
    "tile-adjacent-above-only",
    "tile.place.not-adjacent",
    "only the space below a tile is checked, not the one above",
)
def _tile_above(p: Patcher) -> None:
    _tile_knob(p, adjacency=lambda tile, space: tile - space == 1)


@_mutant(
    "tile-adjacency-two-spaces",
    "tile.place.not-adjacent",
    "a tile blocks the two spaces either side of it",
)
def _tile_two_spaces(p: Patcher) -> None:
    _tile_knob(p, adjacency=lambda tile, space: abs(tile - space) <= 2)


@_mutant(
    "tile-own-old-space-blocks",
    "tile.move.different-space",
    "a moved tile's old space blocks its neighbours (the variant's rule, always)",
)
def _tile_old_blocks(p: Patcher) -> None:
    _tile_knob(p, own_blocks=True)


@_mutant(
    "tile-old-space-variant-ignored",
    "tile.move.old-space-blocks",
    "under tile-move-old-space-blocks the old space still does not block",
)
def _tile_variant_ignored(p: Patcher) -> None:
    _tile_knob(p, own_blocks=False)


@_mutant("tile-cannot-move", "tile.move.different-space", "a tile on the track cannot be moved")
def _tile_stuck(p: Patcher) -> None:
    original = tiles.tile_action_problem

    def problem(state: State, player: int, moving: bool) -> Violation | None:
        if moving and state.tile_of(player) is not None:
            return Violation("tile-already-placed", "tile.move.different-space", "tiles stay")
        return original(state, player, moving)

    p.replace(tiles, "tile_action_problem", problem)


@_mutant(
    "tile-flips-in-place",
    "tile.move.different-space",
    "a tile may be moved to its own space (flipped)",
)
def _tile_flip(p: Patcher) -> None:
    _tile_knob(p, same_space=False)


@_mutant("tile-on-whirlwind", "whirlwind.no-tiles", "tiles may go on the whirlwind spaces 6 to 8")
def _tile_whirlwind(p: Patcher) -> None:
    _tile_knob(p, whirlwind_blocks=False)


@_mutant("tile-any-side", "tiles.spectator", "any tile side is accepted in either edition")
def _tile_side(p: Patcher) -> None:
    _tile_knob(p, sides_checked=False)


@_mutant(
    "tile-pays-per-camel", "tile.land.pay-owner", "a tile pays 1 EP per camel of the landing unit"
)
def _tile_per_camel(p: Patcher) -> None:
    _step_knob(p, amount=lambda unit: len(unit))


@_mutant(
    "tile-crazy-landing-unpaid",
    "tile.land.pay-owner",
    "a unit led by a crazy camel pays the tile owner nothing",
)
def _tile_crazy_unpaid(p: Patcher) -> None:
    _step_knob(p, amount=lambda unit: 0 if unit[0].is_crazy else 1)


@_mutant(
    "tile-forward-underneath",
    "tile.land.forward",
    "a forward tile puts the unit under the camels there",
)
def _tile_forward_under(p: Patcher) -> None:
    _step_knob(p, forward_underneath=True)


@_mutant(
    "tile-backward-on-top",
    "tile.land.backward",
    "a backward tile puts the unit on top of the camels there",
)
def _tile_backward_top(p: Patcher) -> None:
    _step_knob(p, backward_on_top=True)


@_mutant(
    "tile-backward-turns-unit-over",
    "tile.land.backward",
    "a backward step slides the unit's camels under one by one, so a multi-camel unit turns over",
)
def _tile_backward_reversed(p: Patcher) -> None:
    _step_knob(p, backward_reversed=True)


@_mutant(
    "tile-backward-onto-origin-on-top",
    "tile.land.backward",
    "a backward step back onto the unit's own origin puts it on top there, as if it never left",
)
def _tile_backward_origin(p: Patcher) -> None:
    origins: list[int] = []
    original_move = movement.move_camel_unit

    def move(
        track: Track,
        tile_list: tuple[Tile, ...],
        ruleset: Ruleset,
        camel: Camel,
        origin: int,
        unit: Stack,
        pips: int,
        events: list[Event] | None = None,
    ) -> movement.Moved:
        origins.append(origin)
        try:
            return original_move(track, tile_list, ruleset, camel, origin, unit, pips, events)
        finally:
            origins.clear()

    p.replace(movement, "move_camel_unit", move)
    _step_knob(p, on_origin_on_top=lambda target: bool(origins) and origins[0] == target)


@_mutant(
    "tile-ignores-crazy-direction",
    "tile.land.crazy-reversed",
    "a tile pushes a crazy-led unit the racing way (camel-up-solver's move_camel)",
)
def _tile_crazy_direction(p: Patcher) -> None:
    _step_knob(p, crazy_reversed=False)


@_mutant(
    "tile-direction-from-top-camel",
    "tile.land.crazy-reversed",
    "a tile's direction follows the unit's top camel, not the camel that moved",
)
def _tile_top_direction(p: Patcher) -> None:
    _step_knob(p, direction_of=lambda unit, direction: -1 if unit[-1].is_crazy else 1)


@_mutant(
    "tile-push-stops-on-sixteen",
    "tile.land.off-track",
    "a forward tile on 16 leaves the unit on 16 instead of pushing it over the line",
)
def _tile_stop_sixteen(p: Patcher) -> None:
    _step_knob(p, stop_at_sixteen=True)


@_mutant(
    "tile-removed-after-landing",
    "tile.stays",
    "a tile is taken off the track once a unit lands on it",
)
def _tile_removed(p: Patcher) -> None:
    def after(state: State, action: Any, result: engine.Result) -> engine.Result:
        paid = [e.space for e in result.events if isinstance(e, TilePaid)]
        if not paid or result.state.leg != state.leg:
            return result
        kept = tuple(t for t in result.state.tiles if t.space not in paid)
        return engine.Result(attrs.evolve(result.state, tiles=kept), result.events)

    _wrap_engine(p, "_take_pyramid_ticket", after)


@_mutant("tiles-kept-at-leg-end", "leg.cleanup", "tiles stay on the track when a new leg begins")
def _tiles_kept(p: Patcher) -> None:
    original = engine._end_leg

    def end_leg(state: State, last_taker: int, events: list[Event]) -> State:
        return attrs.evolve(original(state, last_taker, events), tiles=state.tiles)

    p.replace(engine, "_end_leg", end_leg)


# --------------------------------------------------------------------------------------------
# Chapter 7: crazy camels
# --------------------------------------------------------------------------------------------


@_mutant(
    "crazy-no-only-carrier",
    "crazy.select.only-carrier",
    "the only carrier of racing camels is not preferred",
)
def _crazy_no_carrier(p: Patcher) -> None:
    _crazy_knob(p, only_carrier=False)


@_mutant(
    "crazy-carrier-direct-only",
    "crazy.select.only-carrier",
    "a crazy camel counts as a carrier only with a racing camel directly on it",
)
def _crazy_direct(p: Patcher) -> None:
    _crazy_knob(p, direct_carrier_only=True)


@_mutant(
    "crazy-no-top-of-other",
    "crazy.select.top-of-other",
    "a crazy camel on the other is not preferred",
)
def _crazy_no_top(p: Patcher) -> None:
    _crazy_knob(p, top_of_other=False)


@_mutant(
    "crazy-lower-of-pair-moves",
    "crazy.select.top-of-other",
    "of two stacked crazy camels the lower one moves",
)
def _crazy_lower(p: Patcher) -> None:
    _crazy_knob(p, lower_moves=True)


@_mutant(
    "crazy-top-of-other-with-gap",
    "crazy.select.top-of-other",
    "two crazy camels on one space count as stacked even with racing camels between them",
)
def _crazy_gap(p: Patcher) -> None:
    _crazy_knob(p, any_gap=True)


@_mutant(
    "crazy-colour-swapped",
    "crazy.select.colour",
    "a white number moves the black camel and a black the white",
)
def _crazy_swapped(p: Patcher) -> None:
    _crazy_knob(p, colour_swapped=True)


@_mutant("crazy-moves-clockwise", "crazy.move.counterclockwise", "a crazy camel moves clockwise")
def _crazy_clockwise(p: Patcher) -> None:
    _move_knob(p, crazy_direction=1)


@_mutant(
    "racing-drops-crazy-riders",
    "crazy.move.counterclockwise",
    "a crazy camel riding a racing camel is left behind when the racing camel moves",
)
def _racing_drops(p: Patcher) -> None:
    _move_knob(p, racing_drops_crazy=True)


@_mutant("crazy-moves-alone", "crazy.carry", "a crazy camel leaves the camels on it behind")
def _crazy_alone(p: Patcher) -> None:
    _move_knob(p, crazy_alone=True)


@_mutant(
    "crazy-wraps-to-sixteen", "crazy.no-wrap", "a crazy camel going past space 1 wraps round to 16"
)
def _crazy_wraps(p: Patcher) -> None:
    _move_knob(p, crazy_wraps=True)


@_mutant("crazy-held-on-one", "crazy.no-wrap", "a crazy camel going past space 1 stops on 1")
def _crazy_held(p: Patcher) -> None:
    _move_knob(p, crazy_held_on_one=True)


@_mutant(
    "crazy-wrap-carrying-racing",
    "crazy.wrap",
    "under crazy-finish-needs-racing a crazy unit carrying racing camels wraps too",
)
def _crazy_wrap_all(p: Patcher) -> None:
    p.replace(
        crazy,
        "crossing_wraps",
        lambda ruleset, unit: Variant.CRAZY_FINISH_NEEDS_RACING in ruleset.variants,
    )


@_mutant(
    "crazy-wrap-variant-ignored", "crazy.wrap", "the variant crazy-finish-needs-racing is ignored"
)
def _crazy_wrap_none(p: Patcher) -> None:
    p.replace(crazy, "crossing_wraps", lambda ruleset, unit: False)


# --------------------------------------------------------------------------------------------
# Chapter 8: the whirlwind
# --------------------------------------------------------------------------------------------


@_mutant("whirlwind-six-to-seven", "whirlwind.leave-six", "leaving 6 goes to 7, not 8")
def _ww_six(p: Patcher) -> None:
    _whirlwind_knob(p, six_to=7)


@_mutant("whirlwind-seven-to-eight", "whirlwind.leave-seven", "leaving 7 goes to 8, not 6")
def _ww_seven(p: Patcher) -> None:
    _whirlwind_knob(p, seven_to=8)


@_mutant("whirlwind-never-bounces", "whirlwind.bounce", "leaving 8 always goes on to 9")
def _ww_no_bounce(p: Patcher) -> None:
    _whirlwind_knob(p, bounce=False)


@_mutant(
    "whirlwind-eight-not-counted",
    "whirlwind.leave-eight",
    "a camel on 8 (left behind under the unit) does not let the unit through",
)
def _ww_eight(p: Patcher) -> None:
    _whirlwind_knob(p, condition_spaces=(6, 7))


@_mutant(
    "whirlwind-crazy-counts-for-b",
    "whirlwind.leave-eight",
    "a crazy camel behind space 9 keeps the unit in the loop (condition b counts it; RUL-49)",
)
def _ww_crazy_b(p: Patcher) -> None:
    _whirlwind_knob(p, crazy_count_for_b=True)


@_mutant(
    "whirlwind-unit-counts-itself",
    "whirlwind.leave-eight",
    "condition (a) counts the moving unit itself when it started on 6, 7 or 8 (checked unlifted)",
)
def _ww_itself(p: Patcher) -> None:
    _whirlwind_knob(p, counts_itself=True)


@_mutant(
    "whirlwind-crazy-follows-arrows",
    "whirlwind.crazy-by-number",
    "a crazy-led unit takes the 6-8 arrow backwards (8 to 6), not the space numbers",
)
def _ww_crazy_arrows(p: Patcher) -> None:
    _move_knob(p, crazy_arrows=True)


# --------------------------------------------------------------------------------------------
# Chapter 9: ranking
# --------------------------------------------------------------------------------------------


@_mutant("rank-lower-camel-ahead", "rank.stack", "on one space the lower camel ranks ahead")
def _rank_lower(p: Patcher) -> None:
    _ranking_knob(p, lower_ahead=True)


@_mutant("rank-counts-crazy", "rank.ignore-crazy", "crazy camels take places in the ranking")
def _rank_crazy(p: Patcher) -> None:
    _ranking_knob(p, count_crazy=True)


@_mutant(
    "rank-crossed-unit-bottom-first",
    "rank.crossed-finish",
    "of the unit past the line the bottom camel ranks first",
)
def _rank_crossed(p: Patcher) -> None:
    _ranking_knob(p, crossed_bottom_first=True)


@_mutant(
    "rank-carried-backwards-wraps",
    "rank.carried-backwards",
    "camels carried back over the line count as on 16, 15, ... (ahead, not behind)",
)
def _rank_wraps(p: Patcher) -> None:
    _ranking_knob(p, backwards_wrap=True)


@_mutant(
    "rank-carried-backwards-bottom-ahead",
    "rank.carried-backwards",
    "of the camels carried back over the line the lowest ranks ahead",
)
def _rank_backwards_bottom(p: Patcher) -> None:
    _ranking_knob(p, backwards_bottom_ahead=True)


@_mutant(
    "loser-top-of-rearmost-stack",
    "final.loser",
    "the overall loser is the top racing camel of the rearmost stack",
)
def _loser_top(p: Patcher) -> None:
    original = final.score_finish_piles

    def score(
        ruleset: Ruleset,
        money: list[int],
        winner_pile: tuple[FinishCard, ...],
        loser_pile: tuple[FinishCard, ...],
        winner: Camel,
        loser: Camel,
    ) -> list[FinishCardScored]:
        last = _last_track[0]
        for stack in last:
            racing = [c for c in stack if not c.is_crazy]
            if racing:
                loser = racing[-1]
                break
        return original(ruleset, money, winner_pile, loser_pile, winner, loser)

    _last_track: list[tuple[Stack, ...]] = [()]
    original_end = engine._end_game

    def end_game(state: State, events: list[Event]) -> State:
        _last_track[0] = state.track
        return original_end(state, events)

    p.replace(final, "score_finish_piles", score)
    p.replace(engine, "_end_game", end_game)


# --------------------------------------------------------------------------------------------
# Chapter 10: the end of a leg
# --------------------------------------------------------------------------------------------


def _leg_end(p: Patcher, edition: Edition, dice_needed: int) -> None:
    original = leg.leg_is_over

    def over(ruleset: Ruleset, dice_revealed: int) -> bool:
        if ruleset.edition is edition:
            return dice_revealed >= dice_needed
        return original(ruleset, dice_revealed)

    p.replace(leg, "leg_is_over", over)


@_mutant(
    "leg-waits-for-sixth-die",
    "leg.end.second",
    "a 2nd-edition leg ends only when all six dice are out (camel-up-solver's act_roll)",
)
def _leg_six(p: Patcher) -> None:
    _leg_end(p, Edition.SECOND, 6)


@_mutant(
    "leg-ends-after-fourth-die-second", "leg.end.second", "a 2nd-edition leg ends after four dice"
)
def _leg_four_second(p: Patcher) -> None:
    _leg_end(p, Edition.SECOND, 4)


@_mutant(
    "leg-ends-after-fourth-die-first", "leg.end.first", "a 1st-edition leg ends after four dice"
)
def _leg_four_first(p: Patcher) -> None:
    _leg_end(p, Edition.FIRST, 4)


def _reward(
    p: Patcher, leader: Callable[[LegTicket], int] | None = None, second: int = 1, other: int = -1
) -> None:
    def reward(ticket: LegTicket, first: Camel, runner_up: Camel) -> int:
        if ticket.camel is first:
            return ticket.value if leader is None else leader(ticket)
        if ticket.camel is runner_up:
            return second
        return other

    p.replace(leg, "ticket_reward", reward)


@_mutant(
    "leg-leader-pays-five",
    "leg.score.leader",
    "every ticket on the leader pays 5, whatever its value",
)
def _leader_five(p: Patcher) -> None:
    _reward(p, leader=lambda ticket: 5)


@_mutant("leg-second-pays-nothing", "leg.score.second", "a ticket on the second camel pays nothing")
def _second_nothing(p: Patcher) -> None:
    _reward(p, second=0)


@_mutant(
    "leg-others-cost-nothing",
    "leg.score.others",
    "a ticket on a camel third or worse costs nothing",
)
def _others_free(p: Patcher) -> None:
    _reward(p, other=0)


@_mutant("leg-pyramid-unpaid", "leg.score.pyramid", "pyramid tickets pay nothing at leg scoring")
def _pyramid_unpaid(p: Patcher) -> None:
    _leg_knob(p, pyramid=lambda tickets: 0)


@_mutant(
    "leg-pyramid-once-per-player",
    "leg.score.pyramid",
    "a player's pyramid tickets pay 1 EP in all, not 1 each",
)
def _pyramid_once(p: Patcher) -> None:
    _leg_knob(p, pyramid=lambda tickets: min(tickets, 1))


@_mutant(
    "leg-floor-per-ticket",
    "leg.score.net",
    "the zero floor is applied after every ticket, not to the leg's total",
)
def _floor_per_ticket(p: Patcher) -> None:
    _leg_knob(p, floor_per_ticket=True)


@_mutant(
    "leg-no-floor",
    "money.floor",
    "leg scoring can take a player below 0 EP (camelcalc's finish_leg)",
)
def _leg_no_floor(p: Patcher) -> None:
    _leg_knob(p, floor=False)


@_mutant(
    "start-marker-to-last-taker",
    "leg.start-player",
    "the last pyramid taker gets the start marker, not their left neighbour",
)
def _start_last(p: Patcher) -> None:
    original = leg.next_start_player

    def passed(ruleset: Ruleset, last_taker: int, start_player: int) -> StartPlayerPassed:
        found = original(ruleset, last_taker, start_player)
        if found.clause == "leg.start-player":
            return StartPlayerPassed(last_taker, found.clause)
        return found

    p.replace(leg, "next_start_player", passed)


@_mutant(
    "start-marker-always-rotates",
    "leg.start-player",
    "the start marker always passes to its holder's left",
)
def _start_rotates(p: Patcher) -> None:
    p.replace(
        leg,
        "next_start_player",
        lambda ruleset, last, start: StartPlayerPassed(
            (start + 1) % ruleset.players, "leg.start-player"
        ),
    )


@_mutant(
    "start-marker-variant-ignored",
    "leg.start-player.rotate",
    "under start-marker-rotates the marker goes left of the last taker",
)
def _start_variant(p: Patcher) -> None:
    p.replace(
        leg,
        "next_start_player",
        lambda ruleset, last, start: StartPlayerPassed(
            (last + 1) % ruleset.players, "leg.start-player"
        ),
    )


@_mutant("leg-tickets-kept", "leg.cleanup", "leg tickets stay with their holders into the next leg")
def _tickets_kept(p: Patcher) -> None:
    def new_leg(players: tuple[Player, ...], scored: LegScored) -> tuple[Player, ...]:
        return tuple(
            Player(p.money + s.paid, p.leg_tickets)
            for p, s in zip(players, scored.scores, strict=True)
        )

    p.replace(leg, "players_for_new_leg", new_leg)


@_mutant("leg-number-stays", "leg.number", "the leg number is not advanced")
def _leg_number(p: Patcher) -> None:
    original = engine._end_leg

    def end_leg(state: State, last_taker: int, events: list[Event]) -> State:
        return attrs.evolve(original(state, last_taker, events), leg=state.leg)

    p.replace(engine, "_end_leg", end_leg)


# --------------------------------------------------------------------------------------------
# Chapter 11: the end of the race and final scoring
# --------------------------------------------------------------------------------------------


@_mutant(
    "race-unit-stops-on-seventeen",
    "end.crossing.racing",
    "a unit crossing the line stops just past it, on 17",
)
def _stop_seventeen(p: Patcher) -> None:
    _move_knob(p, stop_past_line_on=LAST_SPACE + 1)


@_mutant("final-leg-scoring-skipped", "end.final-leg-scoring", "no leg scoring when the race ends")
def _no_final_leg(p: Patcher) -> None:
    original = engine._end_game

    def end_game(state: State, events: list[Event]) -> State:
        cleared = tuple(Player(pl.money) for pl in state.players)
        return original(attrs.evolve(state, players=cleared), events)

    p.replace(engine, "_end_game", end_game)


@_mutant(
    "final-ending-pyramid-ticket-unpaid",
    "end.final-leg-scoring",
    "the pyramid ticket of the race-ending turn is not paid (RUL-37)",
)
def _ending_ticket(p: Patcher) -> None:
    original = engine._end_game

    def end_game(state: State, events: list[Event]) -> State:
        taker = [e.player for e in events if isinstance(e, PyramidTicketTaken)][-1]
        player = state.players[taker]
        less = attrs.evolve(player, pyramid_tickets=player.pyramid_tickets - 1)
        players = state.players[:taker] + (less,) + state.players[taker + 1 :]
        return original(attrs.evolve(state, players=players), events)

    p.replace(engine, "_end_game", end_game)


@_mutant(
    "final-sixth-card-pays-nothing",
    "final.correct-pays",
    "the sixth and later correct finish cards pay nothing (camelcalc)",
)
def _sixth_zero(p: Patcher) -> None:
    def amounts(pile: tuple[FinishCard, ...], camel: Camel) -> list[int]:
        found = _card_amounts(pile, camel)
        correct = [i for i, c in enumerate(pile) if c.camel is camel]
        for index in correct[5:]:
            found[index] = 0
        return found

    p.replace(final, "card_amounts", amounts)


@_mutant(
    "final-wrong-card-takes-payout",
    "final.correct-pays",
    "a wrong card uses up a payout: the n-th card of the pile pays the n-th amount",
)
def _wrong_takes(p: Patcher) -> None:
    _cards_knob(p, slot_by_position=True)


@_mutant(
    "final-payouts-per-player",
    "final.correct-pays",
    "each player's first correct card pays 8, counted per player",
)
def _per_player(p: Patcher) -> None:
    _cards_knob(p, per_player=True)


@_mutant("final-wrong-card-free", "final.wrong-costs", "a wrong finish card costs nothing")
def _wrong_free(p: Patcher) -> None:
    _cards_knob(p, wrong=0)


@_mutant(
    "final-pile-newest-first", "final.pile-order", "a pile is scored from the last card placed"
)
def _newest_first(p: Patcher) -> None:
    _piles_knob(p, last_first=True)


@_mutant(
    "final-loser-pile-first",
    "final.pile-sequence",
    "the loser pile is scored before the winner pile",
)
def _loser_first(p: Patcher) -> None:
    _piles_knob(p, loser_first=True)


@_mutant(
    "final-netted-by-default",
    "final.wrong-costs",
    "finish cards are netted per player, as under final-scoring-net",
)
def _net_default(p: Patcher) -> None:
    _piles_knob(p, net=True)


@_mutant(
    "final-net-variant-ignored",
    "final.net",
    "under final-scoring-net the cards are still settled one by one",
)
def _net_ignored(p: Patcher) -> None:
    _piles_knob(p, net=False)


@_mutant(
    "final-no-floor",
    "money.floor",
    "final scoring can take a player below 0 EP (camelcalc's finish_game)",
)
def _final_no_floor(p: Patcher) -> None:
    _piles_knob(p, floor=False)


@_mutant(
    "final-tie-first-seat-wins",
    "final.winners",
    "on a tie for the most money only the first such seat wins",
)
def _tie_first(p: Patcher) -> None:
    def result(state: State) -> GameResult | None:
        if not state.is_over:
            return None
        best = max(player.money for player in state.players)
        return GameResult((next(s for s, pl in enumerate(state.players) if pl.money == best),))

    p.replace(State, "result", property(result))


# --------------------------------------------------------------------------------------------
# Chapter 13: partnerships
# --------------------------------------------------------------------------------------------


@_mutant(
    "partnership-with-five-players", "partner.six-plus", "partnerships are open with five players"
)
def _partner_five(p: Patcher) -> None:
    original = partnership.partnership_problem

    def problem(state: State, player: int, partner: int) -> Violation | None:
        found = original(state, player, partner)
        five = state.ruleset.players == 5 and state.ruleset.edition is Edition.SECOND
        if found is not None and found.code == "no-partnerships" and five:
            if not 0 <= partner < state.ruleset.players or partner == player:
                return Violation("bad-partner", "partner.action", "no such partner", ("partner",))
            return None
        return found

    p.replace(partnership, "partnership_problem", problem)


@_mutant(
    "partnership-card-reusable",
    "partner.action",
    "a player already in a partnership may form another",
)
def _partner_twice(p: Patcher) -> None:
    original = partnership.partnership_problem

    def problem(state: State, player: int, partner: int) -> Violation | None:
        found = original(state, player, partner)
        return None if found is not None and found.code == "partnership-card-used" else found

    p.replace(partnership, "partnership_problem", problem)


@_mutant(
    "partner-copies-all-tickets",
    "partner.copy-best",
    "a partner's bonus is the sum of all the other's rewards",
)
def _partner_all(p: Patcher) -> None:
    def bonus(partner: Player, leader: Camel, second: Camel) -> int:
        rewards = [leg.ticket_reward(t, leader, second) for t in partner.leg_tickets]
        return max(0, sum(rewards) + partner.pyramid_tickets)

    p.replace(leg, "partner_bonus", bonus)


@_mutant(
    "partner-copy-compulsory",
    "partner.copy-best",
    "a partner must copy a ticket even when every one loses",
)
def _partner_compulsory(p: Patcher) -> None:
    def bonus(partner: Player, leader: Camel, second: Camel) -> int:
        rewards = [leg.ticket_reward(t, leader, second) for t in partner.leg_tickets]
        if partner.pyramid_tickets:
            rewards.append(1)
        return max(rewards, default=0)

    p.replace(leg, "partner_bonus", bonus)


@_mutant(
    "partner-pyramid-not-copied", "partner.copy-best", "a partner's pyramid ticket cannot be copied"
)
def _partner_no_pyramid(p: Patcher) -> None:
    def bonus(partner: Player, leader: Camel, second: Camel) -> int:
        return max([0, *(leg.ticket_reward(t, leader, second) for t in partner.leg_tickets)])

    p.replace(leg, "partner_bonus", bonus)


@_mutant(
    "partner-bonus-one-way",
    "partner.copy-best",
    "only the lower seat of a partnership gets a bonus",
)
def _partner_one_way(p: Patcher) -> None:
    _leg_knob(p, bonus_for=lambda seat, partner: seat < partner)


@_mutant("partnership-kept-next-leg", "partner.reset", "partnerships last into the next leg")
def _partner_kept(p: Patcher) -> None:
    original = engine._end_leg

    def end_leg(state: State, last_taker: int, events: list[Event]) -> State:
        return attrs.evolve(original(state, last_taker, events), partnerships=state.partnerships)

    p.replace(engine, "_end_leg", end_leg)


# --------------------------------------------------------------------------------------------
# Error codes: the right verdict, reported under the wrong code or clause
# --------------------------------------------------------------------------------------------


@_mutant(
    "error-not-your-turn-clause",
    "turn.order",
    "an out-of-turn action is refused citing turn.one-action",
)
def _err_turn(p: Patcher) -> None:
    _error_code(p, turn, "turn_problem", "not-your-turn", new_clause="turn.one-action")


@_mutant(
    "error-adjacent-code",
    "tile.place.not-adjacent",
    "a tile next to another is refused as tile-on-tile",
)
def _err_adjacent(p: Patcher) -> None:
    _tile_knob(p, adjacent_code="tile-on-tile")


@_mutant(
    "error-empty-stack-code",
    "bet.leg.empty-stack",
    "an empty ticket stack is refused as not-a-racing-camel",
)
def _err_empty(p: Patcher) -> None:
    _error_code(
        p, betting, "leg_ticket_problem", "ticket-stack-empty", new_code="not-a-racing-camel"
    )


@_mutant(
    "error-die-out-code",
    "move.die.stays-out",
    "a die already out is refused as die-face (dice.racing-faces)",
)
def _err_die(p: Patcher) -> None:
    _error_code(
        p,
        movement,
        "roll_problem",
        "die-not-in-pyramid",
        new_code="die-face",
        new_clause="dice.racing-faces",
    )

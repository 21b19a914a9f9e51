"""The catalogue: plausible wrong implementations of the rules, one row each.

A suite is as good as the wrong programs it rejects. Each row is one small, named mistake, most
of them ones that public Camel Up implementations are known to make: an :func:`edit` of the real
rule's source (the old text must be there exactly once; keep it short and on the rule's own
line, so that when a rule changes its row is easy to refresh) or a :class:`Wrap` around the real
function, for a mistake in what a rule is given or what it returns. No rule is copied here.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import attrs

from camelup.harness.mutation.apply import Change, Mutant, Wrap, edit
from camelup.model import dice
from camelup.model.camels import Camel
from camelup.model.errors import Violation
from camelup.model.events import Event, PyramidTicketTaken, TilePaid
from camelup.model.state import GameResult, Player, State
from camelup.model.track import LAST_SPACE, MIN_SPACE, Stack, slot
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

Function = Callable[..., Any]


def _after(owner: ModuleType, name: str, change: Callable[..., Any]) -> Wrap:
    """The real ``owner.name``, its result then passed to ``change(result, *arguments)``."""

    def around(real: Function) -> Function:
        def changed(*arguments: Any) -> Any:
            return change(real(*arguments), *arguments)

        return changed

    return Wrap(owner, name, around)


def _before(owner: ModuleType, name: str, change: Callable[..., tuple[Any, ...]]) -> Wrap:
    """The real ``owner.name``, given ``change(*arguments)`` instead of its arguments."""

    def around(real: Function) -> Function:
        def changed(*arguments: Any) -> Any:
            return real(*change(*arguments))

        return changed

    return Wrap(owner, name, around)


def _refusal_dropped(owner: ModuleType, name: str, code: str) -> Wrap:
    """The rule ``owner.name`` no longer refuses with ``code``."""
    return _after(
        owner,
        name,
        lambda found, *_: None if isinstance(found, Violation) and found.code == code else found,
    )


def _setup_given(change: Callable[[setup.Setup], setup.Setup]) -> Wrap:
    """The real setup, given changed inputs."""
    return _before(setup, "new_game", lambda ruleset, inputs: (ruleset, change(inputs)))


def _after_step(name: str, change: Callable[[State, Any, engine.Result], State]) -> Wrap:
    """The engine step ``name``, its new state then changed (the events kept)."""

    def changed(result: engine.Result, state: State, action: Any) -> engine.Result:
        return engine.Result(change(state, action, result), result.events)

    return _after(engine, name, changed)


def _restacked(reversed_on: Callable[[int], bool]) -> Wrap:
    """The ranking, given each stack on a space ``reversed_on`` picks turned over."""

    def track(track: list[Stack]) -> tuple[list[Stack]]:
        spaces = range(MIN_SPACE, MIN_SPACE + len(track))
        return ([s[::-1] if reversed_on(n) else s for n, s in zip(spaces, track, strict=True)],)

    return _before(ranking, "ranking", track)


def _behind_as_ahead(track: list[Stack]) -> tuple[list[Stack]]:
    """The camels carried back over the line stood on 16, 15, ... (under what is there)."""
    moved = list(track)
    for space in range(MIN_SPACE, 1):
        ahead = slot(space + LAST_SPACE)
        moved[ahead], moved[slot(space)] = track[slot(space)] + moved[ahead], ()
    return (moved,)


def _first_crazy_by_colour(s: setup.Setup) -> setup.Setup:
    if s.crazy_rolls and s.crazy_rolls[0].colour is not None:
        return attrs.evolve(s, first_crazy=s.crazy_rolls[0].colour)
    return s


def _ticket_refused(when: Callable[[State, Camel], bool], violation: Violation) -> Wrap:
    """The leg-ticket rule, refusing with ``violation`` first whenever ``when`` holds."""

    def around(real: Function) -> Function:
        def problem(state: State, camel: Camel) -> Violation | None:
            found: Violation | None = violation if when(state, camel) else real(state, camel)
            return found

        return problem

    return Wrap(betting, "leg_ticket_problem", around)


_EMPTY = Violation("ticket-stack-empty", "bet.leg.empty-stack", "empty", ("camel",))


def _coin_at_once(state: State, action: Any, result: engine.Result) -> State:
    new = result.state
    if new.leg != state.leg or new.is_over:
        return new
    player = new.players[action.player]
    paid = Player(player.money + 1, player.leg_tickets, player.pyramid_tickets - 1)
    return attrs.evolve(new, players=_seat(new.players, action.player, paid))


def _seat(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


def _tile_removed(state: State, _: Any, result: engine.Result) -> State:
    paid = [e.space for e in result.events if isinstance(e, TilePaid)]
    if not paid or result.state.leg != state.leg:
        return result.state
    kept = tuple(t for t in result.state.tiles if t.space not in paid)
    return attrs.evolve(result.state, tiles=kept)


def _tickets_cleared(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    return attrs.evolve(state, players=tuple(Player(p.money) for p in state.players)), events


def _ending_ticket_unpaid(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    taker = [e.player for e in events if isinstance(e, PyramidTicketTaken)][-1]
    player = state.players[taker]
    less = attrs.evolve(player, pyramid_tickets=player.pyramid_tickets - 1)
    return attrs.evolve(state, players=_seat(state.players, taker, less)), events


def _first_seat_wins(_: object) -> property:
    def result(state: State) -> GameResult | None:
        if not state.is_over:
            return None
        best = max(player.money for player in state.players)
        return GameResult((next(s for s, pl in enumerate(state.players) if pl.money == best),))

    def filled(state: State, value: GameResult | None) -> None:
        """The engine fills in the result it has worked out (``prime_derived``), only ever
        None while the race goes on, which this one derives alike."""

    return property(result, filled)


_TILE_LANDS = 'put_on_top(track, unit, target)\n        placement, clause = "top"'
_TILE_SINKS = 'put_underneath(track, unit, target)\n        placement, clause = "underneath"'
_TILE_SINKS_UNLESS_ORIGIN = (
    "(put_on_top if target == origin else put_underneath)(track, unit, target)\n"
    '        placement, clause = "top" if target == origin else "underneath"'
)
_TILE_TARGET = "target = tile.space + tile.side.step * direction"
_LEG_SETTLED = "paid = max(0, player.money + total) - player.money"
_FLOOR_PER_PART = """money = player.money
        for part in (player.pyramid_tickets, *(r for _, r in tickets), bonus):
            money = max(0, money + part)
        paid = money - player.money"""
_LIFTED = "track[index] = stack[:height]\n            return index + MIN_SPACE, stack[height:]"
_CRAZY_MOVE = 'direction, clause = -1, "crazy.move.counterclockwise"'
_RACING_MOVE = 'direction, clause = 1, "move.racing.clockwise"'
_FIRST_CORRECT = "amounts = []\n    correct = 0"
_PILES = "(winner_pile, Pile.WINNER, winner),\n        (loser_pile, Pile.LOSER, loser),"
_CARD_OK = "problem = betting.finish_card_problem(state, action.player, action.camel)"
_CARD_ON_THIS_PILE = """pile = state.winner_pile if action.pile is Pile.WINNER else state.loser_pile
    problem = betting.bet_camel_problem(state.ruleset, action.camel, "finish cards")
    if problem is None and FinishCard(action.player, action.camel) in pile:
        problem = betting._not_in_hand(action.player, action.camel)"""


def _mutants() -> tuple[Mutant, ...]:
    def m(name: str, clause: str, description: str, *changes: Change) -> Mutant:
        return Mutant(name, clause, description, changes)

    tile_space = tiles.tile_space_problem
    move, step = movement.move_camel_unit, movement.tile_step
    choose = crazy.choose_crazy_camel
    arrows = whirlwind.whirlwind_destination
    score_leg, piles, amounts = leg.score_leg, final.score_finish_piles, final.card_amounts
    reward, bonus = leg.ticket_reward, leg.partner_bonus
    take_ticket, place_card, end_leg = (
        engine._take_leg_ticket,
        engine._place_finish_card,
        engine._end_leg,
    )
    leg_ticket = betting.leg_ticket_problem
    # A table: one row per mutant, each kept to a few lines.
    # fmt: off
    return (
        # Chapter 1: components and dice faces
        m("racing-die-shows-four", "dice.racing-faces", "a racing die may show 4",
          edit(dice.face_problem,
               "if roll.value not in FACE_VALUES:",
               "if roll.value not in FACE_VALUES and (grey or roll.value != 4):")),
        m("grey-die-shows-four", "dice.grey-faces", "the grey die may show 4",
          edit(dice.face_problem,
               "if roll.value not in FACE_VALUES:",
               "if roll.value not in FACE_VALUES and not (grey and roll.value == 4):",
               "if grey and (roll.colour",
               "if grey and roll.value != 4 and (roll.colour")),
        m("bets-on-crazy-camels", "bets.no-crazy",
          "crazy camels count as bettable colours (with an empty ticket stack and no card in hand)",
          edit(betting.bet_camel_problem,
               "if camel in ruleset.racing_camels:",
               "if camel in ruleset.racing_camels or camel.is_crazy:"),
          _ticket_refused(lambda _, camel: camel.is_crazy, _EMPTY)),
        m("bets-on-other-edition-colours", "camels.racing.second",
          "a bet on the other edition's colours is refused as an empty stack, not as no such camel",
          _ticket_refused(lambda state, camel: camel not in state.ruleset.racing_camels
                          and not camel.is_crazy, _EMPTY)),
        # Chapter 2: setup
        m("setup-five-coins", "setup.money", "each player starts with 5 EP instead of 3",
          edit(setup.new_game, "Player(money=STARTING_MONEY)", "Player(money=5)")),
        m("setup-stack-reversed", "setup.stack-order",
          "camels sharing a start space are stacked in reverse order (each new one at the bottom)",
          edit(setup.new_game, "track[index] + (camel,)", "(camel,) + track[index]")),
        m("setup-racing-one-ahead", "setup.racing-camels",
          "a racing camel starts one space beyond its die's value (counted as a move from space 1)",
          edit(setup.new_game, "index = slot(values[camel])", "index = slot(values[camel] + 1)")),
        m("setup-crazy-spaces-mirrored", "setup.crazy-space", "a grey 1 places on 14 and a 3 on 16",
          edit(setup._place_crazy_camels, "CRAZY_START_SPACE[roll.value]",
               "CRAZY_START_SPACE[4 - roll.value]")),
        m("setup-crazy-first-by-colour", "setup.crazy-space",
          "the first grey roll places the crazy camel of its colour, not the one chosen (RUL-03)",
          _setup_given(_first_crazy_by_colour)),
        m("setup-second-crazy-underneath", "setup.crazy-second",
          "a second crazy camel placed on the first one's space goes underneath it",
          edit(setup._place_crazy_camels, "track[where] + (camel,)", "(camel,) + track[where]")),
        m("setup-start-seat-zero", "setup.start-player", "seat 0 always starts, whatever the input",
          edit(setup.new_game, "to_move=setup.start_player,", "to_move=0,",
               "start_player=setup.start_player,", "start_player=0,")),
        # Chapter 3: turns
        m("turn-passes-right", "turn.order", "play passes to the right (seat - 1)",
          edit(turn.next_seat, "(player + 1)", "(player - 1)")),
        m("turn-anyone-may-act", "turn.order",
          "an action by a player who is not to move is accepted",
          edit(turn.turn_problem, "if player != state.to_move:", "if False:")),
        m("turn-play-after-race-end", "turn.game-over", "actions are accepted after the race ended",
          edit(turn.turn_problem, "if state.is_over:", "if False:")),
        m("finish-card-keeps-turn", "turn.order",
          "placing a finish card does not pass the turn (camelcalc's make_overall_bet)",
          _after_step("_place_finish_card",
                      lambda _, action, result: attrs.evolve(result.state, to_move=action.player))),
        # Chapter 4: betting
        m("leg-ticket-from-bottom", "bet.leg.take-top",
          "the bottom (lowest) leg ticket is taken, not the top one",
          edit(take_ticket,
               "stacks[index][-1])",
               "stacks[index][0])",
               "(stacks[index][:-1],)",
               "(stacks[index][1:],)")),
        m("leg-ticket-one-per-colour", "bet.leg.any-number",
          "a player may hold only one leg ticket of each colour",
          _ticket_refused(lambda state, camel: any(t.camel is camel for t in
                                                   state.players[state.to_move].leg_tickets),
                          Violation("ticket-stack-empty", "bet.leg.any-number", "one per colour"))),
        m("leg-ticket-stack-never-empty", "bet.leg.empty-stack",
          "an empty colour still deals leg tickets (worth 2) instead of refusing",
          _refusal_dropped(betting, "leg_ticket_problem", "ticket-stack-empty"),
          edit(take_ticket, "stacks[index][-1])", "stacks[index][-1] if stacks[index] else 2)")),
        m("finish-card-reusable", "bet.finish.one-per-colour",
          "a finish card already placed can be placed again (the hand is never checked)",
          edit(betting.finish_card_problem, "if camel not in state.hand(player):", "if False:")),
        m("finish-card-same-colour-both-piles", "bet.finish.one-per-colour",
          "a player may put the same colour on both finish piles (only the chosen pile is checked)",
          edit(place_card, _CARD_OK, _CARD_ON_THIS_PILE)),
        m("finish-card-at-bottom", "bet.finish.pile-order",
          "a placed finish card goes under its pile, so the pile lists the newest card first",
          edit(place_card,
               "(*state.winner_pile, card)",
               "(card, *state.winner_pile)",
               "(*state.loser_pile, card)",
               "(card, *state.loser_pile)")),
        m("finish-cards-back-at-leg-end", "bet.finish.permanent",
          "the finish piles go back to the hands at leg cleanup",
          edit(end_leg, "state.winner_pile,\n        state.loser_pile,", "(),\n        (),")),
        # Chapter 5: the pyramid action and movement
        m("unit-order-reversed", "move.stack.carry", "a moving unit is turned upside down",
          edit(movement.lift_unit, "stack[height:]\n", "stack[height:][::-1]\n")),
        m("mover-leaves-riders", "move.stack.carry", "a camel moves alone; the camels on it stay",
          edit(movement.lift_unit,
               _LIFTED,
               "track[index] = stack[:height] + stack[height + 1 :]\n            return index "
               "+ MIN_SPACE, stack[height : height + 1]")),
        m("mover-takes-whole-stack", "move.stack.carry",
          "the camels below the mover are carried too",
          edit(movement.lift_unit,
               _LIFTED,
               "track[index] = ()\n            return index + MIN_SPACE, stack")),
        m("unit-lands-underneath", "move.unit.lands-on-top",
          "every unit goes under the camels it lands on",
          edit(movement.put_on_top, "track[index] + unit", "unit + track[index]")),
        m("crazy-unit-lands-underneath", "move.unit.lands-on-top",
          "a crazy-led unit goes under the camels it lands on (camel-up-solver's move_camel)",
          edit(movement.put_on_top,
               "track[index] + unit",
               "unit + track[index] if unit[0].is_crazy else track[index] + unit")),
        m("racing-move-one-short", "move.racing.clockwise",
          "a racing camel moves one space less (counts its start space)",
          edit(move, _RACING_MOVE, _RACING_MOVE + "\n        pips -= 1")),
        m("passed-tile-fires", "move.only-final-space",
          "a tile passed over stops the unit and fires",
          edit(move,
               "destination = origin + pips\n",
               "destination = origin + pips\n            destination = min([t.space for t in "
               "tiles if origin < t.space < destination], default=destination)\n")),
        m("die-drawn-twice", "move.die.stays-out",
          "a die already out of the pyramid can be drawn again",
          edit(movement.roll_problem, "if roll.die not in pyramid:", "if False:")),
        m("pyramid-coin-at-once", "move.pyramid.take-ticket",
          "the pyramid action pays 1 EP at once instead of a ticket paid at leg scoring "
          "(camelcalc)",
          _after_step("_take_pyramid_ticket", _coin_at_once)),
        # Chapter 6: tiles
        m("tile-on-space-one", "tile.place.not-space-one", "a tile may be placed on space 1",
          edit(tile_space, "if space == 1:", "if False:")),
        m("tile-beyond-sixteen", "tile.place.empty-space", "a tile may be placed beyond space 16",
          edit(tile_space,
               "if not 1 <= space <= LAST_SPACE:",
               "if space < 1:",
               "if state.track[space - MIN_SPACE]:",
               "if state.stack(space):")),
        m("tile-not-on-space-two", "tile.place.not-space-one",
          "space 2 is refused as next to the start",
          edit(tile_space, "if space == 1:", "if space in (1, 2):")),
        m("tile-on-camel", "tile.place.empty-space", "a tile may be placed under a camel",
          edit(tile_space, "if state.track[space - MIN_SPACE]:", "if False:")),
        m("tile-on-crazy-camel", "tile.place.empty-space",
          "only racing camels block a tile; a crazy camel does not",
          edit(tile_space,
               "if state.track[space - MIN_SPACE]:",
               "if any(not c.is_crazy for c in state.track[space - MIN_SPACE]):")),
        m("tile-on-tile", "tile.place.empty-space", "a tile may go on another player's tile",
          edit(tile_space, "if tile.space == space:", "if False:")),
        m("tile-adjacent-allowed", "tile.place.not-adjacent", "a tile may go next to another tile",
          edit(tile_space, "if abs(tile.space - space) == 1:", "if False:")),
        m("tile-adjacent-above-only", "tile.place.not-adjacent",
          "only the space below a tile is checked, not the one above",
          edit(tile_space, "if abs(tile.space - space) == 1:", "if tile.space - space == 1:")),
        m("tile-adjacency-two-spaces", "tile.place.not-adjacent",
          "a tile blocks the two spaces either side of it",
          edit(tile_space, 'if abs(tile.space - space) == 1:', 'if abs(tile.space - space) <= 2:')),
        m("tile-own-old-space-blocks", "tile.move.different-space",
          "a moved tile's old space blocks its neighbours (the variant's rule, always)",
          edit(tile_space, "if _OLD_SPACE_BLOCKS in ruleset.variants:", "if True:")),
        m("tile-old-space-variant-ignored", "tile.move.old-space-blocks",
          "under tile-move-old-space-blocks the old space still does not block",
          edit(tile_space, "if _OLD_SPACE_BLOCKS in ruleset.variants:", "if False:")),
        m("tile-cannot-move", "tile.move.different-space", "a tile on the track cannot be moved",
          edit(tiles.tile_action_problem,
               "if not moving and own is not None:",
               "if own is not None:")),
        m("tile-flips-in-place", "tile.move.different-space",
          "a tile may be moved to its own space (flipped)",
          edit(tile_space, "if own is not None and own.space == space:", "if False:")),
        m("tile-on-whirlwind", "whirlwind.no-tiles", "tiles may go on the whirlwind spaces 6 to 8",
          edit(tile_space, "if ruleset.whirlwind and space in WHIRLWIND_SPACES:", "if False:")),
        m("tile-any-side", "tiles.spectator", "any tile side is accepted in either edition",
          edit(tile_space, "if side not in SIDES[edition]:", "if False:")),
        m("tile-pays-per-camel", "tile.land.pay-owner",
          "a tile pays 1 EP per camel of the landing unit",
          edit(step,
               "tile_payment(tile.owner, tile.space, 1)",
               "tile_payment(tile.owner, tile.space, len(unit))")),
        m("tile-crazy-landing-unpaid", "tile.land.pay-owner",
          "a unit led by a crazy camel pays the tile owner nothing",
          edit(step,
               "tile_payment(tile.owner, tile.space, 1)",
               "tile_payment(tile.owner, tile.space, 0 if unit[0].is_crazy else 1)")),
        m("tile-forward-underneath", "tile.land.forward",
          "a forward tile puts the unit under the camels there",
          edit(step, _TILE_LANDS, _TILE_SINKS)),
        m("tile-backward-on-top", "tile.land.backward",
          "a backward tile puts the unit on top of the camels there",
          edit(step, _TILE_SINKS, _TILE_LANDS)),
        m("tile-backward-turns-unit-over", "tile.land.backward",
          "a backward step slides the unit's camels under one by one, so a multi-camel unit "
          "turns over",
          edit(step,
               "put_underneath(track, unit, target)",
               "put_underneath(track, unit[::-1], target)")),
        m("tile-backward-onto-origin-on-top", "tile.land.backward",
          "a backward step back onto the unit's own origin puts it on top there, as if it never "
          "left",
          edit(move, "unit, direction, events)", "unit, direction, events, origin)"),
          edit(step,
               "events: list[Event] | None = None,\n)",
               "events: list[Event] | None = None,\n    origin: int | None = None,\n)",
               _TILE_SINKS, _TILE_SINKS_UNLESS_ORIGIN)),
        m("tile-ignores-crazy-direction", "tile.land.crazy-reversed",
          "a tile pushes a crazy-led unit the racing way (camel-up-solver's move_camel)",
          edit(step, _TILE_TARGET, "direction = 1\n    " + _TILE_TARGET)),
        m("tile-direction-from-top-camel", "tile.land.crazy-reversed",
          "a tile's direction follows the unit's top camel, not the camel that moved",
          edit(step,
               _TILE_TARGET,
               "direction = -1 if unit[-1].is_crazy else 1\n    " + _TILE_TARGET)),
        m("tile-push-stops-on-sixteen", "tile.land.off-track",
          "a forward tile on 16 leaves the unit on 16 instead of pushing it over the line",
          edit(step,
               "if tile.side.step > 0:",
               "target = min(target, LAST_SPACE)\n    if tile.side.step > 0:")),
        m("tile-removed-after-landing", "tile.stays",
          "a tile is taken off the track once a unit lands on it",
          _after_step("_take_pyramid_ticket", _tile_removed)),
        m("tiles-kept-at-leg-end", "leg.cleanup", "tiles stay on the track when a new leg begins",
          edit(end_leg, "(),  # tiles", "state.tiles,")),
        # Chapter 7: crazy camels
        m("crazy-no-only-carrier", "crazy.select.only-carrier",
          "the only carrier of racing camels is not preferred",
          edit(choose, "if white_carries is not black_carries:", "if False:")),
        m("crazy-carrier-direct-only", "crazy.select.only-carrier",
          "a crazy camel counts as a carrier only with a racing camel directly on it",
          edit(crazy._carries_racing_camel,
               "return not _CRAZY.issuperset(stack[stack.index(camel) + 1 :])",
               "above = stack[stack.index(camel) + 1 :]\n    return bool(above) and not "
               "above[0].is_crazy")),
        m("crazy-no-top-of-other", "crazy.select.top-of-other",
          "a crazy camel on the other is not preferred",
          edit(choose, "if white_stack is not None and white_stack is black_stack:", "if False:")),
        m("crazy-lower-of-pair-moves", "crazy.select.top-of-other",
          "of two stacked crazy camels the lower one moves",
          edit(choose,
               "(white if white_above_black == 1 else black)",
               "(black if white_above_black == 1 else white)")),
        m("crazy-top-of-other-with-gap", "crazy.select.top-of-other",
          "two crazy camels on one space count as stacked even with racing camels between them",
          edit(choose,
               "white_above_black == 1 or white_above_black == -1",
               "True",
               "(white if white_above_black == 1 else",
               "(white if white_above_black > 0 else")),
        m("crazy-colour-swapped", "crazy.select.colour",
          "a white number moves the black camel and a black the white",
          edit(choose,
               'return colour, "crazy.select.colour"',
               'return (black if colour is white else white), "crazy.select.colour"')),
        m("crazy-moves-clockwise", "crazy.move.counterclockwise", "a crazy camel moves clockwise",
          edit(move,
               '-1, "crazy.move.counterclockwise"',
               '1, "crazy.move.counterclockwise"',
               "destination = origin - pips",
               "destination = origin + pips")),
        m("racing-drops-crazy-riders", "crazy.move.counterclockwise",
          "a crazy camel riding a racing camel is left behind when the racing camel moves",
          edit(move,
               _RACING_MOVE,
               _RACING_MOVE
               + "\n        track[origin - MIN_SPACE] += tuple(c for c in unit[1:] if "
                 "c.is_crazy)\n        unit = tuple(c for c in unit if c is camel or not "
                 "c.is_crazy)")),
        m("crazy-moves-alone", "crazy.carry", "a crazy camel leaves the camels on it behind",
          edit(move,
               _CRAZY_MOVE,
               _CRAZY_MOVE
               + "\n        track[origin - MIN_SPACE] += unit[1:]\n        unit = unit[:1]")),
        m("crazy-wraps-to-sixteen", "crazy.no-wrap",
          "a crazy camel going past space 1 wraps round to 16",
          edit(move,
               "if destination < 1 and crazy.crossing_wraps(ruleset, unit):",
               "if destination < 1:")),
        m("crazy-held-on-one", "crazy.no-wrap", "a crazy camel going past space 1 stops on 1",
          edit(move,
               "destination += LAST_SPACE\n",
               "destination += LAST_SPACE\n        destination = max(destination, 1)\n")),
        m("crazy-wrap-carrying-racing", "crazy.wrap",
          "under crazy-finish-needs-racing a crazy unit carrying racing camels wraps too",
          edit(crazy.crossing_wraps, " and all(c.is_crazy for c in unit)", "")),
        m("crazy-wrap-variant-ignored", "crazy.wrap",
          "the variant crazy-finish-needs-racing is ignored",
          edit(crazy.crossing_wraps, "return Variant.", "return False and Variant.")),
        # Chapter 8: the whirlwind
        m("whirlwind-six-to-seven", "whirlwind.leave-six", "leaving 6 goes to 7, not 8",
          edit(arrows, '_EIGHT, "whirlwind.leave-six"', '_SEVEN, "whirlwind.leave-six"')),
        m("whirlwind-seven-to-eight", "whirlwind.leave-seven", "leaving 7 goes to 8, not 6",
          edit(arrows, '_SIX, "whirlwind.leave-seven"', '_EIGHT, "whirlwind.leave-seven"')),
        m("whirlwind-never-bounces", "whirlwind.bounce", "leaving 8 always goes on to 9",
          edit(arrows, "if _other_camel_in_whirlwind(track) or", "if True or")),
        m("whirlwind-eight-not-counted", "whirlwind.leave-eight",
          "a camel on 8 (left behind under the unit) does not let the unit through",
          edit(whirlwind._other_camel_in_whirlwind, "(_SIX, _SEVEN, _EIGHT)", "(_SIX, _SEVEN)")),
        m("whirlwind-crazy-counts-for-b", "whirlwind.leave-eight",
          "a crazy camel behind space 9 keeps the unit in the loop (condition b counts it; RUL-49)",
          edit(whirlwind._all_others_at_nine_or_beyond,
               "any(not camel.is_crazy for",
               "any(True for")),
        m("whirlwind-unit-counts-itself", "whirlwind.leave-eight",
          "condition (a) counts the moving unit itself when it started on 6, 7 or 8 (checked "
          "unlifted)",
          edit(arrows,
               "if _other_camel_in_whirlwind(track) or",
               "if _other_camel_in_whirlwind(track) or origin in (_SIX, _SEVEN, _EIGHT) or")),
        m("whirlwind-crazy-follows-arrows", "whirlwind.crazy-by-number",
          "a crazy-led unit takes the 6-8 arrow backwards (8 to 6), not the space numbers",
          edit(move,
               "destination = origin - pips",
               "destination = origin - pips - (ruleset.whirlwind and origin >= 8 > origin - "
               "pips)")),
        # Chapter 9: ranking
        m("rank-lower-camel-ahead", "rank.stack", "on one space the lower camel ranks ahead",
          _restacked(lambda space: True)),
        m("rank-counts-crazy", "rank.ignore-crazy", "crazy camels take places in the ranking",
          edit(ranking._ranked.__wrapped__, "if _CRAZY.isdisjoint(front_to_back):", "if True:")),
        m("rank-crossed-unit-bottom-first", "rank.crossed-finish",
          "of the unit past the line the bottom camel ranks first",
          _restacked(lambda space: space > LAST_SPACE)),
        m("rank-carried-backwards-wraps", "rank.carried-backwards",
          "camels carried back over the line count as on 16, 15, ... (ahead, not behind)",
          _before(ranking, "ranking", _behind_as_ahead)),
        m("rank-carried-backwards-bottom-ahead", "rank.carried-backwards",
          "of the camels carried back over the line the lowest ranks ahead",
          _restacked(lambda space: space < 1)),
        m("loser-top-of-rearmost-stack", "final.loser",
          "the overall loser is the top racing camel of the rearmost stack",
          edit(engine._end_game,
               "ranked[0], ranked[-1]\n",
               "ranked[0], next(c for s in state.track for c in s[::-1] if not c.is_crazy)\n")),
        # Chapter 10: the end of a leg
        m("leg-waits-for-sixth-die", "leg.end.second",
          "a 2nd-edition leg ends only when all six dice are out (camel-up-solver's act_roll)",
          edit(leg.leg_is_over,
               "ruleset.dice_per_leg",
               '(6 if ruleset.edition.value == "second" else ruleset.dice_per_leg)')),
        m("leg-ends-after-fourth-die-second", "leg.end.second",
          "a 2nd-edition leg ends after four dice",
          edit(leg.leg_is_over,
               "ruleset.dice_per_leg",
               '(4 if ruleset.edition.value == "second" else ruleset.dice_per_leg)')),
        m("leg-ends-after-fourth-die-first", "leg.end.first",
          "a 1st-edition leg ends after four dice",
          edit(leg.leg_is_over,
               "ruleset.dice_per_leg",
               '(4 if ruleset.edition.value == "first" else ruleset.dice_per_leg)')),
        m("leg-leader-pays-five", "leg.score.leader",
          "every ticket on the leader pays 5, whatever its value",
          edit(reward, "return ticket.value", "return 5")),
        m("leg-second-pays-nothing", "leg.score.second",
          "a ticket on the second camel pays nothing",
          edit(reward, "return 1\n", "return 0\n")),
        m("leg-others-cost-nothing", "leg.score.others",
          "a ticket on a camel third or worse costs nothing",
          edit(reward, "return -1", "return 0")),
        m("leg-pyramid-unpaid", "leg.score.pyramid", "pyramid tickets pay nothing at leg scoring",
          edit(score_leg, "total = player.pyramid_tickets", "total = 0")),
        m("leg-pyramid-once-per-player", "leg.score.pyramid",
          "a player's pyramid tickets pay 1 EP in all, not 1 each",
          edit(score_leg,
               "total = player.pyramid_tickets",
               "total = min(player.pyramid_tickets, 1)")),
        m("leg-floor-per-ticket", "leg.score.net",
          "the zero floor is applied after every ticket, not to the leg's total",
          edit(score_leg, _LEG_SETTLED, _FLOOR_PER_PART)),
        m("leg-no-floor", "money.floor",
          "leg scoring can take a player below 0 EP (camelcalc's finish_leg)",
          edit(score_leg, _LEG_SETTLED, "paid = total")),
        m("start-marker-to-last-taker", "leg.start-player",
          "the last pyramid taker gets the start marker, not their left neighbour",
          edit(leg.next_start_player,
               "StartPlayerPassed((last_pyramid_taker + 1) % ruleset.players,",
               "StartPlayerPassed(last_pyramid_taker,")),
        m("start-marker-always-rotates", "leg.start-player",
          "the start marker always passes to its holder's left",
          edit(leg.next_start_player, "(last_pyramid_taker + 1) %", "(start_player + 1) %")),
        m("start-marker-variant-ignored", "leg.start-player.rotate",
          "under start-marker-rotates the marker goes left of the last taker",
          edit(leg.next_start_player,
               "if _START_MARKER_ROTATES in ruleset.variants:",
               "if False:")),
        m("leg-tickets-kept", "leg.cleanup",
          "leg tickets stay with their holders into the next leg",
          edit(leg.players_for_new_leg,
               "Player(amount) for amount in settled",
               "Player(amount, p.leg_tickets) for p, amount in zip(players, settled)")),
        m("leg-number-stays", "leg.number", "the leg number is not advanced",
          edit(end_leg, "state.leg + 1,", "state.leg,")),
        # Chapter 11: the end of the race and final scoring
        m("race-unit-stops-on-seventeen", "end.crossing.racing",
          "a unit crossing the line stops just past it, on 17",
          edit(move,
               "put_on_top(track, unit, destination)",
               "destination = min(destination, LAST_SPACE + 1)\n    put_on_top(track, unit, "
               "destination)")),
        m("final-leg-scoring-skipped", "end.final-leg-scoring", "no leg scoring when the race ends",
          _before(engine, "_end_game", _tickets_cleared)),
        m("final-ending-pyramid-ticket-unpaid", "end.final-leg-scoring",
          "the pyramid ticket of the race-ending turn is not paid (RUL-37)",
          _before(engine, "_end_game", _ending_ticket_unpaid)),
        m("final-sixth-card-pays-nothing", "final.correct-pays",
          "the sixth and later correct finish cards pay nothing (camelcalc)",
          edit(amounts,
               "else LATER_CORRECT_CARD_PAYOUT",
               "else LATER_CORRECT_CARD_PAYOUT if correct < 5 else 0")),
        m("final-wrong-card-takes-payout", "final.correct-pays",
          "a wrong card uses up a payout: the n-th card of the pile pays the n-th amount",
          edit(amounts, "for card in pile:", "for correct, card in enumerate(pile):")),
        m("final-payouts-per-player", "final.correct-pays",
          "each player's first correct card pays 8, counted per player",
          edit(amounts,
               _FIRST_CORRECT,
               "amounts = []\n    seen = {}",
               "if card.camel is camel:",
               "correct = seen.get(card.owner, 0)\n        if card.camel is camel:",
               "correct += 1",
               "seen[card.owner] = correct + 1")),
        m("final-wrong-card-free", "final.wrong-costs", "a wrong finish card costs nothing",
          edit(amounts, "amounts.append(WRONG_CARD_COST)", "amounts.append(0)")),
        m("final-pile-newest-first", "final.pile-order",
          "a pile is scored from the last card placed",
          edit(piles,
               "amounts = card_amounts(pile, camel)",
               "amounts = card_amounts(pile, camel)[::-1]\n        pile = pile[::-1]")),
        m("final-loser-pile-first", "final.pile-sequence",
          "the loser pile is scored before the winner pile",
          edit(piles,
               _PILES,
               "(loser_pile, Pile.LOSER, loser),\n        (winner_pile, Pile.WINNER, winner),")),
        m("final-netted-by-default", "final.wrong-costs",
          "finish cards are netted per player, as under final-scoring-net",
          edit(piles, "net = Variant.FINAL_SCORING_NET in ruleset.variants", "net = True")),
        m("final-net-variant-ignored", "final.net",
          "under final-scoring-net the cards are still settled one by one",
          edit(piles, "net = Variant.FINAL_SCORING_NET in ruleset.variants", "net = False")),
        m("final-no-floor", "money.floor",
          "final scoring can take a player below 0 EP (camelcalc's finish_game)",
          edit(piles,
               "max(0, money[owner] + total)",
               "money[owner] + total",
               "max(0, money[card.owner] + amount)",
               "money[card.owner] + amount")),
        m("final-tie-first-seat-wins", "final.winners",
          "on a tie for the most money only the first such seat wins",
          Wrap(State, "result", _first_seat_wins)),
        # Chapter 13: partnerships
        m("partnership-with-five-players", "partner.six-plus",
          "partnerships are open with five players",
          edit(partnership.partnership_problem,
               "if not state.ruleset.partnerships:",
               "if not state.ruleset.partnerships and not (state.ruleset.players == 5 and "
               'state.ruleset.edition.value == "second"):')),
        m("partnership-card-reusable", "partner.action",
          "a player already in a partnership may form another",
          edit(partnership.partnership_problem,
               "if state.partner_of(seat) is not None:",
               "if False:")),
        m("partner-copies-all-tickets", "partner.copy-best",
          "a partner's bonus is the sum of all the other's rewards",
          edit(bonus, "return max([0, *rewards])", "return max(0, sum(rewards))")),
        m("partner-copy-compulsory", "partner.copy-best",
          "a partner must copy a ticket even when every one loses",
          edit(bonus, "return max([0, *rewards])", "return max(rewards, default=0)")),
        m("partner-pyramid-not-copied", "partner.copy-best",
          "a partner's pyramid ticket cannot be copied",
          edit(bonus, "rewards.append(1)", "pass")),
        m("partner-bonus-one-way", "partner.copy-best",
          "only the lower seat of a partnership gets a bonus",
          edit(score_leg,
               "if seat in partner_of:",
               "if seat in partner_of and seat < partner_of[seat]:")),
        m("partnership-kept-next-leg", "partner.reset", "partnerships last into the next leg",
          edit(end_leg, "(),  # partnerships", "state.partnerships,")),
        # Error codes: the right verdict, reported under the wrong code or clause
        m("error-not-your-turn-clause", "turn.order",
          "an out-of-turn action is refused citing turn.one-action",
          edit(turn.turn_problem,
               '"not-your-turn", "turn.order"',
               '"not-your-turn", "turn.one-action"')),
        m("error-adjacent-code", "tile.place.not-adjacent",
          "a tile next to another is refused as tile-on-tile",
          edit(tile_space,
               '"tile-adjacent", "tile.place.not-adjacent"',
               '"tile-on-tile", "tile.place.not-adjacent"')),
        m("error-empty-stack-code", "bet.leg.empty-stack",
          "an empty ticket stack is refused as not-a-racing-camel",
          edit(leg_ticket,
               '"ticket-stack-empty", "bet.leg.empty-stack"',
               '"not-a-racing-camel", "bet.leg.empty-stack"')),
        m("error-die-out-code", "move.die.stays-out",
          "a die already out is refused as die-face (dice.racing-faces)",
          edit(movement.roll_problem,
               '"die-not-in-pyramid", "move.die.stays-out"',
               '"die-face", "dice.racing-faces"')),
    )
    # fmt: on


_ROWS = _mutants()
CATALOGUE: dict[str, Mutant] = {mutant.name: mutant for mutant in _ROWS}
assert len(CATALOGUE) == len(_ROWS), "two rows share a name"


def mutants(names: tuple[str, ...] | list[str] = ()) -> tuple[Mutant, ...]:
    """The named mutants (all when ``names`` is empty); KeyError names an unknown one."""
    if not names:
        return tuple(CATALOGUE.values())
    return tuple(CATALOGUE[name] for name in names)

"""Conformance adapter for the published ``camelcalc`` package (0.1.1), a first-edition engine.

It drives camelcalc's own ``Game`` (``camelcalc.camelup``): the position is built in camelcalc's
data model, the scripted dice are fed to camelcalc's own ``Game.roll_dice``, every action is one
of camelcalc's methods, and the state JSON is read back from camelcalc's objects. Nothing here
imports camelup: the runner judges what camelcalc did. ``README.md`` beside this file explains
the mapping; run it with::

    camelup conformance run --adapter "python adapters/camelcalc/adapter.py" \\
        --expectations adapters/camelcalc/expectations.toml

camelcalc keeps no leg number, no start marker and no record of the dice revealed: the adapter
writes those down from what camelcalc does (``Record``), never from the rules.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from typing import Any

import camelcalc.camelup as cc
from camelcalc.linkedlist import DoublyLinkedList

EDITION_ORDER = ["blue", "green", "orange", "yellow", "white"]  # the suite's racing order
COLOUR = {colour.value: colour for colour in cc.Color}
SPACES = cc.BOARD_SPOTS + 1  # camelcalc's spots 0..15 are the track's spaces 1..16

HELLO = {
    "protocol": 1,
    "implementation": {"name": "camelcalc", "version": version("camelcalc"), "language": "python"},
    # A first-edition game of 2 to 8 teams; no whirlwind module and no variant (and so no
    # partnership cards, which only the second edition has).
    "supports": {"editions": ["first"], "modules": [], "variants": [], "partnerships": False},
    "capabilities": [],
}


class Refused(Exception):
    """camelcalc refused the action; ``code`` is the suite's word for camelcalc's reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class CannotExpress(Exception):
    """The case needs something camelcalc's data model has no place for."""


# ------------------------------------------------------------------- scripted dice for camelcalc


class ScriptedPyramid(set[cc.Color]):
    """camelcalc's ``die_remaining`` whose ``pop`` draws the die the case names.

    ``Game.roll_dice`` draws with ``self.die_remaining.pop()`` (an arbitrary die) and rolls with
    the module function ``roll_dice()``; both are replaced for one call, so the rest of
    ``Game.roll_dice`` (the coin, the move, the leg end, the next team) is camelcalc's own code.
    """

    def __init__(self, dice: set[cc.Color], drawn: cc.Color) -> None:
        super().__init__(dice)
        self.drawn = drawn

    def pop(self) -> cc.Color:
        self.remove(self.drawn)
        return self.drawn


@contextmanager
def scripted_faces(values: list[int]) -> Iterator[None]:
    """camelcalc's ``roll_dice()`` returns ``values`` in order instead of ``randint(1, 3)``."""
    original = cc.roll_dice
    faces = iter(values)
    cc.roll_dice = lambda: next(faces)
    try:
        yield
    finally:
        cc.roll_dice = original


# ------------------------------------------------------------------------ building the position


def new_game(ruleset: dict[str, Any], setup: dict[str, Any]) -> cc.Game:
    """camelcalc's own setup (``generate_initial_board``) with the case's dice values."""
    values = {roll["die"]: roll["value"] for roll in setup["racing_rolls"]}
    # generate_initial_board rolls once per camel in camelcalc's Color order and stacks each new
    # camel at the bottom of its space: the case's stacking order is not an input camelcalc has.
    with scripted_faces([values[colour.value] for colour in cc.Color]):
        game = cc.Game(number_of_teams=ruleset["players"])
    game.active_team = cc.TeamName(setup["start_player"])
    return game


def game_from_state(state: dict[str, Any]) -> cc.Game:
    """A camelcalc ``Game`` holding the given position, field by field."""
    game = cc.Game(number_of_teams=state["ruleset"]["players"])
    spots = [cc.Spot(position) for position in range(SPACES)]
    camels: dict[cc.Color, cc.Camel] = {}
    for space, stack in state["track"].items():
        if not stack:
            continue
        if not 1 <= int(space) <= SPACES:
            raise CannotExpress("camelcalc's board has no spaces beyond the finish line")
        for name in stack:  # bottom to top: each camel goes on top (the tail)
            camel = cc.Camel(COLOUR[name], int(space) - 1)
            camels[camel.color] = camel
            single: DoublyLinkedList[cc.Camel] = DoublyLinkedList()
            single.insert_single_head(camel)
            spots[camel.pos].camels.extend(single)
    game.spots, game.camels = spots, camels
    for tile in state["tiles"]:
        owner = cc.TeamName(tile["owner"])
        spots[tile["space"] - 1].movement_card = cc.MovementCard(owner, tile["side"] == "oasis")
        game.teams[owner].placed_movement_card = True
    game.die_remaining = {COLOUR[die] for die in state["pyramid"]}
    game.leg_bet_cards = {  # camelcalc pops the head: its lists run top to bottom
        COLOUR[name]: [cc.LegBetCard(COLOUR[name], value) for value in reversed(values)]
        for name, values in state["ticket_stacks"].items()
    }
    for seat, player in enumerate(state["players"]):
        team = game.teams[cc.TeamName(seat)]
        # camelcalc pays a pyramid ticket's coin when the die is rolled, so a ticket still held
        # for leg scoring is, in camelcalc's model, a coin the team already has.
        team.coins = player["money"] + player["pyramid_tickets"]
        team.leg_bet_cards = {
            cc.LegBetCard(COLOUR[t["camel"]], t["value"]) for t in player["leg_tickets"]
        }
        team.overall_bets_made = {c for c in cc.Color if c.value not in player["finish_cards"]}
    game.overall_winner_cards = [
        cc.OverallBetCard(COLOUR[card["camel"]], cc.TeamName(card["owner"]))
        for card in state["winner_pile"]
    ]
    game.overall_loser_cards = [
        cc.OverallBetCard(COLOUR[card["camel"]], cc.TeamName(card["owner"]))
        for card in state["loser_pile"]
    ]
    game.active_team = cc.TeamName(state["to_move"])
    if state["result"] is not None:
        game.playing = False
        game.winners = {cc.TeamName(seat) for seat in state["result"]["winners"]}
    return game


# ------------------------------------------------------------------------------ reading it back


class Record:
    """What camelcalc shows but does not store, written down as it happens.

    camelcalc numbers no legs and has no start marker, and its ``Game.roll_dice`` returns the die
    and face it rolled without keeping them. This record takes those from camelcalc's behaviour
    only: a leg has ended when camelcalc refilled ``die_remaining`` while still playing, the team
    camelcalc then gives the turn to begins the new leg, and the rolls are what ``roll_dice``
    returned since the last refill.
    """

    def __init__(self, leg: int, start_player: int, revealed: list[dict[str, Any]]) -> None:
        self.leg, self.start_player, self.revealed = leg, start_player, revealed

    def rolled(self, game: cc.Game, colour: cc.Color, face: int) -> None:
        if len(game.die_remaining) < len(cc.Color):
            self.revealed.append({"die": colour.value, "value": face})
            return
        self.revealed = []  # camelcalc's finish_leg ran: every die is back in the pyramid
        if game.is_playing():
            self.leg += 1
            self.start_player = game.active_team.value


def read_state(game: cc.Game, record: Record, ruleset: dict[str, Any]) -> dict[str, Any]:
    """The suite's state JSON for what camelcalc holds."""
    track = {str(spot.position + 1): [c.color.value for c in spot.camels] for spot in game.spots}
    tiles = [
        {
            "space": spot.position + 1,
            "owner": spot.movement_card.team.value,
            "side": "oasis" if spot.movement_card.forward else "mirage",
        }
        for spot in game.spots
        if spot.movement_card is not None
    ]
    players = []
    for team in game.teams.values():
        held = sorted(
            team.leg_bet_cards, key=lambda c: (EDITION_ORDER.index(c.color.value), -c.max_payoff)
        )
        players.append(
            {
                "money": team.coins,
                # camelcalc holds a team's leg tickets in a set: read back in colour order.
                "leg_tickets": [{"camel": c.color.value, "value": c.max_payoff} for c in held],
                # Game.roll_dice pays the coin at once: a camelcalc team never holds a ticket.
                "pyramid_tickets": 0,
                "finish_cards": [
                    c for c in EDITION_ORDER if COLOUR[c] not in team.overall_bets_made
                ],
                "partner": None,  # the first edition has no partnerships
            }
        )
    return {
        "ruleset": ruleset,
        "track": track,
        "tiles": tiles,
        "pyramid": [c for c in EDITION_ORDER if COLOUR[c] in game.die_remaining],
        "revealed": list(record.revealed),
        "ticket_stacks": {
            colour.value: [card.max_payoff for card in reversed(cards)]
            for colour, cards in game.leg_bet_cards.items()
        },
        "players": players,
        "winner_pile": [
            {"owner": c.team.value, "camel": c.color.value} for c in game.overall_winner_cards
        ],
        "loser_pile": [
            {"owner": c.team.value, "camel": c.color.value} for c in game.overall_loser_cards
        ],
        "to_move": game.active_team.value,
        "start_player": record.start_player,
        "leg": record.leg,
        "result": None
        if game.is_playing()
        else {"winners": sorted(team.value for team in game.get_winners())},
    }


# -------------------------------------------------------------------------------- the actions


def tile_refusal(game: cc.Game, position: int) -> str:
    """Which of camelcalc's ``can_place_movement_card`` tests failed, tried in camelcalc's order."""
    spots = game.spots
    if game.teams[game.active_team].placed_movement_card:
        return "tile-already-placed"
    if position < 1 or position > cc.BOARD_SPOTS:
        return "tile-space-one" if position == 0 else "tile-off-track"
    if spots[position - 1].movement_card is not None or (
        position < cc.BOARD_SPOTS and spots[position + 1].movement_card is not None
    ):
        return "tile-adjacent"
    if spots[position].movement_card is not None:
        return "tile-on-tile"
    return "tile-on-camel"


def play(game: cc.Game, record: Record, action: dict[str, Any]) -> None:
    """Apply ``action`` with camelcalc's methods; raise Refused when camelcalc refuses it."""
    # camelcalc's game loop (play.play) only ever asks the active team for a command, and stops
    # asking once is_playing() is false: those are its turn-order and game-over rules.
    if not game.is_playing():
        raise Refused("game-over", "camelcalc's loop stops once is_playing() is false")
    if action["player"] != game.active_team.value:
        raise Refused("not-your-turn", f"camelcalc's active team is {game.active_team.value}")
    kind = action["type"]
    try:
        if kind == "take_leg_ticket":
            game.bet_on_leg(COLOUR[action["camel"]])
        elif kind in ("place_tile", "move_tile"):
            # camelcalc has a single tile action, place_movement_card, allowed once per leg.
            position = action["space"] - 1
            if not game.can_place_movement_card(position):
                raise Refused(tile_refusal(game, position), "can_place_movement_card is false")
            game.place_movement_card(action["side"] == "oasis", position)
        elif kind == "take_pyramid_ticket":
            roll = action["roll"]
            die = COLOUR[roll["die"]]
            # camelcalc's dice are drawn from die_remaining and roll randint(1, 3): it has no
            # way to draw a die already out or to show another face.
            if die not in game.die_remaining:
                raise Refused("die-not-in-pyramid", "not in camelcalc's die_remaining")
            if roll["value"] not in (1, 2, 3):
                raise Refused("die-face", "camelcalc's dice roll 1 to 3")
            game.die_remaining = ScriptedPyramid(game.die_remaining, die)
            with scripted_faces([roll["value"]]):
                colour, face = game.roll_dice()
            record.rolled(game, colour, face)
        elif kind == "place_finish_card":
            game.make_overall_bet(action["pile"] == "winner", COLOUR[action["camel"]])
        else:
            raise CannotExpress(f"camelcalc has no {kind} action")
    except cc.InvalidMoveException:
        codes = {"take_leg_ticket": "ticket-stack-empty", "place_finish_card": "card-not-in-hand"}
        raise Refused(codes[kind], "camelcalc raised InvalidMoveException") from None


# --------------------------------------------------------------------------------- the adapter


def check_expressible(case: dict[str, Any]) -> None:
    for step in case["steps"]:
        action = step["action"]
        if action["type"] in ("place_tile", "move_tile") and action["side"] not in (
            "oasis",
            "mirage",
        ):
            raise CannotExpress("camelcalc's tile side is a boolean: oasis or mirage")
        if action["type"] == "take_leg_ticket" and action["camel"] not in COLOUR:
            raise CannotExpress(f"camelcalc has no {action['camel']} camel")
        if action["type"] == "take_pyramid_ticket" and action["roll"]["die"] not in COLOUR:
            raise CannotExpress(f"camelcalc has no {action['roll']['die']} die")


def run(case: dict[str, Any]) -> dict[str, Any]:
    ruleset = case["ruleset"]
    try:
        cc.Game(number_of_teams=ruleset["players"])
    except ValueError as refused:  # camelcalc's own check of the number of teams
        return {"initial_error": {"code": "player-count", "message": str(refused)}, "steps": []}
    try:
        check_expressible(case)
        given = case["given"]
        if "state" in given:
            state = given["state"]
            game = game_from_state(state)
            record = Record(state["leg"], state["start_player"], list(state["revealed"]))
        else:
            game = new_game(ruleset, given["setup"])
            record = Record(1, given["setup"]["start_player"], [])
        reply: dict[str, Any] = {"initial_state": read_state(game, record, ruleset), "steps": []}
        for step in case["steps"]:
            try:
                play(game, record, step["action"])
            except Refused as refused:
                error = {"code": refused.code, "message": str(refused)}
                reply["steps"].append({"error": error})
            else:
                reply["steps"].append({"state": read_state(game, record, ruleset)})
    except CannotExpress as reason:
        return {"skipped": {"reason": str(reason)}}
    return reply


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "hello":
            reply: dict[str, Any] = HELLO
        elif message.get("cmd") == "run":
            try:
                reply = {"seq": message["seq"], **run(message["case"])}
            except Exception as error:  # camelcalc (or this adapter) failed: report, keep serving
                reply = {
                    "seq": message["seq"],
                    "errored": {"message": f"{type(error).__name__}: {error}"},
                }
        else:
            return
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

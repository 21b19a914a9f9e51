"""Conformance adapter for the published ``camel-up-solver`` package (0.1.2, module ``camel_up``).

camel-up-solver is a decision aid for one player: its ``Game`` follows the board (camels,
crazy camels, tiles, dice out of the pyramid, leg-ticket stacks) and the bank and tickets of
*you*, the player at the table using it. It has no seats, turns, finish cards or end of race.

To follow every player, the adapter runs one ``camel_up.Game`` per seat, as if each player sat
with their own copy of the solver: every action is told to every copy, with ``mine`` set only
in the copy of the seat that acted (``act_roll``, ``act_tile``, ``act_take``: what its REPL's
``/roll``, ``/tile`` and ``/take`` call). Each copy moves the camels with the solver's own code;
the board is read from seat 0's copy, each player's money and tickets from their own copy.
Nothing here imports camelup. ``README.md`` beside this file explains the mapping; run it with::

    camelup conformance run --adapter "python adapters/camel-up-solver/adapter.py" \\
        --expectations adapters/camel-up-solver/expectations.toml

With ``--odds`` it is served as an odds solver instead (capabilities ``odds`` and
``partial_odds``): for each odds case it loads the position into the solver and answers with
the solver's exact leg enumeration, ``camel_up.sim.enumerate_leg``, which counts every
completion of the leg and gives each racing camel's chance of first, second and last place.
The other places and the race-end chance it does not compute, so they are left out (null, or
no key) and not compared. It returns those chances as floats, each its count divided by the
number of completions; multiplying back by that number and rounding recovers the count
exactly (the counts stay far below 2**53), so the fractions sent are the solver's own::

    camelup conformance run --adapter "python adapters/camel-up-solver/adapter.py --odds" \\
        --expectations adapters/camel-up-solver/expectations-odds.toml

What the solver has no data for is written as what it holds, never made up: no finish cards
(each hand and both piles empty) and no turns (``to_move`` and ``start_player`` are -1, no
seat). The protocol wants every state complete (the runner checks each against the state
schema), so the keys cannot be left out; a check on one fails, and the expectations file says
why.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from typing import Any

import camel_up
import camel_up.sim

RACING = ["blue", "green", "red", "yellow", "purple"]  # the suite's second-edition order
CRAZY = {"crazy-white": "white", "crazy-black": "black"}  # suite name -> solver name
NO_SEAT = -1  # whose turn it is and the start marker: the solver has no turns
SUITE_NAME = {**{c: c for c in RACING}, **{v: k for k, v in CRAZY.items()}}
SOLVER_NAME = {v: k for k, v in SUITE_NAME.items()}
SETUP_LETTER = {"white": "w", "black": "k"}  # do_setup reads crazy camels by letter only
SIDE = {"cheering": "oasis", "booing": "mirage"}  # the solver's words for the two sides

HELLO = {
    "protocol": 1,
    "implementation": {
        "name": "camel-up-solver",
        "version": version("camel-up-solver"),
        "language": "python",
    },
    # A second-edition board with its two crazy camels; no module, no variant. Any number of
    # seats (one copy of the solver each), but no partnership cards: the runner sends no case
    # that forms or shows one.
    "supports": {"editions": ["second"], "modules": [], "variants": [], "partnerships": False},
    "capabilities": [],
}

# Served with --odds: the solver's leg enumeration, checked by the suite's odds cases.
SOLVER_HELLO = {**HELLO, "capabilities": ["odds", "partial_odds"]}


class Refused(Exception):
    """The solver refused the action; ``code`` is the suite's word for the solver's reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class CannotExpress(Exception):
    """The case needs something the solver's data model has no place for."""


class Table:
    """One solver ``Game`` per seat, and what the solver shows but does not store.

    The solver keeps which dice are out (``state.rolled``) but not their faces, and numbers no
    legs. ``revealed`` lists the rolls the solver was given since it last emptied ``rolled``;
    ``leg`` counts the times the solver itself ended a leg (``act_endleg``, which empties it).
    """

    def __init__(self, games: list[camel_up.Game], leg: int, revealed: list[Any]) -> None:
        self.games, self.leg, self.revealed = games, leg, revealed

    @property
    def board(self) -> camel_up.State:
        return self.games[0].state


# ------------------------------------------------------------------------ building the position


def new_table(ruleset: dict[str, Any], setup: dict[str, Any]) -> Table:
    """The solver's own ``/setup`` command, given each camel's space in stacking order."""
    space = {roll["die"]: roll["value"] for roll in setup["racing_rolls"]}
    tokens = [f"{camel}={space[camel]}" for camel in setup["stacking"]]
    first = setup["first_crazy"]
    second = next(c for c in CRAZY if c != first)
    for camel, roll in zip([first, second], setup["crazy_rolls"], strict=True):
        # setup.crazy-space: 1 puts it on 16, 2 on 15, 3 on 14; do_setup appends in order, so
        # the second crazy camel goes on top of the first when they share a space.
        tokens.append(f"{SETUP_LETTER[CRAZY[camel]]}={17 - roll['value']}")
    games = []
    for _ in range(ruleset["players"]):
        game = camel_up.Game()
        game.do_setup(tokens)
        games.append(game)
    return Table(games, 1, [])


def table_from_state(state: dict[str, Any]) -> Table:
    """One solver ``State`` per seat holding the given position."""
    if state["winner_pile"] or state["loser_pile"] or state["result"] is not None:
        raise CannotExpress("the solver has no finish cards and no end of race")
    track = {
        int(space): [SOLVER_NAME[camel] for camel in stack]
        for space, stack in state["track"].items()
        if stack
    }
    rolled = {die for die in [*RACING, "grey"] if die not in state["pyramid"]}
    stacks = {camel: list(reversed(values)) for camel, values in state["ticket_stacks"].items()}
    games = []
    for seat, player in enumerate(state["players"]):
        game = camel_up.Game()
        game.state = camel_up.State(
            track={space: list(stack) for space, stack in track.items()},
            rolled=set(rolled),
            tiles={
                tile["space"]: camel_up.TileSpec(
                    +1 if tile["side"] == "cheering" else -1, tile["owner"] == seat
                )
                for tile in state["tiles"]
            },
            leg_tickets={camel: list(values) for camel, values in stacks.items()},
            held_tickets=[
                camel_up.HeldTicket(t["camel"], t["value"]) for t in player["leg_tickets"]
            ],
            # The solver pays a pyramid ticket's coin when the die is rolled, so a ticket still
            # held for leg scoring is, in its model, a coin the player already has.
            coins=player["money"] + player["pyramid_tickets"],
        )
        game.setup_done = True
        games.append(game)
    return Table(games, state["leg"], list(state["revealed"]))


# ------------------------------------------------------------------------------ reading it back


def read_state(table: Table, ruleset: dict[str, Any]) -> dict[str, Any]:
    """The suite's state JSON for what the solver holds (what it does not keep: see NO_SEAT)."""
    board = table.board
    track: dict[str, list[str]] = {str(space): [] for space in range(1, 17)}
    for space, stack in board.track.items():
        if stack:
            track[str(space)] = [SUITE_NAME[camel] for camel in stack]
    tiles = []
    for space, tile in sorted(board.tiles.items()):
        # The tile is "mine" in its owner's copy only.
        owner = next(seat for seat, g in enumerate(table.games) if g.state.tiles[space].mine)
        side = "cheering" if tile.delta > 0 else "booing"
        tiles.append({"space": space, "owner": owner, "side": side})
    players = [
        {
            "money": game.state.coins,
            "leg_tickets": [{"camel": t.color, "value": t.value} for t in game.state.held_tickets],
            # act_roll pays the coin at once: a solver player never holds a pyramid ticket.
            "pyramid_tickets": 0,
            "finish_cards": [],  # the solver deals no finish cards
            "partner": None,  # the solver has no partnerships
        }
        for game in table.games
    ]
    return {
        "ruleset": ruleset,
        "track": track,
        "tiles": tiles,
        "pyramid": [die for die in [*RACING, "grey"] if die not in board.rolled],
        "revealed": list(table.revealed),
        "ticket_stacks": {c: list(reversed(v)) for c, v in board.leg_tickets.items()},
        "players": players,
        "winner_pile": [],
        "loser_pile": [],
        "to_move": NO_SEAT,
        "start_player": NO_SEAT,
        "leg": table.leg,
        "result": None,  # the solver never ends the race: act_roll has no finish line
    }


# -------------------------------------------------------------------------------- the actions


def play(table: Table, action: dict[str, Any]) -> None:
    """Tell every seat's copy of the solver about ``action``; raise Refused if the solver does."""
    seat, kind = action["player"], action["type"]
    if not 0 <= seat < len(table.games):
        raise CannotExpress(f"there is no seat {seat}")
    copies = [(game, number == seat) for number, game in enumerate(table.games)]
    for game, _ in copies:
        game.messages = []
    if kind == "take_leg_ticket":
        camel = action["camel"]
        if camel not in RACING:
            raise CannotExpress(f"the solver has no leg tickets for {camel}")
        before = list(table.board.leg_tickets[camel])
        for game, mine in copies:
            game.act_take(camel, mine)
        if table.board.leg_tickets[camel] == before:  # act_take logged "no ... tickets left"
            raise Refused("ticket-stack-empty", " ".join(table.games[seat].messages))
    elif kind == "place_tile":
        for game, mine in copies:
            game.act_tile(action["space"], SIDE[action["side"]], mine)
    elif kind == "take_pyramid_ticket":
        roll = action["roll"]
        camel = roll["die"] if roll["die"] != "grey" else CRAZY[roll["colour"]]
        for game, mine in copies:
            game.act_roll(camel, roll["value"], mine)
        if table.board.rolled:
            table.revealed.append(roll)
        else:  # act_roll ran act_endleg, which empties rolled: the solver's leg is over
            table.revealed = []
            table.leg += 1
    else:
        raise CannotExpress(f"the solver has no {kind} action")


# --------------------------------------------------------------------------------- the adapter


def check_expressible(case: dict[str, Any]) -> None:
    for step in case["steps"]:
        kind = step["action"]["type"]
        if kind == "move_tile":
            raise CannotExpress("the solver can place a tile but not move one")
        if kind in ("place_finish_card", "form_partnership"):
            raise CannotExpress(f"the solver has no {kind} action")
        if kind == "place_tile" and step["action"]["side"] not in SIDE:
            raise CannotExpress("the solver's tiles are oasis (+1) or mirage (-1)")
        roll = step["action"].get("roll")
        if roll is not None and roll["die"] == "grey" and roll.get("colour") not in CRAZY:
            raise CannotExpress("the solver moves a crazy camel named by colour only")


def odds_reply(case: dict[str, Any]) -> dict[str, Any]:
    try:
        return leg_odds(case)
    except CannotExpress as reason:
        return {"skipped": {"reason": str(reason)}}


def run(case: dict[str, Any]) -> dict[str, Any]:
    ruleset = case["ruleset"]
    try:
        check_expressible(case)
        given = case["given"]
        if "state" in given:
            table = table_from_state(given["state"])
        else:
            table = new_table(ruleset, given["setup"])
        reply: dict[str, Any] = {"initial_state": read_state(table, ruleset), "steps": []}
        for step in case["steps"]:
            try:
                play(table, step["action"])
            except Refused as refused:
                reply["steps"].append({"error": {"code": refused.code, "message": str(refused)}})
            else:
                reply["steps"].append({"state": read_state(table, ruleset)})
    except CannotExpress as reason:
        return {"skipped": {"reason": str(reason)}}
    return reply


# ------------------------------------------------------------------------------- the odds


def exact(probability: float, completions: int) -> str:
    """The solver's probability, a count divided by ``completions``, as that exact fraction."""
    return f"{round(probability * completions)}/{completions}"


def leg_odds(case: dict[str, Any]) -> dict[str, Any]:
    """The solver's answer to an odds case: its exact enumeration of the leg from each asked
    position (the given one; odds cases ask for no other). First, second and last place come
    from ``enumerate_leg``; the places between and the race-end chance it does not compute."""
    if "state" not in case["given"]:
        raise CannotExpress("the solver's odds start from a given position")
    if case["steps"] or case["want"].get("odds_after", [0]) != [0]:
        raise CannotExpress("the solver computes the odds of the given position only")
    board = table_from_state(case["given"]["state"]).board
    stats = camel_up.sim.enumerate_leg(board)
    total = stats.completions
    places: dict[str, list[str | None]] = {}
    for camel in RACING:
        row: list[str | None] = [None] * len(RACING)
        row[0] = exact(stats.p_first[camel], total)
        row[1] = exact(stats.p_second[camel], total)
        row[-1] = exact(stats.p_last[camel], total)
        places[camel] = row
    return {"odds": {"0": {"places": places, "sequences": total}}}


def main() -> None:
    solver = "--odds" in sys.argv[1:]
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("cmd") == "hello":
            reply: dict[str, Any] = SOLVER_HELLO if solver else HELLO
        elif message.get("cmd") == "run":
            try:
                answer = odds_reply(message["case"]) if solver else run(message["case"])
                reply = {"seq": message["seq"], **answer}
            except Exception as error:  # the solver (or this adapter) failed: report, keep serving
                reply = {
                    "seq": message["seq"],
                    "errored": {"message": f"{type(error).__name__}: {error}"},
                }
        else:
            return
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()

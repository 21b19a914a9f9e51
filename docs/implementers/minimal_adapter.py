"""A minimal conformance adapter: the first edition's leg tickets and camel moves, nothing more.

The smallest adapter that passes a real part of the suite, written from the guide
(``docs/implementers/README.md``) without the camelup package. It plays the plain first
edition: taking leg tickets and rolling dice that move camel units, with the turn order and
the refusals of those two actions. Whatever else a case needs (tiles, finish cards, the end of
a leg or of the race, another edition, a module or a variant) it answers ``skipped``, naming
what is missing, and the runner counts the case as skipped, not failed::

    camelup conformance run --adapter "python docs/implementers/minimal_adapter.py" \\
        --expectations docs/implementers/minimal-expectations.toml

``minimal_adapter.js`` is the same adapter for Node.js, line for line.
"""

from __future__ import annotations

import copy
import json
import sys
from typing import Any

CAMELS = ["blue", "green", "orange", "yellow", "white"]  # the first edition's racing camels
TICKETS = [2, 3, 5]  # each colour's leg tickets, bottom to top


class Refused(Exception):
    """The engine refuses an action: the suite's error code and the clause it breaks."""

    def __init__(self, code: str, clause: str) -> None:
        super().__init__(code)
        self.code, self.clause = code, clause


class NotImplementedHere(Exception):
    """The case needs a rule this adapter does not implement: the case is skipped."""


def new_game(ruleset: dict[str, Any], setup: dict[str, Any]) -> dict[str, Any]:
    track: dict[str, list[str]] = {str(space): [] for space in range(1, 17)}
    space_of = {roll["die"]: roll["value"] for roll in setup["racing_rolls"]}
    for camel in setup["stacking"]:  # bottom to top, each on the space its die showed
        track[str(space_of[camel])].append(camel)
    return {
        "ruleset": ruleset,
        "track": track,
        "tiles": [],
        "pyramid": list(CAMELS),
        "revealed": [],
        "ticket_stacks": {camel: list(TICKETS) for camel in CAMELS},
        "players": [
            {
                "money": 3,
                "leg_tickets": [],
                "pyramid_tickets": 0,
                "finish_cards": list(CAMELS),
                "partner": None,
            }
            for _ in range(ruleset["players"])
        ],
        "winner_pile": [],
        "loser_pile": [],
        "to_move": setup["start_player"],
        "start_player": setup["start_player"],
        "leg": 1,
        "result": None,
    }


def play(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """The position after ``action``; raises Refused for an illegal one."""
    if state["result"] is not None:
        raise Refused("game-over", "turn.game-over")
    if action["player"] != state["to_move"]:
        raise Refused("not-your-turn", "turn.order")
    state = copy.deepcopy(state)
    if action["type"] == "take_leg_ticket":
        stack = state["ticket_stacks"][action["camel"]]
        if not stack:
            raise Refused("ticket-stack-empty", "bet.leg.empty-stack")
        ticket = {"camel": action["camel"], "value": stack.pop()}
        state["players"][action["player"]]["leg_tickets"].append(ticket)
    elif action["type"] == "take_pyramid_ticket":
        roll_die(state, action)
    else:
        raise NotImplementedHere(f"the action {action['type']}")
    state["to_move"] = (action["player"] + 1) % len(state["players"])
    return state


def roll_die(state: dict[str, Any], action: dict[str, Any]) -> None:
    roll = action["roll"]
    if roll["die"] not in state["pyramid"]:
        raise Refused("die-not-in-pyramid", "move.die.stays-out")
    if roll["value"] not in (1, 2, 3) or roll.get("colour") is not None:
        raise Refused("die-face", "dice.racing-faces")
    if state["tiles"]:
        raise NotImplementedHere("tiles")
    state["pyramid"].remove(roll["die"])
    state["revealed"].append({"die": roll["die"], "value": roll["value"]})
    state["players"][action["player"]]["pyramid_tickets"] += 1
    # The camel of the die's colour moves with every camel above it, onto the top of the
    # stack it reaches.
    space = next(s for s, stack in state["track"].items() if roll["die"] in stack)
    stack = state["track"][space]
    unit = stack[stack.index(roll["die"]) :]
    del stack[stack.index(roll["die"]) :]
    target = int(space) + roll["value"]
    if target > 16:
        raise NotImplementedHere("the end of the race")
    state["track"][str(target)].extend(unit)
    if not state["pyramid"]:
        raise NotImplementedHere("the end of a leg")


def run(case: dict[str, Any]) -> dict[str, Any]:
    ruleset = case["ruleset"]
    if ruleset["edition"] != "first" or ruleset["modules"] or ruleset["variants"]:
        return {"skipped": {"reason": "only the plain first edition"}}
    if not 2 <= ruleset["players"] <= 8:
        refusal = {"code": "player-count", "clause": "ruleset.players.first"}
        return {"initial_error": refusal, "steps": []}
    given = case["given"]
    state = given["state"] if "state" in given else new_game(ruleset, given["setup"])
    reply: dict[str, Any] = {"initial_state": state, "steps": []}
    try:
        for step in case["steps"]:
            try:
                state = play(state, step["action"])
                reply["steps"].append({"state": state})
            except Refused as refused:  # the position stays as it was, and we say so
                error = {"code": refused.code, "clause": refused.clause}
                reply["steps"].append({"error": error, "state": state})
    except NotImplementedHere as missing:
        return {"skipped": {"reason": f"not implemented: {missing}"}}
    return reply


HELLO = {
    "protocol": 1,
    "implementation": {"name": "minimal-python", "version": "1.0.0", "language": "python"},
    "supports": {"editions": ["first"], "modules": [], "variants": []},
    "capabilities": ["error_clauses", "state_after_refusal"],
}


class MinimalAdapter:
    """The same engine as a class with one method per request, for pytest (conftest.py)."""

    def hello(self) -> dict[str, Any]:
        return HELLO

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        return run(case)


def main() -> None:
    for line in sys.stdin:  # one JSON message per line
        message = json.loads(line)
        if message["cmd"] == "hello":
            reply = HELLO
        elif message["cmd"] == "run":
            try:
                reply = {"seq": message["seq"], **run(message["case"])}
            except Exception as error:  # a bug of ours: say so and keep serving
                reply = {"seq": message["seq"], "errored": {"message": repr(error)}}
        else:  # "stop": no reply
            return
        print(json.dumps(reply), flush=True)  # one line, flushed: the runner is waiting


if __name__ == "__main__":
    main()

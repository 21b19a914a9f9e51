"""A complete conformance adapter around a deliberately naive toy Camel Up engine.

This file is an example for implementers (``docs/adapter-protocol.md``). It does not use the
camelup package: the toy engine below is written from scratch, second edition only, and it
gets a few rules wrong on purpose, the kind of mistakes a first implementation makes:

* a booing (backward) tile puts the unit on *top* of the stack behind it, not underneath;
* the grey die always moves the crazy camel of the colour shown, ignoring both exceptions
  (the only crazy camel carrying racing camels moves; the upper of two stacked crazy camels moves);
* money has no floor at zero: a player's losses are taken in full at leg and final scoring.

Run the suite against it and read the failures, which name the clauses the toy breaks::

    camelup conformance run --adapter "python docs/toy_adapter.py"

The adapter declares what it really supports: the second edition with no module and no variant,
three to eight players but no partnership cards (``"partnerships": false``), rejection clauses
(``error_clauses``) and its state after a rejection (``state_after_refusal``), but no events and
no legal-action lists, so the runner skips the cases it cannot judge and compares only states
and rejections.

With ``--odds`` it is a leg-odds *solver* instead (capability ``odds`` alone, so the runner sends
it only the odds checks): it enumerates every die sequence with the toy engine's moves above and
makes one more mistake of its own, a common one among published solvers:

* the leg goes on until all six dice are out, instead of ending after the fifth;

so its sequence counts and place odds differ from the suite's::

    camelup conformance run --adapter "python docs/toy_adapter.py --odds"

(it skips positions with more than three dice to come: a toy solver is slow.)
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from typing import Any

State = dict[str, Any]

RACING = ["blue", "green", "red", "yellow", "purple"]
CRAZY = ["crazy-white", "crazy-black"]
DICE = [*RACING, "grey"]
TICKETS = [2, 2, 3, 5]  # bottom to top
FINISH_PAYOUTS = [8, 5, 3, 2]


class Refused(Exception):
    """An illegal action or setup: a code and the spec clause it breaks (from the spec)."""

    def __init__(self, code: str, clause: str) -> None:
        super().__init__(code)
        self.code, self.clause = code, clause


# ------------------------------------------------------------------------------ the toy engine


def setup_problem(ruleset: dict[str, Any], setup: dict[str, Any]) -> Refused | None:
    """Why the rules refuse ``setup``, or None: one roll per racing camel, each racing camel
    stacked once, a seat to start, two grey-die rolls and the crazy camel they place first."""
    if sorted(roll["die"] for roll in setup["racing_rolls"]) != sorted(RACING):
        return Refused("bad-setup", "setup.racing-camels")
    if sorted(setup["stacking"]) != sorted(RACING):
        return Refused("bad-setup", "setup.stack-order")
    if not 0 <= setup["start_player"] < ruleset["players"]:
        return Refused("bad-setup", "setup.start-player")
    rolls = setup["crazy_rolls"]
    if len(rolls) != 2 or any(r["die"] != "grey" for r in rolls) or setup["first_crazy"] is None:
        return Refused("bad-setup", "setup.crazy-space")
    return None


def new_game(ruleset: dict[str, Any], setup: dict[str, Any]) -> State:
    track: dict[str, list[str]] = {str(space): [] for space in range(1, 17)}
    values = {roll["die"]: roll["value"] for roll in setup["racing_rolls"]}
    for camel in setup["stacking"]:
        track[str(values[camel])].append(camel)
    first = setup["first_crazy"]
    second = CRAZY[1] if first == CRAZY[0] else CRAZY[0]
    for camel, roll in zip([first, second], setup["crazy_rolls"], strict=True):
        track[str(17 - roll["value"])].append(camel)
    players = [
        {
            "money": 3,
            "leg_tickets": [],
            "pyramid_tickets": 0,
            "finish_cards": list(RACING),
            "partner": None,
        }
        for _ in range(ruleset["players"])
    ]
    return {
        "ruleset": ruleset,
        "track": track,
        "tiles": [],
        "pyramid": list(DICE),
        "revealed": [],
        "ticket_stacks": {camel: list(TICKETS) for camel in RACING},
        "players": players,
        "winner_pile": [],
        "loser_pile": [],
        "to_move": setup["start_player"],
        "start_player": setup["start_player"],
        "leg": 1,
        "result": None,
    }


def copy(state: State) -> State:
    copied: State = json.loads(json.dumps(state))
    return copied


def where(state: State, camel: str) -> tuple[int, int]:
    for space, stack in state["track"].items():
        if camel in stack:
            return int(space), stack.index(camel)
    raise KeyError(camel)


def stack(state: State, space: int) -> list[str]:
    found: list[str] = state["track"].setdefault(str(space), [])
    return found


def ranking(state: State) -> list[str]:
    spaces = sorted(state["track"], key=int, reverse=True)
    return [c for s in spaces for c in reversed(state["track"][s]) if c not in CRAZY]


def play(state: State, action: dict[str, Any]) -> State:
    """The state after ``action``; raises Refused for an illegal one."""
    if state["result"] is not None:
        raise Refused("game-over", "turn.game-over")
    if action["player"] != state["to_move"]:
        raise Refused("not-your-turn", "turn.order")
    state = copy(state)
    kind = action["type"]
    if kind == "take_leg_ticket":
        take_leg_ticket(state, action)
    elif kind in ("place_tile", "move_tile"):
        place_tile(state, action)
    elif kind == "take_pyramid_ticket":
        return take_pyramid_ticket(state, action)
    elif kind == "place_finish_card":
        player = state["players"][action["player"]]
        if action["camel"] not in player["finish_cards"]:
            raise Refused("card-not-in-hand", "bet.finish.one-per-colour")
        player["finish_cards"].remove(action["camel"])
        state[f"{action['pile']}_pile"].append(
            {"owner": action["player"], "camel": action["camel"]}
        )
    else:
        raise Refused("no-partnerships", "partner.six-plus")  # the toy has no partnership cards
    state["to_move"] = (action["player"] + 1) % len(state["players"])
    return state


def take_leg_ticket(state: State, action: dict[str, Any]) -> None:
    camel = action["camel"]
    if camel not in RACING:
        raise Refused("not-a-racing-camel", "bets.no-crazy")
    if not state["ticket_stacks"][camel]:
        raise Refused("ticket-stack-empty", "bet.leg.empty-stack")
    value = state["ticket_stacks"][camel].pop()
    state["players"][action["player"]]["leg_tickets"].append({"camel": camel, "value": value})


def place_tile(state: State, action: dict[str, Any]) -> None:
    player, space, side = action["player"], action["space"], action["side"]
    own = next((t for t in state["tiles"] if t["owner"] == player), None)
    if action["type"] == "place_tile" and own is not None:
        raise Refused("tile-already-placed", "tile.move.different-space")
    if action["type"] == "move_tile" and own is None:
        raise Refused("tile-not-placed", "tile.move.different-space")
    if side not in ("cheering", "booing"):
        raise Refused("tile-side", "tiles.spectator")
    if not 1 <= space <= 16:
        raise Refused("tile-off-track", "tile.place.empty-space")
    if space == 1:
        raise Refused("tile-space-one", "tile.place.not-space-one")
    if own is not None and own["space"] == space:
        raise Refused("tile-same-space", "tile.move.different-space")
    if stack(state, space):
        raise Refused("tile-on-camel", "tile.place.empty-space")
    for tile in state["tiles"]:
        if tile["space"] == space:
            raise Refused("tile-on-tile", "tile.place.empty-space")
        if abs(tile["space"] - space) == 1 and tile["owner"] != player:
            raise Refused("tile-adjacent", "tile.place.not-adjacent")
    tiles = [t for t in state["tiles"] if t["owner"] != player]
    tiles.append({"space": space, "owner": player, "side": side})
    state["tiles"] = sorted(tiles, key=lambda t: t["space"])


def take_pyramid_ticket(state: State, action: dict[str, Any]) -> State:
    roll = action["roll"]
    if roll["die"] not in state["pyramid"]:
        raise Refused("die-not-in-pyramid", "move.die.stays-out")
    if roll["value"] not in (1, 2, 3):
        raise Refused(
            "die-face", "dice.grey-faces" if roll["die"] == "grey" else "dice.racing-faces"
        )
    seat = action["player"]
    state["players"][seat]["pyramid_tickets"] += 1
    state["pyramid"].remove(roll["die"])
    state["revealed"].append(roll)
    # MISTAKE: the grey die always moves the camel of the colour shown (no exceptions).
    camel = roll.get("colour") if roll["die"] == "grey" else roll["die"]
    crossed = move(state, camel, roll["value"])
    state["to_move"] = (seat + 1) % len(state["players"])
    if crossed:
        end_race(state)
    elif len(state["revealed"]) == 5:
        end_leg(state, seat)
    return state


def move(state: State, camel: str, pips: int) -> bool:
    """Move ``camel`` and the camels above it; True when the unit crossed the finish line."""
    space, height = where(state, camel)
    unit = stack(state, space)[height:]
    del stack(state, space)[height:]
    direction = -1 if camel in CRAZY else 1
    target = space + direction * pips
    stack(state, target).extend(unit)
    if not 1 <= target <= 16:
        return True
    tile = next((t for t in state["tiles"] if t["space"] == target), None)
    if tile is None:
        return False
    state["players"][tile["owner"]]["money"] += 1
    del stack(state, target)[-len(unit) :]
    step = direction if tile["side"] == "cheering" else -direction
    # MISTAKE: a booing tile puts the unit on top of the stack behind, not underneath.
    stack(state, target + step).extend(unit)
    return not 1 <= target + step <= 16


def score_leg(state: State) -> None:
    first, second = ranking(state)[:2]
    for player in state["players"]:
        total = player["pyramid_tickets"]
        for ticket in player["leg_tickets"]:
            if ticket["camel"] == first:
                total += ticket["value"]
            elif ticket["camel"] == second:
                total += 1
            else:
                total -= 1
        player["money"] += total  # MISTAKE: no floor at zero


def end_leg(state: State, last_taker: int) -> None:
    score_leg(state)
    for player in state["players"]:
        player["leg_tickets"], player["pyramid_tickets"] = [], 0
    start = (last_taker + 1) % len(state["players"])
    state.update(
        tiles=[],
        pyramid=list(DICE),
        revealed=[],
        start_player=start,
        to_move=start,
        leg=state["leg"] + 1,
        ticket_stacks={camel: list(TICKETS) for camel in RACING},
    )


def end_race(state: State) -> None:
    score_leg(state)
    order = ranking(state)
    for pile, camel in (("winner_pile", order[0]), ("loser_pile", order[-1])):
        correct = 0
        for card in state[pile]:
            if card["camel"] == camel:
                amount = FINISH_PAYOUTS[correct] if correct < len(FINISH_PAYOUTS) else 1
                correct += 1
            else:
                amount = -1
            state["players"][card["owner"]]["money"] += amount  # MISTAKE: no floor at zero
    money = [p["money"] for p in state["players"]]
    state["result"] = {"winners": [seat for seat, m in enumerate(money) if m == max(money)]}


def canonical(state: State) -> State:
    """The state as the suite writes it: empty spaces beyond the finish line left out."""
    state = copy(state)
    state["track"] = {s: c for s, c in state["track"].items() if c or 1 <= int(s) <= 16}
    for player in state["players"]:
        player["finish_cards"] = [c for c in RACING if c in player["finish_cards"]]
    return state


# --------------------------------------------------------------------------------- the adapter


def run(case: dict[str, Any]) -> dict[str, Any]:
    ruleset = case["ruleset"]
    if ruleset["edition"] != "second" or ruleset["modules"] or ruleset["variants"]:
        return {"skipped": {"reason": "the toy plays the plain second edition only"}}
    given = case["given"]
    refused = None if "state" in given else setup_problem(ruleset, given["setup"])
    if refused is not None:
        return {"initial_error": {"code": refused.code, "clause": refused.clause}, "steps": []}
    state = copy(given["state"]) if "state" in given else new_game(ruleset, given["setup"])
    reply: dict[str, Any] = {"initial_state": canonical(state), "steps": []}
    for step in case["steps"]:
        try:
            state = play(state, step["action"])
        except Refused as refused:
            error = {"code": refused.code, "clause": refused.clause}
            reply["steps"].append({"error": error, "state": canonical(state)})  # as it was
        else:
            reply["steps"].append({"state": canonical(state)})
    return reply


def odds(state: State) -> dict[str, Any]:
    """The leg's odds by enumerating every die and face with the toy's own moves."""
    places = {camel: [Fraction(0)] * len(RACING) for camel in RACING}
    totals = {"race_end": Fraction(0), "sequences": 0}

    def walk(here: State, chance: Fraction) -> None:
        for die in here["pyramid"]:
            if die == "grey":
                faces = [(value, colour) for colour in CRAZY for value in (1, 2, 3)]
            else:
                faces = [(value, None) for value in (1, 2, 3)]
            for value, colour in faces:
                after = copy(here)
                after["pyramid"].remove(die)
                crossed = move(after, colour or die, value)  # the toy's grey-die mistake too
                p = chance / len(here["pyramid"]) / len(faces)
                # MISTAKE: the leg ends only when the pyramid is empty (six dice, not five).
                if crossed or not after["pyramid"]:
                    totals["sequences"] += 1
                    if crossed:
                        totals["race_end"] += p
                    for place, camel in enumerate(ranking(after)):
                        places[camel][place] += p
                else:
                    walk(after, p)

    walk(state, Fraction(1))

    def text(p: Fraction) -> str:
        return f"{p.numerator}/{p.denominator}"

    return {
        "places": {camel: [text(p) for p in row] for camel, row in places.items()},
        "race_end": text(totals["race_end"]),
        "sequences": totals["sequences"],
    }


def run_odds(case: dict[str, Any]) -> dict[str, Any]:
    ruleset = case["ruleset"]
    if ruleset["edition"] != "second" or ruleset["modules"] or ruleset["variants"]:
        return {"skipped": {"reason": "the toy solves the plain second edition only"}}
    state = case["given"]["state"]
    if len(state["pyramid"]) > 3:
        return {"skipped": {"reason": "more dice to come than the toy solver enumerates"}}
    return {"odds": {str(k): odds(copy(state)) for k in case["want"].get("odds_after", [])}}


HELLO = {
    "protocol": 1,
    "implementation": {"name": "toy-camels", "version": "0.0.1", "language": "python"},
    # 6 to 8 players, but no partnership cards: the cases that form or show one are not sent.
    "supports": {"editions": ["second"], "modules": [], "variants": [], "partnerships": False},
    "capabilities": ["error_clauses", "state_after_refusal"],
}


SOLVER_HELLO = {**HELLO, "capabilities": ["odds"]}


class ToyAdapter:
    """The toy as an in-process adapter class (``camelup.testing.Adapter``: one method per
    request of the protocol, the same JSON values), for the pytest plugin::

        pytest --camelup-adapter toy_adapter:ToyAdapter
    """

    def hello(self) -> dict[str, Any]:
        return HELLO

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        return run(case)

    def stop(self) -> None:
        pass


class ToySolver(ToyAdapter):
    """The toy leg-odds solver (``--odds``) as an in-process adapter class."""

    def hello(self) -> dict[str, Any]:
        return SOLVER_HELLO

    def run(self, case: dict[str, Any]) -> dict[str, Any]:
        return run_odds(case)


def main() -> None:
    adapter = ToySolver() if "--odds" in sys.argv[1:] else ToyAdapter()
    for line in sys.stdin:  # one JSON message per line
        message = json.loads(line)
        if message["cmd"] == "hello":
            reply = adapter.hello()
        elif message["cmd"] == "run":
            try:
                reply = {"seq": message["seq"], **adapter.run(message["case"])}
            except Exception as error:  # a bug of the toy: say so, keep serving
                reply = {
                    "seq": message["seq"],
                    "errored": {"message": f"{type(error).__name__}: {error}"},
                }
        else:  # "stop"
            return
        print(json.dumps(reply), flush=True)  # one line, flushed: the runner is waiting for it


if __name__ == "__main__":
    main()

"""Answers every case, always wrongly: one fixed position (a well-formed state, so that the
reply follows the protocol, of a 2-player first-edition game whose seats hold 99 coins each),
every step rejected, no legal action."""

from __future__ import annotations

from _common import Message, serve

from camelup import DieRoll, Edition, Ruleset, Setup, new_game
from camelup.harness.adapter import hello_reply
from camelup.io.codec import to_json
from camelup.model.camels import Die

RULESET = Ruleset(Edition.FIRST, 2)
WRONG = to_json(
    new_game(
        RULESET,
        Setup(
            tuple(DieRoll(Die(c.value), 3) for c in RULESET.racing_camels), RULESET.racing_camels
        ),
    )
)
WRONG["players"] = [{**player, "money": 99} for player in WRONG["players"]]


def answer(message: Message) -> Message:
    case = message["case"]
    return {
        "seq": message["seq"],
        "initial_state": WRONG,
        "steps": [{"error": {"code": "wrong", "clause": "wrong.clause"}} for _ in case["steps"]],
        "legal_actions": {str(k): [] for k in case["want"]["legal_actions_after"]},
    }


def hello() -> Message:
    """The reference's hello, less what this adapter does not answer: a state after a refusal
    and its own ranking."""
    reply = hello_reply()
    unanswered = ("state_after_refusal", "ranking")
    return {**reply, "capabilities": [c for c in reply["capabilities"] if c not in unanswered]}


serve(answer, hello)

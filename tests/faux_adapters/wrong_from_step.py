"""The reference, wrong from one step of one case on: ``python wrong_from_step.py MODE CASE-ID
STEP``. On that case, from step STEP on (1-based), every state is bent by MODE:

* ``overpay``: seat 0 has one coin too many (as if it had been paid twice at STEP);
* ``refuse``: the step is refused (``not-your-turn`` citing ``turn.order``, the position left
  as it was), and so is every later one (an adapter that refuses one step stays behind);
* ``unreadable``: seat 0 names seat 1 as its partner but seat 1 names none (a state no codec
  builds, though it follows the schema);
* ``twice``: blue stands on space 10 as well (a state the rules refuse, that can be drawn);

and the legal actions asked at step 1 are none (a check before the divergence that fails).
"""

from __future__ import annotations

import sys

from _common import Message, reference_answer, serve

MODE, CASE, STEP = sys.argv[1], sys.argv[2], int(sys.argv[3])


def bend(step: Message, before: Message) -> Message:
    if MODE == "refuse":  # the position stays as it was (capability state_after_refusal)
        return {"error": {"code": "not-your-turn", "clause": "turn.order"}, "state": before}
    if "state" not in step:
        return step
    state = step["state"]
    if MODE == "twice":
        return {**step, "state": {**state, "track": {**state["track"], "10": ["blue"]}}}
    players = [dict(p) for p in state["players"]]
    if MODE == "overpay":
        players[0]["money"] += 1
    else:
        players[0]["partner"] = 1
    return {**step, "state": {**state, "players": players}}


def answer(message: Message) -> Message:
    reply = reference_answer(message)
    if message["case"]["id"] != CASE or "steps" not in reply:
        return reply
    bent, before = [], reply["initial_state"]
    for number, step in enumerate(reply["steps"], start=1):
        bent.append(bend(step, before) if number >= STEP else step)
        before = bent[-1].get("state", before)
    reply["steps"] = bent
    if "1" in reply.get("legal_actions", {}):
        reply["legal_actions"]["1"] = []
    return reply


serve(answer)

"""Declares ``"partnerships": false`` (2nd edition, 6-8 players without partnership cards) and
errors on every ``form_partnership`` step; answers like the reference otherwise, but lists no
``form_partnership`` among its legal actions (it has none)."""

from __future__ import annotations

from _common import Message, reference_answer, serve

from camelup.harness.adapter import hello_reply


def hello() -> Message:
    reply = hello_reply()
    reply["supports"]["partnerships"] = False
    return reply


def answer(message: Message) -> Message:
    steps = message["case"]["steps"]
    if any(step["action"]["type"] == "form_partnership" for step in steps):
        return {"seq": message["seq"], "errored": {"message": "sent a partnership case"}}
    reply = reference_answer(message)
    for moment, actions in reply.get("legal_actions", {}).items():
        reply["legal_actions"][moment] = [a for a in actions if a["type"] != "form_partnership"]
    return reply


serve(answer, hello)

"""Declares ``"partnerships": false`` (2nd edition, 6-8 players without partnership cards) and
refuses every ``form_partnership``; answers like the reference otherwise."""

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
    return reference_answer(message)


serve(answer, hello)

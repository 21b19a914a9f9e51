"""Answers every case, always wrongly: an empty state, every step rejected, no legal action."""

from __future__ import annotations

from _common import Message, serve


def answer(message: Message) -> Message:
    case = message["case"]
    return {
        "seq": message["seq"],
        "initial_state": {"wrong": True},
        "steps": [{"error": {"code": "wrong", "clause": "wrong.clause"}} for _ in case["steps"]],
        "legal_actions": {str(k): [] for k in case["want"]["legal_actions_after"]},
    }


serve(answer)

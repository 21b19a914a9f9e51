"""Declares the capability ``ranking`` and gives its own ranking with the first two camels
swapped; answers like the reference otherwise (its track, and so the track's ranking, are
right)."""

from __future__ import annotations

from _common import Message, reference_answer, serve


def answer(message: Message) -> Message:
    reply = reference_answer(message)
    for order in reply.get("ranking", {}).values():
        order[0], order[1] = order[1], order[0]
    return reply


serve(answer)

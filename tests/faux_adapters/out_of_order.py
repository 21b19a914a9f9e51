"""Behaves like the reference, but holds back the named case's reply and writes it after the
reply to the next case."""

from __future__ import annotations

from _common import Message, reference_answer, serve, target, write

held: list[Message] = []


def answer(message: Message) -> Message | None:
    reply = reference_answer(message)
    if message["case"]["id"] == target():
        held.append(reply)
        return None
    write(reply)
    while held:
        write(held.pop())
    return None


serve(answer)

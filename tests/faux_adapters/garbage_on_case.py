"""Behaves like the reference, but prints a stray line instead of the named case's reply."""

from __future__ import annotations

from _common import Message, reference_answer, serve, target, write


def answer(message: Message) -> Message | None:
    if message["case"]["id"] == target():
        write("debug: now running the case <- not a protocol line")
        return None
    return reference_answer(message)


serve(answer)

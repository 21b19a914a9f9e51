"""Behaves like the reference, but never answers the case named on the command line."""

from __future__ import annotations

import time

from _common import Message, reference_answer, serve, target


def answer(message: Message) -> Message:
    if message["case"]["id"] == target():
        time.sleep(3600)
    return reference_answer(message)


serve(answer)

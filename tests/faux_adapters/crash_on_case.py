"""Behaves like the reference, but dies (status 3) on the case named on the command line."""

from __future__ import annotations

import os
import sys

from _common import Message, reference_answer, serve, target


def answer(message: Message) -> Message:
    if message["case"]["id"] == target():
        print("faux adapter: about to crash on purpose", file=sys.stderr, flush=True)
        os._exit(3)
    return reference_answer(message)


serve(answer)

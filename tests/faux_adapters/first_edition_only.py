"""Declares the first edition only, and no capability but error clauses (no events, no legal
actions); answers like the reference otherwise."""

from __future__ import annotations

from _common import Message, serve

from camelup.harness.adapter import hello_reply


def hello() -> Message:
    reply = hello_reply()
    reply["supports"] = {"editions": ["first"], "modules": [], "variants": []}
    reply["capabilities"] = ["error_clauses"]
    return reply


serve(hello=hello)

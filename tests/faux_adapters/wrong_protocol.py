"""Answers hello with protocol 2."""

from __future__ import annotations

from _common import Message, serve

from camelup.harness.adapter import hello_reply


def hello() -> Message:
    return {**hello_reply(), "protocol": 2}


serve(hello=hello)

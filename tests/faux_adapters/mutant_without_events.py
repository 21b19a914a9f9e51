"""``python mutant_without_events.py NAME``: the mutant NAME of the catalogue
(``camelup conformance mutants --list``) with no events and no legal actions: it declares
error clauses alone, as most engines do, so that a fuzzer must name the clause of a
disagreement from the reference's events, not from the adapter's."""

from __future__ import annotations

import sys

from _common import Message, reference_answer, serve

from camelup.harness.adapter import hello_reply
from camelup.harness.mutation import activate
from camelup.harness.mutation.catalogue import CATALOGUE

activate(CATALOGUE[sys.argv[1]])


def hello() -> Message:
    reply = hello_reply()
    reply["capabilities"] = ["error_clauses"]
    return reply


def answer(message: Message) -> Message:
    reply = reference_answer(message)
    for step in reply.get("steps", []):
        step.pop("events", None)
    reply.pop("legal_actions", None)
    return reply


serve(answer, hello)

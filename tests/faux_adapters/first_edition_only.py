"""Declares the first edition only, and no capability but error clauses (no events, no legal
actions); answers like the reference otherwise."""

from __future__ import annotations

from _common import Message, ReferenceAdapter, serve_class


class FirstEditionOnly(ReferenceAdapter):
    def hello(self) -> Message:
        reply = super().hello()
        reply["supports"] = {"editions": ["first"], "modules": [], "variants": []}
        reply["capabilities"] = ["error_clauses"]
        return reply


if __name__ == "__main__":
    serve_class(FirstEditionOnly())

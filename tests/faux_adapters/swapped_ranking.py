"""Declares the capability ``ranking`` and gives its own ranking with the first two camels
swapped; answers like the reference otherwise (its track, and so the track's ranking, are
right)."""

from __future__ import annotations

from _common import Message, ReferenceAdapter, serve_class


class SwappedRanking(ReferenceAdapter):
    def run(self, case: Message) -> Message:
        reply = super().run(case)
        for order in reply.get("ranking", {}).values():
            order[0], order[1] = order[1], order[0]
        return reply


if __name__ == "__main__":
    serve_class(SwappedRanking())

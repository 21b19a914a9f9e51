"""Leaves the ``tile_paid`` events out of every step (the states are the reference's, so only
the events show it); answers like the reference otherwise."""

from __future__ import annotations

from _common import Message, ReferenceAdapter, serve_class


class UnpaidTileEvents(ReferenceAdapter):
    def run(self, case: Message) -> Message:
        reply = super().run(case)
        for step in reply.get("steps", []):
            if "events" in step:
                step["events"] = [e for e in step["events"] if e["type"] != "tile_paid"]
        return reply


if __name__ == "__main__":
    serve_class(UnpaidTileEvents())

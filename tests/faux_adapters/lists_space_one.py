"""Lists a tile on space 1 among the legal actions (which ``tile.place.not-space-one``
forbids) whenever it lists legal actions; answers like the reference otherwise."""

from __future__ import annotations

from _common import Message, ReferenceAdapter, serve_class


class ListsSpaceOne(ReferenceAdapter):
    def run(self, case: Message) -> Message:
        reply = super().run(case)
        for actions in reply.get("legal_actions", {}).values():
            tiles = [a for a in actions if a["type"] == "place_tile"]
            if tiles:
                actions.append({**tiles[0], "space": 1, "side": "cheering"})
        return reply


if __name__ == "__main__":
    serve_class(ListsSpaceOne())

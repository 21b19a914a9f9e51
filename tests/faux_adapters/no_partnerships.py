"""Declares ``"partnerships": false`` (2nd edition, 6-8 players without partnership cards) and
errors on every ``form_partnership`` step; answers like the reference otherwise, but lists no
``form_partnership`` among its legal actions (it has none)."""

from __future__ import annotations

from _common import Message, ReferenceAdapter, serve_class


class NoPartnerships(ReferenceAdapter):
    def hello(self) -> Message:
        reply = super().hello()
        reply["supports"]["partnerships"] = False
        return reply

    def run(self, case: Message) -> Message:
        if any(step["action"]["type"] == "form_partnership" for step in case["steps"]):
            return {"errored": {"message": "sent a partnership case"}}
        reply = super().run(case)
        for moment, actions in reply.get("legal_actions", {}).items():  # it knows of none
            reply["legal_actions"][moment] = [a for a in actions if a["type"] != "form_partnership"]
        return reply


if __name__ == "__main__":
    serve_class(NoPartnerships())

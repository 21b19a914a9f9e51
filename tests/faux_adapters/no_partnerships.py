"""Declares ``"partnerships": false`` (2nd edition, 6-8 players without partnership cards) and
refuses every ``form_partnership``; answers like the reference otherwise."""

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
        return super().run(case)


if __name__ == "__main__":
    serve_class(NoPartnerships())

"""The loop the faux adapters share: the reference's answers, which each script bends.

A faux adapter is a deliberately broken implementation used to test the runner's handling of
misbehaving adapters (after Bowtie's "fauxmplementations"). Each script is run as
``python <script> [CASE-ID]`` and misbehaves in one way, on every case or on the named one.
Those that only answer wrongly are adapter classes (:class:`ReferenceAdapter` bent), served by
camelup.testing.serve's loop; those that break the protocol write their own lines.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from camelup.harness.adapter import hello_reply, run_case

Message = dict[str, Any]


def reference_answer(message: Message) -> Message:
    return {"seq": message["seq"], **run_case(message["case"])}


class ReferenceAdapter:
    """The reference's answers as an adapter class (``camelup.testing.Adapter``), which a faux
    adapter bends by overriding ``hello`` or ``run``; :func:`serve_class` serves it."""

    def hello(self) -> Message:
        return hello_reply()

    def run(self, case: Message) -> Message:
        return run_case(case)


def serve_class(adapter: ReferenceAdapter) -> None:
    """Serve ``adapter`` as camelup.testing.serve does for ``python -m camelup.testing.serve``."""
    from camelup.testing.serve import serve as serve_adapter

    serve_adapter(adapter, sys.stdin.buffer, sys.stdout)


def write(reply: Message | str) -> None:
    text = reply if isinstance(reply, str) else json.dumps(reply)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def serve(
    answer: Callable[[Message], Message | None] = reference_answer,
    hello: Callable[[], Message] = hello_reply,
) -> None:
    """Answer hello and run messages until stop; ``answer`` may write itself and return None."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "hello":
            write(hello())
        elif message["cmd"] == "run":
            reply = answer(message)
            if reply is not None:
                write(reply)
        elif message["cmd"] == "stop":
            return


def target() -> str:
    """The case ID given on the command line (the case to misbehave on)."""
    return sys.argv[1] if len(sys.argv) > 1 else ""

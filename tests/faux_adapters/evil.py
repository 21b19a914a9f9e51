"""The misbehaviours of real adapters that the runner must survive, one per MODE.

``python evil.py MODE LOG [CASE-ID]``: LOG is a file this adapter appends to, one line per
event (``pid N`` for itself and for each child it starts, ``served ID`` for each answered case),
so that a test can wait for progress and check afterwards that no process was left behind.

- ``reference``: answers like the reference.
- ``exit-leaving-child``: starts a child ``sleep`` that holds stdout, then exits before hello
  (what ``sh -c 'sleep 600 & exit 1'`` does).
- ``setsid-child``: starts a child ``sleep`` in a session of its own (out of reach of a kill
  of the adapter's group) that holds stdout, then answers like the reference.
- ``child-then-hang``: starts a child ``sleep`` that holds stdout (a wrapper script), then
  answers like the reference but never answers CASE-ID.
- ``slow``: starts a child ``sleep``, answers like the reference, each case 0.2 s late.
- ``stall``: starts a child ``sleep``, answers the first two cases like the reference, then
  never answers again: a run that is surely still going when a test interrupts it.
- ``flood``: answers like the reference, but on CASE-ID writes 1 MiB chunks without a newline,
  forever.
- ``deep``: answers like the reference, but on CASE-ID with ``/players/0/money`` of the initial
  state a list nested 300 deep: deeper than the runner compares, within what the reader
  reads (CASE-ID ``*``: on every case).
- ``bad-state``: answers like the reference, but on CASE-ID with ``{"track": 5}`` as the
  initial state (no state at all, where no check of the case looks).
- ``blank``: answers like the reference, but on CASE-ID writes blank lines, forever.
- ``extra-steps``: answers like the reference, but on CASE-ID with 1,000 more steps than the
  case has.
- ``seq-true``: answers like the reference, but with ``"seq": true`` on CASE-ID.
- ``close-stdout``: answers like the reference, but on CASE-ID closes its standard output and
  runs on, silent.
- ``control``: an implementation name and stderr full of terminal control sequences and NUL;
  CASE-ID is ``ERRORED,CRASH``: an ``errored`` reply whose message holds them on the first,
  a crash right after writing them to stderr on the second.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

from _common import Message, reference_answer, serve, target

from camelup.harness.adapter import hello_reply

MODE = sys.argv[1]
LOG = sys.argv[2]
CASE = sys.argv[3] if len(sys.argv) > 3 else ""
sys.argv[1:] = [CASE]  # what _common.target() reads
SERVED: list[str] = []
NASTY = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x00nul\rcr\x9bcsi"


def log(line: str) -> None:
    with open(LOG, "a", encoding="utf-8") as file:
        file.write(line + "\n")


def child(session: bool = False) -> None:
    """A child that inherits stdout and stderr and outlives this process unless killed;
    ``session``: in a session of its own, as ``setsid`` starts it."""
    sleeper = subprocess.Popen(["sleep", "600"], start_new_session=session)
    log(f"pid {sleeper.pid}")


def deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def answer(message: Message) -> Message | None:
    case_id = message["case"]["id"]
    if case_id == target() or target() == "*":
        if MODE == "child-then-hang":
            time.sleep(3600)
        if MODE == "flood":
            chunk = "x" * (1 << 20)
            while True:
                sys.stdout.write(chunk)
                sys.stdout.flush()
        if MODE == "close-stdout":
            os.close(sys.stdout.fileno())
            time.sleep(3600)
        if MODE == "blank":
            while True:
                sys.stdout.write("\n" * 4096)
                sys.stdout.flush()
        if MODE in ("extra-steps", "seq-true"):
            reply = reference_answer(message)
            if MODE == "seq-true":
                reply["seq"] = True
            else:
                reply["steps"] = [*reply.get("steps", []), *[{"state": {}}] * 1000]
            log(f"served {case_id}")
            return reply
        if MODE == "deep":
            reply = reference_answer(message)
            reply["initial_state"]["players"][0]["money"] = deep(300)
            log(f"served {case_id}")
            return reply
    if MODE == "bad-state" and case_id == target():
        reply = reference_answer(message)
        reply["initial_state"] = {"track": 5}
        log(f"served {case_id}")
        return reply
    if MODE == "control":
        errored, crash = target().split(",")
        if case_id == errored:
            log(f"served {case_id}")
            return {"seq": message["seq"], "errored": {"message": f"boom {NASTY}"}}
        if case_id == crash:
            print(f"stderr {NASTY}", file=sys.stderr, flush=True)
            os._exit(3)
    if MODE == "slow":
        time.sleep(0.2)
    if MODE == "stall" and len(SERVED) >= 2:
        time.sleep(3600)
    reply = reference_answer(message)
    log(f"served {case_id}")
    SERVED.append(case_id)
    return reply


def hello() -> Message:
    reply = hello_reply()
    if MODE == "control":
        reply["implementation"]["name"] = f"evil {NASTY}"
    return reply


log(f"pid {os.getpid()}")
if MODE == "exit-leaving-child":
    child()
    sys.exit(1)
if MODE in ("child-then-hang", "slow", "stall"):
    child()
if MODE == "setsid-child":
    child(session=True)
if MODE == "control":
    print(f"starting {NASTY}", file=sys.stderr, flush=True)
serve(answer, hello)

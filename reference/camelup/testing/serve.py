"""``python -m camelup.testing.serve mymodule:MyAdapter``: an in-process adapter class
(:class:`camelup.testing.adapter.Adapter`) served as an adapter program, JSON lines on
stdin/stdout, for ``camelup conformance run --adapter "python -m camelup.testing.serve ..."``.

The engine's replies go out as they come from :func:`camelup.testing.adapter.answer`, the
function the pytest plugin's client uses too, so a case gets the same reply either way. A reply
that is not JSON is answered ``errored``; a line that is not a JSON object is answered
``errored`` too: the session goes on, as the protocol asks of every adapter.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from camelup.harness.adapter import serve as serve_lines
from camelup.testing.adapter import Adapter, AdapterLoadError, answer, load_adapter, wire_json


def reply_to(adapter: Adapter, message: Any) -> dict[str, Any] | None:
    """The reply to one protocol message; None for ``stop`` (which has none)."""
    if not isinstance(message, dict) or message.get("cmd") not in ("hello", "run", "stop"):
        seq = message.get("seq") if isinstance(message, dict) else None
        return {"seq": seq, "errored": {"message": "not a hello, run or stop message"}}
    if message["cmd"] == "hello":
        hello: dict[str, Any] = wire_json(adapter.hello())
        return hello
    if message["cmd"] == "run":
        return {"seq": message.get("seq"), **answer(adapter, message.get("case", {}))}
    return None


def serve(adapter: Adapter, stdin: IO[bytes], stdout: IO[str]) -> int:
    """Answer messages until ``stop`` or the end of input; then the adapter's ``stop``. The
    loop is the bundled adapter's own (:func:`camelup.harness.adapter.serve`): a line that is
    not JSON, or a hello that raises, is answered ``errored`` and the session goes on."""
    try:
        return serve_lines(stdin, stdout, lambda message: reply_to(adapter, message), failure="")
    finally:
        stop = getattr(adapter, "stop", None)
        if callable(stop):
            stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m camelup.testing.serve",
        description="serve an in-process adapter class as a conformance adapter program",
    )
    parser.add_argument("adapter", metavar="MODULE:CLASS", help="e.g. my_engine.tests:MyAdapter")
    options = parser.parse_args(argv)
    if "" not in sys.path:  # the module is looked up from the working directory, as with -m
        sys.path.insert(0, "")
    try:
        adapter = load_adapter(options.adapter)()
    except AdapterLoadError as error:
        print(f"camelup.testing.serve: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # the class could not be made: one line, no traceback
        print(
            f"camelup.testing.serve: {options.adapter}: {type(error).__name__}: {error}",
            file=sys.stderr,
        )
        return 2
    stdout = open(sys.stdout.fileno(), "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    try:
        return serve(adapter, sys.stdin.buffer, stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The bundled reference adapter answers every line with one JSON line and never dies with a
traceback, whatever a runner (or a fuzzer) sends it."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from camelup.harness.adapter import serve

NASTY_LINES = [
    b'{"cmd": "hello", "protocol": ' + b"1" * 5000 + b"}",  # an integer too long to convert
    b"[" * 100_000 + b"]" * 100_000,  # nesting deeper than the recursion limit
    b'{"cmd": "hello"\xff}',  # not UTF-8
    b'{"cmd": "run", "seq": 1, "case": {"ruleset": {"edition": "first", "players": 2,'
    b' "modules": [], "variants": ["\\ud800"]}, "given": {}, "steps": []}}',  # a lone surrogate
    b'{"cmd": "run", "seq": 2, "case": 7}',  # a case that is not an object
    b'"just a string"',
]


def replies(lines: list[bytes]) -> list[dict[str, object]]:
    out = io.StringIO()
    assert serve(io.BytesIO(b"\n".join(lines) + b"\n"), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_each_nasty_line_gets_one_reply_and_the_session_goes_on() -> None:
    answers = replies([*NASTY_LINES, b'{"cmd": "hello", "protocol": 1}'])
    assert len(answers) == len(NASTY_LINES) + 1
    for answer in answers[:-1]:
        assert "errored" in answer or "initial_error" in answer, answer
    assert answers[-1]["protocol"] == 1


def test_the_subprocess_adapter_survives_them_without_a_traceback() -> None:
    stdin = b"\n".join([*NASTY_LINES, b'{"cmd": "stop"}']) + b"\n"
    done = subprocess.run(
        [sys.executable, "-m", "camelup.adapter"],
        input=stdin,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert b"Traceback" not in done.stderr
    assert len(done.stdout.decode("ascii").splitlines()) == len(NASTY_LINES)


@given(st.lists(st.binary(max_size=200).filter(lambda b: b"\n" not in b), max_size=5))
def test_random_bytes_never_escape_as_an_exception(lines: list[bytes]) -> None:
    answers = replies(lines)
    assert len(answers) == sum(1 for line in lines if line.strip())

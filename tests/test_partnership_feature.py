"""Six to eight players without partnerships: an adapter may declare ``"partnerships": false``
in its hello's ``supports``; the runner then sends it every case of its editions except those
that play or show a partnership (derived from the case, :mod:`camelup.harness.features`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from camelup.cli import main
from camelup.harness.adapter import hello_reply
from camelup.harness.features import needs_partnerships
from camelup.harness.protocol import parse_hello
from camelup.harness.suite import load_suite

FAUX = Path(__file__).parent / "faux_adapters"
NO_PARTNERSHIPS = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAUX / 'no_partnerships.py'))}"
# The 6-8 player cases of the 2nd edition that form or show no partnership (a new one belongs
# here only if it truly needs none: an engine without partnership cards must pass it).
WITHOUT_PARTNERSHIPS = {
    "ruleset.players.second/eight-players",
    "final.correct-pays/second-eight-players-no-partnership",
    "leg.score.net/six-players-no-partnership",
}


def _second_six_plus() -> list[Any]:
    return [c for c in load_suite().cases if c.edition == "second" and c.ruleset["players"] >= 6]


def test_the_derivation_splits_the_six_to_eight_player_cases() -> None:
    cases = _second_six_plus()
    free = {c.id for c in cases if not needs_partnerships(c.raw)}
    assert free == WITHOUT_PARTNERSHIPS
    # every case of the partnership chapter needs them, and so does a generated 6-8 game
    assert all(needs_partnerships(c.raw) for c in cases if c.area == "partnership")
    assert needs_partnerships(next(c for c in cases if c.id.startswith("generated.")).raw)


def test_each_sign_of_a_partnership_is_seen() -> None:
    ruleset = {"edition": "second", "players": 6, "modules": [], "variants": []}
    plain: dict[str, Any] = {"ruleset": ruleset, "given": {}, "steps": [], "expect": []}
    assert not needs_partnerships(plain)
    step = {"action": {"type": "form_partnership", "player": 0, "partner": 3}}
    assert needs_partnerships({**plain, "steps": [step]})
    player = {"money": 3, "leg_tickets": [], "pyramid_tickets": 0, "finish_cards": [], "partner": 2}
    assert needs_partnerships({**plain, "given": {"state": {"players": [player]}}})
    assert not needs_partnerships(
        {**plain, "given": {"state": {"players": [{**player, "partner": None}]}}}
    )
    assert needs_partnerships(
        {**plain, "expect": [{"after": 0, "state": {"/players/1/partner": 0}}]}
    )
    assert not needs_partnerships(
        {**plain, "expect": [{"after": 0, "state": {"/players/1/partner": None}}]}
    )
    legal = {"after": 0, "legal_actions": [step["action"]]}
    assert needs_partnerships({**plain, "expect": [legal]})
    event = {"type": "partnership_formed", "player": 0, "partner": 3}
    assert needs_partnerships({**plain, "expect": [{"after": 1, "events": [event]}]})
    score = {"player": 0, "tickets": 0, "pyramid": 0, "partner_bonus": 2, "total": 2, "paid": 2}
    scored = {"type": "leg_scored", "scores": [score]}
    assert needs_partnerships({**plain, "expect": [{"after": 1, "events": [scored]}]})
    no_bonus = {"type": "leg_scored", "scores": [{**score, "partner_bonus": 0}]}
    assert not needs_partnerships({**plain, "expect": [{"after": 1, "events": [no_bonus]}]})
    # the rule set decides first: no partnership cards with five players or in the 1st edition
    five = {**ruleset, "players": 5}
    assert not needs_partnerships({**plain, "ruleset": five, "steps": [step]})
    first = {**ruleset, "edition": "first"}
    assert not needs_partnerships({**plain, "ruleset": first, "steps": [step]})


def test_a_hello_without_the_key_supports_partnerships() -> None:
    reply = hello_reply()
    del reply["supports"]["partnerships"]
    assert parse_hello(reply).partnerships is True  # protocol 1 as first published
    reply["supports"]["partnerships"] = False
    hello = parse_hello(reply)
    assert hello.partnerships is False
    assert "no partnerships" in hello.summary()
    ruleset = {"edition": "second", "players": 6, "modules": [], "variants": []}
    assert hello.supports_case(ruleset, needs_partnerships=False)
    assert not hello.supports_case(ruleset, needs_partnerships=True)
    reply["supports"]["partnerships"] = "no"
    with pytest.raises(Exception, match="partnerships"):
        parse_hello(reply)


def test_the_runner_sends_the_cases_without_partnerships(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["conformance", "run", "--adapter", NO_PARTNERSHIPS, "--format", "jsonl"]
    ids = [c.id for c in _second_six_plus()]
    code = main([*argv, *(f"--id={i}" for i in ids)])
    out, _ = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()][1:-1]
    results = {line["id"]: line for line in lines}
    assert code == 0, out
    assert set(results) == set(ids)
    for case_id, line in results.items():
        if case_id in WITHOUT_PARTNERSHIPS:
            assert line["verdict"] == "passed", line
        else:  # never sent: the faux adapter errors on any partnership step it is sent
            assert line["verdict"] == "skipped", line
            assert "does not support partnerships" in json.dumps(line), line

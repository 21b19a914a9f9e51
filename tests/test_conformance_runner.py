"""The conformance runner: classification and exit codes against faux adapters, the report
formats, the expectations file, and the suite checks (``validate``, ``coverage``).

The tests run a small suite of their own (written to a temporary folder), so that they do not
depend on the bundled cases; the faux adapters in ``faux_adapters/`` are the reference with
one deliberate defect each.
"""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import junitparser
import pytest
from tap.parser import Parser as TapParser

from camelup import Edition, Ruleset, legal_actions, new_game
from camelup.harness import InProcessReference, SubprocessAdapter, load_suite, render, run_cases
from camelup.harness.compare import normalise, same
from camelup.harness.expectations import ExpectationsError, load_expectations
from camelup.io.codec import setup_from_json, to_json
from commands import run_cli
from helpers import SETUP_SECOND, wire_rolls

FAUX = Path(__file__).parent / "faux_adapters"
PYTHON = shlex.quote(sys.executable)

SETUP_FIRST = {
    "racing_rolls": wire_rolls("blue 1, green 1, orange 2, yellow 3, white 2"),
    "stacking": ["blue", "green", "orange", "yellow", "white"],
    "start_player": 0,
    "crazy_rolls": [],
    "first_crazy": None,
}  # track: 1 blue green, 2 orange white, 3 yellow
SECOND = {"edition": "second", "players": 3, "modules": [], "variants": []}
FIRST = {"edition": "first", "players": 2, "modules": [], "variants": []}

MOVE = "move.racing.clockwise/carries-unit-onto-stack"
TURN = "turn.order/only-player-to-move-acts"
LEGAL_SECOND = "turn.actions.second/legal-actions-at-start"
TICKET = "bet.leg.take-top/takes-top-ticket"
MOVE_FIRST = "move.racing.clockwise/first-edition-move"
LEGAL_FIRST = "turn.actions.first/legal-actions-at-start"
BOOING = "tile.land.backward/unit-goes-underneath"
CRAZY_CARRIER = "crazy.select.only-carrier/carrier-moves-whatever-the-colour"
FLOOR = "money.floor/leg-loss-stops-at-zero"
TOY_FAILS = {
    BOOING: "tile.land.backward",
    CRAZY_CARRIER: "crazy.select.only-carrier",
    FLOOR: "money.floor",
}
SECOND_IDS = [MOVE, TURN, LEGAL_SECOND, TICKET, BOOING, CRAZY_CARRIER, FLOOR]
FIRST_IDS = [MOVE_FIRST, LEGAL_FIRST]


def _legal(ruleset: dict[str, Any], setup: dict[str, Any]) -> list[Any]:
    edition = Edition(ruleset["edition"])
    state = new_game(Ruleset(edition, ruleset["players"]), setup_from_json(setup))
    return [to_json(a) for a in legal_actions(state)]


def _case(
    case_id: str,
    description: str,
    clauses: list[str],
    ruleset: dict[str, Any],
    given: dict[str, Any],
    steps: list[dict[str, Any]],
    expect: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "id": case_id,
        "description": description,
        "clauses": clauses,
        "source": {"kind": "clause", "ref": clauses[0]},
        "ruleset": ruleset,
        "given": given,
        "steps": [{"action": a} for a in steps],
        "expect": expect,
    }


def _pyramid(player: int, die: str, value: int = 1) -> dict[str, Any]:
    return {"type": "take_pyramid_ticket", "player": player, "roll": {"die": die, "value": value}}


def _ticket(player: int, camel: str) -> dict[str, Any]:
    return {"type": "take_leg_ticket", "player": player, "camel": camel}


def toy_cases(start: dict[str, Any]) -> list[dict[str, Any]]:
    """Three cases the toy adapter of docs/ gets wrong on purpose."""
    carrying = json.loads(json.dumps(start))
    carrying["track"]["1"] = ["yellow"]
    carrying["track"]["15"] = ["crazy-black", "blue"]
    grey = {
        "type": "take_pyramid_ticket",
        "player": 0,
        "roll": {"die": "grey", "value": 1, "colour": "crazy-white"},
    }
    tile = {"type": "place_tile", "player": 2, "space": 10, "side": "cheering"}
    leg = [
        _ticket(0, "red"),
        _ticket(1, "green"),
        _pyramid(2, "blue"),
        _ticket(0, "red"),
        _pyramid(1, "green"),
        _pyramid(2, "red"),
        _ticket(0, "red"),
        _pyramid(1, "yellow"),
        tile,
        _ticket(0, "red"),
        _pyramid(1, "purple"),
    ]
    return [
        _case(
            BOOING,
            "a unit sent back by a booing tile goes under the camels there",
            ["tile.land.backward", "tile.land.pay-owner"],
            SECOND,
            {"setup": SETUP_SECOND},
            [
                {"type": "place_tile", "player": 0, "space": 4, "side": "booing"},
                _pyramid(1, "green", 2),
            ],
            [
                {
                    "after": 2,
                    "state": {"/track/3": ["green", "purple", "red"], "/players/0/money": 4},
                }
            ],
        ),
        _case(
            CRAZY_CARRIER,
            "the only crazy camel carrying a racing camel moves, whatever the colour",
            ["crazy.select.only-carrier", "crazy.carry"],
            SECOND,
            {"state": carrying},
            [grey],
            [
                {
                    "after": 1,
                    "state": {"/track/14": ["crazy-black", "blue"], "/track/16": ["crazy-white"]},
                }
            ],
        ),
        _case(
            FLOOR,
            "a player's leg losses stop at zero money",
            ["money.floor", "leg.score.net", "leg.score.others"],
            SECOND,
            {"setup": SETUP_SECOND},
            leg,
            [{"after": 11, "state": {"/players/0/money": 0, "/leg": 2}}],
        ),
    ]


def suite_files() -> dict[str, dict[str, Any]]:
    """The test suite: seven second-edition cases and two first-edition ones."""
    start = to_json(new_game(Ruleset(Edition.SECOND, 3), setup_from_json(SETUP_SECOND)))
    second = [
        _case(
            MOVE,
            "a racing camel carries the camels above it onto another stack",
            ["move.racing.clockwise", "move.stack.carry", "move.unit.lands-on-top"],
            SECOND,
            {"setup": SETUP_SECOND},
            [{"type": "take_pyramid_ticket", "player": 0, "roll": {"die": "blue", "value": 2}}],
            [
                {"after": 1, "state": {"/track/1": [], "/track/3": ["red", "blue", "yellow"]}},
                {
                    "after": 1,
                    "match": "subsequence",
                    "events": [
                        {
                            "type": "unit_moved",
                            "unit": ["blue", "yellow"],
                            "from_space": 1,
                            "to_space": 3,
                            "placement": "top",
                            "clause": "move.racing.clockwise",
                        }
                    ],
                },
            ],
        ),
        _case(
            TURN,
            "a player who is not to move is refused, the next step goes on",
            ["turn.order"],
            SECOND,
            {"setup": SETUP_SECOND},
            [
                {"type": "take_leg_ticket", "player": 1, "camel": "blue"},
                {"type": "take_leg_ticket", "player": 0, "camel": "blue"},
            ],
            [
                {"after": 1, "error": {"code": "not-your-turn", "clause": "turn.order"}},
                {
                    "after": 2,
                    "state": {
                        "/players/0/leg_tickets": [{"camel": "blue", "value": 5}],
                        "/to_move": 1,
                    },
                },
            ],
        ),
        _case(
            LEGAL_SECOND,
            "every action of the second edition is open at the start",
            ["turn.actions.second"],
            SECOND,
            {"setup": SETUP_SECOND},
            [],
            [{"after": 0, "legal_actions": _legal(SECOND, SETUP_SECOND)}],
        ),
        _case(
            TICKET,
            "a leg ticket is taken from the top of its stack",
            ["bet.leg.take-top"],
            SECOND,
            {"state": start},
            [{"type": "take_leg_ticket", "player": 0, "camel": "red"}],
            [
                {
                    "after": 1,
                    "state": {
                        "/ticket_stacks/red": [2, 2, 3],
                        "/players/0/leg_tickets": [{"camel": "red", "value": 5}],
                    },
                },
                {
                    "after": 1,
                    "match": "sequence",
                    "events": [
                        {
                            "type": "leg_ticket_taken",
                            "player": 0,
                            "ticket": {"camel": "red", "value": 5},
                            "clause": "bet.leg.take-top",
                        }
                    ],
                },
            ],
        ),
        *toy_cases(start),
    ]
    first = [
        _case(
            MOVE_FIRST,
            "a first-edition camel moves onto the stack ahead",
            ["move.racing.clockwise", "move.unit.lands-on-top"],
            FIRST,
            {"setup": SETUP_FIRST},
            [{"type": "take_pyramid_ticket", "player": 0, "roll": {"die": "green", "value": 1}}],
            [
                {
                    "after": 1,
                    "state": {"/track/1": ["blue"], "/track/2": ["orange", "white", "green"]},
                }
            ],
        ),
        _case(
            LEGAL_FIRST,
            "every action of the first edition is open at the start",
            ["turn.actions.first"],
            FIRST,
            {"setup": SETUP_FIRST},
            [],
            [{"after": 0, "legal_actions": _legal(FIRST, SETUP_FIRST)}],
        ),
    ]
    return {
        "cases/second/movement.json": {"area": "second-edition", "cases": second},
        "cases/first/movement.json": {"area": "first-edition", "cases": first},
    }


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    for name, content in suite_files().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, indent=1))
    return root


def faux(script: str, *args: str) -> str:
    return " ".join([PYTHON, shlex.quote(str(FAUX / script)), *map(shlex.quote, args)])


def run_jsonl(capsys: pytest.CaptureFixture[str], suite: Path, *argv: str) -> tuple[int, str, str]:
    """``camelup conformance run --suite SUITE --format jsonl ARGV...``."""
    return run_cli(capsys, "conformance", "run", "--suite", str(suite), "--format", "jsonl", *argv)


def jsonl_results(out: str) -> dict[str, dict[str, Any]]:
    lines = [json.loads(line) for line in out.splitlines()]
    return {line["id"]: line for line in lines[1:-1]}


# ----------------------------------------------------------------------------- the reference


def test_reference_in_process_passes_everything(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "conformance", "run", "--suite", str(suite))
    assert code == 0
    assert out.splitlines()[-1] == "9 passed, 0 failed, 0 errored, 0 skipped"


def test_reference_adapter_subprocess_passes_everything(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = f"{PYTHON} -m camelup.adapter"
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--adapter", adapter
    )
    assert code == 0, out
    assert out.splitlines()[-1] == "9 passed, 0 failed, 0 errored, 0 skipped"


def test_reference_adapter_messages_follow_the_protocol_schema(suite: Path) -> None:
    from camelup.harness.adapter import handle
    from camelup.io.schemas import bundled

    validator = bundled().validator("protocol")
    hello = {"cmd": "hello", "protocol": 1}
    validator.validate(hello)
    validator.validate(handle(hello))
    for number, case in enumerate(load_suite(suite).cases, start=1):
        request = {"cmd": "run", "seq": number, "case": case.wire([0])}
        validator.validate(request)
        validator.validate(handle(request))
    validator.validate({"cmd": "stop"})


# ------------------------------------------------------------------------ faux adapters


def test_always_wrong_fails_every_case_naming_clause_and_step(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--adapter", faux("always_wrong.py")
    )
    assert code == 1
    assert out.splitlines()[-1] == "0 passed, 9 failed, 0 errored, 0 skipped"
    assert f"FAIL {TURN}  [turn.order]" in out
    # Its given position is another game's: the case fails once, there, and says so.
    assert "  given position: first divergence from the reference: /ruleset/edition," in out
    assert "  not compared: 2 later check(s), after divergence at the given position\n" in out
    assert "was refused for another reason" not in out


def test_crash_errors_that_case_restarts_and_goes_on(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_jsonl(
        capsys,
        suite,
        "--adapter",
        faux("crash_on_case.py", TURN),
    )
    assert code == 4
    results = jsonl_results(out)
    assert results[TURN]["verdict"] == "errored" and results[TURN]["note"] == "protocol"
    assert "exited (status 3)" in results[TURN]["reason"]
    assert "about to crash on purpose" in results[TURN]["stderr"]
    assert all(results[i]["verdict"] == "passed" for i in results if i != TURN)


def test_hang_times_out_and_goes_on(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_jsonl(
        capsys,
        suite,
        "--timeout",
        "0.5",
        "--adapter",
        faux("hang_on_case.py", MOVE),
    )
    assert code == 4
    results = jsonl_results(out)
    assert (
        results[MOVE]["verdict"] == "errored" and "no reply within 0.5 s" in results[MOVE]["reason"]
    )
    assert sum(r["verdict"] == "passed" for r in results.values()) == 8


@pytest.mark.parametrize(
    ("script", "case", "reason"),
    [
        ("garbage_on_case.py", TICKET, "not JSON"),
        ("out_of_order.py", TURN, "out of order"),
        ("malformed_reply.py", MOVE, "malformed reply: /steps: missing key 'steps'"),
    ],
)
def test_a_broken_reply_errors_the_case_that_was_due(
    suite: Path, capsys: pytest.CaptureFixture[str], script: str, case: str, reason: str
) -> None:
    code, out, _ = run_jsonl(
        capsys,
        suite,
        "--adapter",
        faux(script, case),
    )
    assert code == 4
    results = jsonl_results(out)
    assert results[case]["verdict"] == "errored" and reason in results[case]["reason"]
    assert sum(r["verdict"] == "passed" for r in results.values()) == 8


def test_wrong_protocol_version_is_refused(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--adapter", faux("wrong_protocol.py")
    )
    assert code == 5
    assert "speaks protocol 2" in err and len(err.splitlines()) == 1
    assert out.splitlines()[-1] == "0 passed, 0 failed, 0 errored, 0 skipped"


def test_adapter_that_cannot_start(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(
        capsys,
        "conformance",
        "run",
        "--suite",
        str(suite),
        "--adapter",
        "/nonexistent/adapter --flag",
    )
    assert code == 5
    assert "cannot start /nonexistent/adapter --flag" in err


def test_partial_support_skips_the_rest(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_jsonl(
        capsys,
        suite,
        "--adapter",
        faux("first_edition_only.py"),
    )
    assert code == 0
    results = jsonl_results(out)
    for case_id in SECOND_IDS:
        assert (
            results[case_id]["verdict"] == "skipped" and results[case_id]["note"] == "unsupported"
        )
    assert "edition second" in results[MOVE]["reason"]
    assert results[MOVE_FIRST]["verdict"] == "passed"
    assert results[LEGAL_FIRST]["verdict"] == "skipped"
    assert results[LEGAL_FIRST]["reason"] == "needs the capability legal_actions"


def test_no_rule_set_in_common(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(
        capsys,
        "conformance",
        "run",
        "--suite",
        str(suite),
        "--ruleset",
        "second",
        "--adapter",
        faux("first_edition_only.py"),
    )
    assert code == 5
    assert "shares no rule set" in err


def test_events_are_compared_only_when_declared(suite: Path) -> None:
    """An adapter without "events" passes a case whose events are wrong but state right."""
    cases = [c for c in load_suite(suite).cases if c.id == MOVE]
    client = InProcessReference()
    wrong = dict(client._hello.raw)
    wrong["capabilities"] = ["error_clauses"]
    from camelup.harness.protocol import parse_hello

    client._hello = parse_hello(wrong)
    assert run_cases(cases, client).results[0].verdict == "passed"


# -------------------------------------------------------------------------- filters and CLI


def test_filters_and_list(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "conformance", "list", "--suite", str(suite), "--clause", "move")
    assert code == 0
    assert out.splitlines()[-1] == "2 case(s)"
    code, out, _ = run_cli(
        capsys,
        "conformance",
        "run",
        "--suite",
        str(suite),
        "--ruleset",
        "first",
        "--id",
        MOVE_FIRST,
    )
    assert code == 0 and out.splitlines()[-1] == "1 passed, 0 failed, 0 errored, 0 skipped"
    code, _, err = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--clause", "nothing.here"
    )
    assert code == 2 and "no case matches" in err


def test_usage_errors(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "conformance", "run", "--format", "xml")[0] == 2
    code, _, err = run_cli(capsys, "conformance", "show", "no.such/case", "--suite", str(suite))
    assert code == 2 and err.strip() == "camelup conformance: no case 'no.such/case'"
    assert run_cli(capsys, "conformance", "run", "--suite", str(suite / "missing"))[0] == 2


def test_show_prints_clause_texts(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "conformance", "show", TURN, "--suite", str(suite))
    assert code == 0
    assert "turn.order  [first, second; must]" in out
    assert '"id": "turn.order/only-player-to-move-acts"' in out


def test_explain_names_the_first_diverging_step(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(
        capsys,
        "conformance",
        "explain",
        TURN,
        "--suite",
        str(suite),
        "--adapter",
        faux("always_wrong.py"),
    )
    assert code == 1
    assert "FAIL turn.order/only-player-to-move-acts: first divergence at the given position" in out
    assert "step 2  take_leg_ticket player=0 camel=blue: rejected: wrong [wrong.clause]" in out
    assert any(
        line.startswith("    -  error not-your-turn")
        and line.endswith("(not compared: after divergence at the given position)")
        for line in out.splitlines()
    )
    assert "the given position, the adapter's:" in out
    code, out, _ = run_cli(capsys, "conformance", "explain", TURN, "--suite", str(suite))
    assert code == 0 and out.splitlines()[-1] == f"PASS {TURN}"


# --------------------------------------------------------------------------------- reports


@pytest.fixture(scope="module")
def wrong_report(suite: Path) -> Any:
    return run_cases(load_suite(suite).cases, SubprocessAdapter(faux("always_wrong.py")))


def test_human_report(wrong_report: Any) -> None:
    text = render(wrong_report, "human")
    lines = text.splitlines()
    assert lines[-1] == "0 passed, 9 failed, 0 errored, 0 skipped"
    assert any(
        line.startswith("second-edition") and line.split()[1:] == ["0", "7", "0", "0"]
        for line in lines
    )
    assert f"FAIL {MOVE}  [move.racing.clockwise]" in text
    assert "after step 1 (take_pyramid_ticket player=0 roll=blue 2): /track/3 differs" in text


def test_jsonl_report(wrong_report: Any) -> None:
    lines = [json.loads(line) for line in render(wrong_report, "jsonl").splitlines()]
    assert lines[0]["report"] == 1 and lines[0]["implementation"]["name"] == "camelup"
    assert lines[-1]["counts"] == {"passed": 0, "failed": 9, "errored": 0, "skipped": 0}
    assert lines[-1]["exit_code"] == 1
    assert {line["id"] for line in lines[1:-1]} == set(SECOND_IDS + FIRST_IDS)


def test_junit_report(wrong_report: Any) -> None:
    xml = junitparser.JUnitXml.fromstring(render(wrong_report, "junit"))
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (9, 9, 0, 0)
    suites = {suite.name: suite for suite in xml}
    assert set(suites) == {"first-edition", "second-edition"}
    assert suites["second-edition"].tests == 7
    case = next(c for c in suites["second-edition"] if c.name == TURN)
    [failure] = case.result
    assert isinstance(failure, junitparser.Failure)
    assert "given position: first divergence from the reference" in (failure.message or "")
    assert "not compared: 2 later check(s)" in (failure.text or "")


def test_tap_report(wrong_report: Any) -> None:
    text = render(wrong_report, "tap")
    assert text.splitlines()[:2] == ["TAP version 14", "1..9"]
    lines = list(TapParser().parse_text(text))
    [plan] = [line for line in lines if line.category == "plan"]
    tests = [line for line in lines if line.category == "test"]
    assert plan.expected_tests == len(tests) == 9
    assert not any(test.ok for test in tests)
    turn = next(test for test in tests if test.description == f"- {TURN}")
    block = turn.yaml_block  # tap.py parses the diagnostics with PyYAML
    assert block["clause"] == "turn.order" and block["severity"] == "fail"
    assert block["mismatches"][0]["at_step"] == 0 and block["mismatches"][0]["divergence"]
    assert "/ruleset/edition" in block["mismatches"][0]["pointers"]
    assert (block["diverged_at"], block["not_compared"]) == (0, 2)
    assert not [line for line in lines if line.category == "bail"]


def test_markdown_report(wrong_report: Any) -> None:
    text = render(wrong_report, "markdown")
    assert "| **total** | **0** | **9** | **0** | **0** |" in text
    assert f"- **FAIL** `{TURN}` [`turn.order`]" in text


def test_output_file(suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.xml"
    code, out, err = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--format", "junit", "-o", str(target)
    )
    assert code == 0 and out == ""  # the status line goes to stderr: `-o /dev/stdout` stays clean
    assert err.startswith(f"report written to {target}")
    assert ET.parse(target).getroot().get("tests") == "9"


# ------------------------------------------------------------------------------ expectations


def test_expectations_toml(suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "expect.toml"
    path.write_text(
        f'[[xfail]]\nid = "{TURN}"\nreason = "turn order not enforced yet"\nissue = "https://x.invalid/1"\n'
        '[[xfail]]\nid = "move.racing.clockwise"\nreason = "movement is wrong"\n'
        '[[skip]]\nid = "turn.actions*"\nreason = "no legal action generator"\n'
        '[[skip]]\nid = "bet.leg"\nreason = "no betting"\n'
        '[[skip]]\nid = "crazy"\nreason = "no crazy camels"\n'
        '[[xfail]]\nid = "tile.land*"\nreason = "tiles are wrong"\n'
        '[[xfail]]\nid = "money.floor/leg-loss-stops-at-zero"\nreason = "no floor"\n'
    )
    code, out, err = run_jsonl(
        capsys,
        suite,
        "--expectations",
        str(path),
        "--adapter",
        faux("always_wrong.py"),
    )
    assert code == 0, err
    results = jsonl_results(out)
    assert (
        results[TURN]["note"] == "xfail"
        and "turn order not enforced yet" in results[TURN]["reason"]
    )
    assert results[MOVE_FIRST]["note"] == "xfail"
    assert results[LEGAL_FIRST]["note"] == "expected-skip"
    assert results[TICKET]["note"] == "expected-skip"
    assert results[CRAZY_CARRIER]["note"] == "expected-skip"
    assert results[BOOING]["note"] == results[FLOOR]["note"] == "xfail"
    assert all(r["verdict"] == "skipped" for r in results.values())


def test_expected_failure_that_passes_is_reported(
    suite: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "expect.json"
    path.write_text(json.dumps({"xfail": [{"id": TURN, "reason": "thought broken"}]}))
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--expectations", str(path)
    )
    assert code == 0
    assert f"XPASS {TURN}" in out and "remove it from" in out
    assert "1 expected failure(s) passed" in out
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--expectations", str(path), "--strict"
    )
    assert code == 1 and out.splitlines()[-1] == "8 passed, 1 failed, 0 errored, 0 skipped"


def test_bad_expectations_file(
    tmp_path: Path, suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[xfail]]\nid = "x"\n')
    with pytest.raises(ExpectationsError, match=r"bad.toml#/xfail/0/reason: missing key 'reason'"):
        load_expectations(path)
    code, _, err = run_cli(
        capsys, "conformance", "run", "--suite", str(suite), "--expectations", str(path)
    )
    assert code == 3 and err.count("\n") == 1


# ------------------------------------------------------------------------- the suite checks


def test_validate_accepts_the_test_suite(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "conformance", "validate", "--suite", str(suite))
    assert code == 0, err
    assert out.strip() == "conformance validate: 2 file(s), 9 case(s), 0 problem(s)"


def test_validate_reports_file_and_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = suite_files()
    cases = files["cases/second/movement.json"]["cases"]
    cases[0]["clauses"].append("no.such-clause")
    cases[1]["expect"][0]["error"]["code"] = "something-else"
    cases[2]["id"] = cases[3]["id"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(files["cases/second/movement.json"]))
    (tmp_path / "garbled.json").write_text('{"area": "x", "cases": [}')
    code, _, err = run_cli(
        capsys, "conformance", "validate", str(broken), str(tmp_path / "garbled.json")
    )
    assert code == 3
    lines = err.splitlines()
    assert any(
        line.startswith("broken.json#/cases/0/clauses/3: unknown clause no.such-clause")
        or line.endswith("/cases/0/clauses/3: unknown clause no.such-clause")
        for line in lines
    )
    assert any(
        "#/cases/3/id: duplicate case ID bet.leg.take-top/takes-top-ticket" in line
        for line in lines
    )
    assert any(
        "#/cases/1: the reference fails" in line and "refused for another reason" in line
        for line in lines
    )
    assert any("garbled.json: not JSON (line 1, column 25)" in line for line in lines)
    assert "Traceback" not in err


def test_run_reports_broken_files_and_runs_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = suite_files()
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "good.json").write_text(json.dumps(files["cases/first/movement.json"]))
    (tmp_path / "cases" / "bad.json").write_text('{"area": "x", "cases": [{"id": 3}]}')
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(tmp_path))
    assert code == 3
    assert "bad.json#/cases/0/id: expected a string, got 3" in err
    assert out.splitlines()[-1] == "2 passed, 0 failed, 0 errored, 0 skipped"


def test_coverage_fails_on_uncovered_must_clauses(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(
        capsys, "conformance", "coverage", "--suite", str(suite), "--format", "jsonl"
    )
    assert code == 1
    rows = {row["clause"]: row for row in map(json.loads, out.splitlines())}
    assert rows["turn.order"]["cases"] == [TURN] and rows["turn.order"]["sites"]
    assert rows["crazy.select.only-carrier"]["cases"] == [CRAZY_CARRIER]
    assert rows["whirlwind.bounce"]["gap"] and not rows["whirlwind.bounce"]["cases"]
    assert "must-clause whirlwind.bounce (Code: engine) is judged by no check" in err


# --------------------------------------------------------------------------------- comparing


def test_canonicalisation() -> None:
    order = ("blue", "green", "red", "yellow", "purple")
    left = normalise({"finish_cards": ["red", "blue"]}, ("players", "0"), order)
    right = normalise({"finish_cards": ["blue", "red"]}, ("players", "0"), order)
    assert same(left, right)
    assert same(normalise({"die": "blue", "value": 2, "colour": None}), {"die": "blue", "value": 2})
    assert same(normalise(3.0), 3) and not same(True, 1)
    assert same(normalise({"17": [], "1": []}, ("track",)), {"1": []})


def test_toy_adapter_fails_naming_its_clauses(
    suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy = Path(__file__).parent.parent / "docs" / "toy_adapter.py"
    code, out, _ = run_cli(
        capsys,
        "conformance",
        "run",
        "--suite",
        str(suite),
        "--adapter",
        f"{PYTHON} {shlex.quote(str(toy))}",
    )
    assert code == 1
    for case_id, clause in TOY_FAILS.items():
        assert f"FAIL {case_id}  [{clause}]" in out
    assert out.splitlines()[-1] == "3 passed, 3 failed, 0 errored, 3 skipped"

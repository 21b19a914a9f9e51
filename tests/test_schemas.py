"""The published schemas as the gate: their annotations, the one error they give, the two
validators behind it, and what they refuse at each door (case files, replies, adapters)."""

from __future__ import annotations

import copy
import importlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

from camelup.harness.compare import ProtocolViolation, reply_kind
from camelup.harness.protocol import AdapterStartError, parse_hello
from camelup.io.resources import schema_directory
from camelup.io.schemas import DEFAULT_CLAUSES, GAME_KINDS, Schemas, Violation, bundled
from camelup.spec.registry import load_registry
from commands import run_cli
from test_conformance_inputs import first_file, write_suite
from test_conformance_runner import MOVE_FIRST, PYTHON
from test_fuzz_inputs import mutated_documents, valid_documents

CLAUSES = load_registry().clause_ids


def _annotations(node: Any, where: str = "") -> list[tuple[str, Any]]:
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "x-clause":
                found.append((where, value))
            else:
                found.extend(_annotations(value, f"{where}/{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(_annotations(value, f"{where}/{index}"))
    return found


def test_every_annotation_and_default_names_a_clause_of_the_spec() -> None:
    annotated = {
        (name, where): clause
        for name, document in bundled().documents.items()
        for where, clause in _annotations(document)
    }
    assert len(annotated) > 40
    unknown = {key: clause for key, clause in annotated.items() if clause not in CLAUSES}
    assert not unknown
    assert set(DEFAULT_CLAUSES) == set(GAME_KINDS)
    assert set(DEFAULT_CLAUSES.values()) <= CLAUSES


def test_every_schema_is_valid_draft_2020_12() -> None:
    schemas = bundled()
    assert set(schemas.documents) >= {*GAME_KINDS, "case-file", "protocol", "expectations"}
    for name, document in schemas.documents.items():
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        type(schemas.validator(name)).check_schema(document)


# ------------------------------------------------------------------ one error, one line


def test_a_violation_is_one_line_with_pointer_and_clause() -> None:
    state: Any = json.loads(json.dumps(_reference_state()))
    state["players"][1]["money"] = "lots"
    violation = bundled().check("state", state)
    assert violation == Violation(
        "/players/1/money", 'expected an integer, got "lots"', "money.currency"
    )
    assert str(violation) == '/players/1/money: expected an integer, got "lots" [money.currency]'


def test_a_value_that_is_there_and_wrong_comes_before_a_missing_key() -> None:
    violation = bundled().check("state", {"track": 5})
    assert violation is not None and violation.pointer == "/track"
    violation = bundled().check("state", {})
    assert violation == Violation("/ruleset", "missing key 'ruleset'", "ruleset.editions")


def test_the_tooling_documents_have_no_default_clause_but_their_game_values_do() -> None:
    raw = first_file()["cases"][0]
    assert bundled().check("case-file#/$defs/case", {**raw, "id": 7}) == Violation(
        "/id", "expected a string, got 7", None
    )
    raw["steps"][0]["action"]["roll"]["die"] = "pink"
    violation = bundled().check("case-file#/$defs/case", raw)
    assert violation is not None and violation.clause == "move.pyramid.take-ticket"
    assert violation.pointer == "/steps/0/action/roll/die"


def _reference_state() -> Any:
    from camelup.harness.suite import load_suite

    case = next(c for c in load_suite().cases if "state" in c.given)
    return case.given["state"]


# --------------------------------------- the compiled validator and jsonschema agree


def _both(name: str, document: Any) -> tuple[bool, bool]:
    schemas = bundled()
    fast = schemas._fast.get(name) or schemas._fast_validator(name)
    return fast(document), schemas.validator(name).is_valid(document)


@settings(max_examples=60, deadline=None)
@given(mutated_documents())
def test_the_two_validators_agree_on_changed_documents(case: tuple[str, Any]) -> None:
    kind, document = case
    fast, slow = _both(kind, document)
    assert fast == slow, document


@settings(max_examples=20, deadline=None)
@given(valid_documents())
def test_the_two_validators_accept_what_the_engine_writes(case: tuple[str, Any]) -> None:
    kind, document = case
    assert _both(kind, document) == (True, True)


def test_the_two_validators_agree_on_the_suite_and_its_replies() -> None:
    from camelup.harness.adapter import run_case
    from camelup.harness.suite import load_suite

    for case in load_suite().cases[::7]:
        assert _both("case-file#/$defs/case", dict(case.raw)) == (True, True), case.id
        reply = run_case(case.wire())
        assert _both("protocol#/$defs/reply_body", reply) == (True, True), case.id
        broken = copy.deepcopy(reply)
        if "initial_state" in broken:
            broken["initial_state"]["players"][0]["money"] = "3"
            assert _both("protocol#/$defs/reply_body", broken) == (False, False), case.id


def test_without_the_compiled_validator_jsonschema_decides_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = importlib.import_module

    def no_rs(name: str, package: str | None = None) -> Any:
        if name == "jsonschema_rs":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_rs)
    schemas = Schemas(schema_directory())
    state = json.loads(json.dumps(_reference_state()))
    assert schemas.check("state", state) is None
    state["tiles"] = [{"space": 3, "owner": 0, "side": "sideways"}]
    assert schemas.check("state", state) == bundled().check("state", state)
    assert schemas._fast["state"] == schemas.validator("state").is_valid


# --------------------------------------------------------------------- the doors


def test_a_key_twice_in_a_case_file_is_an_invalid_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(first_file()).replace('"expect": ', '"expect": [], "expect": ', 1)
    root = write_suite(tmp_path, text)
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert code == 3
    assert "cases/bad.json#/cases/0/expect: not JSON this reader reads: duplicate key" in err
    assert out.splitlines()[-1] == "7 passed, 0 failed, 0 errored, 0 skipped"


def _with_a_given_state() -> dict[str, Any]:
    """A case file of one bundled case that starts from a given state."""
    from camelup.harness.suite import load_suite

    case = next(c for c in load_suite().cases if c.id == "bet.leg.take-top/top-is-five")
    return {"area": "given", "cases": [json.loads(json.dumps(dict(case.raw)))]}


def test_an_impossible_given_state_is_an_invalid_case_and_the_others_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _with_a_given_state()
    data["cases"][0]["given"]["state"]["to_move"] = 99
    root = write_suite(tmp_path, data)
    for verb in ("run", "validate"):
        code, out, err = run_cli(capsys, "conformance", verb, "--suite", str(root))
        assert code == 3, (verb, err)
        assert "cases/bad.json#/cases/0/given/state/to_move: " in err, err
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert out.splitlines()[-1] == "7 passed, 0 failed, 0 errored, 0 skipped"


def test_a_malformed_given_state_names_the_state_schema_clause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _with_a_given_state()
    data["cases"][0]["given"]["state"]["players"][0]["money"] = "3"
    root = write_suite(tmp_path, data)
    code, _, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert code == 3
    assert (
        'cases/bad.json#/cases/0/given/state/players/0/money: expected an integer, got "3"'
        " [money.currency]" in err
    )


BAD_STATE = """\
import json, sys
from camelup.harness.adapter import hello_reply, run_case
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "hello":
        print(json.dumps(hello_reply()), flush=True)
    elif message["cmd"] == "run":
        reply = {"seq": message["seq"], **run_case(message["case"])}
        reply["steps"][-1]["state"]["track"]["3"] = "blue"
        print(json.dumps(reply), flush=True)
    else:
        break
"""


def test_a_reply_state_of_the_wrong_shape_errors_that_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad_state.py"
    script.write_text(BAD_STATE)
    adapter = f"{PYTHON} {shlex.quote(str(script))}"
    root = write_suite(tmp_path / "suite")
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(root), "--id", MOVE_FIRST, "--adapter", adapter
    )
    assert code == 4
    assert "malformed reply: /steps/0/state/track/3: expected an array, got" in out
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 errored, 0 skipped"


def test_replies_and_hellos_follow_the_protocol_schema() -> None:
    with pytest.raises(ProtocolViolation, match=r"^/skipped/reason: missing key 'reason'$"):
        reply_kind({"skipped": {}})
    with pytest.raises(ProtocolViolation, match=r"^/initial_state: missing key 'initial_state'$"):
        reply_kind({"steps": []})
    assert reply_kind({"errored": {"message": "boom"}}) == "errored"
    from camelup.harness.adapter import hello_reply

    hello = hello_reply()
    assert parse_hello(hello).name == "camelup"
    del hello["capabilities"]
    with pytest.raises(AdapterStartError, match=r"^bad hello reply: /capabilities: missing key"):
        parse_hello(hello)


def test_the_reference_adapter_answers_a_malformed_message_with_the_pointer() -> None:
    from camelup.harness.adapter import handle

    reply = handle({"cmd": "run", "seq": 3, "case": {"id": "x"}})
    assert reply == {
        "seq": 3,
        "errored": {"message": "malformed message: /case/ruleset: missing key 'ruleset'"},
    }
    reply = handle({"cmd": "fly"})
    assert reply is not None and "/cmd: expected one of" in reply["errored"]["message"]


def test_python_finds_the_test_helpers() -> None:  # the imports above need tests/ on sys.path
    assert str(Path(__file__).parent) in sys.path


def test_the_state_schemas_sets_are_read_from_their_x_set_annotations() -> None:
    from camelup.io.wire import facts

    sets = dict(facts().sets)
    assert sets == {
        ("ruleset", "modules"): "value",
        ("ruleset", "variants"): "value",
        ("tiles",): "space",
        ("pyramid",): "camels",
        ("players", "*", "finish_cards"): "camels",
        ("result", "winners"): "value",
    }
    assert facts().set_order(("players", "3", "finish_cards")) == "camels"
    assert facts().set_order(("players", "3", "leg_tickets")) is None  # taken in order


def test_a_set_annotation_sorts_what_the_judge_compares() -> None:
    from camelup.harness.compare import normalise

    state = {
        "pyramid": ["grey", "yellow", "blue"],
        "revealed": [{"die": "yellow"}, {"die": "blue"}],
    }
    canonical = normalise(state, (), ("blue", "green", "red", "yellow", "purple"))
    assert canonical["pyramid"] == ["blue", "yellow", "grey"]
    assert canonical["revealed"] == [{"die": "yellow"}, {"die": "blue"}]  # an order: kept


def test_every_action_type_has_the_clause_of_its_definition() -> None:
    from camelup.io.wire import facts

    kinds = {
        branch["if"]["properties"]["type"]["const"]
        for branch in bundled().documents["action"]["allOf"]
    }
    assert facts().action_clauses.keys() == kinds
    assert facts().action_clause("place_tile") == "tile.place.empty-space"
    assert facts().action_clause("no_such_action") == "turn.one-action"
    assert all(clause in CLAUSES for clause in facts().action_clauses.values())


def test_a_value_of_the_wrong_form_is_told_its_form_and_what_the_form_is_for() -> None:
    document = first_file()
    document["cases"][0]["id"] = "bad/1"
    violation = bundled().check("case-file", document)
    assert violation is not None and violation.pointer == "/cases/0/id"
    form, purpose = violation.message.split(" (", 1)  # the schema's description, quoted after
    assert form.startswith('"bad/1" does not have the form ^')
    assert purpose == "Stable, unique, never reused: <primary clause>/<slug>)"


def test_a_reply_is_open_and_the_states_in_it_are_closed() -> None:
    """docs/adapter-protocol.md: an unknown key is ignored in a message, refused in a state."""
    from camelup.harness.adapter import handle
    from camelup.harness.compare import wire_for
    from camelup.harness.suite import load_suite

    case = load_suite().find("turn.order/not-your-turn")
    assert case is not None
    reply = handle({"cmd": "run", "seq": 1, "case": wire_for(case, frozenset())})
    assert reply is not None
    reply["x_note"] = reply["steps"][0]["x_note"] = "a newer adapter's"
    assert reply_kind(reply) == "result"
    reply["initial_state"]["x_note"] = "a misspelt field"
    with pytest.raises(ProtocolViolation, match=r"^/initial_state/x_note: unknown key"):
        reply_kind(reply)

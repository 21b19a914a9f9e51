"""Checks that name their own clause, the check kinds ranking / legal-action subsets /
unchanged, and what a failure carries into every report format.

The failing runs are real: the bundled reference with a mutant of the catalogue applied
(``tile-crazy-landing-unpaid``: a crazy-led unit pays the tile owner nothing), or a reply of the
reference bent in one place.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import junitparser
import pytest
from tap.parser import Parser as TapParser

from camelup.cli import main
from camelup.harness import render
from camelup.harness.adapter import hello_reply, run_case
from camelup.harness.case_text import case_lines, case_text
from camelup.harness.compare import (
    NO_VALUE,
    ProtocolViolation,
    applicable,
    compact,
    compare,
    pretty,
    ranking_of,
    value_diff,
    wire_for,
)
from camelup.harness.coverage_report import coverage_lines, coverage_summary
from camelup.harness.mutation import applied
from camelup.harness.mutation.catalogue import CATALOGUE
from camelup.harness.protocol import Hello, InProcessReference, Outcome, Reply, parse_hello
from camelup.harness.reports import mismatch_json
from camelup.harness.runner import RunReport, run_cases
from camelup.harness.suite import (
    Case,
    LegalActionsCheck,
    RankingCheck,
    StateCheck,
    UnchangedCheck,
    load_suite,
    parse_case,
)
from camelup.harness.validate import CoverageRow, coverage, registry_problems
from camelup.io import schemas
from camelup.io.codec import state_from_json
from camelup.rules.ranking import ranking
from camelup.spec.registry import load_registry

BOOING = "tile.land.crazy-reversed/booing-clockwise-underneath"  # the example
PAYMENT = "tile.land.pay-owner"
UNPAID = "tile-crazy-landing-unpaid"
REFUSED = "tile.place.not-adjacent/refused-changes-nothing"
LEGAL = "tile.place.not-adjacent/legal-tile-spaces"
RANKED = "rank.carried-backwards/two-riders-one-past-the-line"
EVERY = frozenset(hello_reply()["capabilities"])


@pytest.fixture(scope="module")
def suite_cases() -> dict[str, Case]:
    return {case.id: case for case in load_suite().cases}


def raw(cases: Mapping[str, Case], case_id: str) -> dict[str, Any]:
    return copy.deepcopy(dict(cases[case_id].raw))


def parsed(value: dict[str, Any]) -> Case:
    return parse_case(value, "test", "test.json")


def reply_of(case: Case, capabilities: frozenset[str] = EVERY) -> dict[str, Any]:
    return run_case(wire_for(case, capabilities))


# ------------------------------------------------------------------------------ the case format


def test_every_kind_parses_with_its_clause(suite_cases: dict[str, Case]) -> None:
    refused = suite_cases[REFUSED]
    assert [type(c) for c in refused.checks][1] is UnchangedCheck
    assert refused.clause_of(refused.checks[1]) == "tile.place.not-adjacent"
    legal = suite_cases[LEGAL]
    subsets = [c for c in legal.checks if isinstance(c, LegalActionsCheck)]
    assert subsets and not any(c.exact for c in subsets)
    assert [c.clause for c in subsets] == [
        "tile.place.not-adjacent",
        "tile.place.not-space-one",
        "tile.place.empty-space",
    ]
    ranked = [c for c in suite_cases[RANKED].checks if isinstance(c, RankingCheck)]
    assert ranked[0].ranking[-2:] == ("red", "green")
    booing = suite_cases[BOOING]
    money = next(c for c in booing.checks if isinstance(c, StateCheck) and c.clause)
    assert list(money.values) == ["/players/1/money"] and money.clause == PAYMENT
    plain = next(c for c in booing.checks if isinstance(c, StateCheck) and not c.clause)
    assert booing.clause_of(plain) == booing.primary_clause == "tile.land.crazy-reversed"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda c: c["expect"][1].update(clause="Not A Clause"), "/expect/1/clause"),
        (lambda c: c["expect"][1].update(unchanged=False), "/expect/1/unchanged"),
        (lambda c: c["expect"][0]["error"].update(code=""), "/expect/0/error/code"),
        (lambda c: c["expect"][0].update(clause="tile.place.not-adjacent"), "/expect/0"),
        (lambda c: c["expect"].pop(0), "/expect/0"),  # unchanged with no error check
        (lambda c: c["expect"].append({"after": 0, "unchanged": True}), "/expect/2/after"),
        (
            lambda c: c["expect"].append({"after": 0, "legal_actions": {"includes": []}}),
            "/expect/2/legal_actions",
        ),
        (
            lambda c: c["expect"].append({"after": 0, "legal_actions": {"among": []}}),
            "/expect/2/legal_actions",
        ),
        (
            lambda c: c["expect"].append(
                {"after": 0, "ranking": ["blue", "green", "red", "yellow"]}
            ),
            "/expect/2/ranking",
        ),
        (
            lambda c: c["expect"].append(
                {"after": 0, "ranking": ["blue", "green", "red", "yellow", "white"]}
            ),  # white is a first-edition camel: the schema allows it, the loader does not
            "/expect/2/ranking",
        ),
    ],
)
def test_malformed_checks_are_refused_where_they_are(
    suite_cases: dict[str, Case], change: Any, where: str
) -> None:
    case = raw(suite_cases, REFUSED)
    parsed(copy.deepcopy(case))  # the case as it is loads
    change(case)
    with pytest.raises(ValueError) as caught:
        parsed(case)
    assert str(caught.value).startswith(where + ":") or str(caught.value).startswith(where + "/")


def test_check_clauses_must_be_registered_and_fit_the_ruleset(
    suite_cases: dict[str, Case],
) -> None:
    registry = load_registry()
    case = raw(suite_cases, REFUSED)
    assert registry_problems(parsed(copy.deepcopy(case)), registry) == []
    case["expect"][1]["clause"] = "tile.place.nowhere"
    case["expect"][0]["error"]["clause"] = "whirlwind.no-tiles"  # a module the case lacks
    found = {p.pointer: p.message for p in registry_problems(parsed(case), registry)}
    assert found["/cases/0/expect/1/clause"] == "unknown clause tile.place.nowhere"
    assert "applies to whirlwind" in found["/cases/0/expect/0/error/clause"]


# ---------------------------------------------------------------------------------- judging


def test_a_failing_check_names_its_own_clause_else_the_cases(
    suite_cases: dict[str, Case],
) -> None:
    case = suite_cases[BOOING]
    reply = reply_of(case)
    assert compare(case, reply, EVERY) == []
    reply["steps"][0]["state"]["players"][1]["money"] = 3  # the coin not paid at once
    reply["steps"][0]["state"]["track"]["10"] = ["crazy-white"]  # and the camel left behind
    found = {m.pointer: m for m in compare(case, reply, EVERY)}
    assert found["/players/1/money"].clause == PAYMENT
    assert (found["/players/1/money"].expected, found["/players/1/money"].actual) == (4, 3)
    assert found["/track/10"].clause == case.primary_clause


def test_ranking_is_judged_on_the_track_and_on_the_adapters_own(
    suite_cases: dict[str, Case],
) -> None:
    case = suite_cases[RANKED]
    reply = reply_of(case)
    assert reply["ranking"] == {"1": list(case.checks[0].ranking)}  # type: ignore[union-attr]
    assert compare(case, reply, EVERY) == []
    own_wrong = copy.deepcopy(reply)
    own_wrong["ranking"]["1"][-2:] = ["green", "red"]  # riders ranked bottom first
    [wrong] = compare(case, own_wrong, EVERY)
    assert "own ranking" in wrong.summary and wrong.clause == "rank.carried-backwards"
    assert wrong.actual[-1] == "red" and wrong.expected[-1] == "green"
    assert compare(case, own_wrong, EVERY - {"ranking"}) == []  # not asked, not compared
    track_wrong = copy.deepcopy(reply)
    track_wrong["steps"][0]["state"]["track"]["0"] = ["crazy-white", "red", "green"]
    summaries = [m.summary for m in compare(case, track_wrong, EVERY - {"ranking"})]
    assert any("the reported track ranks wrong from place 4" in s for s in summaries)


def test_the_runner_ranks_a_track_as_the_rules_do(suite_cases: dict[str, Case]) -> None:
    recorded = [c for c in suite_cases.values() if c.id.startswith("generated.")]
    states = [
        step["state"] for case in recorded for step in reply_of(case)["steps"] if "state" in step
    ]
    assert len(states) > 500
    for state in states:
        assert ranking_of(state) == [c.value for c in ranking(state_from_json(state).track)]


def test_a_mutant_in_process_never_judges_the_ranking() -> None:
    # Under `camelup conformance mutants` the engine here is the mutant; the judge's ranking
    # must stay the real rule's, or a wrong ranking rule would grade itself right.
    state = {"track": {"4": ["blue", "green"], "2": ["crazy-white", "red"], "1": ["yellow"]}}
    real = ["green", "blue", "red", "yellow"]
    assert ranking_of(state) == real
    from camelup.model.camels import Camel
    from camelup.model.track import SLOTS, slot
    from camelup.rules import ranking as ranking_rules

    track: list[tuple[Camel, ...]] = [()] * SLOTS
    for space, stack in state["track"].items():
        track[slot(int(space))] = tuple(map(Camel, stack))
    with applied(CATALOGUE["rank-lower-camel-ahead"]):
        engine = [c.value for c in ranking_rules.ranking(tuple(track))]
        assert engine == ["blue", "green", "red", "yellow"]  # the engine here is the mutant
        assert ranking_of(state) == real


def test_legal_action_subsets(suite_cases: dict[str, Case]) -> None:
    case = suite_cases[LEGAL]
    reply = reply_of(case)
    assert compare(case, reply, EVERY) == []
    legal = reply["legal_actions"]["0"]
    extra = copy.deepcopy(reply)
    extra["legal_actions"]["0"] = [
        *legal,
        {"type": "place_tile", "player": 0, "space": 12, "side": "booing"},
    ]
    [found] = compare(case, extra, EVERY)
    assert found.clause == "tile.place.not-adjacent"
    assert found.diff == ("+ place_tile player=0 space=12 side=booing",)
    missing = copy.deepcopy(reply)
    missing["legal_actions"]["0"] = [a for a in legal if a.get("space") != 2]
    [found] = compare(case, missing, EVERY)
    assert found.clause == "tile.place.empty-space" and found.diff[0].startswith("- place_tile")
    unrelated = copy.deepcopy(reply)  # a subset check says nothing of the actions it omits
    unrelated["legal_actions"]["0"] = [a for a in legal if a["type"] != "take_leg_ticket"]
    assert compare(case, unrelated, EVERY) == []


def test_a_refusal_must_leave_the_state_unchanged(suite_cases: dict[str, Case]) -> None:
    case = suite_cases[REFUSED]
    reply = reply_of(case)
    assert "state" in reply["steps"][0] and compare(case, reply, EVERY) == []
    half = copy.deepcopy(reply)  # the turn passed and a coin paid, then the action refused
    money = reply["initial_state"]["players"][0]["money"]
    half["steps"][0]["state"]["players"][0]["money"] = money + 1
    half["steps"][0]["state"]["to_move"] = 1
    [found] = compare(case, half, EVERY)
    assert found.clause == "tile.place.not-adjacent" and found.check == 1
    assert found.summary.endswith("at 2 pointer(s): /players/0/money, /to_move")
    assert found.expected == {"/players/0/money": money, "/to_move": 0}
    assert found.actual == {"/players/0/money": money + 1, "/to_move": 1}
    with pytest.raises(ProtocolViolation, match='/steps/0: missing key "state" after the refusal'):
        compare(case, {**reply, "steps": [{"error": reply["steps"][0]["error"]}]}, EVERY)


class _VersionOne:
    """The reference as an adapter written before ``state_after_refusal``: it does not declare
    it and reports no state after a refusal."""

    protocol_broken = False
    description = "a version-1 adapter"

    def __init__(self) -> None:
        hello = hello_reply()
        capabilities = [c for c in hello["capabilities"] if c != "state_after_refusal"]
        self.hello = parse_hello({**hello, "capabilities": capabilities})

    def start(self) -> Hello:
        return self.hello

    def run(self, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[int, Outcome]]:
        for index, case in enumerate(cases):
            body = run_case(case)
            body["steps"] = [{"error": s["error"]} if "error" in s else s for s in body["steps"]]
            yield index, Reply(body, 0.0)

    def close(self, gently: bool = True) -> None:
        return None


def test_an_adapter_without_the_capability_gets_unchanged_checks_left_out(
    suite_cases: dict[str, Case],
) -> None:
    case = suite_cases[REFUSED]
    client = _VersionOne()
    assert not applicable(case.checks[1], client.hello.capabilities)
    [result] = run_cases([case], client).results
    assert result.verdict == "passed" and result.mismatches == ()


@pytest.mark.needs_rule_source
def test_explain_names_each_checks_clause(capsys: pytest.CaptureFixture[str]) -> None:
    adapter = f"{shlex.quote(sys.executable)} -m camelup.adapter --mutant {UNPAID}"
    code = main(["conformance", "explain", BOOING, "--adapter", adapter])
    out = capsys.readouterr().out
    assert code == 1
    assert f"x  state /players/1/money  [{PAYMENT}]" in out
    assert "ok state /track/11  [tile.land.crazy-reversed]" in out
    assert f"/players/1/money differs  [{PAYMENT}]" in out


# ------------------------------------------------------------------------------------ reports


@pytest.fixture(scope="module")
def mutant_report(suite_cases: dict[str, Case]) -> RunReport:
    chosen = [suite_cases[i] for i in (BOOING, REFUSED, "tile.land.pay-owner/crazy-landing-pays")]
    with applied(CATALOGUE[UNPAID]):
        return run_cases(chosen, InProcessReference())


@pytest.mark.needs_rule_source
def test_the_mutant_fails_the_payment_check_of_a_direction_case(mutant_report: RunReport) -> None:
    booing = next(r for r in mutant_report.results if r.case.id == BOOING)
    assert booing.verdict == "failed"
    assert [(m.pointer, m.clause) for m in booing.mismatches] == [("/players/1/money", PAYMENT)]


@pytest.mark.needs_rule_source
def test_human_report_names_the_failing_checks_clause(mutant_report: RunReport) -> None:
    text = render(mutant_report, "human")
    assert f"FAIL {BOOING}  [{PAYMENT}]" in text
    assert f"/players/1/money differs  [{PAYMENT}]" in text


@pytest.mark.needs_rule_source
def test_junit_names_the_failing_checks_clause(mutant_report: RunReport) -> None:
    xml = junitparser.JUnitXml.fromstring(render(mutant_report, "junit"))
    cases = {case.name: case for suite in xml for case in suite}
    [failure] = cases[BOOING].result
    assert isinstance(failure, junitparser.Failure)
    assert failure.message.startswith(f"[{PAYMENT}] after step 1")


@pytest.mark.needs_rule_source
def test_tap_names_the_failing_checks_clause(mutant_report: RunReport) -> None:
    lines = list(TapParser().parse_text(render(mutant_report, "tap")))
    test = next(line for line in lines if line.category == "test" and BOOING in line.description)
    block = test.yaml_block
    assert block["clause"] == PAYMENT
    assert block["mismatches"][0]["clause"] == PAYMENT
    assert block["mismatches"][0]["pointer"] == "/players/1/money"
    assert block["mismatches"][0]["check"] == 1


@pytest.mark.needs_rule_source
def test_tap_diagnostics_survive_lines_that_look_like_their_end(
    mutant_report: RunReport,
) -> None:
    # A long diff is clipped, and an adapter's stderr may hold any line: a line beginning with
    # "..." or "---" must not end the YAML block early for a TAP consumer.
    failed = next(r for r in mutant_report.results if r.verdict == "failed")
    long = attrs.evolve(failed.mismatches[0], diff=tuple(f"line {n}" for n in range(60)))
    stderr = "starting\n...\n--- a separator\nlast words"
    result = attrs.evolve(failed, mismatches=(long,), stderr=stderr)
    report = attrs.evolve(mutant_report, results=(result,))
    [test] = [x for x in TapParser().parse_text(render(report, "tap")) if x.category == "test"]
    block = test.yaml_block
    assert block["stderr"] == stderr
    assert block["mismatches"][0]["diff"].splitlines()[-1].endswith("more lines)")
    assert block["mismatches"][0]["clause"] == long.clause


@pytest.mark.needs_rule_source
def test_markdown_names_the_failing_checks_clause(mutant_report: RunReport) -> None:
    text = render(mutant_report, "markdown")
    assert f"- **FAIL** `{BOOING}` [`{PAYMENT}`]" in text


@pytest.mark.needs_rule_source
def test_jsonl_records_follow_their_schema_and_carry_the_difference(
    mutant_report: RunReport,
) -> None:
    lines = [json.loads(line) for line in render(mutant_report, "jsonl").splitlines()]
    for line in lines:
        assert schemas.check("report-line", line) is None, line
    booing = next(line for line in lines if line.get("id") == BOOING)
    [record] = booing["mismatches"]
    assert record == {
        "check": 1,
        "step": 1,
        "after": 1,
        "pointer": "/players/1/money",
        "clause": PAYMENT,
        "summary": record["summary"],
        "diff": ["expected: 4", "actual:   3"],
        "expected": 4,
        "actual": 3,
    }
    del record["pointer"]
    assert schemas.check("report-line", booing) is not None


def test_a_side_without_a_value_is_left_out_of_the_record(suite_cases: dict[str, Case]) -> None:
    case = suite_cases[RANKED]
    reply = reply_of(case)
    track = reply["steps"][0]["state"]["track"]
    track["-1"] = track.pop("0")  # carried one space too far: no space 0 in the reply
    found = next(m for m in compare(case, reply, EVERY) if m.pointer == "/track/0")
    record = mismatch_json(found)
    assert found.actual is NO_VALUE and "actual" not in record
    assert record["expected"] == ["crazy-white", "green", "red"]
    assert found.diff == ('expected: ["crazy-white","green","red"]', "actual:   (missing)")


def test_the_toy_adapters_real_jsonl_report_follows_the_schema(tmp_path: Path) -> None:
    toy = Path(__file__).resolve().parents[1] / "docs" / "toy_adapter.py"
    out = tmp_path / "toy.jsonl"
    adapter = f"{shlex.quote(sys.executable)} {shlex.quote(str(toy))}"
    code = main(["conformance", "run", "--adapter", adapter, "--format", "jsonl", "-o", str(out)])
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert code == 1 and sum(len(line.get("mismatches", [])) for line in lines) > 10
    for line in lines:
        assert schemas.check("report-line", line) is None, line
    refusals = [line for line in lines if line.get("id", "").endswith("/refused-changes-nothing")]
    assert refusals and {line["verdict"] for line in refusals} <= {"passed", "skipped"}
    assert any(line["verdict"] == "passed" for line in refusals)  # the toy reports the state


# ---------------------------------------------------------------------------- readable diffs


def test_diffs_list_track_spaces_in_numeric_order() -> None:
    track = {str(space): [] for space in range(1, 17)} | {"3": ["blue"], "12": ["red"]}
    other = track | {"12": [], "13": ["red"]}
    assert compact({"10": 1, "9": 2, "-1": 3, "b": 4, "a": 5}) == (
        '{"-1":3,"9":2,"10":1,"a":5,"b":4}'
    )
    keys = re.findall(r'^[ +-] *"(-?\d+)":', "\n".join(value_diff(track, other)), re.M)
    spaces = [int(key) for key in keys]
    assert spaces == sorted(spaces) and spaces[0] < 12 < spaces[-1], keys
    whole = re.findall(r'^ *"(-?\d+)":', pretty(track), re.M)
    assert whole == [str(space) for space in range(1, 17)]


# ---------------------------------------------------------------------------------- coverage


def test_coverage_counts_checks_naming_a_clause_and_checks_falling_back(
    suite_cases: dict[str, Case],
) -> None:
    rows = {row.clause: row for row in coverage(list(suite_cases.values()))}
    payment = rows[PAYMENT]
    assert any(ref.startswith(BOOING + "#/expect/") for ref in payment.named)
    assert BOOING not in payment.cases  # named by a check, not listed by the case
    direction = rows["tile.land.crazy-reversed"]
    assert f"{BOOING}#/expect/0" in direction.by_default
    assert f"{BOOING}#/expect/1" not in direction.by_default
    assert not any(row.gap for row in rows.values())
    bare = attrs.evolve(rows["whirlwind.bounce"], named=(), by_default=())
    assert bare.gap and bare.cases  # listed by cases, judged by no check: a gap


def test_coverage_lines_flag_a_gap_in_each_format_and_the_summary_counts_it() -> None:
    site, check = "movement.py:1 f", "c1#/expect/0"
    judged = CoverageRow("move.a", "5.1", "must", "engine", ("first",), ("c1",), (site,), (check,))
    gap = CoverageRow("move.b", "5.2", "must", "engine", ("first",), ("c2",), ())
    rows = [judged, gap]
    human = coverage_lines(rows, "human")
    assert len(human) == 3 and human[2].endswith("-  <- no check") and "<-" not in human[1]
    markdown = coverage_lines(rows, "markdown")
    assert markdown[3].startswith("| 5.2 `move.b` **(no check)** | must | engine | 1 | 0 | 0 | - |")
    assert [json.loads(line)["gap"] for line in coverage_lines(rows, "jsonl")] == [False, True]
    assert coverage_lines([], "human") == [] and len(coverage_lines([], "markdown")) == 2
    assert coverage_summary(rows).endswith(
        "2/2 clauses have cases, 1 are judged by a check (1 by a check naming them),"
        " 1 must-clause(s) implemented by the engine by none"
    )


def test_a_case_as_text_quotes_its_clauses_and_ruling_then_itself_as_json() -> None:
    registry = load_registry()
    case = next(c for c in load_suite().cases if c.ruling and c.clauses)
    blocks = case_text(case, registry)
    assert blocks[0] == case.id and blocks[1] == f"  {case.description}"
    clause = registry.clause(case.clauses[0])
    heading = blocks.index(next(b for b in blocks if b.startswith(f"{clause.number} {clause.id}")))
    assert blocks[heading].endswith(f"spec/{clause.file}:{clause.line}")
    quoted = [line.removeprefix("    ") for line in blocks[heading + 1].splitlines()]
    assert quoted == clause.text.splitlines()
    assert any(b.startswith(f"ruling {case.ruling}: ") for b in blocks)
    assert blocks[-2] == "case:" and json.loads(blocks[-1]) == dict(case.raw)


def test_a_list_of_cases_is_one_aligned_line_or_one_json_object_each() -> None:
    cases = [c for c in load_suite().cases if c.id.startswith("turn.order/")][:3]
    assert len(cases) == 3
    human = case_lines(cases, "human")
    assert human[-1] == "3 case(s)"
    rows = list(zip(human[:-1], cases, strict=True))
    assert all(line.startswith(case.id) for line, case in rows)
    assert len({line.index(f"  {case.ruleset_label()}") for line, case in rows}) == 1
    listed = [json.loads(line) for line in case_lines(cases, "jsonl")]
    assert [entry["id"] for entry in listed] == [case.id for case in cases]
    assert listed[0]["file"] == cases[0].where and listed[0]["clauses"] == list(cases[0].clauses)

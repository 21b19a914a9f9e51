"""``camelup conformance generate``: the recorded games of ``conformance/generated/`` are what the
engine records (byte for byte, on every run), ``--check`` says so in CI, the reference passes
them, and ``validate`` accepts them (with their ``generated.<family>/<seed>`` IDs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from camelup.harness import InProcessReference, generate, load_suite, run_cases
from camelup.harness.families import FAMILIES
from camelup.harness.games import CONFIGS
from camelup.harness.generate import generated_files
from camelup.harness.suite import schema_folder, suite_directory
from camelup.harness.validate import registry_problems, validate_suite
from camelup.spec.registry import load_registry
from commands import run_cli

SUITE = suite_directory()
GENERATED = SUITE / "generated"


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    """The generated files, made once for the module (4 s of CPU each time)."""
    return generated_files()


@pytest.fixture
def generated_once(generated: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' generation is the module's: it is deterministic (the first test plays it
    twice), so a command that generates again only repeats the same work."""
    monkeypatch.setattr(generate, "generated_files", lambda: dict(generated))


def test_generation_is_deterministic_and_matches_the_committed_files(
    generated: dict[str, str],
) -> None:
    first, second = generated, generated_files()
    assert first == second
    assert sorted(first) == sorted(f"{c.name}.json" for c in (*CONFIGS, *FAMILIES))
    for name, text in first.items():
        assert (GENERATED / name).read_bytes() == text.encode("utf-8"), name


@pytest.mark.usefixtures("generated_once")
def test_check_passes_on_the_committed_files(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "conformance", "generate", "--check")
    assert code == 0, err
    assert "up to date" in out and err == ""


@pytest.fixture
def suite_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "suite"
    shutil.copytree(GENERATED, copy / "generated")
    return copy


@pytest.mark.usefixtures("generated_once")
def test_check_fails_with_one_line_per_differing_file(
    suite_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = suite_copy / "generated" / "second.json"
    edited = changed.read_text("utf-8").replace('"value": 1', '"value": 2', 1)
    changed.write_text(edited, "utf-8")
    (suite_copy / "generated" / "first.json").unlink()
    (suite_copy / "generated" / "stray.json").write_text('{"area": "x", "cases": []}\n')
    code, out, err = run_cli(
        capsys, "conformance", "generate", "--check", "--suite", str(suite_copy)
    )
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == "generated/first.json: missing (run: camelup conformance generate)"
    assert lines[1].startswith("generated/second.json: differs from the generated cases")
    assert "(first at line " in lines[1]
    assert lines[2] == "generated/stray.json: not a generated file (remove it)"
    assert len(lines) == 4 and "3 generated file(s) differ" in lines[3]
    assert changed.read_text("utf-8") == edited  # --check wrote nothing
    assert not (suite_copy / "generated" / "first.json").exists()


@pytest.mark.usefixtures("generated_once")
def test_generate_rewrites_the_folder(
    generated: dict[str, str], suite_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (suite_copy / "generated" / "first.json").write_text("{}")
    (suite_copy / "generated" / "stray.json").write_text("{}")
    code, out, _ = run_cli(capsys, "conformance", "generate", "--suite", str(suite_copy))
    assert code == 0
    # the family files' cases as generated once for the module (family_cases, not played again)
    families = sum(len(json.loads(generated[f"{f.name}.json"])["cases"]) for f in FAMILIES)
    files = len(CONFIGS) + len(FAMILIES)
    assert f"{files} file(s), {4 * len(CONFIGS) + families} case(s)" in out
    assert not (suite_copy / "generated" / "stray.json").exists()
    assert run_cli(capsys, "conformance", "generate", "--check", "--suite", str(suite_copy))[0] == 0


def test_generated_cases_are_whole_varied_games() -> None:
    games = [GENERATED / f"{config.name}.json" for config in CONFIGS]
    suite = load_suite(files=games)
    assert not suite.problems
    assert len(suite.cases) == 4 * len(CONFIGS)
    kinds: set[str] = set()
    for case in suite.cases:
        family, seed = case.id.removeprefix("generated.").split("/")
        assert case.source == {
            "kind": "generated",
            "ref": f"camelup conformance generate, seed {seed}",
        }
        assert case.file.endswith(f"{family}.json") and "setup" in case.given
        kinds.update(step["action"]["type"] for step in case.steps)
        last = [c for c in case.checks if c.after == len(case.steps)]
        assert {type(c).__name__ for c in last} == {"StateCheck", "EventsCheck"}
        assert case.checks[-1].events[-1]["type"] == "game_ended"  # type: ignore[union-attr]
    assert kinds == {
        "take_leg_ticket",
        "place_tile",
        "move_tile",
        "take_pyramid_ticket",
        "place_finish_card",
        "form_partnership",
    }
    assert sum(p.stat().st_size for p in games) < 1_500_000


def test_the_reference_passes_the_generated_cases_and_run_includes_them() -> None:
    # How fast the suite runs is measured by benchmarks/conformance_bench.py, not asserted here.
    suite = load_suite(files=sorted(GENERATED.glob("*.json")))
    whole = load_suite()
    report = run_cases(whole.cases, InProcessReference())  # the generated cases among them
    assert report.exit_code == 0
    verdicts = {r.case.id: r.verdict for r in report.results}
    assert {c.id: verdicts.get(c.id) for c in suite.cases} == dict.fromkeys(
        (c.id for c in suite.cases), "passed"
    )
    generated = {c.id for c in whole.cases if c.id.startswith("generated.")}
    assert generated == {c.id for c in suite.cases}  # run includes every generated case


def test_validate_accepts_the_generated_files() -> None:
    files = sorted(GENERATED.glob("*.json"))
    suite = load_suite(files=files)
    assert validate_suite(suite, files, schema_folder()) == []


def test_only_generated_cases_may_have_generated_ids() -> None:
    suite = load_suite(files=[GENERATED / "first.json"])
    case = suite.cases[0]
    registry = load_registry()
    assert registry_problems(case, registry) == []
    import attrs

    hand = attrs.evolve(case, source={"kind": "clause", "ref": case.primary_clause})
    [problem] = registry_problems(hand, registry)
    assert problem.pointer.endswith("/id") and 'source kind "generated"' in problem.message


def test_refused_rulesets_are_cases_of_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hand-written cases expecting a refused ruleset (error at 0) pass; such a case may not
    have steps or other checks, and an invalid ruleset is a problem anywhere else."""
    data = json.loads((SUITE / "cases" / "second" / "01-components.json").read_text("utf-8"))
    refused = [
        c for c in data["cases"] if c["expect"][0].get("after") == 0 and "error" in c["expect"][0]
    ]
    codes = {c["expect"][0]["error"]["code"] for c in refused}
    assert codes == {"player-count", "module-edition", "variant-ruleset"}
    case = refused[0]
    with_steps = json.loads(json.dumps(case)) | {"id": case["id"] + "-steps"}
    with_steps["steps"] = [{"action": {"type": "take_leg_ticket", "player": 0, "camel": "blue"}}]
    with_state = json.loads(json.dumps(case)) | {"id": case["id"] + "-state"}
    with_state["expect"] = [{"after": 0, "state": {"/leg": 1}}]
    path = tmp_path / "refused.json"
    path.write_text(json.dumps({"area": "x", "cases": [case, with_steps, with_state]}))
    code, _, err = run_cli(capsys, "conformance", "validate", str(path))
    assert code == 3
    assert (
        "#/cases/1/steps: a case whose given position is refused (error at 0) can have no steps"
        in err
    )
    assert "#/cases/2/ruleset/players: player-count" in err
    assert "#/cases/0" not in err

"""Mutation testing: the catalogue of wrong engines, ``camelup conformance mutants`` and
``python -m camelup.adapter --mutant NAME``."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

import camelup.harness.mutants as mutants
from camelup.cli.conformance.mutants import judge
from camelup.harness import InProcessReference, load_suite, run_cases
from camelup.model.state import State
from camelup.rules import crazy, final, leg, movement, ranking, tiles, turn, whirlwind
from camelup.spec.registry import load_registry
from commands import run_cli

PYTHON = shlex.quote(sys.executable)
FLOOR_CASE = "leg.score.net/floor-on-the-total-not-per-ticket"


def snapshot() -> dict[tuple[str, str], int]:
    """The identity of every attribute of every loaded camelup module, and of State's."""
    found = {
        (module.__name__, key): id(value)
        for module in mutants.camelup_modules()
        for key, value in vars(module).items()
    }
    found.update({("State", key): id(value) for key, value in vars(State).items()})
    return found


def test_the_catalogue_has_sixty_named_mutants_of_known_clauses() -> None:
    registry = load_registry()
    catalogue = mutants.mutants()
    assert len(catalogue) >= 60
    for mutant in catalogue:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", mutant.name), mutant.name
        assert mutant.clause in registry.clause_ids, mutant.name
        assert mutant.description
    chapters = {registry.clause(m.clause).file for m in catalogue}
    assert len(chapters) >= 12  # every chapter with rules in code has mutants


def test_no_mutant_is_active_by_default() -> None:
    # Importing the catalogue replaced nothing: every camelup function is still its own module's.
    for module in mutants.camelup_modules():
        if module is mutants:
            continue
        for value in vars(module).values():
            assert getattr(value, "__module__", "") != mutants.__name__, module.__name__


def test_every_patch_is_undone() -> None:
    before = snapshot()
    for mutant in mutants.mutants():
        with mutants.applied(mutant):
            assert snapshot() != before, f"{mutant.name} patches nothing"
        assert snapshot() == before, f"{mutant.name} leaks"


def test_the_re_implementations_with_no_knob_turned_are_the_reference() -> None:
    # The mutants turn one knob of these re-implementations; with none turned they must pass the
    # whole suite, so that a kill is the knob's doing and not a slip of the re-implementation.
    patcher = mutants.Patcher()
    try:
        patcher.replace(tiles, "tile_space_problem", mutants._tile_space_problem)
        patcher.replace(movement, "tile_step", mutants._tile_step)
        patcher.replace(movement, "move_camel_unit", mutants._move_camel_unit)
        patcher.replace(crazy, "choose_crazy_camel", mutants._choose_crazy_camel)
        patcher.replace(whirlwind, "whirlwind_destination", mutants._whirlwind_destination)
        patcher.replace(ranking, "ranking", mutants._ranking)
        patcher.replace(leg, "score_leg", mutants._score_leg)
        patcher.replace(final, "card_amounts", mutants._card_amounts)
        patcher.replace(final, "score_finish_piles", mutants._score_finish_piles)
        report = run_cases(load_suite().cases, InProcessReference())
    finally:
        patcher.restore()
    assert report.count("passed") == len(report.results) > 250


def test_a_patch_reaches_names_imported_elsewhere() -> None:
    import camelup.play.engine

    with mutants.applied(mutants.CATALOGUE["leg-no-floor"]):
        assert camelup.play.engine.score_leg is leg.score_leg
        assert camelup.play.engine.score_leg.__module__ == mutants.__name__
    assert camelup.play.engine.score_leg.__module__ == "camelup.rules.leg"


def test_the_floor_case_kills_the_per_ticket_floor() -> None:
    case = load_suite().find(FLOOR_CASE)
    assert case is not None
    assert run_cases([case], InProcessReference()).count("passed") == 1
    verdict = judge(mutants.CATALOGUE["leg-floor-per-ticket"], [case])
    assert verdict.killed and verdict.named_right
    assert verdict.failing == (FLOOR_CASE,)


def test_the_command_reports_a_kill_naming_the_clause(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys,
        "conformance",
        "mutants",
        "--mutant",
        "leg-floor-per-ticket",
        "--mutant",
        "tile-on-space-one",
    )
    assert code == 0
    assert re.search(
        r"^killed +leg-floor-per-ticket +leg\.score\.net +by \d+ case\(s\), right clause", out, re.M
    )
    assert re.search(r"^killed +tile-on-space-one ", out, re.M)
    assert "mutants: 2, killed 2 (100.0%), survived 0" in out


def harmless(p: mutants.Patcher) -> None:
    """Not a mutant at all: play passes to the left exactly as the rule says."""

    def next_seat(state: State, player: int) -> int:
        return (player + 1) % state.ruleset.players

    p.replace(turn, "next_seat", next_seat)


@pytest.mark.parametrize("first_kill", [False, True])
def test_a_survivor_fails_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, first_kill: bool
) -> None:
    survivor = mutants.Mutant("harmless-next-seat", "turn.order", "the rule itself", harmless)
    monkeypatch.setitem(mutants.CATALOGUE, survivor.name, survivor)
    argv = ["conformance", "mutants", "--mutant", survivor.name, "--mutant", "turn-passes-right"]
    code, out, _ = run_cli(capsys, *argv, *(["--first-kill"] if first_kill else []))
    assert code == 1
    assert re.search(r"^SURVIVED +harmless-next-seat +turn\.order +no case fails", out, re.M)
    assert re.search(r"^killed +turn-passes-right ", out, re.M)
    assert "mutants: 2, killed 1 (50.0%), survived 1" in out


def test_an_unknown_mutant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "conformance", "mutants", "--mutant", "no-such-mutant")
    assert code == 2
    assert "no such mutant: no-such-mutant" in err


def test_a_mutant_served_as_an_adapter_fails_the_case_that_kills_it() -> None:
    def run(*adapter: str) -> subprocess.CompletedProcess[str]:
        command = shlex.join([sys.executable, "-m", "camelup.adapter", *adapter])
        argv = ["conformance", "run", "--adapter", command, "--id", FLOOR_CASE, "--format", "jsonl"]
        probe = f"import sys; from camelup.cli import main; sys.exit(main({argv!r}))"
        return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)

    plain, mutant = run(), run("--mutant", "leg-floor-per-ticket")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert mutant.returncode == 1, mutant.stdout + mutant.stderr
    assert "camelup-mutant:leg-floor-per-ticket" in mutant.stdout
    assert '"failed"' in mutant.stdout


def test_the_adapter_refuses_an_unknown_mutant() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "camelup.adapter", "--mutant", "no-such-mutant"],
        capture_output=True,
        text=True,
        input="",
    )
    assert done.returncode == 2
    assert "no such mutant" in done.stderr

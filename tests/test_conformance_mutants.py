"""Mutation testing: the catalogue of wrong engines, ``camelup conformance mutants`` and
``python -m camelup.adapter --mutant NAME``."""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from types import FunctionType, ModuleType

import pytest

from camelup.harness import InProcessReference, load_suite, run_cases
from camelup.harness import mutation as mutants
from camelup.harness.mutation import Mutant, StaleMutant, Wrap, edit
from camelup.harness.mutation.catalogue import CATALOGUE
from camelup.harness.mutation.catalogue import mutants as catalogue
from camelup.harness.mutation.verdict import judge
from camelup.harness.suite import suite_directory
from camelup.model.state import State
from camelup.rules import crazy, final, leg, movement, ranking, tiles, turn, whirlwind
from camelup.spec.registry import load_registry
from commands import run_cli
from test_layers import imported

# Every test here drives the mutation catalogue, which edits and recompiles rule source.
pytestmark = pytest.mark.needs_rule_source


PYTHON = shlex.quote(sys.executable)
FLOOR_CASE = "leg.score.net/floor-on-the-total-not-per-ticket"


@pytest.fixture(scope="module")
def killers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite of the three case files whose cases kill the mutants the command tests name
    (turn-passes-right, tile-on-space-one, leg-floor-per-ticket): each command runs the
    unpatched reference on its suite and then each mutant; on the whole suite (766 cases) the
    same verdicts cost eight times the CPU."""
    suite = tmp_path_factory.mktemp("killers")
    for name in ("first/03-turn.json", "first/06-tiles.json", "second/10-leg.json"):
        target = suite / "cases" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(suite_directory() / "cases" / name, target)
    return suite


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
    rows = catalogue()
    assert len(rows) >= 122
    for mutant in rows:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", mutant.name), mutant.name
        assert mutant.clause in registry.clause_ids, mutant.name
        assert mutant.description
    chapters = {registry.clause(m.clause).file for m in rows}
    assert len(chapters) >= 12  # every chapter with rules in code has mutants


def test_no_mutant_is_active_by_default() -> None:
    # Loading the catalogue changed nothing: every rule is still the one its source file defines.
    assert not mutants.active()
    for module in (crazy, final, leg, movement, ranking, tiles, turn, whirlwind):
        for value in vars(module).values():
            if isinstance(value, FunctionType) and value.__module__ == module.__name__:
                assert value.__code__.co_filename == module.__file__, value
                assert vars(module)[value.__name__] is value, value


def test_every_patch_is_undone() -> None:
    before = snapshot()
    for mutant in catalogue():
        with mutants.applied(mutant):
            assert snapshot() != before, f"{mutant.name} patches nothing"
        assert snapshot() == before, f"{mutant.name} leaks"


def test_the_edited_rules_compiled_unchanged_are_the_reference() -> None:
    # Each rule the catalogue edits, compiled again from its own source with nothing changed,
    # must pass the suite, so that a kill is the edit's doing and not the recompiling's.
    edited = {
        change.function
        for mutant in catalogue()
        for change in mutant.changes
        if isinstance(change, mutants.Edit)
    }
    assert len(edited) >= 20
    header = [edit(f, f"def {f.__name__}(", f"def {f.__name__}(") for f in edited]
    unchanged = Mutant("no-change", "turn.order", "every edited rule, as it is", tuple(header))
    before = snapshot()
    with mutants.applied(unchanged):
        assert snapshot() != before  # the recompiled functions are in place
        report = run_cases(load_suite().cases, InProcessReference())
    assert report.count("passed") == len(report.results) > 250


def test_a_stale_row_fails_loudly_on_one_line_naming_it() -> None:
    stale = Mutant(
        "tile-on-space-zero",
        "tile.place.not-space-one",
        "an edit whose old text the rule does not have",
        (
            Wrap(turn, "next_seat", lambda real: real),  # built, but never put in place
            edit(tiles.tile_space_problem, "if space == 0:", "if False:"),
        ),
    )
    before = snapshot()
    with pytest.raises(StaleMutant) as caught, mutants.applied(stale):
        pass
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("mutant tile-on-space-zero: the edit 'if space == 0:' is found 0")
    assert "camelup.rules.tiles.tile_space_problem" in message
    assert snapshot() == before  # nothing of the row was applied


def test_an_edit_found_twice_is_stale_too() -> None:
    twice = Mutant(
        "twice", "leg.score.others", "ambiguous", (edit(leg.ticket_reward, "return", "x"),)
    )
    found_thrice = r"found 3 times in camelup\.rules\.leg\.ticket_reward"
    with pytest.raises(StaleMutant, match=found_thrice), mutants.applied(twice):
        pass


def test_the_command_names_a_stale_row_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = Mutant("stale-row", "turn.order", "gone", (edit(turn.next_seat, "(player + 2)", "0"),))
    monkeypatch.setitem(CATALOGUE, stale.name, stale)
    code, out, err = run_cli(capsys, "conformance", "mutants", "--mutant", stale.name)
    assert code == 70
    assert err.count("\n") == 1 and "mutant stale-row: the edit '(player + 2)'" in err
    assert "Traceback" not in err and "mutants:" not in out


def test_a_patch_reaches_names_imported_elsewhere() -> None:
    import camelup.play.engine

    real = leg.score_leg
    with mutants.applied(CATALOGUE["leg-no-floor"]):
        assert camelup.play.engine.score_leg is leg.score_leg is not real
    assert camelup.play.engine.score_leg is leg.score_leg is real


def test_the_floor_case_kills_the_per_ticket_floor() -> None:
    case = load_suite().find(FLOOR_CASE)
    assert case is not None
    assert run_cases([case], InProcessReference()).count("passed") == 1
    verdict = judge(CATALOGUE["leg-floor-per-ticket"], [case])
    assert verdict.killed and verdict.named_right
    assert verdict.failing == (FLOOR_CASE,)


def test_the_command_reports_a_kill_naming_the_clause(
    capsys: pytest.CaptureFixture[str], killers: Path
) -> None:
    code, out, _ = run_cli(
        capsys,
        "conformance",
        "mutants",
        "--suite",
        str(killers),
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


def _harmless(real: object) -> object:
    """Not a mistake at all: the real rule, unchanged."""
    return real


@pytest.mark.parametrize("first_kill", [False, True])
def test_a_survivor_fails_the_command(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    first_kill: bool,
    killers: Path,
) -> None:
    survivor = Mutant(
        "harmless-next-seat", "turn.order", "the rule itself", (Wrap(turn, "next_seat", _harmless),)
    )
    monkeypatch.setitem(CATALOGUE, survivor.name, survivor)
    argv = ["conformance", "mutants", "--suite", str(killers), "--mutant", survivor.name]
    argv += ["--mutant", "turn-passes-right"]
    code, out, _ = run_cli(capsys, *argv, *(["--first-kill"] if first_kill else []))
    assert code == 1
    assert re.search(r"^SURVIVED +harmless-next-seat +turn\.order +no case fails", out, re.M)
    assert re.search(r"^killed +turn-passes-right ", out, re.M)
    assert "mutants: 2, killed 1 (50.0%), survived 1" in out


def test_an_unknown_mutant_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "conformance", "mutants", "--mutant", "no-such-mutant")
    assert code == 2
    assert "no such mutant: no-such-mutant" in err


def test_a_mutant_served_as_an_adapter_fails_the_case_that_kills_it(killers: Path) -> None:
    def run(*adapter: str) -> subprocess.CompletedProcess[str]:
        command = shlex.join([sys.executable, "-m", "camelup.adapter", *adapter])
        argv = ["conformance", "run", "--suite", str(killers), "--adapter", command]
        argv += ["--id", FLOOR_CASE, "--format", "jsonl"]
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


def test_the_catalogue_imports_nothing_that_loads_it() -> None:
    # The adapter loads the catalogue for --mutant: the catalogue must not import the adapter
    # back (the cycle the old catalogue made, to have the adapter's names patched).
    folder = Path(mutants.__file__).parent
    imports = set()
    for path in folder.glob("*.py"):
        imports |= imported(ast.parse(path.read_text("utf-8")), "camelup.harness.mutation")
    assert "camelup.harness.adapter" not in imports
    assert not any(name.startswith("camelup.cli") for name in imports)


def test_a_module_loaded_under_a_patch_gets_the_real_rule_back() -> None:
    real = leg.score_leg
    late = ModuleType("camelup.loaded_under_a_patch")
    with mutants.applied(CATALOGUE["leg-no-floor"]):
        sys.modules[late.__name__] = late
        vars(late)["score_leg"] = leg.score_leg  # what `from camelup.rules.leg import ...` does
        assert vars(late)["score_leg"] is not real
    try:
        assert vars(late)["score_leg"] is real
    finally:
        del sys.modules[late.__name__]


def test_a_mutant_of_a_derived_member_fails_cases_rather_than_erroring() -> None:
    """The engine fills in derived members (``prime_derived``): a mutant that replaces one
    must take the filling, or every case errors and no failure names its clause."""
    suite = load_suite()
    cases = [
        suite.find("final.winners/tie-shared"),
        suite.find("ruleset.players.first/two-players"),
    ]
    assert all(case is not None for case in cases)
    with mutants.applied(CATALOGUE["final-tie-first-seat-wins"]):
        report = run_cases([c for c in cases if c is not None], InProcessReference())
    assert [r.verdict for r in report.results] == ["failed", "passed"]
    assert report.results[0].mismatches[0].clause == "final.winners"


def test_a_given_position_refused_alone_is_named_after_the_clause_the_refusal_cites() -> None:
    """A second-edition case with a tile on space 2, refused by a mutant that thinks it may
    not lie there: the rule at issue is the one the adapter applied, not the case's subject."""
    case = load_suite().find("tile.land.crazy-reversed/cheering-on-two-stops-on-one")
    assert case is not None
    with mutants.applied(CATALOGUE["tile-not-on-space-two"]):
        [result] = run_cases([case], InProcessReference()).results
    [mismatch] = result.mismatches
    assert mismatch.summary.startswith("the given position was refused: tile-space-one")
    assert mismatch.clause == "tile.place.not-space-one"

"""The movement families (``generated/movement-*.json``): every situation of the documented rule
is enumerated, one case per outcome class is kept, each case is a whole one-step comparison, and
a wrong engine the hand-written cases let through fails a family case naming the right clause."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from camelup.harness import InProcessReference, load_suite, run_cases
from camelup.harness.families import (
    FAMILIES,
    REACH_CLASSES,
    UNITS,
    Family,
    clause_matrix,
    family_cases,
    outcome_class,
    situation_class,
    situations,
)
from camelup.harness.suite import EventsCheck, StateCheck, suite_directory
from camelup.model.events import Event
from camelup.model.ruleset import Edition, Ruleset
from camelup.model.state import Tile
from camelup.model.track import MIN_SPACE, Stack
from camelup.play.engine import apply
from camelup.play.validation import state_problem
from camelup.rules import movement
from commands import run_cli

GENERATED = suite_directory() / "generated"
FAMILY_FILES = [GENERATED / f"{family.name}.json" for family in FAMILIES]


def family_named(name: str) -> Family:
    return next(f for f in FAMILIES if f.name == name)


def test_every_situation_is_a_legal_position_and_one_pyramid_action() -> None:
    counted = Counter()
    for family in FAMILIES:
        for situation in situations(family):
            assert state_problem(situation.state) is None, situation.slug()
            assert situation.action.roll.value == situation.face
            assert situation.state.stack(situation.start)[situation.unit.mover :]
            counted[family.name, situation.unit.name, situation.face] += 1
    second = family_named("movement-second")
    for unit in {u.name for u in UNITS[Edition.SECOND]}:
        for face in (1, 2, 3):
            assert counted[second.name, unit, face] > 0, (unit, face)


def test_the_kept_cases_have_distinct_outcome_classes_and_cover_every_class() -> None:
    family = family_named("movement-first")
    cases = family_cases(family)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    classes = set()
    for situation in situations(family):
        result = apply(situation.state, situation.action)
        classes.add(outcome_class(situation, result.events, result.state))
    assert len(classes) == len(cases)  # one case per class, none dropped, none twice


def test_one_outcome_class_differs_only_in_colours_and_plain_spaces() -> None:
    family = family_named("movement-first")
    found: dict[tuple[object, ...], list[str]] = {}
    for situation in situations(family):
        result = apply(situation.state, situation.action)
        key = outcome_class(situation, result.events, result.state)
        found.setdefault(key, []).append(situation.slug())
    # a lone camel moving over open track from 5 or 14 is the same as from 1: one case
    open_moves = [slugs for slugs in found.values() if "lone-from-1-parked-14-die-1" in slugs]
    assert open_moves and "lone-from-5-parked-16-die-1" in open_moves[0]
    # a backward tile pushing the top of a stack back onto the camels it left: not that class
    assert not any(
        "top-of-stack-1-of-2-from-5-mirage-own-ahead-1-parked-16-die-1" in slugs
        for slugs in open_moves
    )


def test_every_family_case_is_one_step_checking_the_whole_state_and_the_events() -> None:
    suite = load_suite(files=FAMILY_FILES)
    assert not suite.problems and len(suite.cases) > 200
    members = {"/track", "/tiles", "/pyramid", "/revealed", "/players", "/to_move", "/result"}
    for case in suite.cases:
        assert len(case.steps) == 1 and "state" in case.given
        assert case.source["kind"] == "generated"
        unit, reach = situation_class(case.source) or ("", "")
        assert unit in {u.name for units in UNITS.values() for u in units}
        assert reach in REACH_CLASSES
        [events] = [c for c in case.checks if isinstance(c, EventsCheck)]
        assert events.match == "sequence" and events.clause is None
        pointers = {p for c in case.checks if isinstance(c, StateCheck) for p in c.values}
        assert members <= pointers, case.id


def test_coverage_shows_each_movement_clause_by_situation_class(
    capsys: pytest.CaptureFixture[str],
) -> None:
    matrix = clause_matrix(load_suite(files=FAMILY_FILES).cases)
    assert matrix["tile.land.backward"][("lone", "backward-tile")] > 0
    assert matrix["tile.land.crazy-reversed"][("crazy-carrying-racing", "forward-tile")] > 0
    assert matrix["whirlwind.bounce"][("whole-stack", "whirlwind")] > 0
    assert {unit for unit, _ in matrix["crazy.select.only-carrier"]} == {"crazy-carrying-racing"}
    code, out, _ = run_cli(capsys, "conformance", "coverage", "--families")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("tile.land.backward "))
    assert row.split()[1:].count(".") < len(row.split()) - 1


def _booing_on_top_in_the_second_edition(
    track: list[Stack],
    ruleset: Ruleset,
    tile: Tile,
    unit: Stack,
    direction: int,
    events: list[Event] | None = None,
) -> movement.Moved:
    """The wrong rule of issue 18: in the 2nd edition a booing tile puts the unit on top."""
    moved = REAL_TILE_STEP(track, ruleset, tile, unit, direction, events)
    if ruleset.edition is Edition.SECOND and tile.side.step < 0 and not moved.crossed:
        index = tile.space + tile.side.step * direction - MIN_SPACE
        track[index] = track[index][len(unit) :] + unit
    return moved


REAL_TILE_STEP = movement.tile_step


@pytest.fixture
def booing_on_top(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(movement, "tile_step", _booing_on_top_in_the_second_edition)
    yield


@pytest.mark.usefixtures("booing_on_top")
def test_booing_on_top_in_the_second_edition_fails_family_cases_naming_the_tile_rule() -> None:
    suite = load_suite(files=FAMILY_FILES)
    report = run_cases(suite.cases, InProcessReference())
    failed = [r for r in report.results if r.mismatches]
    named = {m.clause for r in failed for m in r.mismatches}
    racing = [r for r in failed if r.case.id.startswith("generated.movement-second/")]
    assert any(
        m.clause == "tile.land.backward" and m.pointer == "/track"
        for r in racing
        for m in r.mismatches
    )
    assert "tile.land.backward" in named
    assert not any(r.case.id.startswith("generated.movement-first") for r in failed)

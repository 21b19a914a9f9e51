"""The live boards' engine side (``camelup.tools.live``), here in CPython; the browser test
(tests/test_site_live.py) runs the same module in Pyodide.

A ruling's case stepped through must draw the boards of the ruling's committed diagrams; the
sandbox reports events with their clauses and refusals with their code and clause; and all of
it works where only the engine archive's packages can be imported (the browser has no
jsonschema, jsonschema-rs or markdown-it), which a subprocess without site-packages checks.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from camelup.harness.suite import Case, load_suite
from camelup.io.replay import initial_state
from camelup.tools.docs.pages import key_step
from camelup.tools.docs.site import ENGINE_DISTRIBUTIONS, write_engine
from camelup.tools.live import case_position, case_steps, sandbox_apply, sandbox_choices
from commands import one_line, run_cli

REPO = Path(__file__).resolve().parent.parent
RULINGS = REPO / "docs" / "rulings"


@functools.cache
def _suite_cases() -> dict[str, Case]:
    """The suite's cases by ID, read once for the module (each reading takes a second or two)."""
    return {case.id: case for case in load_suite().cases}


def _case(case_id: str) -> Case:
    return _suite_cases()[case_id]


def _case_text(case: Case) -> str:
    return json.dumps(
        {"ruleset": case.ruleset, "given": case.given, "steps": case.steps}, sort_keys=True
    )


def _diagram_case(ruling: str) -> str:
    text = (RULINGS / f"{ruling}.md").read_text("utf-8")
    return text.split("Case `", 1)[1].split("`", 1)[0]


def _drawn_rulings() -> list[str]:
    return sorted(page.stem for page in RULINGS.glob("RUL-*.md") if "Case `" in page.read_text())


def test_every_ruling_page_has_a_case_to_step_through() -> None:
    assert len(_drawn_rulings()) >= 45


@pytest.mark.parametrize("ruling", _drawn_rulings())
def test_stepping_a_rulings_case_draws_its_committed_diagrams(ruling: str) -> None:
    case = _case(_diagram_case(ruling))
    played = json.loads(case_steps(_case_text(case)))
    assert len(played["steps"]) == len(case.steps)
    before = (RULINGS / "img" / f"{ruling}-before.svg").read_text("utf-8")
    step = key_step(case)
    if step == 0:  # a case without steps: its given position alone
        assert played["given"] == before
        return
    shown = played["steps"][step - 1]
    assert shown["before"] == before
    assert shown["after"] == (RULINGS / "img" / f"{ruling}-after.svg").read_text("utf-8")
    assert shown["refusal"] or (shown["events"] and all(e["clause"] for e in shown["events"]))


def _rul04_state() -> str:
    return case_position(_case_text(_case(_diagram_case("RUL-04"))))


def test_the_sandbox_lists_die_faces_and_applies_one_with_the_events_clauses() -> None:
    state = _rul04_state()
    choices = json.loads(sandbox_choices(state))
    assert choices["ok"] and choices["board"].startswith("<svg")
    rolls = [c for c in choices["actions"] if c["action"]["type"] == "take_pyramid_ticket"]
    # Five racing dice of three faces and the grey die of six, all still in the pyramid.
    assert len(rolls) == 5 * 3 + 6
    grey = next(c["action"] for c in rolls if c["action"]["roll"]["die"] == "grey")
    result = json.loads(sandbox_apply(state, json.dumps(grey)))
    assert result["ok"]
    events = [(e["type"], e["clause"]) for e in result["events"]]
    assert events[:3] == [
        ("pyramid_ticket_taken", "move.pyramid.take-ticket"),
        ("die_revealed", "move.pyramid.take-ticket"),
        ("crazy_camel_chosen", "crazy.select.colour"),
    ]
    again = json.loads(sandbox_choices(result["state"]))  # the result is a state it reads back
    assert again["ok"] and "pyramid_ticket_taken" not in result["state"]


def test_the_sandbox_shows_an_illegal_actions_code_and_clause() -> None:
    state = _rul04_state()
    wrong_player = {"type": "take_leg_ticket", "player": 1, "camel": "blue"}
    refused = json.loads(sandbox_apply(state, json.dumps(wrong_player)))
    assert refused["ok"] is False
    assert (refused["code"], refused["clause"]) == ("not-your-turn", "turn.order")


@pytest.mark.parametrize(
    ("state", "action", "says"),
    [
        ("{", "{}", "the state is not JSON"),
        ('{"ruleset": 3}', "{}", "/ruleset"),
        (None, "[1", "the action is not JSON"),
    ],
)
def test_bad_input_in_the_sandbox_is_one_line(state: str | None, action: str, says: str) -> None:
    answer = json.loads(sandbox_apply(_rul04_state() if state is None else state, action))
    assert answer["ok"] is False and answer["code"] == "malformed" and answer["clause"]
    assert says in answer["error"] and "\n" not in answer["error"]


_BROWSER_LIKE = textwrap.dedent(
    """
    import json, sys

    ABSENT = {"jsonschema", "jsonschema_rs", "referencing", "rpds", "markdown_it", "mdurl"}
    sys.path.insert(0, sys.argv[1])
    from camelup.tools import live

    case, action = json.loads(sys.stdin.read())
    played = json.loads(live.case_steps(case))
    state = live.case_position(case)
    applied = json.loads(live.sandbox_apply(state, action))
    bad = json.loads(live.sandbox_apply('{"ruleset": 3}', action))
    print(json.dumps({
        "steps": len(played["steps"]),
        "events": [e["clause"] for e in applied["events"]],
        "bad": bad["code"],
        "loaded": sorted({m.split(".")[0] for m in sys.modules} & ABSENT),
        "from": live.__file__,
    }))
    """
)


def test_the_live_engine_runs_from_its_archive_without_jsonschema_or_markdown(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "camelup-engine.zip"
    write_engine(archive)
    names = zipfile.ZipFile(archive).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {"camelup", "attrs", "attr", "cattrs", "typing_extensions.py"} <= tops
    assert not any(top.startswith(("jsonschema", "markdown_it")) for top in tops)
    assert len(ENGINE_DISTRIBUTIONS) == 3
    unpacked = tmp_path / "engine"
    zipfile.ZipFile(archive).extractall(unpacked)
    case = _case(_diagram_case("RUL-04"))
    state = initial_state(case.ruleset, case.given)
    roll = {"die": "blue", "value": 1}
    action = {"type": "take_pyramid_ticket", "player": state.to_move, "roll": roll}
    # -I -S: no site-packages, no user site: only the standard library and the archive.
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _BROWSER_LIKE, str(unpacked)],
        input=json.dumps([_case_text(case), json.dumps(action)]),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["from"].startswith(str(unpacked))
    assert report["steps"] == len(case.steps)
    assert report["events"][:2] == ["move.pyramid.take-ticket", "move.pyramid.take-ticket"]
    assert report["bad"] == "malformed"
    assert report["loaded"] == []


@pytest.mark.needs_rule_source
def test_a_site_built_without_pyodide_says_so_once_and_on_its_live_boards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    code, _, err = run_cli(capsys, "docs", "site", str(out), "--pyodide", str(tmp_path / "no"))
    assert code == 0
    assert "no Pyodide in" in one_line(err) and "left out" in err
    assert not (out / "assets" / "pyodide").exists()
    assert not (out / "assets" / "engine").exists()
    for page in ("sandbox.html", "docs/rulings/RUL-04.html"):
        text = (out / page).read_text("utf-8")
        assert "built without Pyodide" in text and "data-live-start" not in text

"""The live boards of the built site in Chromium: camelup's engine running in Pyodide, in the page.

One browser session visits RUL-04, RUL-11, RUL-19 and a whirlwind ruling (RUL-48): the reader
starts the live board, steps to the step the ruling's diagram draws, and the boards shown must
be the static diagrams' SVGs, element for element. The sandbox applies a pasted state and a die
face, and must list the events with the clauses that the engine (run here, in CPython) gives
for the same action; an illegal action shows its refusal's code and clause. Every request that
would leave the site is refused and noted: none may be tried. One ruling page starts as a site
built without Node.js does, without the engine's memory snapshot. The time from opening each page
to a live board ready is printed (and kept in ``artifacts/live-boards.txt``, see
``browser.artifact_folder``), not asserted:
speed belongs to benchmarks.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    artifact_folder,
    need_browser,
    no_browser,
    note_outside,
    site_only,
)
from camelup.io.codec import to_json
from camelup.io.replay import initial_state
from camelup.model.actions import TakePyramidTicket
from camelup.play.engine import apply, legal_actions
from camelup.tools.live import case_position
from test_live import _case, _case_text

RULINGS = ("RUL-04", "RUL-11", "RUL-19", "RUL-48")  # RUL-48: the whirlwind
BOOTED = "RUL-19"  # started without the snapshot, as a site built without Node.js starts
READY = 180_000  # ms a page may take to start the engine on a loaded two-core machine

_SAME_BOARDS = """async section => {
  const shown = cls => section.querySelector(`figure.${cls} svg`);
  const page = location.pathname.split('/').pop().replace('.html', '');
  const same = async (cls, file) => {
    const text = await (await fetch(`img/${page}-${file}.svg`)).text();
    const template = document.createElement('template');
    template.innerHTML = text;
    const drawn = shown(cls);
    return drawn !== null && template.content.querySelector('svg').isEqualNode(drawn);
  };
  return {
    step: Number(section.dataset.step),
    before: await same('live-before', 'before'),
    after: await same('live-after', 'after'),
    clauses: Array.from(section.querySelectorAll('.live-event a.live-clause'),
                        a => [a.textContent, a.href]),
  };
}"""

_EVENTS = """holder => ({
  clauses: Array.from(holder.querySelectorAll('.live-event a.live-clause'),
                      a => [a.textContent, a.href]),
  refusal: (holder.querySelector('.live-refusal') || {textContent: ''}).textContent,
})"""


@attrs.define
class Session:
    artifacts: Path  # where the screenshots and the times go
    ready_ms: dict[str, int] = attrs.Factory(dict)
    boards: dict[str, dict[str, Any]] = attrs.Factory(dict)
    sandbox: dict[str, Any] = attrs.Factory(dict)
    refused: dict[str, Any] = attrs.Factory(dict)
    picked: dict[str, Any] = attrs.Factory(dict)
    picked_options: int = 0
    problems: list[str] = attrs.Factory(list)
    outside: list[str] = attrs.Factory(list)


def _sandbox_inputs() -> tuple[str, dict[str, Any], list[str], dict[str, Any]]:
    """A pasted state (RUL-04's case's position), a grey die face from it, the clauses of the
    events the engine gives for it here, and an illegal action."""
    case = _case("end.crossing.crazy/lone-crazy-ends-race")
    state = initial_state(case.ruleset, case.given)
    grey = next(
        action
        for action in legal_actions(state)
        if isinstance(action, TakePyramidTicket) and action.roll.die.value == "grey"
    )
    clauses = [event.clause for event in apply(state, grey).events]
    illegal = {"type": "take_leg_ticket", "player": state.to_move + 1, "camel": "blue"}
    return json.dumps(to_json(state), indent=1), to_json(grey), clauses, illegal


async def _start(page: Any, url: str, section: str) -> int:
    await page.goto(url, wait_until="load")
    await page.click(f"{section} [data-live-start]")
    await page.wait_for_selector(f"{section}[data-ready-ms]", timeout=READY)
    return int(await page.get_attribute(section, "data-ready-ms"))


async def _without_snapshot(route: Any) -> None:
    await route.fulfill(status=200, content_type="application/json", body='{"snapshot": null}')


async def _ruling(page: Any, base: str, ruling: str, session: Session) -> None:
    if ruling == BOOTED:  # the way a site built without Node.js starts: Pyodide boots here
        await page.route(f"{base}assets/engine/start.json", _without_snapshot)
    ms = await _start(page, f"{base}docs/rulings/{ruling}.html", "#live")
    session.ready_ms[ruling + (" (no snapshot)" if ruling == BOOTED else "")] = ms
    if ruling == BOOTED:
        await page.unroute(f"{base}assets/engine/start.json")
    key = int(await page.get_attribute("#live", "data-key-step"))
    while int(await page.get_attribute("#live", "data-step") or 0) < key:
        await page.click("#live [data-live-next]")
    session.boards[ruling] = await page.eval_on_selector("#live", _SAME_BOARDS)
    if ruling == RULINGS[0]:
        await page.locator("#live").screenshot(path=str(session.artifacts / f"live-{ruling}.png"))


async def _sandbox(page: Any, base: str, session: Session) -> None:
    state, grey, _, illegal = _sandbox_inputs()
    session.ready_ms["sandbox"] = await _start(page, f"{base}sandbox.html", "#sandbox")
    await page.fill("#sandbox-state", state)
    await page.click("#sandbox-read")
    await page.wait_for_selector("#sandbox-board svg")
    await page.select_option("#sandbox-roll", json.dumps(grey, separators=(",", ":")))
    await page.click("#sandbox-apply")
    await page.wait_for_selector("#sandbox-result .live-event")
    session.sandbox = await page.eval_on_selector("#sandbox-result", _EVENTS)
    session.sandbox["action"] = json.loads(await page.input_value("#sandbox-action"))
    await page.screenshot(path=str(session.artifacts / "sandbox.png"), full_page=True)
    await page.fill("#sandbox-action", json.dumps(illegal))
    await page.click("#sandbox-apply")
    await page.wait_for_selector("#sandbox-result .live-refusal")
    session.refused = await page.eval_on_selector("#sandbox-result", _EVENTS)
    # Or start from a ruling's case: its position comes into the box, its board is drawn.
    pasted = await page.input_value("#sandbox-state")
    await page.select_option("#sandbox-case", "RUL-11")
    await page.wait_for_function(
        "pasted => document.getElementById('sandbox-state').value !== pasted", arg=pasted
    )
    session.picked = json.loads(await page.input_value("#sandbox-state"))
    session.picked_options = await page.locator("#sandbox-roll option").count()


async def _browse(base: str, artifacts: Path) -> Session:
    from playwright.async_api import async_playwright

    session = Session(artifacts)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS + site_only(base)
        )
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 900})
            note_outside(context, base, session.outside.append)
            page = await context.new_page()
            page.on(
                "console",
                lambda m: session.problems.append(m.text) if m.type == "error" else None,
            )
            page.on("pageerror", lambda e: session.problems.append(f"script error: {e}"))
            for ruling in RULINGS:
                await _ruling(page, base, ruling, session)
            await _sandbox(page, base, session)
        finally:
            await browser.close()
    return session


@pytest.fixture(scope="module")
def session(site: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Session:
    need_browser()
    base, out = site
    if not (out / "assets" / "pyodide" / "pyodide.mjs").is_file():
        no_browser("the site was built without Pyodide (npm install --prefix .ci/node pyodide)")
    return asyncio.run(_browse(base, artifact_folder(tmp_path_factory)))


@pytest.fixture(scope="module")
def times(session: Session) -> dict[str, int]:
    lines = [f"{page}: {ms} ms from opening the page" for page, ms in session.ready_ms.items()]
    (session.artifacts / "live-boards.txt").write_text("\n".join(lines) + "\n", "utf-8")
    return session.ready_ms


def test_the_live_boards_show_the_static_diagrams(site: tuple[str, Path], session: Session) -> None:
    base, _ = site
    assert set(session.boards) == set(RULINGS)
    for ruling, seen in session.boards.items():
        assert (ruling, seen["before"], seen["after"]) == (ruling, True, True)
        assert seen["clauses"], ruling  # the step's events, each with its clause
        assert all(href.startswith(f"{base}docs/spec/") for _, href in seen["clauses"])


def test_the_sandbox_applies_a_pasted_state_and_a_die_face(
    site: tuple[str, Path], session: Session
) -> None:
    base, _ = site
    _, grey, clauses, _ = _sandbox_inputs()
    assert session.sandbox["action"] == grey
    assert [clause for clause, _ in session.sandbox["clauses"]] == clauses
    assert all("#" in href and href.startswith(base) for _, href in session.sandbox["clauses"])


def test_the_sandbox_shows_an_illegal_actions_code_and_clause(session: Session) -> None:
    assert "not-your-turn" in session.refused["refusal"]
    assert [clause for clause, _ in session.refused["clauses"]] == []
    assert "turn.order" in session.refused["refusal"]


def test_nothing_leaves_the_site_and_nothing_fails(session: Session) -> None:
    assert session.outside == []
    assert session.problems == []


def test_the_time_to_a_live_board_is_printed(
    times: dict[str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    with capsys.disabled():
        print("\nlive board ready:", ", ".join(f"{p} {ms} ms" for p, ms in times.items()))
    pages = {*RULINGS, "sandbox"} - {BOOTED} | {f"{BOOTED} (no snapshot)"}
    assert set(times) == pages and all(ms > 0 for ms in times.values())


def test_the_site_ships_a_snapshot_of_the_engine_where_node_runs(site: tuple[str, Path]) -> None:
    _, out = site
    start = json.loads((out / "assets" / "engine" / "start.json").read_text("utf-8"))
    if shutil.which("node") is None:
        assert start == {"snapshot": None}
    else:
        assert start == {"snapshot": "snapshot.bin"}
        assert (out / "assets" / "engine" / "snapshot.bin").stat().st_size > 1_000_000


def test_the_sandbox_starts_from_a_rulings_case(session: Session) -> None:
    case = _case("tile.land.crazy-reversed/cheering-counterclockwise")  # RUL-11's diagram
    assert session.picked == json.loads(case_position(_case_text(case)))
    assert session.picked_options > 1  # "choose a die face", then the faces of its pyramid

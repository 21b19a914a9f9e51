"""The static site in a real headless browser: Debian's chromium driven by Playwright.

The site is built from this checkout (``camelup docs site``) into a temporary folder and served
on 127.0.0.1. Every page is loaded: none may log a console error or fail to load a resource,
every diagram must render with a non-zero size, every link must lead to a page or file that
exists and every ``#anchor`` to an element of that page; the search must find a clause by its ID,
every ruling by a word of its question, and work from the keyboard alone. A screenshot of one
ruling page is kept in ``artifacts/ruling-page.png`` (see ``browser.artifact_folder``).

Without a browser the test fails in CI (``CI`` set) and is skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import asyncio
import collections
import json
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urlsplit
from xml.etree import ElementTree

import attrs
import pytest

from browser import CHROMIUM, CHROMIUM_ARGS, artifact_folder, need_browser, note_outside, site_only
from camelup.spec.registry import load_registry

RULING_PAGE = "docs/rulings/RUL-04.html"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Pages whose diagrams are photographed at a phone's width (kept as CI artifacts).
PHONE_PAGES = ("RUL-04", "RUL-25", "RUL-49")


@attrs.define
class Visit:
    """What the browser saw: per page its element IDs, links, images; the problems logged."""

    artifacts: Path  # where the screenshots go
    ids: dict[str, set[str]] = attrs.Factory(dict)
    # (page, absolute URL, as written, title)
    links: list[tuple[str, str, str, str]] = attrs.Factory(list)
    images: list[tuple[str, dict[str, Any]]] = attrs.Factory(list)
    problems: list[str] = attrs.Factory(list)
    search: dict[str, str] = attrs.Factory(dict)
    found: dict[str, list[str]] = attrs.Factory(dict)  # query -> the page names listed
    phone: dict[str, float] = attrs.Factory(dict)  # ruling -> its diagram's scale at 390 px
    phone_shots: list[Path] = attrs.Factory(list)
    outside: list[str] = attrs.Factory(list)  # requests that tried to leave the site
    screenshot: Path | None = None


# One JSON string, read here with json.loads: Playwright's own transfer of a value checks it
# item by item in Python, 27 s of CPU for the 50,000 line anchors of the generated case files.
_PAGE_FACTS = """() => JSON.stringify({
  ids: Array.from(document.querySelectorAll('[id]'), e => e.id),
  links: Array.from(document.querySelectorAll('a[href]'),
                    a => [a.href, a.getAttribute('href'), a.title]),
  images: Array.from(document.images, i => {
    const box = i.getBoundingClientRect();
    return {src: i.getAttribute('src'), complete: i.complete, natural: i.naturalWidth,
            width: box.width, height: box.height, top: box.top + window.scrollY};
  }),
})"""

TABS = 6  # pages loaded at once: the crawl takes a few seconds instead of twenty


def _site_only(target: Any, base: str, visit: Visit) -> None:
    note_outside(target, base, visit.outside.append)


async def _load_all(browser: Any, base: str, pages: list[str], visit: Visit) -> None:
    context = await browser.new_context(viewport=DESKTOP)
    _site_only(context, base, visit)
    queue = list(pages)

    async def worker() -> None:
        page = await context.new_page()
        current = {"url": ""}

        def log(text: str) -> None:
            visit.problems.append(f"{current['url']}: {text}")

        page.on(
            "console", lambda m: log(f"console {m.type}: {m.text}") if m.type == "error" else None
        )
        page.on("pageerror", lambda e: log(f"script error: {e}"))
        page.on("requestfailed", lambda r: log(f"failed to load {r.url}"))
        page.on(
            "response", lambda r: log(f"HTTP {r.status} for {r.url}") if r.status >= 400 else None
        )
        while queue:
            name = queue.pop(0)
            current["url"] = name
            response = await page.goto(base + name, wait_until="load")
            if response is None or not response.ok:
                log("the page did not load")
                continue
            facts = json.loads(await page.evaluate(_PAGE_FACTS))
            visit.ids[name] = set(facts["ids"])
            visit.links += [(name, *link) for link in facts["links"]]
            visit.images += [(name, image) for image in facts["images"]]
        await page.close()

    await asyncio.gather(*(worker() for _ in range(TABS)))
    await context.close()


async def _search(browser: Any, base: str, visit: Visit) -> None:
    page = await browser.new_page()
    _site_only(page, base, visit)
    page.set_default_timeout(5_000)
    try:
        await _use_the_search(page, base, visit)
    except Exception as error:  # reported by the search test, not as an error of every test
        visit.search["failed"] = f"{type(error).__name__}: {error}"
    await page.close()


async def _use_the_search(page: Any, base: str, visit: Visit) -> None:
    await page.goto(base + "docs/rulings/README.html")
    await page.fill("#site-search", "crazy.no-w")
    first = page.locator("#search-results a").first
    await first.wait_for()
    visit.search["first result"] = await first.locator("strong").inner_text()
    await first.click()
    await page.wait_for_url("**/docs/spec/07-crazy.html#77-crazyno-wrap")
    visit.search["heading"] = await page.locator("[id='77-crazyno-wrap']").inner_text()
    # Enter jumps to the best match, here a ruling by its ID.
    await page.fill("#site-search", "RUL-04")
    await page.press("#site-search", "Enter")
    await page.wait_for_url("**/docs/rulings/RUL-04.html")
    visit.search["title after Enter"] = await page.title()
    # The keyboard alone: "/" reaches the box, the arrows choose a result, Enter opens it.
    await page.keyboard.press("/")
    await page.keyboard.type("tie money")
    await page.locator("#search-results a").first.wait_for()
    await page.keyboard.press("ArrowDown")
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    visit.search["by keyboard"] = page.url.removeprefix(base)
    await page.fill("#site-search", "crazy")  # loads the index: from here the search is
    await page.locator("#search-results a").first.wait_for()  # synchronous, as each input is
    words = sorted(set(_QUERIES.values()) | {"crazy", "tie"})
    for word, found in json.loads(await page.evaluate(_TYPE_EACH_WORD, words)).items():
        visit.found[word] = [href.rsplit("/", 1)[-1].removesuffix(".html") for href in found]


# Each word typed into the box in turn, in the page (an input event, as the reader's typing
# fires) and its results read: one call instead of two round trips to the browser a word.
_TYPE_EACH_WORD = """words => {
  const input = document.getElementById('site-search');
  const found = {};
  for (const word of words) {
    input.value = word;
    input.dispatchEvent(new Event('input', {bubbles: true}));
    found[word] = Array.from(document.querySelectorAll('#search-results a'),
                             a => a.getAttribute('href'));
  }
  return JSON.stringify(found);
}"""


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"[^\w]+", text.lower()) if len(word) >= 4]


def _rarest_word_of_each_question() -> dict[str, str]:
    """Per ruling, the word of its question (its title) that the fewest other questions hold:
    what a reader who remembers one word of the question would type."""
    questions = {ruling.id: ruling.title for ruling in load_registry().rulings}
    holders = collections.Counter(word for q in questions.values() for word in set(_words(q)))
    return {
        ruling: min(_words(question), key=lambda word: (holders[word], -len(word), word))
        for ruling, question in questions.items()
    }


_QUERIES = _rarest_word_of_each_question()


async def _screenshot(browser: Any, base: str, visit: Visit) -> None:
    page = await browser.new_page(viewport=DESKTOP)
    _site_only(page, base, visit)
    await page.goto(base + RULING_PAGE, wait_until="load")
    visit.screenshot = visit.artifacts / "ruling-page.png"
    await page.screenshot(path=str(visit.screenshot), full_page=True)
    await page.close()
    phone = await browser.new_page(viewport=PHONE)
    _site_only(phone, base, visit)
    for ruling in PHONE_PAGES:
        await phone.goto(f"{base}docs/rulings/{ruling}.html", wait_until="load")
        diagram = phone.locator("img[src$='-after.svg']").first
        await diagram.scroll_into_view_if_needed()
        shot = visit.artifacts / f"phone-{ruling}.png"
        await phone.screenshot(path=str(shot))
        box = await diagram.evaluate(
            "i => ({natural: i.naturalWidth, width: i.getBoundingClientRect().width})"
        )
        visit.phone[ruling] = box["width"] / box["natural"]
        visit.phone_shots.append(shot)
    await phone.close()


async def _browse(base: str, pages: list[str], artifacts: Path) -> Visit:
    from playwright.async_api import async_playwright

    visit = Visit(artifacts)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS + site_only(base)
        )
        try:
            await _load_all(browser, base, pages, visit)
            await _search(browser, base, visit)
            await _screenshot(browser, base, visit)
        finally:
            await browser.close()
    return visit


@pytest.fixture(scope="module")
def visit(site: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Visit:
    need_browser()
    base, out = site
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))
    return asyncio.run(_browse(base, pages, artifact_folder(tmp_path_factory)))


def test_every_page_loads_without_console_errors(site: tuple[str, Path], visit: Visit) -> None:
    _, out = site
    pages = {p.relative_to(out).as_posix() for p in out.rglob("*.html")}
    assert len(pages) > 100  # the rulings, chapters, guides and the files they link to
    assert set(visit.ids) == pages
    assert visit.problems == []
    assert visit.outside == []  # refused by the browser, and none was even tried


def test_every_diagram_renders_with_a_size(visit: Visit) -> None:
    diagrams = [(page, image) for page, image in visit.images if image["src"].endswith(".svg")]
    assert len(diagrams) >= 100  # every ruling and variant page draws a real case
    broken = [
        f"{page}: {image['src']} {image}"
        for page, image in diagrams
        if not (image["complete"] and image["natural"] > 0)
        or not (image["width"] > 0 and image["height"] > 0)
    ]
    assert broken == []


def test_no_link_or_anchor_is_broken(site: tuple[str, Path], visit: Visit) -> None:
    base, out = site
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    broken = []
    internal = 0
    for page, absolute, raw, _ in visit.links:
        if not absolute.startswith(base):
            parts = urlsplit(absolute)
            if parts.scheme not in ("http", "https", "mailto") or not parts.netloc:
                broken.append(f"{page}: {raw!r} is neither on the site nor a web address")
            elif parts.hostname in ("127.0.0.1", "localhost"):
                broken.append(f"{page}: {raw!r} points at another local server")
            continue  # a web address: not fetched, the test runs offline
        internal += 1
        target, fragment = urldefrag(absolute)
        path = target.removeprefix(base) or "index.html"
        if path.endswith("/"):
            path += "index.html"
        if path not in files:
            broken.append(f"{page}: {raw!r} leads to {path}, which the site does not have")
        elif fragment and fragment not in visit.ids.get(path, set()):
            broken.append(f"{page}: {raw!r}: {path} has no anchor #{fragment}")
    assert internal > 1000  # real links were checked, not an empty list
    assert broken == []


def test_the_search_finds_a_clause_and_a_ruling_by_id_and_by_keyboard(visit: Visit) -> None:
    assert visit.search == {
        "first result": "7.7 crazy.no-wrap",
        "heading": "7.7 crazy.no-wrap",
        "title after Enter": "RUL-04 Does a lone crazy camel crossing the finish line end the"
        " race? · camelup",
        "by keyboard": "docs/rulings/RUL-44.html",
    }


def test_every_ruling_is_found_by_a_word_of_its_question(visit: Visit) -> None:
    assert len(_QUERIES) >= 51
    missed = {ruling: word for ruling, word in _QUERIES.items() if ruling not in visit.found[word]}
    assert missed == {}


def test_a_word_finds_the_rulings_first(visit: Visit) -> None:
    crazy = [r.id for r in load_registry().rulings if "crazy" in r.title.lower()]
    assert len(crazy) >= 10
    assert visit.found["crazy"][: len(crazy)] == crazy  # then variants and clauses
    assert visit.found["tie"][0] == "RUL-44"


def test_a_screenshot_of_a_ruling_page_is_kept(visit: Visit) -> None:
    assert visit.screenshot is not None
    data = visit.screenshot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    assert [shot.read_bytes()[:4] for shot in visit.phone_shots] == [b"\x89PNG"] * 3


def _ruling_pages() -> list[str]:
    return [f"docs/rulings/{ruling.id}.html" for ruling in load_registry().rulings]


def test_every_ruling_page_shows_its_first_diagram_within_the_first_screen(visit: Visit) -> None:
    late = {}
    for name in _ruling_pages():
        tops = [image["top"] for page, image in visit.images if page == name]
        if not tops:
            continue  # a ruling no case checks has no diagram; the build says so on the page
        if min(tops) >= DESKTOP["height"]:
            late[name] = min(tops)
    drawn = {page for page, image in visit.images if page in set(_ruling_pages())}
    assert len(drawn) >= 45
    assert late == {}


def _font_sizes(svg: Path) -> list[float]:
    root = ElementTree.parse(svg).getroot()
    sizes = []

    def walk(element: ElementTree.Element, inherited: float) -> None:
        size = float(element.attrib.get("font-size", inherited))
        if element.tag.endswith("}text"):
            sizes.append(size)
        for child in element:
            walk(child, size)

    walk(root, 16.0)  # the browser's default, for an SVG that would set none
    return sizes


def test_every_diagram_has_a_key_and_no_text_under_12_px_at_1280_px(
    site: tuple[str, Path], visit: Visit
) -> None:
    _, out = site
    svgs = sorted(out.rglob("*.svg"))
    assert len(svgs) >= 100
    without_key = [svg.name for svg in svgs if "data-legend=" not in svg.read_text("utf-8")]
    assert without_key == []
    smallest = {svg.relative_to(out).as_posix(): min(_font_sizes(svg)) for svg in svgs}
    too_small = []
    for page, image in visit.images:
        if not image["src"].endswith(".svg"):
            continue
        path = posixpath.normpath(posixpath.join(posixpath.dirname(page), image["src"]))
        rendered = smallest[path] * image["width"] / image["natural"]
        if rendered < 12:
            too_small.append(f"{page}: {image['src']} {rendered:.1f} px")
    assert too_small == []


def test_diagrams_keep_their_size_on_a_phone(visit: Visit) -> None:
    # Scrolled sideways rather than shrunk: the 12 px text stays 12 px on a 390 px screen.
    assert visit.phone == dict.fromkeys(PHONE_PAGES, 1.0)


def test_every_link_to_a_ruling_carries_its_question(site: tuple[str, Path], visit: Visit) -> None:
    base, _ = site
    questions = {ruling.id: ruling.title for ruling in load_registry().rulings}
    to_rulings = [
        (page, raw, title, ruling)
        for page, absolute, raw, title in visit.links
        if (ruling := _ruling_of(absolute.removeprefix(base))) is not None
    ]
    assert len(to_rulings) > 200  # the index, the chapters, the register, the variant pages
    untitled = [
        (page, raw) for page, raw, title, ruling in to_rulings if title != questions[ruling]
    ]
    assert untitled == []


def _ruling_of(path: str) -> str | None:
    """The ruling a link leads to: its page, or its entry in the register."""
    page = re.fullmatch(r"docs/rulings/(RUL-\d+)\.html", path)
    entry = re.fullmatch(r"spec/rulings\.html#(rul-\d+)-.*", path)
    if page:
        return page[1]
    return entry[1].upper() if entry else None

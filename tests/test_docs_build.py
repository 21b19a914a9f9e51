"""The generated pages of docs/ (``camelup docs build``) and the static site's converter.

The facts the pages must show are read here straight from the raw files (the JSON of the case
files, the headings of spec/rulings.md), not from the generator's own helpers, so that a
generator that drops a case or a ruling is caught.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import pytest

from camelup.io.cache import CACHE_ENV
from camelup.spec.registry import load_registry
from camelup.tools.docs import folder as docs_folder
from camelup.tools.docs.folder import stale_files
from camelup.tools.docs.markdown import slug, to_html
from camelup.tools.docs.pages import build_pages
from camelup.tools.docs.site import (
    PYODIDE_FILES,
    BrokenLinks,
    NotASiteFolder,
    build_site,
    make_snapshot,
)
from commands import run_cli_completed

REPO = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}svg"


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return build_pages()


@pytest.fixture
def built_once(pages: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``docs build`` and its check compare with the module's one build (1.5 s of CPU a build)
    instead of making their own: the same pages, as test_the_build_is_deterministic shows."""
    monkeypatch.setattr(docs_folder, "build_pages", lambda: dict(pages))


@functools.cache  # the case files are read once per module, not once per question
def raw_cases() -> tuple[dict[str, Any], ...]:
    cases: list[dict[str, Any]] = []
    for path in sorted((REPO / "conformance").glob("*/**/*.json")):
        if "schema" not in path.parts:
            cases += json.loads(path.read_text("utf-8"))["cases"]
    return tuple(cases)


def register() -> str:
    """spec/rulings.md without its fenced blocks (the format example is no entry)."""
    text = (REPO / "spec" / "rulings.md").read_text("utf-8")
    return re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)


def ruling_ids_in_register() -> list[str]:
    return re.findall(r"^### (RUL-\d+) ", register(), flags=re.M)


@pytest.mark.usefixtures("built_once")
def test_the_committed_docs_are_what_the_build_writes_now() -> None:
    assert stale_files(REPO / "docs") == [], "run `camelup docs build` and commit docs/"


def test_the_build_is_deterministic(pages: dict[str, str]) -> None:
    assert build_pages() == pages
    assert list(pages) == sorted(pages)
    text = "".join(pages.values())
    assert str(REPO) not in text  # no absolute path of this machine
    assert not re.search(r"20\d\d-\d\d-\d\d", text)  # no date


def test_a_page_per_ruling_variant_and_chapter(pages: dict[str, str]) -> None:
    rulings = ruling_ids_in_register()
    assert len(rulings) >= 51
    for ruling in rulings:
        assert pages[f"rulings/{ruling}.md"].splitlines()[2].startswith(f"# {ruling} ")
    variants = re.findall(
        r"^- \*\*Defines variant:\*\* `([a-z0-9-]+)`",
        register(),
        flags=re.M,
    )
    assert len(variants) == 5
    for name in variants:
        assert f"# Variant `{name}`" in pages[f"rulings/variant-{name}.md"]
    chapters = sorted(
        p.name for p in (REPO / "spec").glob("[01][0-9]-*.md") if p.name != "00-about.md"
    )
    assert [p for p in pages if p.startswith("spec/") and p != "spec/README.md"] == [
        f"spec/{name}" for name in chapters
    ]


def test_each_ruling_page_carries_the_register_text(pages: dict[str, str]) -> None:
    for block in re.split(r"^### ", register(), flags=re.M)[1:]:
        ruling = block.split()[0]
        if not ruling.startswith("RUL-"):
            continue
        for field in ("Question", "Ruling", "Why", "Sources"):
            value = re.search(rf"^- \*\*{field}:\*\* (.*)$", block, flags=re.M)
            assert value is not None
            assert value[1] in pages[f"rulings/{ruling}.md"], (ruling, field)


def ruling_clauses() -> dict[str, set[str]]:
    found = {}
    for block in re.split(r"^### ", register(), flags=re.M)[1:]:
        clauses = re.search(r"^- \*\*Clauses:\*\* (.*)$", block, flags=re.M)
        assert clauses is not None
        found[block.split()[0]] = set(re.findall(r"`([^`]+)`", clauses[1]))
    return found


def citing_cases() -> dict[str, list[dict[str, Any]]]:
    """Ruling -> the hand-written cases naming it in ``ruling`` or as their source."""
    citing: dict[str, list[dict[str, Any]]] = {}
    for case in raw_cases():
        if case["source"]["kind"] == "generated":
            continue
        named = {case.get("ruling"), case["source"].get("ref")}
        if case["source"]["kind"] != "ruling":
            named = {case.get("ruling")}
        for ruling in named - {None}:
            citing.setdefault(str(ruling), []).append(case)
    return citing


def test_cases_citing_a_ruling_are_listed_and_rulings_without_one_say_so(
    pages: dict[str, str],
) -> None:
    citing = citing_cases()
    for ruling in ruling_ids_in_register():
        section = pages[f"rulings/{ruling}.md"].split("## Cases that cite this ruling")[1]
        section = section.split("\n## ")[0]
        for case in citing.get(ruling, []):
            assert f"`{case['id']}`" in section, (ruling, case["id"])
        said_none = "No conformance case cites this ruling" in section
        assert said_none == (ruling not in citing), ruling


def test_diagrams_are_drawn_from_a_case_that_cites_the_ruling(pages: dict[str, str]) -> None:
    """A ruling's diagram is of a case citing it; failing any, of a case checking its clauses;
    failing that, the page says there is nothing to draw. A variant's, of a case selecting it."""
    by_id = {str(c["id"]): c for c in raw_cases()}
    citing = citing_cases()
    clauses_of = ruling_clauses()
    hand_written = [c for c in raw_cases() if c["source"]["kind"] != "generated"]
    drawn = 0
    for path, page in pages.items():
        name = path.removeprefix("rulings/").removesuffix(".md")
        if not re.fullmatch(r"RUL-\d+|variant-[a-z0-9-]+", name) or not path.startswith("rulings/"):
            continue
        images = re.findall(r"!\[[^\]]*\]\((img/[^)]+\.svg)\)", page)
        checking = [c for c in hand_written if clauses_of.get(name, set()) & set(c["clauses"])]
        if not images:
            assert name.startswith("RUL-") and name not in citing and not checking, name
            assert "there is nothing to draw" in page
            continue
        for image in images:
            root = ElementTree.fromstring(pages[f"rulings/{image}"])
            assert root.tag == SVG and float(root.get("width", "0")) > 0
        drawn += 1
        case_id = re.search(r"^Case `([^`]+)`", page, flags=re.M)
        assert case_id is not None, path
        case = by_id[case_id[1]]
        if name.startswith("variant-"):
            assert name.removeprefix("variant-") in case["ruleset"]["variants"], path
        elif name in citing:
            assert case in citing[name], path
        else:
            assert clauses_of[name] & set(case["clauses"]), path
            assert "No case cites this ruling, so the diagram below" in page
    assert drawn >= 55  # at least 50 of the 51 rulings and all 5 variants


def test_a_case_given_as_a_setup_is_drawn_with_its_rolls(pages: dict[str, str]) -> None:
    # RUL-03 is about the grey die's two black rolls at setup: the page must name them.
    page = pages["rulings/RUL-03.md"]
    assert "grey die rolled 1 in black then 3 in black" in page
    assert "the first grey roll places crazy-white" in page


def test_a_ruling_is_pictured_at_the_moment_it_rules_on(pages: dict[str, str]) -> None:
    # RUL-01 rules on what a pyramid ticket pays at leg scoring: its first diagram is the leg
    # scoring, and the caption says whose money changed: player 3's four pyramid tickets
    # (and the leg's one roll) take them from 3 to 8 EP, as the case itself expects.
    page = pages["rulings/RUL-01.md"]
    first = page.index("## Diagram")
    assert page.index("Case `leg.score.pyramid/one-per-ticket`") > first
    assert page.index("Case `leg.score.pyramid/one-per-ticket`") < page.index("## Ruling")
    assert "player 3: 3 → 8 EP, pyramid tickets 4 → 0" in page


@pytest.mark.parametrize("ruling", ["RUL-11", "RUL-19"])
def test_a_ruling_of_several_parts_draws_each_case_that_cites_it(
    pages: dict[str, str], ruling: str
) -> None:
    page = pages[f"rulings/{ruling}.md"]
    cited = page[page.index("## Cases that cite this ruling") :].split("\n\n## ")[0]
    cases = [line.split("`")[1] for line in cited.splitlines() if line.startswith("- `")]
    assert len(cases) >= 3
    drawn = [line.split("`")[1] for line in page.splitlines() if line.startswith("Case `")]
    assert sorted(drawn) == sorted(cases[:4])


def test_chapter_pages_lead_each_rule_with_its_words_and_fold_the_rest(
    pages: dict[str, str],
) -> None:
    registry = load_registry()
    for clause in registry.clauses:
        page = pages[f"spec/{clause.file}"]
        heading = page.index(f"### {clause.number} `{clause.id}`")
        body = page[heading : page.index("</details>", heading)]
        text, fold, sources = (body.index(p) for p in (clause.text, "<details>", "**Sources:**"))
        assert text < fold < sources, clause.id
        for ruling in registry.rulings_for(clause.id):
            assert body.index(f"[{ruling.id}]") < fold and ruling.title in body


def test_markdown_keeps_a_fold_and_nothing_else_of_raw_html() -> None:
    page = to_html("<details><summary>More</summary>\n\n- x\n\n</details>\n\n<i>no</i>\n")
    assert page.body == (
        "<details><summary>More</summary>\n<ul>\n<li>x</li>\n</ul>\n</details>\n"
        "<p>&lt;i&gt;no&lt;/i&gt;</p>\n"
    )


def test_chapter_pages_link_each_clause_to_its_cases_and_its_code(pages: dict[str, str]) -> None:
    registry = load_registry()
    page = pages["spec/06-tiles.md"]
    block = page.split("### 6.2 `tile.place.not-adjacent`")[1].split("\n### ")[0]
    assert "`tile.place.not-adjacent/next-to-a-tile`" in block
    assert "](../../reference/camelup/rules/tiles.py)" in block
    for clause in registry.clauses:
        chapter = pages[f"spec/{clause.file}"]
        assert f"### {clause.number} `{clause.id}`" in chapter


@pytest.mark.usefixtures("built_once")
def test_a_stale_docs_folder_is_named_file_by_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "docs"
    shutil.copytree(REPO / "docs" / "rulings", copy / "rulings")
    shutil.copytree(REPO / "docs" / "spec", copy / "spec")
    (copy / "rulings" / "RUL-07.md").write_text("edited by hand\n", "utf-8")
    (copy / "spec" / "03-turn.md").unlink()
    (copy / "rulings" / "RUL-99.md").write_text("left over\n", "utf-8")
    assert stale_files(copy) == [
        "rulings/RUL-07.md: stale",
        "rulings/RUL-99.md: no longer generated",
        "spec/03-turn.md: missing",
    ]
    result = run_cli_completed(capsys, "docs", "build", "--check", "--out", str(copy))
    assert result.returncode == 1 and "RUL-07.md" in result.stderr


def test_markdown_headings_get_githubs_anchors() -> None:
    registry = load_registry()
    clause = registry.clause("tile.place.empty-space")
    assert slug("6.1 `tile.place.empty-space`") == "61-tileplaceempty-space" == clause.anchor
    page = to_html("# A `b` c?\n\n## A `b` c?\n")
    assert page.anchors == ("a-b-c", "a-b-c-1")


def test_markdown_blocks_and_inline() -> None:
    source = (
        "Some **bold**, *em* and `co|de` with [a link](x.md#y) & <tag>.\n"
        "\n"
        "- one\n  continued\n- two\n"
        "\n"
        "| a | b |\n|---|--:|\n| `1 \\| 2` | 3 |\n"
        "\n"
        '```json\n{"x": 1} <b> <!-- kept: code -->\n```\n'
        "<!-- hidden -->\n"
    )
    page = to_html(source, rewrite=lambda target: target.replace(".md", ".html"))
    assert page.body == (
        "<p>Some <strong>bold</strong>, <em>em</em> and <code>co|de</code> with"
        ' <a href="x.html#y">a link</a> &amp; &lt;tag&gt;.</p>\n'
        "<ul>\n<li>one\ncontinued</li>\n<li>two</li>\n</ul>\n"
        "<table>\n<thead>\n<tr>\n<th>a</th>\n"
        '<th style="text-align:right">b</th>\n</tr>\n</thead>\n'
        # GitHub's reading: an escaped pipe is a pipe, even in a table cell's code
        "<tbody>\n<tr>\n<td><code>1 | 2</code></td>\n"
        '<td style="text-align:right">3</td>\n</tr>\n</tbody>\n</table>\n'
        '<pre><code class="language-json">{&quot;x&quot;: 1} &lt;b&gt;'
        " &lt;!-- kept: code --&gt;\n</code></pre>\n"
    )
    assert page.targets == ("x.md#y",)


def _tiny_repository(root: Path, link: str) -> None:
    (root / "docs" / "implementers").mkdir(parents=True)
    (root / "README.md").write_text("# Readme\n", "utf-8")
    (root / "docs" / "implementers" / "README.md").write_text("# Guide\n\n## Part\n", "utf-8")
    (root / "docs" / "adapter-protocol.md").write_text("# Protocol\n", "utf-8")
    (root / "docs" / "testing.md").write_text(f"# Testing\n\nSee [there]({link}).\n", "utf-8")
    for folder in ("spec", "rulings"):
        (root / "docs" / folder).mkdir()
        (root / "docs" / folder / "README.md").write_text(f"# {folder}\n", "utf-8")


def test_the_site_build_refuses_broken_links_and_anchors(tmp_path: Path) -> None:
    _tiny_repository(tmp_path / "good", "implementers/README.md#part")
    written = build_site(tmp_path / "good", tmp_path / "out")
    assert "docs/testing.html" in written and "docs/implementers/README.html" in written
    html = (tmp_path / "out" / "docs" / "testing.html").read_text("utf-8")
    assert 'href="implementers/README.html#part"' in html
    for link, why in [("nowhere.md", "no such file"), ("implementers/README.md#gone", "anchor")]:
        root = tmp_path / why.replace(" ", "-")
        _tiny_repository(root, link)
        with pytest.raises(BrokenLinks) as raised:
            build_site(root, tmp_path / "out")
        assert [why in problem for problem in raised.value.problems] == [True]


def test_the_site_build_never_empties_a_folder_it_did_not_write(tmp_path: Path) -> None:
    _tiny_repository(tmp_path / "repo", "../README.md")
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me", "utf-8")
    with pytest.raises(NotASiteFolder):
        build_site(tmp_path / "repo", precious)
    assert (precious / "notes.txt").read_text("utf-8") == "keep me"


# needs the checkout's docs/ beside the package, where the compiled build's package is not
@pytest.mark.needs_rule_source
def test_the_docs_verbs_refuse_what_they_cannot_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def camelup(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli_completed(capsys, "docs", *args)

    missing = camelup("build", "--check", "--out", str(tmp_path / "nowhere"))
    assert (missing.returncode, missing.stderr.count("\n")) == (2, 1)
    (tmp_path / "notes.txt").write_text("mine", "utf-8")
    occupied = camelup("site", str(tmp_path))
    assert occupied.returncode == 2 and "holds no earlier build" in occupied.stderr
    assert (tmp_path / "notes.txt").read_text("utf-8") == "mine"


def test_every_search_entry_leads_to_a_page_and_anchor_of_the_site(
    site: tuple[str, Path],
) -> None:
    _, out = site  # the session's build of this checkout (conftest.py), not a second one
    script = (out / "assets" / "search-index.js").read_text("utf-8")
    entries = json.loads(script.removeprefix("window.camelupSearchIndex = ").rstrip(";\n"))
    registry = load_registry()
    assert {e["id"] for e in entries} >= registry.clause_ids | {r.id for r in registry.rulings}
    for entry in entries:
        path, _, anchor = entry["href"].partition("#")
        page = (out / path).read_text("utf-8")
        assert not anchor or f'id="{anchor}"' in page, entry


def _fake_node(folder: Path, runs: Path) -> None:
    """A ``node`` that writes its snapshot (the bytes of the archive it was given) and notes
    each run in ``runs``."""
    node = folder / "node"
    node.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "from pathlib import Path\n"
        "_, script, pyodide, archive, out = sys.argv\n"
        f"with open({str(runs)!r}, 'a') as runs:\n"
        "    runs.write(out + '\\n')\n"
        "Path(out).write_bytes(b'memory of ' + Path(archive).read_bytes())\n",
        "utf-8",
    )
    node.chmod(0o755)


def _node_and_pyodide(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """The fake ``node`` alone on PATH, and a Pyodide folder of its files: the file where the
    runs are noted, and the folder."""
    runs = folder / "runs.txt"
    _fake_node(folder, runs)
    monkeypatch.setenv("PATH", str(folder))
    pyodide = folder / "pyodide"
    pyodide.mkdir()
    for name in PYODIDE_FILES:
        (pyodide / name).write_text(f"pyodide's {name}", "utf-8")
    return runs, pyodide


def test_a_snapshot_is_made_once_per_engine_pyodide_and_node(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs, pyodide = _node_and_pyodide(tmp_path, monkeypatch)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))

    def build(site: str, engine: bytes) -> bytes | None:
        folder = tmp_path / site
        folder.mkdir()
        (folder / "camelup-engine.zip").write_bytes(engine)
        made = make_snapshot(pyodide, folder)
        return None if made is None else made.read_bytes()

    assert build("first", b"engine 1") == b"memory of engine 1"
    assert build("again", b"engine 1") == b"memory of engine 1"  # kept, not made again
    assert build("changed", b"engine 2") == b"memory of engine 2"
    (pyodide / "python_stdlib.zip").write_text("another standard library", "utf-8")
    assert build("new-pyodide", b"engine 2") == b"memory of engine 2"
    made_in = [Path(line).parent.name for line in runs.read_text("utf-8").splitlines()]
    assert made_in == ["first", "changed", "new-pyodide"]
    assert len(list((tmp_path / "cache" / "snapshots").iterdir())) == 3


def test_a_cache_that_cannot_be_written_only_means_no_reuse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs, pyodide = _node_and_pyodide(tmp_path, monkeypatch)
    (tmp_path / "not-a-folder").write_text("a file where the cache would go", "utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "not-a-folder"))
    (tmp_path / "camelup-engine.zip").write_bytes(b"engine")
    for _ in range(2):
        made = make_snapshot(pyodide, tmp_path)
        assert made is not None and made.read_bytes() == b"memory of engine"
    assert len(runs.read_text("utf-8").splitlines()) == 2

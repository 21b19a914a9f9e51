"""The static site: the Markdown of ``docs/`` (and what it links to) as plain HTML pages.

The site mirrors the repository: ``docs/rulings/RUL-04.md`` becomes
``docs/rulings/RUL-04.html``, so every relative link of the Markdown keeps working once ``.md``
is read as ``.html``. The build starts from a home page and the documents of ``docs/`` and
follows every relative link: a linked Markdown file becomes a page, an image is copied, and any
other linked file (source code, a schema, a case file) becomes a page showing it, with an anchor
per line. A link to a file that does not exist, or to an anchor its page does not have, stops
the build with the list of them, so a broken link is caught before any browser sees it.

Every page carries a search box that finds rulings, variants and clauses by their ID or by the
words of their question and text (``assets/search.js``, beside this module): the index is a
small JavaScript file written beside the pages, loaded when the box is first used; no framework
and nothing fetched from elsewhere.

Every ruling page gets a live board of the case its diagram draws, and the site a sandbox page
(``sandbox.html``): the real engine runs in the reader's browser (:mod:`camelup.tools.live`,
started by ``assets/live.js``). The site ships what that needs: Pyodide's files, copied from the
npm package ``pyodide`` (see :data:`PYODIDE_FILES`), and ``assets/engine/camelup-engine.zip``,
the camelup package and its pure-Python dependencies as installed here, which Pyodide unpacks
beside its own standard library; where Node.js is installed, also a memory snapshot of Pyodide
with camelup imported (:func:`make_snapshot`), from which the browser starts several times
faster. Without the npm folder the site is built all the same and its live boards say that
they were left out.
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import importlib.resources
import json
import posixpath
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator, Mapping
from importlib.metadata import distribution
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from camelup.harness.suite import Case, case_files, load_suite
from camelup.io.cache import kind_folder
from camelup.io.outputs import OutputRefused, make_folder, open_output, write_output
from camelup.spec.registry import load_registry
from camelup.tools.docs.markdown import Page, to_html
from camelup.tools.docs.pages import key_step

HOME = "index.md"  # the generated home page, at the root of the site
_COPIED = frozenset({".svg", ".png", ".jpg", ".gif"})
_ASSETS = "assets"
_ASSET_FOLDER = importlib.resources.files("camelup.tools.docs") / "assets"


class BrokenLinks(Exception):
    """Links of the documents that lead nowhere: one line each, ``page: target (why)``."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def home_markdown(root: Path) -> str:
    lines = [
        "# camelup documentation",
        "",
        "The formal reference implementation of the rules of *Camel Up*: a spec of citable"
        " clauses, a register of rulings where the sources disagree, a conformance suite for"
        " any implementation, and a small typed rules library. The box above finds a ruling or a"
        " rule by a word of its question or text (`tie`, `lone crazy`) or by its ID"
        " (`RUL-04`, `crazy.no-wrap`); press / to reach it.",
        "",
        "- [The specification, chapter by chapter](docs/spec/README.md): each clause with its"
        " cases and its code",
        "- [Rulings and variants](docs/rulings/README.md): each with board diagrams of a real case",
        "- [For implementers](docs/implementers/README.md): write an adapter, run the suite in"
        " CI, declare variants, fuzz",
        "- [The adapter protocol](docs/adapter-protocol.md), the reference of the JSON lines",
        "- [Testing camelup](docs/testing.md)",
    ]
    if (root / "docs" / "compatibility.md").is_file():
        lines.append("- [Compatibility report](docs/compatibility.md)")
    lines += ["- [The project's README](README.md)", ""]
    return "\n".join(lines)


def _roots(root: Path) -> list[str]:
    docs = sorted(
        p.relative_to(root).as_posix()
        for p in (root / "docs").rglob("*.md")
        if "node_modules" not in p.parts
    )
    return [HOME, *docs]


def _output_name(source: str) -> str:
    """Where a repository file lands in the site."""
    path = PurePosixPath(source)
    if path.suffix == ".md":
        return str(path.with_suffix(".html"))
    if path.suffix.lower() in _COPIED:
        return source
    return source + ".html"


def _relative(from_page: str, to_file: str) -> str:
    start = posixpath.dirname(from_page) or "."
    return posixpath.relpath(to_file, start)


def _is_external(target: str) -> bool:
    return bool(urlsplit(target).scheme)


def _resolve(page: str, path: str) -> str:
    """A link's target relative to the repository root (may start with '..')."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path))


def _short(text: str, limit: int = 120) -> str:
    words = " ".join(text.split())
    return words if len(words) <= limit else words[: limit - 1].rsplit(" ", 1)[0] + " …"


def _search_index() -> list[dict[str, str]]:
    """What the search looks in: each entry's ID, its title as shown, and more words to match
    (a ruling's question and clauses, a clause's whole text)."""
    registry = load_registry()
    entries = []
    for ruling in registry.rulings:
        more = [ruling.fields.get("question", ""), *ruling.clauses]
        entries.append(
            {
                "id": ruling.id,
                "kind": "ruling",
                "label": ruling.id,
                "title": ruling.title,
                "words": " ".join(more),
                "href": f"docs/rulings/{ruling.id}.html",
            }
        )
    for name in sorted(registry.variants):
        variant = registry.variants[name]
        entries.append(
            {
                "id": name,
                "kind": "variant",
                "label": f"variant {name}",
                "title": _short(variant.description),
                "words": f"{variant.description} {variant.ruling}",
                "href": f"docs/rulings/variant-{name}.html",
            }
        )
    for clause in registry.clauses:
        page = f"docs/spec/{clause.file.removesuffix('.md')}.html"
        entries.append(
            {
                "id": clause.id,
                "kind": "clause",
                "label": f"{clause.number} {clause.id}",
                "title": _short(clause.text),
                "words": " ".join(clause.text.split()),
                "href": f"{page}#{clause.anchor}",
            }
        )
    return entries


_ASSET_FILES = ("style.css", "search.js", "live.js")

PYODIDE_FOLDER = PurePosixPath(".ci/node/node_modules/pyodide")
"""Where ``npm install --prefix .ci/node pyodide`` puts Pyodide, below the repository."""
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
"""What the browser loads to start Pyodide (no package of Pyodide's own is loaded)."""
ENGINE_DISTRIBUTIONS = ("attrs", "cattrs", "typing_extensions")
"""camelup's pure-Python dependencies that the live engine imports (cattrs needs
typing_extensions); jsonschema and jsonschema-rs stay out: the browser reads JSON with the
codec's own checks (see :mod:`camelup.tools.live`)."""
SANDBOX = "sandbox.html"
_RULING_PAGE = re.compile(r"docs/rulings/(RUL-\d+)\.md")
_DIAGRAM_CASE = re.compile(r"^Case `([^`]+)`", re.MULTILINE)


def _engine_files() -> Iterator[tuple[str, Path]]:
    """(name in the archive, file) of the camelup package and :data:`ENGINE_DISTRIBUTIONS`."""
    package = Path(importlib.resources.files("camelup")).resolve()  # type: ignore[arg-type]
    for path in sorted(package.rglob("*.py")):
        if "__pycache__" not in path.parts:
            yield f"camelup/{path.relative_to(package).as_posix()}", path
    for name in ENGINE_DISTRIBUTIONS:
        for file in distribution(name).files or ():
            if file.suffix == ".py" and ".dist-info" not in file.parts[0]:
                yield file.as_posix(), Path(str(file.locate()))


def write_engine(path: Path) -> None:
    """The archive of the engine that ``assets/live.js`` unpacks in Pyodide."""
    with open_output(path, binary=True) as target, zipfile.ZipFile(target, "w") as archive:
        for name, file in _engine_files():
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # reproducible
            archive.writestr(info, file.read_bytes(), zipfile.ZIP_DEFLATED)


def _script_json(value: object) -> str:
    """JSON inside a ``<script type="application/json">``: ``</`` cannot end the element."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")


def _case_json(case: Case) -> dict[str, object]:
    return {"id": case.id, "ruleset": case.ruleset, "given": case.given, "steps": case.steps}


_START = (
    '<p><button type="button" data-live-start>Run it live</button>'
    ' <span class="live-status" role="status"></span></p>\n'
)


def _live_section(case: Case, engine: bool) -> str:
    """A ruling page's live board: its diagram's case, stepped through by the engine."""
    if not engine:
        return (
            '<section class="live" id="live"><h2>Live board</h2><p>This site was built'
            " without Pyodide (<code>npm install --prefix .ci/node pyodide</code> before"
            " <code>camelup docs site</code>), so the live board is left out.</p></section>\n"
        )
    return (
        f'<section class="live" id="live" data-live="case" data-key-step="{key_step(case)}">'
        "<h2>Live board</h2>"
        f"<p>Step through case <code>{html.escape(case.id)}</code> with camelup's engine"
        " running in this page: every board, event and refusal below is computed now, by"
        f' the same code as the diagrams above. Or try any position in the <a href="../../'
        f'{SANDBOX}">sandbox</a>.</p>\n'
        f'<script type="application/json" class="live-case">{_script_json(_case_json(case))}'
        "</script>\n"
        f"{_START}"
        '<div class="live-view" hidden><p class="live-controls">'
        '<button type="button" data-live-back>◀ Back</button> '
        '<span class="live-where"></span> '
        '<button type="button" data-live-next>Next ▶</button></p>'
        '<div class="live-boards"></div><div class="live-events"></div></div></section>\n'
    )


def _with_live_board(body: str, section: str) -> str:
    """The live board goes after the ruling's first diagram, before the next heading."""
    image = body.find("<img")
    heading = body.find("<h2", image) if image >= 0 else -1
    return body + section if heading < 0 else body[:heading] + section + body[heading:]


def _sandbox_page(cases: Mapping[str, Case], engine: bool) -> str:
    if not engine:
        return (
            "<h1>Sandbox</h1>\n<p>This site was built without Pyodide, so the sandbox, which"
            " runs camelup's engine in this page, is left out.</p>\n"
        )
    positions = {ruling: _case_json(case) for ruling, case in sorted(cases.items())}
    return (
        "<h1>Sandbox</h1>\n"
        "<p>camelup's engine, running in this page: paste a state's JSON (as the"
        ' <a href="docs/adapter-protocol.html">adapter protocol</a> writes it) or start from'
        " the position of a ruling's case, pick an action or a die face, and see the"
        " resulting board and the events, each with the clause that caused it. An illegal"
        " action shows the refusal's code and clause.</p>\n"
        '<section class="live" id="sandbox" data-live="sandbox">'
        f'<script type="application/json" class="live-positions">{_script_json(positions)}'
        "</script>\n"
        f"{_START}"
        '<div class="live-view" hidden>'
        '<p><label>A ruling\'s case <select id="sandbox-case"></select></label></p>'
        '<p><label for="sandbox-state">The state (JSON)</label><br>'
        '<textarea id="sandbox-state" rows="10" cols="80" spellcheck="false"></textarea><br>'
        '<button type="button" id="sandbox-read">Show this state</button></p>'
        '<div id="sandbox-board" class="live-boards"></div>'
        '<p><label>A die face (a pyramid ticket) <select id="sandbox-roll"></select></label>'
        ' <label>or another legal action <select id="sandbox-other"></select></label></p>'
        '<p><label for="sandbox-action">The action (JSON; edit it to try an illegal one)'
        '</label><br><textarea id="sandbox-action" rows="2" cols="80" spellcheck="false">'
        "</textarea><br>"
        '<button type="button" id="sandbox-apply">Apply</button> '
        '<button type="button" id="sandbox-continue" hidden>Continue from the result</button>'
        "</p>"
        '<div id="sandbox-result"><div class="live-boards"></div>'
        '<div class="live-events"></div></div></div></section>\n'
    )


def _diagram_cases(root: Path, pages: Mapping[str, str]) -> dict[str, Case]:
    """Each ruling's case drawn first on its page (``pages``: source -> Markdown text)."""
    wanted = {}
    for source, text in pages.items():
        ruling, case = _RULING_PAGE.fullmatch(source), _DIAGRAM_CASE.search(text)
        if ruling and case:
            wanted[case[1]] = ruling[1]
    if not wanted:
        return {}
    # Only the case files that name a wanted case are read: the generated ones, two thirds of
    # the suite's reading, hold no ruling's diagram.
    folder = root / "conformance"
    quoted = [json.dumps(case) for case in wanted]
    files = [
        path
        for path in case_files(folder)
        if any(name in path.read_text("utf-8") for name in quoted)
    ]
    suite = load_suite(folder, files=files)
    return {wanted[case.id]: case for case in suite.cases if case.id in wanted}


SNAPSHOT = "snapshot.bin"
SNAPSHOT_SECONDS = 300  # Node boots Pyodide once: some ten seconds on a busy two-core machine


def _snapshot_key(node: str, script: bytes, pyodide: Path, engine: Path) -> str:
    """What the snapshot is made of: the script, Pyodide's files, the engine's archive and the
    Node.js that runs them (its path, size and time: a new version is a new file)."""
    digest = hashlib.sha256(script)
    for file in (*(pyodide / name for name in PYODIDE_FILES), engine / "camelup-engine.zip"):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    binary = Path(node).resolve().stat()
    digest.update(f"{Path(node).resolve()}\0{binary.st_size}\0{binary.st_mtime_ns}".encode())
    return digest.hexdigest()


def make_snapshot(pyodide: Path, engine: Path) -> Path | None:
    """Pyodide's memory once camelup is imported, made by Node.js (``assets/snapshot.mjs``)
    beside the engine's archive in ``engine``; the browser then starts from it in a second
    or so instead of several. None (and the browser boots Pyodide itself) without Node.js or
    when Node cannot make it: the live boards work either way, only slower to start.

    Making one takes Node some ten seconds of CPU, two thirds of the whole build: it is kept in
    camelup's cache folder (:mod:`camelup.io.cache`: ``$CAMELUP_CACHE_DIR``, else the user's
    cache folder; never one another user can write to) under the digest of all it is made of,
    and a later build of the same engine with the same Pyodide and Node copies it instead (a
    snapshot is not the same bytes twice: any one made of these inputs does)."""
    node = shutil.which("node")
    if node is None:
        return None
    out = engine / SNAPSHOT
    script_file = _ASSET_FOLDER / "snapshot.mjs"
    snapshots = kind_folder("snapshots")
    key = _snapshot_key(node, script_file.read_bytes(), pyodide, engine)
    kept = None if snapshots is None else snapshots / (key + ".bin")
    if kept is not None and kept.is_file():
        shutil.copyfile(kept, out)
        return out
    with importlib.resources.as_file(script_file) as script:
        command = [node, str(script), str(pyodide), str(engine / "camelup-engine.zip"), str(out)]
        try:
            done = subprocess.run(
                command, capture_output=True, timeout=SNAPSHOT_SECONDS, check=False
            )
        except subprocess.TimeoutExpired:
            return None
    if done.returncode != 0 or not out.is_file():
        out.unlink(missing_ok=True)
        return None
    if kept is not None:
        _keep(out, kept)
    return out


def _keep(snapshot: Path, kept: Path) -> None:
    """Copy ``snapshot`` into the cache whole or not at all (written beside and renamed, as
    every output; a cache that cannot be written, read-only or full, only means the next build
    makes its own)."""
    with contextlib.suppress(OutputRefused):
        write_output(kept, snapshot.read_bytes())


def _ruling_questions() -> dict[str, str]:
    """Each ruling's question, by the targets that lead to it: its page, and its entry in the
    register (whose anchor starts with ``rul-NN``); a link to a ruling carries it as title."""
    questions = {}
    for ruling in load_registry().rulings:
        questions[f"docs/rulings/{ruling.id}.md"] = ruling.title
        questions[f"spec/rulings.md#{ruling.id.lower()}"] = ruling.title
    return questions


def _page_html(name: str, title: str, body: str, *, compatibility: bool) -> str:
    root = _relative(name, ".") + "/" if "/" in name else ""
    nav = [
        ("index.html", "Home"),
        ("docs/spec/README.html", "Spec"),
        ("docs/rulings/README.html", "Rulings"),
        ("docs/implementers/README.html", "Implementers"),
        ("docs/adapter-protocol.html", "Adapter protocol"),
        (SANDBOX, "Sandbox"),
    ]
    if compatibility:
        nav.append(("docs/compatibility.html", "Compatibility"))
    links = "".join(f'<a href="{root}{href}">{text}</a>' for href, text in nav)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)} · camelup</title>\n"
        '<link rel="icon" href="data:,">\n'
        f'<link rel="stylesheet" href="{root}{_ASSETS}/style.css">\n'
        f'</head>\n<body data-root="{root}">\n<header><nav>{links}'
        '<form role="search"><label>Search rulings and rules'
        ' <input id="site-search" type="search" autocomplete="off"'
        ' placeholder="a word, a ruling or a clause ID (press /)"'
        ' aria-describedby="search-status"></label>'
        '<span id="search-status" role="status"></span></form>'
        '<ul id="search-results" hidden></ul></nav></header>\n'
        f"<main>\n{body}</main>\n"
        f'<script src="{root}{_ASSETS}/search.js"></script>\n'
        f'<script src="{root}{_ASSETS}/live.js"></script>\n'
        "</body>\n</html>\n"
    )


def _source_page(text: str) -> str:
    lines = text.splitlines()
    spans = "".join(
        f'<span id="L{n}">{html.escape(line, quote=False) or " "}</span>'
        for n, line in enumerate(lines, start=1)
    )
    return f'<pre class="source"><code>{spans}</code></pre>\n'


class NotASiteFolder(Exception):
    """The output folder holds something other than an earlier build: it is left alone."""


def _refuse_foreign(out: Path) -> None:
    """Raise :class:`NotASiteFolder` unless ``out`` is missing, empty or an earlier build."""
    if out.is_dir() and any(out.iterdir()):
        if not (out / _ASSETS / "search.js").is_file():
            raise NotASiteFolder(f"{out} is not empty and holds no earlier build of the site")
    elif out.exists() and not out.is_dir():
        raise NotASiteFolder(f"{out} is not a folder")


def _empty_folder(out: Path) -> None:
    """Make ``out`` an empty folder; only an earlier build of the site may be deleted."""
    _refuse_foreign(out)
    if out.is_dir() and any(out.iterdir()):
        shutil.rmtree(out)
    make_folder(out)


def build_site(root: Path, out: Path, pyodide: Path | None = None) -> list[str]:
    """Write the site of the repository at ``root`` into ``out``; returns the pages written
    (relative to ``out``, sorted). ``pyodide``: the npm package's folder (default: the one
    below ``root``, :data:`PYODIDE_FOLDER`); without it the live boards are left out. Raises
    :class:`BrokenLinks` when a link leads nowhere and :class:`NotASiteFolder` when ``out``
    holds anything but an earlier build."""
    _refuse_foreign(out)  # before the pages are made: a refusal costs nothing
    pyodide = pyodide or root / PYODIDE_FOLDER
    engine = (pyodide / PYODIDE_FILES[0]).is_file()
    pending = _roots(root)
    ruling_sources = {
        source: (root / source).read_text("utf-8")
        for source in pending
        if _RULING_PAGE.fullmatch(source)
    }
    live_cases = _diagram_cases(root, ruling_sources)
    report = (root / "docs" / "compatibility.md").is_file()
    questions = _ruling_questions()
    seen = set(pending)
    pages: dict[str, Page] = {}
    files: dict[str, str | None] = {}  # output name -> HTML text, or None for a copied file
    links: list[tuple[str, str, str]] = []  # (page, target file, fragment) to check at the end
    problems: list[str] = []
    while pending:
        source = pending.pop(0)
        name = _output_name(source)
        suffix = PurePosixPath(source).suffix.lower()
        if source != HOME and not (root / source).is_file():
            continue  # reported by the page that links to it
        if suffix in _COPIED:
            files[name] = None
            continue
        text = home_markdown(root) if source == HOME else (root / source).read_text("utf-8")
        if suffix != ".md" and source != HOME:
            files[name] = _page_html(name, source, _source_page(text), compatibility=report)
            lines = range(1, len(text.splitlines()) + 1)
            pages[source] = Page("", source, tuple(f"L{n}" for n in lines), ())
            continue

        def rewrite(target: str, source: str = source, name: str = name) -> str:
            if _is_external(target) or target.startswith("#"):
                return target
            path, _, fragment = target.partition("#")
            resolved = _resolve(source, path)
            if resolved.startswith("../") or resolved == "..":
                problems.append(f"{source}: {target} (outside the repository)")
                return target
            if (root / resolved).is_dir():
                resolved = posixpath.join(resolved, "README.md")
            if not (root / resolved).is_file():
                problems.append(f"{source}: {target} (no such file)")
                return target
            if resolved not in seen:
                seen.add(resolved)
                pending.append(resolved)
            links.append((source, resolved, fragment))
            url = _relative(name, _output_name(resolved))
            return url + (f"#{fragment}" if fragment else "")

        def title_of(target: str, source: str = source) -> str | None:
            if _is_external(target):
                return None
            path, _, fragment = target.partition("#")
            resolved = _resolve(source, path) if path else source
            return questions.get(resolved) or questions.get(f"{resolved}#{fragment[:6]}")

        page = to_html(text, rewrite, title_of)
        pages[source] = page
        for target in page.targets:
            if target.startswith("#") and target[1:] not in page.anchors:
                problems.append(f"{source}: {target} (no such anchor)")
        body = page.body
        ruling = _RULING_PAGE.fullmatch(source)
        if ruling and ruling[1] in live_cases:
            body = _with_live_board(body, _live_section(live_cases[ruling[1]], engine))
        files[name] = _page_html(name, page.title or source, body, compatibility=report)
    files[SANDBOX] = _page_html(
        SANDBOX, "Sandbox", _sandbox_page(live_cases, engine), compatibility=report
    )
    for page_name, target, fragment in links:
        anchors = pages[target].anchors if target in pages else ()
        if fragment and fragment not in anchors:
            problems.append(f"{page_name}: {target}#{fragment} (no such anchor)")
    if problems:
        raise BrokenLinks(sorted(set(problems)))
    _empty_folder(out)
    for name, content in sorted(files.items()):
        destination = out / name
        make_folder(destination.parent)
        write_output(destination, (root / name).read_bytes() if content is None else content)
    assets = out / _ASSETS
    make_folder(assets)
    for asset in _ASSET_FILES:
        write_output(assets / asset, _ASSET_FOLDER.joinpath(asset).read_bytes())
    if engine:
        make_folder(assets / "pyodide")
        for name in PYODIDE_FILES:
            write_output(assets / "pyodide" / name, (pyodide / name).read_bytes())
        make_folder(assets / "engine")
        write_engine(assets / "engine" / "camelup-engine.zip")
        snapshot = make_snapshot(pyodide, assets / "engine")
        start = {"snapshot": snapshot.name if snapshot else None}
        write_output(assets / "engine" / "start.json", json.dumps(start))
    index = json.dumps(_search_index(), ensure_ascii=False, indent=0, sort_keys=True)
    write_output(assets / "search-index.js", f"window.camelupSearchIndex = {index};\n")
    return sorted(files)

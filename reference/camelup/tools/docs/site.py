"""The static site: the Markdown of ``docs/`` (and what it links to) as plain HTML pages.

The site mirrors the repository: ``docs/rulings/RUL-04.md`` becomes
``docs/rulings/RUL-04.html``, so every relative link of the Markdown keeps working once ``.md``
is read as ``.html``. The build starts from a home page and the documents of ``docs/`` and
follows every relative link: a linked Markdown file becomes a page, an image is copied, and any
other linked file (source code, a schema, a case file) becomes a page showing it, with an anchor
per line. A link to a file that does not exist, or to an anchor its page does not have, stops
the build with the list of them, so a broken link is caught before any browser sees it.

Every page carries a search box over the clause IDs (and the rulings and variants): a small
JavaScript index written beside the pages, no framework and nothing fetched from elsewhere.
"""

from __future__ import annotations

import html
import json
import posixpath
import shutil
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from camelup.io.outputs import make_folder, write_output
from camelup.spec.registry import load_registry
from camelup.tools.docs.markdown import Page, to_html

HOME = "index.md"  # the generated home page, at the root of the site
_COPIED = frozenset({".svg", ".png", ".jpg", ".gif"})
_ASSETS = "assets"


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
        " any implementation, and a small typed rules library. Search for a clause by its ID"
        " (for example `crazy.no-wrap`) in the box above.",
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


def _split(target: str) -> tuple[str, str]:
    path, _, fragment = target.partition("#")
    return path, fragment


def _is_external(target: str) -> bool:
    return bool(urlsplit(target).scheme)


def _resolve(page: str, path: str) -> str:
    """A link's target relative to the repository root (may start with '..')."""
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
    return joined


def _short(text: str, limit: int = 120) -> str:
    words = " ".join(text.split())
    return words if len(words) <= limit else words[: limit - 1].rsplit(" ", 1)[0] + " …"


def _search_index() -> list[dict[str, str]]:
    registry = load_registry()
    entries = []
    for clause in registry.clauses:
        page = f"docs/spec/{clause.file.removesuffix('.md')}.html"
        entries.append(
            {
                "id": clause.id,
                "label": f"{clause.number} {clause.id}",
                "text": _short(clause.text),
                "href": f"{page}#{clause.anchor}",
            }
        )
    for ruling in registry.rulings:
        entries.append(
            {
                "id": ruling.id,
                "label": ruling.id,
                "text": ruling.title,
                "href": f"docs/rulings/{ruling.id}.html",
            }
        )
    for name in sorted(registry.variants):
        entries.append(
            {
                "id": name,
                "label": f"variant {name}",
                "text": _short(registry.variants[name].description),
                "href": f"docs/rulings/variant-{name}.html",
            }
        )
    return entries


_STYLE = """\
body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;color:#1b1b1b}
header{background:#f3efe6;border-bottom:1px solid #d8d0bd;padding:.5rem 1rem}
header nav a{margin-right:1rem}
main{max-width:60rem;margin:0 auto;padding:1rem}
pre{background:#f6f6f6;padding:.6rem;overflow-x:auto}
code{font-family:ui-monospace,monospace;font-size:.92em}
table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:.2rem .5rem;vertical-align:top}
img{max-width:100%;height:auto;border:1px solid #ddd}
#clause-search{width:18rem}
#search-results{margin:.3rem 0 0;padding-left:1.2rem}
pre.source span{display:block}
"""

_SEARCH_JS = """\
// The clause search: matches the typed text against clause IDs, ruling IDs and variant names
// (prefix matches first), and lists links to them. The index is camelupSearchIndex, written
// by the site build into search-index.js; nothing is fetched.
(function () {
  "use strict";
  var input = document.getElementById("clause-search");
  var list = document.getElementById("search-results");
  var root = document.body.getAttribute("data-root");
  function matches(query) {
    var q = query.trim().toLowerCase();
    if (!q) { return []; }
    var prefix = [], inside = [];
    window.camelupSearchIndex.forEach(function (entry) {
      var id = entry.id.toLowerCase();
      if (id.indexOf(q) === 0) { prefix.push(entry); }
      else if (id.indexOf(q) > 0) { inside.push(entry); }
    });
    return prefix.concat(inside).slice(0, 20);
  }
  function show() {
    list.textContent = "";
    matches(input.value).forEach(function (entry) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = root + entry.href;
      link.textContent = entry.label;
      item.appendChild(link);
      item.appendChild(document.createTextNode(" " + entry.text));
      list.appendChild(item);
    });
  }
  input.addEventListener("input", show);
  input.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var found = matches(input.value);
    if (found.length) { window.location.href = root + found[0].href; }
  });
})();
"""


def _page_html(name: str, title: str, body: str, *, compatibility: bool) -> str:
    root = _relative(name, ".") + "/" if "/" in name else ""
    nav = [
        ("index.html", "Home"),
        ("docs/spec/README.html", "Spec"),
        ("docs/rulings/README.html", "Rulings"),
        ("docs/implementers/README.html", "Implementers"),
        ("docs/adapter-protocol.html", "Adapter protocol"),
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
        '<form role="search" style="display:inline">'
        '<label>Clause ID <input id="clause-search" type="search" autocomplete="off"'
        ' placeholder="e.g. crazy.no-wrap"></label></form>'
        '<ul id="search-results"></ul></nav></header>\n'
        f"<main>\n{body}</main>\n"
        f'<script src="{root}{_ASSETS}/search-index.js"></script>\n'
        f'<script src="{root}{_ASSETS}/search.js"></script>\n'
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


def _empty_folder(out: Path) -> None:
    """Make ``out`` an empty folder; only an earlier build of the site may be deleted."""
    if out.is_dir() and any(out.iterdir()):
        if not (out / _ASSETS / "search.js").is_file():
            raise NotASiteFolder(f"{out} is not empty and holds no earlier build of the site")
        shutil.rmtree(out)
    elif out.exists() and not out.is_dir():
        raise NotASiteFolder(f"{out} is not a folder")
    make_folder(out)


def build_site(root: Path, out: Path) -> list[str]:
    """Write the site of the repository at ``root`` into ``out``; returns the pages written
    (relative to ``out``, sorted). Raises :class:`BrokenLinks` when a link leads nowhere and
    :class:`NotASiteFolder` when ``out`` holds anything but an earlier build."""
    pending = _roots(root)
    report = (root / "docs" / "compatibility.md").is_file()
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
            path, fragment = _split(target)
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

        page = to_html(text, rewrite)
        pages[source] = page
        for target in page.targets:
            if target.startswith("#") and target[1:] not in page.anchors:
                problems.append(f"{source}: {target} (no such anchor)")
        files[name] = _page_html(name, page.title or source, page.body, compatibility=report)
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
    write_output(assets / "style.css", _STYLE)
    write_output(assets / "search.js", _SEARCH_JS)
    index = json.dumps(_search_index(), ensure_ascii=False, indent=0, sort_keys=True)
    write_output(assets / "search-index.js", f"window.camelupSearchIndex = {index};\n")
    return sorted(files)

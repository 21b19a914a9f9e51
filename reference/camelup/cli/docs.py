"""``camelup docs``: regenerate the generated pages of ``docs/``, or build the static site.

``camelup docs build`` rewrites ``docs/rulings/`` and ``docs/spec/`` (Markdown and SVG) from
the spec, the conformance suite and the engine; ``--check`` writes nothing to ``docs/`` and
fails when the committed pages differ from a fresh build (CI runs it). ``camelup docs site OUT``
turns the Markdown of ``docs/`` into a folder of HTML pages. The verb touches the rest of the
command line only through :func:`add_arguments` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

HELP = "regenerate the rulings and chapter pages of docs/, or build the static site"
EPILOG = """\
examples:
  camelup docs build              # rewrite docs/rulings/ and docs/spec/ of this checkout
  camelup docs build --check      # CI: exit 1, one line per file, when docs/ is stale
  camelup docs site site/         # the HTML site of docs/ into the folder site/

exit codes:
   0  written (or, with --check, docs/ is up to date)
   1  --check: docs/ is stale; site: a link of the documents leads nowhere (one line each)
   2  usage error (no docs/ folder found, bad option)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the verb's sub-verbs and options on ``parser`` (the ``docs`` subparser)."""
    parser.description = HELP
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    verbs = parser.add_subparsers(dest="docs_command", required=True)
    build = verbs.add_parser("build", help="regenerate docs/rulings/ and docs/spec/")
    build.add_argument(
        "--out", metavar="DIR", help="the docs folder to write (default: docs/ of this checkout)"
    )
    build.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail when the generated files of the docs folder are stale",
    )
    site = verbs.add_parser("site", help="build the static HTML site of docs/ into a folder")
    site.add_argument("out", metavar="OUT", help="the folder to write (emptied first)")
    site.add_argument(
        "--root", metavar="DIR", help="the repository to read (default: this checkout)"
    )
    parser.set_defaults(run=run)


def _checkout() -> Path:
    from camelup.resources import CHECKOUT

    if not (CHECKOUT / "docs").is_dir() or not (CHECKOUT / "spec").is_dir():
        raise _Usage("no docs/ folder beside the package: run from a source checkout, or --out")
    return CHECKOUT


class _Usage(Exception):
    pass


def write_pages(folder: Path) -> list[Path]:
    """Write the generated files below ``folder``, removing generated files that are no
    longer produced; returns the files whose content changed."""
    from camelup.docs.pages import GENERATED_FOLDERS, build_pages

    pages = build_pages()
    changed = []
    for sub in GENERATED_FOLDERS:
        for old in sorted((folder / sub).rglob("*")):
            relative = old.relative_to(folder).as_posix()
            if old.is_file() and old.suffix in (".md", ".svg") and relative not in pages:
                old.unlink()
                changed.append(old)
    for relative, text in pages.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
            changed.append(path)
    return changed


def stale_files(folder: Path) -> list[str]:
    """The generated files of ``folder`` that differ from a fresh build into a temporary
    folder: missing, changed, or no longer generated."""
    from camelup.docs.pages import GENERATED_FOLDERS

    with tempfile.TemporaryDirectory() as scratch:
        fresh = Path(scratch)
        write_pages(fresh)
        problems = []
        for sub in GENERATED_FOLDERS:
            ours = {
                p.relative_to(folder).as_posix() for p in (folder / sub).rglob("*") if p.is_file()
            }
            theirs = {
                p.relative_to(fresh).as_posix() for p in (fresh / sub).rglob("*") if p.is_file()
            }
            for name in sorted(ours | theirs):
                if name not in ours:
                    problems.append(f"{name}: missing")
                elif name not in theirs:
                    problems.append(f"{name}: no longer generated")
                elif (folder / name).read_bytes() != (fresh / name).read_bytes():
                    problems.append(f"{name}: stale")
        return problems


def run(options: argparse.Namespace) -> int:
    try:
        if options.docs_command == "build":
            folder = Path(options.out) if options.out else _checkout() / "docs"
            if options.check:
                if not folder.is_dir():
                    raise _Usage(f"--out {folder}: no such folder")
                problems = stale_files(folder)
                for problem in problems:
                    print(f"{folder / problem}", file=sys.stderr)
                if problems:
                    print(
                        f"camelup docs build --check: {len(problems)} file(s) differ;"
                        " run `camelup docs build` and commit the result",
                        file=sys.stderr,
                    )
                    return EXIT_FAILED
                print("docs build --check: docs/ is up to date")
                return EXIT_OK
            changed = write_pages(folder)
            print(f"docs build: {len(changed)} file(s) written or removed in {folder}")
            return EXIT_OK
        from camelup.docs.site import BrokenLinks, NotASiteFolder, build_site

        root = Path(options.root) if options.root else _checkout()
        try:
            written = build_site(root, Path(options.out))
        except NotASiteFolder as error:
            raise _Usage(str(error)) from None
        except BrokenLinks as broken:
            for problem in broken.problems:
                print(f"camelup docs site: {problem}", file=sys.stderr)
            return EXIT_FAILED
        print(f"docs site: {len(written)} file(s) in {options.out}")
        return EXIT_OK
    except _Usage as error:
        print(f"camelup docs: {error}", file=sys.stderr)
        return EXIT_USAGE

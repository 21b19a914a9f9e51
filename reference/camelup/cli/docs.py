"""``camelup docs``: regenerate the generated pages of ``docs/``, or build the static site.

``camelup docs build`` rewrites ``docs/rulings/`` and ``docs/spec/`` (Markdown and SVG) from
the spec, the conformance suite and the engine; ``--check`` writes nothing to ``docs/`` and
fails when the committed pages differ from a fresh build (CI runs it). ``camelup docs site OUT``
turns the Markdown of ``docs/`` into a folder of HTML pages. The verb touches the rest of the
command line only through :data:`VERBS`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import attrs

from camelup.cli.common import UsageError, Verb, options_from
from camelup.io import exits

HELP = "regenerate the rulings and chapter pages of docs/, or build the static site"


@attrs.frozen
class BuildOptions:
    out: str | None
    check: bool


@attrs.frozen
class SiteOptions:
    out: str
    root: str | None
    pyodide: str | None


def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="DIR", help="the docs folder to write (default: docs/ of this checkout)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; fail when the generated files of the docs folder are stale",
    )


def _site_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", metavar="OUT", help="the folder to write (emptied first)")
    parser.add_argument(
        "--root", metavar="DIR", help="the repository to read (default: this checkout)"
    )
    parser.add_argument(
        "--pyodide",
        metavar="DIR",
        help="the npm package pyodide's folder, for the live boards"
        " (default: .ci/node/node_modules/pyodide of the repository)",
    )


def _checkout(option: str) -> Path:
    """This source checkout; UsageError naming ``option`` (the way to give another) without."""
    from camelup.io.resources import CHECKOUT

    if not (CHECKOUT / "docs").is_dir() or not (CHECKOUT / "spec").is_dir():
        raise UsageError(
            f"no docs/ folder beside the package: run from a source checkout, or give {option}"
        )
    return CHECKOUT


def build(options: BuildOptions) -> int:
    from camelup.tools.docs.folder import stale_files, write_pages

    folder = Path(options.out) if options.out else _checkout("--out") / "docs"
    if options.check:
        if not folder.is_dir():
            raise UsageError(f"--out {folder}: no such folder")
        problems = stale_files(folder)
        for problem in problems:
            print(f"{folder / problem}", file=sys.stderr)
        if problems:
            print(
                f"camelup docs build --check: {len(problems)} file(s) differ;"
                " run `camelup docs build` and commit the result",
                file=sys.stderr,
            )
            return exits.FAILED
        print("docs build --check: docs/ is up to date")
        return exits.OK
    changed = write_pages(folder)
    print(f"docs build: {len(changed)} file(s) written or removed in {folder}")
    return exits.OK


def site(options: SiteOptions) -> int:
    from camelup.io.outputs import check_folder
    from camelup.tools.docs.site import (
        PYODIDE_FILES,
        PYODIDE_FOLDER,
        BrokenLinks,
        NotASiteFolder,
        build_site,
    )

    if options.root is None:
        root = _checkout("--root")
    elif not (Path(options.root) / "docs").is_dir():
        raise UsageError(f"--root {options.root}: no docs/ folder in it")
    else:
        root = Path(options.root)
    pyodide = Path(options.pyodide) if options.pyodide else root / PYODIDE_FOLDER
    check_folder(Path(options.out))  # the build takes seconds: a bad OUT is refused first
    try:
        written = build_site(root, Path(options.out), pyodide)
    except NotASiteFolder as error:
        raise UsageError(str(error)) from None
    except BrokenLinks as broken:
        for problem in broken.problems:
            print(f"camelup docs site: {problem}", file=sys.stderr)
        return exits.FAILED
    if not (pyodide / PYODIDE_FILES[0]).is_file():
        print(
            f"camelup docs site: no Pyodide in {pyodide} (npm install --prefix .ci/node"
            " pyodide): the live boards and the sandbox are left out",
            file=sys.stderr,
        )
    print(f"docs site: {len(written)} file(s) in {options.out}")
    return exits.OK


VERBS: tuple[Verb[Any], ...] = (
    Verb(
        name="build",
        summary="regenerate docs/rulings/ and docs/spec/",
        example="camelup docs build\ncamelup docs build --check  # CI: exit 1 when docs/ is stale",
        exit_codes=(
            (exits.OK, "written (or, with --check, docs/ is up to date)"),
            (exits.FAILED, "--check: docs/ is stale (one line per file)"),
            (exits.USAGE, "usage error: no docs/ folder found, bad option"),
        ),
        add_arguments=_build_arguments,
        options=options_from(BuildOptions),
        handle=build,
    ),
    Verb(
        name="site",
        summary="build the static HTML site of docs/ into a folder",
        example="camelup docs site site/",
        exit_codes=(
            (exits.OK, "written"),
            (exits.FAILED, "a link of the documents leads nowhere (one line each)"),
            (exits.USAGE, "usage error: no docs/ folder found (--root), OUT is not a site folder"),
        ),
        add_arguments=_site_arguments,
        options=options_from(SiteOptions),
        handle=site,
    ),
)

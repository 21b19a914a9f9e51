"""Where the data that ships with camelup lives: the spec and the conformance suite.

In an installed wheel they sit inside the package (``_spec``, ``_conformance``); in a source
checkout, at the root of the repository. One function finds each, so no module guesses paths.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # camelup/io/resources.py -> camelup/
CHECKOUT = PACKAGE.parent.parent  # reference/camelup -> the repository root


def _first(candidates: tuple[Path, ...], marker: str, what: str) -> Path:
    for candidate in candidates:
        if (candidate / marker).exists():
            return candidate
    raise FileNotFoundError(f"camelup: the {what} folder was not found beside the package")


def package_version() -> str:
    """camelup's version, from its one place (``pyproject.toml``) through the installed metadata;
    ``0+unknown`` for a source tree on ``sys.path`` that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("camelup")
    except PackageNotFoundError:
        return "0+unknown"


def spec_directory() -> Path:
    """The spec's Markdown chapters and rulings register."""
    return _first((PACKAGE / "_spec", CHECKOUT / "spec"), "rulings.md", "spec/")


def conformance_directory() -> Path:
    """The bundled conformance suite: ``cases/``, ``generated/`` and ``schema/``."""
    return _first((PACKAGE / "_conformance", CHECKOUT / "conformance"), "schema", "conformance/")


def schema_directory() -> Path:
    """The published JSON Schemas."""
    return conformance_directory() / "schema"

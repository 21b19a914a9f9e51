"""The examples in the README, the docs and the docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Documents that hold no example, each with the reason; every other document must hold one.
WITHOUT_EXAMPLES = {
    "compatibility.md": "the output of `camelup conformance report`, checked by its --check",
}
DOCUMENTS = [
    path
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    if path.name not in WITHOUT_EXAMPLES
]
MODULES = ["camelup", "camelup.spec.registry", "camelup.model.ruleset"]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_document_examples(path: Path) -> None:
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{path.name} has no example: a test that cannot fail"
    assert result.failed == 0


def test_every_document_is_tested_or_says_why_not() -> None:
    names = {p.name for p in (REPO / "docs").glob("*.md")}
    assert set(WITHOUT_EXAMPLES) <= names  # no stale exemption
    assert {p.name for p in DOCUMENTS} | set(WITHOUT_EXAMPLES) == names | {"README.md"}


def test_the_error_code_catalogue_is_generated_from_the_code() -> None:
    spec = importlib.util.spec_from_file_location("error_codes", REPO / "docs" / "error_codes.py")
    assert spec is not None and spec.loader is not None
    error_codes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(error_codes)
    text = error_codes.current()
    assert error_codes.rewritten(text) == text, "stale: run python docs/error_codes.py"
    table = text.split(error_codes.BEGIN)[1].split(error_codes.END)[0]
    for code, clause in [
        ("not-your-turn", "turn.order"),
        ("tile-adjacent", "tile.place.not-adjacent"),
    ]:
        assert any(f"`{code}`" in row and f"`{clause}`" in row for row in table.splitlines())


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0

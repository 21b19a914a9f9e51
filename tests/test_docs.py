"""The examples in the README, the docs and the docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
MODULES = ["camelup", "camelup.spec.registry", "camelup.model.ruleset"]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_document_examples(path: Path) -> None:
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0

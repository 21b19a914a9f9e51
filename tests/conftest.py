"""Test configuration: the ``clause`` marker and the import path of the shared helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `import helpers` from any test module


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "clause(*ids): the spec clause IDs (spec/*.md) whose rule the test checks",
    )

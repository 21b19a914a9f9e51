"""The version lives in one place (pyproject.toml) and every output that names it agrees."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from camelup.cli import main
from camelup.harness.adapter import hello_reply

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_version_shows_in_the_command_line_and_the_adapter_hello(
    capsys: pytest.CaptureFixture[str],
) -> None:
    declared = tomllib.loads(PYPROJECT.read_text("utf-8"))["project"]["version"]
    assert version("camelup") == declared  # the installed metadata is pyproject's
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"camelup {declared} (adapter protocol 1)\n"
    assert hello_reply()["implementation"]["version"] == declared

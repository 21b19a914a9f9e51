"""The public API type-checks for a typed caller: ``mypy --strict`` on tests/typing/usage.py."""

from __future__ import annotations

import ast
import importlib.util
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import camelup

ROOT = Path(__file__).resolve().parent.parent
USAGE = ROOT / "tests" / "typing" / "usage.py"
HAS_MYPY = importlib.util.find_spec("mypy") is not None


@pytest.mark.skipif(
    not HAS_MYPY,
    reason="mypy is not installed (pip install -e .[test]); cannot type-check usage.py",
)
def test_usage_passes_mypy_strict() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "tests/typing"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_usage_imports_only_the_public_api() -> None:
    tree = ast.parse(USAGE.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("camelup"):
            assert node.module == "camelup", f"usage.py imports the private module {node.module}"
            imported |= {alias.name for alias in node.names}
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("camelup") for a in node.names)
    assert imported, "usage.py must use camelup"
    assert imported <= set(camelup.__all__), imported - set(camelup.__all__)


def test_usage_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        runpy.run_path(str(USAGE), run_name="__main__")
    assert ended.value.code == 0
    out = capsys.readouterr().out
    assert out.count("win;") == 4

"""Running camelup's command line from a test: in-process, or as a real subprocess.

One definition of each helper the CLI tests share (they were copied into nine modules):
``run_cli`` and ``run_cli_completed`` call ``camelup.cli.main`` in this process; ``camelup`` and
``run_camelup`` start ``python -m camelup`` as a real process; ``faux`` names a misbehaving
adapter of ``faux_adapters/`` as an ``--adapter`` command; ``one_line`` asserts that an error
is one line.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from camelup.cli import main

FAUX = Path(__file__).parent / "faux_adapters"
PYTHON = shlex.quote(sys.executable)
GUARD = 120  # seconds: a hang guard for each subprocess, far beyond what any needs


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``camelup ARGV...`` in-process: the exit code, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_cli_completed(
    capsys: pytest.CaptureFixture[str], *argv: str
) -> subprocess.CompletedProcess[str]:
    """``run_cli`` as ``run_camelup`` reports it, for a test about the output, not the process."""
    code, out, err = run_cli(capsys, *argv)
    return subprocess.CompletedProcess(["camelup", *argv], code, out, err)


def camelup(*args: str) -> list[str]:
    """The command line of ``camelup ARGS...`` as a subprocess of this Python."""
    return [sys.executable, "-m", "camelup", *args]


def run_camelup(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    """``camelup ARGS...`` as a real process, its output captured as text."""
    return subprocess.run(
        camelup(*args), capture_output=True, text=True, timeout=GUARD, check=False, **options
    )


def faux(script: str, *args: str) -> str:
    """The ``--adapter`` command that runs ``faux_adapters/SCRIPT ARGS...``."""
    return shlex.join([sys.executable, str(FAUX / script), *args])


def one_line(stderr: str) -> str:
    """The only line of ``stderr``; fails the test if there is not exactly one."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    return lines[0]

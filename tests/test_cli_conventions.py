"""What users expect of a command-line test tool (issue 10, "Conventions"): --version, help,
progress on a terminal only, colour, --exitfirst/--maxfail, --last-failed, and an ``import
camelup`` that stays lean. What needs a process (a terminal, a fresh interpreter) runs the real
command line; the rest calls it in this process (``run``)."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from camelup.cli.app import build_parser
from camelup.cli.conformance import VERBS as CONFORMANCE
from camelup.cli.conformance.run import FORMATS
from camelup.cli.docs import VERBS as DOCS
from camelup.cli.odds import VERB as ODDS
from camelup.cli.render import VERB as RENDER
from camelup.cli.spec import VERBS as SPEC
from camelup.harness.reports import FORMATS as RENDERED
from commands import camelup, faux
from commands import run_cli_completed as run

FAUX = Path(__file__).parent / "faux_adapters"
SELECTION = ("--id", "turn")  # 8 cases
TARGET = "turn.order/wraps-to-seat-zero"
GUARD = 120  # a hang guard only


def on_a_terminal(
    *args: str, stream: str, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    """Run with ``stream`` ("stdout" or "stderr") on a pseudo-terminal; what each side got."""
    master, slave = pty.openpty()
    other = subprocess.PIPE
    process = subprocess.Popen(
        camelup(*args),
        stdout=slave if stream == "stdout" else other,
        stderr=slave if stream == "stderr" else other,
        env=env,
        text=True,
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out, err = process.communicate(timeout=GUARD)
    terminal = seen.decode("utf-8", "replace")
    if stream == "stdout":
        return process.returncode, terminal, err
    return process.returncode, out, terminal


# ----------------------------------------------------------------------------- --version


def test_version_names_the_package_and_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "--version")
    assert result.returncode == 0
    number = importlib.metadata.version("camelup")
    assert result.stdout == f"camelup {number} (adapter protocol 1)\n"
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert f'version = "{number}"' in pyproject  # one source: pyproject, via the metadata


def test_version_and_import_camelup_stay_lean() -> None:
    check = (
        "import sys\n"
        "import camelup\n"
        "assert not [m for m in sys.modules if m.startswith('camelup.cli')], 'cli imported'\n"
        "from camelup.cli import main\n"
        "assert main(['--version']) == 0\n"
        "heavy = [m for m in ('jsonschema', 'hypothesis') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=GUARD
    )
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------------------------- help


def _verb_parsers() -> dict[str, argparse.ArgumentParser]:
    parsers: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}".strip())
        if parser.get_default("run") is not None:  # a verb, not a group
            parsers[path] = parser

    walk(build_parser(), "")
    return parsers


VERB_NAMES = sorted(_verb_parsers())


def test_every_verb_is_declared_once() -> None:
    names = {f"spec {v.name}" for v in SPEC} | {f"conformance {v.name}" for v in CONFORMANCE}
    names |= {f"docs {v.name}" for v in DOCS}
    assert set(VERB_NAMES) == names | {RENDER.name, ODDS.name} and len(names) == 17


@pytest.mark.parametrize("path", VERB_NAMES)
def test_each_verbs_help_has_an_example_its_own_exit_codes_and_positional_help(path: str) -> None:
    parser = _verb_parsers()[path]
    text = parser.format_help()
    assert "\nexample:\n  camelup " in text
    group, _, name = path.rpartition(" ")
    verbs = {"spec": SPEC, "conformance": CONFORMANCE, "docs": DOCS, "": (RENDER, ODDS)}[group]
    verb = next(v for v in verbs if v.name == name)
    codes = [int(c) for c in re.findall(r"^ +(\d+)  ", text.split("exit codes:")[1], re.M)]
    assert codes == [c for c, _ in verb.exit_codes] + [70, 74, 129, 130, 141, 143]
    for action in parser._actions:
        if not action.option_strings:
            assert action.help, f"{path}: positional {action.dest} has no help"


def test_list_help_does_not_claim_the_exit_codes_of_run(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "conformance", "list", "--help").stdout
    assert "every selected case passed" not in text
    assert "adapter" not in text.split("exit codes:")[1]


def test_defaults_and_the_handshake_wait_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(run(capsys, "conformance", "run", "--help").stdout.split())
    assert "per-case timeout for an adapter, at most 86400 (default: 5)" in text
    assert "--handshake-timeout SECONDS" in text and "answer hello" in text
    assert "(default: 20)" in text
    assert "report format (default: human)" in text


def test_the_format_choices_are_those_the_reports_render() -> None:
    assert FORMATS == RENDERED


# ------------------------------------------------------------------- progress and colour


def test_progress_shows_on_a_terminal_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, terminal = on_a_terminal("conformance", "run", *SELECTION, stream="stderr")
    assert code == 0 and "[8/8] 0 failed or errored" in terminal
    piped = run(capsys, "conformance", "run", *SELECTION)
    assert piped.returncode == 0 and piped.stderr == ""


@pytest.mark.parametrize(
    ("option", "no_color", "coloured"),
    [
        ("auto", None, True),
        ("auto", "1", False),
        ("never", None, False),
        ("always", "1", True),  # an option on the command line beats the environment
    ],
)
def test_colour_on_a_terminal_honours_no_color_and_the_option(
    option: str, no_color: str | None, coloured: bool
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    if no_color is not None:
        env["NO_COLOR"] = no_color
    code, terminal, _ = on_a_terminal(
        "conformance", "run", *SELECTION, "--color", option, stream="stdout", env=env
    )
    assert code == 0
    assert ("\x1b[32m8 passed, 0 failed, 0 errored, 0 skipped\x1b[0m" in terminal) == coloured
    assert ("\x1b[" in terminal) == coloured


def test_no_colour_when_piped(capsys: pytest.CaptureFixture[str]) -> None:
    assert "\x1b" not in run(capsys, "conformance", "run", *SELECTION).stdout


# ---------------------------------------------------------------- --exitfirst, --maxfail


@pytest.mark.parametrize(
    ("option", "failures", "stopped"),
    [
        (["-x"], 1, "stopped at the first failed or errored case (-x, --maxfail 1)"),
        (["--maxfail", "3"], 3, "stopped after 3 failed or errored cases (--maxfail 3)"),
    ],
)
def test_the_run_stops_after_that_many_failures(
    option: list[str], failures: int, stopped: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(
        capsys, "conformance", "run", *SELECTION, "--format", "jsonl", *option,
        "--adapter", faux("always_wrong.py"),
    )  # fmt: skip
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    footer = lines[-1]
    assert footer["counts"]["failed"] == failures and len(lines) - 2 == failures
    assert footer["ended_early"] == stopped
    assert f"run ended early: {stopped}" in result.stderr


def test_maxfail_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "conformance", "run", "--maxfail", "0")
    assert result.returncode == 2
    assert result.stderr == "camelup conformance: --maxfail 0: must be 1 or more\n"


# -------------------------------------------------------------------------- --last-failed


def test_last_failed_reruns_what_failed_and_forgets_what_passed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = Path(".camelup-lastfailed.json")  # in the test's own working directory
    clean = run(capsys, "conformance", "run", *SELECTION)
    assert clean.returncode == 0 and not state.exists()  # nothing to record, nothing written
    crash = run(
        capsys, "conformance", "run", *SELECTION, "--adapter", faux("crash_on_case.py", TARGET)
    )
    assert crash.returncode == 4
    assert json.loads(state.read_text()) == {"failed": [TARGET]}
    again = run(capsys, "conformance", "run", *SELECTION, "--last-failed", "--format", "jsonl")
    assert again.returncode == 0
    assert [json.loads(x)["id"] for x in again.stdout.splitlines()[1:-1]] == [TARGET]
    assert "--last-failed: running the 1 case(s) that failed last time" in again.stderr
    assert json.loads(state.read_text()) == {"failed": []}
    rest = run(capsys, "conformance", "run", *SELECTION, "--lf")
    assert rest.returncode == 0
    assert "no recorded failure among them; running all 8" in rest.stderr
    assert rest.stdout.splitlines()[-1] == "8 passed, 0 failed, 0 errored, 0 skipped"


def test_a_broken_last_failed_file_is_a_warning_not_a_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    Path(".camelup-lastfailed.json").write_text("{not json")  # in the test's working directory
    result = run(capsys, "conformance", "run", *SELECTION, "--lf")
    assert result.returncode == 0
    assert result.stderr.startswith("warning: .camelup-lastfailed.json: not JSON (line 1")


# ------------------------------------------------------------------- shell completion


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts_come_from_shtab(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "--print-completion", shell)
    assert result.returncode == 0, result.stderr
    assert "conformance" in result.stdout and "--last-failed" in result.stdout


def test_completion_without_shtab_says_what_to_install() -> None:
    check = (
        "import sys\n"
        "sys.modules['shtab'] = None  # as if it were not installed\n"
        "from camelup.cli import main\n"
        "raise SystemExit(main(['--print-completion', 'bash']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=GUARD
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "camelup: --print-completion needs the shtab package: pip install 'camelup[completion]'"
        " (or pip install shtab)\n"
    )

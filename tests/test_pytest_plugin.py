"""The pytest plugin (``camelup.testing.plugin``) and the in-process adapter class.

Every run here is an inner pytest session (pytester) with the toy adapter's class, compared
with what ``camelup conformance run`` says of the toy adapter program: the same verdict for every
case, the same selection by ID and clause, the same outcomes under pytest-xdist. Only the first
test runs the whole suite; the others select a few cases.
"""

from __future__ import annotations

import functools
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import camelup.harness
import camelup.harness.suite
from camelup.harness import Suite, load_suite, suite_directory
from camelup.harness.protocol import Reply
from camelup.testing.adapter import InProcessAdapter, answer
from camelup.testing.plugin import PLUGIN_NAME
from commands import FAUX, PYTHON, one_line, run_cli

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
TOY = f"{PYTHON} {DOCS / 'toy_adapter.py'}"
TOY_CLASS = "toy_adapter:ToyAdapter"
TOY_EXPECTATIONS = str(DOCS / "toy_expectations.toml")
PASSED_BY_TOY = "dice.grey-faces/no-four"  # a case the toy gets right
FAILED_BY_TOY = "tile.land.crazy-reversed/booing-clockwise-underneath"  # one it gets wrong


@functools.cache
def _bundled_suite() -> Suite:
    return load_suite()


def _suite_read_once(directory: Path | None = None, **options: Any) -> Suite:
    """The bundled suite read once, whether named (as ``conformance run`` names it) or not."""
    if not options and (directory is None or directory == suite_directory()):
        return _bundled_suite()
    return load_suite(directory, **options)


@pytest.fixture(autouse=True)
def _inner_sessions_share_one_reading_of_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each inner session's plugin, and each ``conformance run`` the tests compare it with,
    reads the bundled suite (1.3 s of CPU): here, in one process, they get the one reading of
    the same files (a Suite is frozen), as the tests here do."""
    monkeypatch.setattr(camelup.harness, "load_suite", _suite_read_once)
    monkeypatch.setattr(camelup.harness.suite, "load_suite", _suite_read_once)


@pytest.fixture
def inner(pytester: pytest.Pytester) -> pytest.Pytester:
    """An inner pytest whose conftest.py lets it import the toy adapter (in xdist's workers
    too, which read it as well)."""
    pytester.makeconftest(f"import sys\n\nsys.path.insert(0, {str(DOCS)!r})\n")
    return pytester


def outcomes(recorder: pytest.HookRecorder) -> dict[str, str]:
    """The outcome of every item run: passed, failed, skipped or xfail, by node ID."""
    found = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            found[report.nodeid] = "xfail" if hasattr(report, "wasxfail") else report.outcome
    return found


def cli_verdicts(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, str]:
    """``conformance run --format jsonl ARGV`` on the toy program: each case's verdict, named
    as pytest names outcomes (an expected failure is "xfail", an error a failure)."""
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--adapter", TOY, "--format", "jsonl", *argv
    )
    assert code in (0, 1), out[-2000:]
    found = {}
    for line in out.splitlines():
        record = json.loads(line)
        if "verdict" in record:
            verdict = "xfail" if record["note"] == "xfail" else record["verdict"]
            found[f"camelup::{record['id']}"] = "failed" if verdict == "errored" else verdict
    return found


def test_the_toy_class_gets_the_verdicts_of_conformance_run(
    inner: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = cli_verdicts(capsys, "--expectations", TOY_EXPECTATIONS, "--strict")
    recorder = inner.inline_run(
        f"--camelup-adapter={TOY_CLASS}", f"--camelup-expectations={TOY_EXPECTATIONS}"
    )
    got = outcomes(recorder)
    assert got == expected
    counts = {o: list(expected.values()).count(o) for o in ("passed", "failed", "xfail", "skipped")}
    assert counts["passed"] > 0 and counts["xfail"] > 0 and counts["skipped"] > 0
    assert counts["failed"] == 0  # every failure of the toy is listed in its expectations
    recorder.assertoutcome(passed=counts["passed"], skipped=counts["skipped"] + counts["xfail"])


def test_a_failure_shows_the_block_of_the_human_report(
    inner: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "conformance", "run", "--adapter", TOY, "--id", FAILED_BY_TOY)
    assert code == 1
    block = out.split("\n\n")[1].splitlines()  # after the implementation and adapter lines
    assert block[0].startswith(f"FAIL {FAILED_BY_TOY}  [tile.land.crazy-reversed]")
    assert any("expected:" in line for line in block) and any("actual:" in line for line in block)
    result = inner.runpytest(f"--camelup-adapter={TOY_CLASS}", "-k", FAILED_BY_TOY)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([line.replace("[", "[[]") for line in block], consecutive=True)


def test_a_known_failure_that_passes_fails_the_run(
    inner: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_verdicts(capsys, "--id", PASSED_BY_TOY) == {f"camelup::{PASSED_BY_TOY}": "passed"}
    expectations = inner.makefile(
        ".toml", expectations=f'[[xfail]]\nid = "{PASSED_BY_TOY}"\nreason = "fixed since"\n'
    )
    result = inner.runpytest(
        f"--camelup-adapter={TOY_CLASS}",
        f"--camelup-expectations={expectations}",
        "-k",
        PASSED_BY_TOY,
    )
    result.assert_outcomes(failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([f"XPASS {PASSED_BY_TOY} *", "*expected to fail (fixed since*"])


def test_a_skip_entry_skips_and_an_unused_entry_is_warned_of(inner: pytest.Pytester) -> None:
    expectations = inner.makefile(
        ".toml",
        expectations=f'[[skip]]\nid = "{FAILED_BY_TOY}"\nreason = "not yet"\n'
        '[[xfail]]\nid = "tile.place"\nreason = "not selected"\n',
    )
    result = inner.runpytest(
        f"--camelup-adapter={TOY_CLASS}",
        f"--camelup-expectations={expectations}",
        "-k",
        FAILED_BY_TOY,
        "-rs",
    )
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["*expected-skip: not yet*"])
    warned = [line for line in result.outlines if line.startswith("camelup: warning:")]
    assert warned == [
        "camelup: warning: expectations.toml#/xfail/0: expectation 'tile.place'"
        " matches no selected case"
    ]


def selected(pytester: pytest.Pytester, *argv: str) -> set[str]:
    result = pytester.runpytest(f"--camelup-adapter={TOY_CLASS}", "--collect-only", "-q", *argv)
    return {line for line in result.outlines if line.startswith("camelup::")}


def test_k_and_m_select_by_case_id_and_by_clause(inner: pytest.Pytester) -> None:
    cases = _suite_read_once().cases
    assert selected(inner, "-k", FAILED_BY_TOY) == {f"camelup::{FAILED_BY_TOY}"}
    clause = "tile.land.crazy-reversed"
    citing = {
        f"camelup::{case.id}"
        for case in cases
        if clause in case.clauses or any(case.clause_of(check) == clause for check in case.checks)
    }
    assert len(citing) >= 3  # hand-written and generated cases both cite it
    assert selected(inner, "-m", f"camelup_clause(id='{clause}')") == citing
    assert selected(inner, "-k", clause) == citing
    first = {f"camelup::{case.id}" for case in cases if case.edition == "first"}
    assert selected(inner, "-m", "camelup(edition='first')") == first
    assert first and len(first) < len(cases)


def _workers_share_the_reading_of_the_suite(inner: pytest.Pytester) -> None:
    """The xdist workers, processes of their own, unpickle this process's reading of the suite
    instead of reading the case files (1.3 s of CPU a worker, 0.2 s from the pickle): the same
    frozen Suite, as the inner sessions of this process get it."""
    reading = inner.path / "suite.pickle"
    reading.write_bytes(pickle.dumps(_suite_read_once()))
    inner.makeconftest(
        f"import pickle\nimport sys\n\nsys.path.insert(0, {str(DOCS)!r})\n\n"
        "import camelup.harness\n\n"
        f"with open({str(reading)!r}, 'rb') as file:\n"
        "    SUITE = pickle.load(file)\n"
        "camelup.harness.load_suite = lambda *_, **__: SUITE\n"
    )


def test_xdist_gives_the_same_outcomes(inner: pytest.Pytester) -> None:
    # Expected failures, passes and skips, run with and without workers.
    _workers_share_the_reading_of_the_suite(inner)
    argv = (
        f"--camelup-adapter={TOY_CLASS}",
        f"--camelup-expectations={TOY_EXPECTATIONS}",
        "-k",
        "tile.land.crazy-reversed or dice.grey-faces",
        "--assert=plain",  # the workers need no rewritten asserts: the cases raise their own
    )
    serial = outcomes(inner.inline_run(*argv))
    parallel = outcomes(inner.inline_run(*argv, "-n", "2"))
    assert parallel == serial
    assert set(serial.values()) == {"passed", "xfail", "skipped"}


def test_the_plugin_is_inert_unless_asked(inner: pytest.Pytester) -> None:
    pytester = inner
    pytester.makepyfile(test_alone="def test_alone():\n    assert True\n")
    result = pytester.runpytest("--collect-only", "-q")
    assert [line for line in result.outlines if "::" in line] == ["test_alone.py::test_alone"]
    recorder = pytester.inline_run()
    recorder.assertoutcome(passed=1)
    plugins = pytester.parseconfigure().pluginmanager
    assert plugins.has_plugin("camelup")  # loaded by its entry point, and idle
    assert not plugins.has_plugin(PLUGIN_NAME)
    asked = pytester.parseconfigure(f"--camelup-adapter={TOY_CLASS}", "-p", "no:xdist")
    assert asked.pluginmanager.has_plugin(PLUGIN_NAME)


def test_the_idle_plugin_loads_no_conformance_runner() -> None:
    # pytest imports the entry point in every session where camelup is installed.
    script = (
        "import sys\n"
        "import camelup.testing.plugin\n"
        "print(sorted(m for m in sys.modules if m.startswith('camelup.harness')))\n"
        "from camelup.testing import Adapter, InProcessAdapter, load_adapter\n"
        "print(Adapter.__module__, InProcessAdapter.__module__, load_adapter.__module__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == ["[]", " ".join(["camelup.testing.adapter"] * 3)]


def test_a_conftest_asks_with_add_suite_and_the_command_line_wins(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(
        f"import sys\n\nsys.path.insert(0, {str(DOCS)!r})\n"
        "from toy_adapter import ToySolver\n\n"
        "from camelup.testing.plugin import add_suite\n\n\n"
        "def pytest_configure(config):\n"
        "    add_suite(config, ToySolver)\n"
    )
    by_conftest = pytester.runpytest("-k", PASSED_BY_TOY, "-rs")
    by_conftest.assert_outcomes(skipped=1)  # the solver plays no game
    by_conftest.stdout.fnmatch_lines(["*unsupported: needs the capability*"])
    by_option = pytester.runpytest(f"--camelup-adapter={TOY_CLASS}", "-k", PASSED_BY_TOY)
    by_option.assert_outcomes(passed=1)


def test_a_bad_adapter_name_is_a_one_line_usage_error(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--camelup-adapter=no_such_module:Adapter")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if "camelup-adapter" in line]
    assert errors == [
        "ERROR: --camelup-adapter 'no_such_module:Adapter': cannot import no_such_module:"
        " No module named 'no_such_module'"
    ]


def test_fuzz_games_are_items_showing_each_new_finding_shrunk(inner: pytest.Pytester) -> None:
    result = inner.runpytest(
        f"--camelup-adapter={TOY_CLASS}", "--camelup-fuzz=1", "-m", "camelup(kind='fuzz')"
    )
    result.assert_outcomes(failed=1)  # seed 1: the toy moves the wrong crazy camel
    result.stdout.fnmatch_lines(
        ["FAIL crazy.select.* at /track/*: game of * steps shrunk to * step(s): *", '*"cases": [*']
    )
    known = inner.runpytest(
        f"--camelup-adapter={TOY_CLASS}",
        "--camelup-fuzz=1",
        f"--camelup-expectations={TOY_EXPECTATIONS}",
        "-m",
        "camelup(kind='fuzz')",
    )
    known.assert_outcomes(xfailed=1)  # the toy's expectations know that mistake


def test_the_served_reference_class_passes_the_suite(capsys: pytest.CaptureFixture[str]) -> None:
    # The whole suite, every case of every rule set, through the class served as a program.
    served = f"{PYTHON} -m camelup.testing.serve reference_class:ReferenceAdapter"
    code, out, err = run_cli(capsys, "conformance", "run", "--adapter", served)
    assert code == 0, out[-3000:] + err
    cases = len(_suite_read_once().cases)
    assert cases > 700
    assert out.splitlines()[-1] == f"{cases} passed, 0 failed, 0 errored, 0 skipped"


@pytest.fixture(autouse=True)
def _faux_classes_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The served classes of faux_adapters/ import as modules, in this process and its children."""
    monkeypatch.syspath_prepend(str(FAUX))
    monkeypatch.chdir(FAUX)


def test_a_reply_that_is_not_json_is_errored_in_process_as_when_served() -> None:
    from reference_class import NotJsonAdapter, RaisingAdapter

    case = _suite_read_once().cases[0].wire()
    body = answer(NotJsonAdapter(), case)
    assert body["errored"]["message"].startswith("the reply is not JSON: ")
    raised = answer(RaisingAdapter(), case)["errored"]["message"]
    assert raised.startswith("RuntimeError: the engine fell over (at ")
    assert raised.endswith(" in run)")
    client = InProcessAdapter(NotJsonAdapter)
    assert client.start().name == "camelup"
    [(index, outcome)] = list(client.run([case]))
    assert index == 0 and isinstance(outcome, Reply) and outcome.body == body


def test_serve_answers_every_line_and_names_a_bad_class_in_one_line() -> None:
    case = _suite_read_once().cases[0].wire()
    lines = [
        {"cmd": "hello", "protocol": 1},
        "not json",
        {"cmd": "run", "seq": 1, "case": case},
        {"cmd": "stop"},
        {"cmd": "run", "seq": 2, "case": case},  # after stop: never answered
    ]
    served = subprocess.run(
        [sys.executable, "-m", "camelup.testing.serve", "reference_class:RaisingAdapter"],
        input="".join(f"{line if isinstance(line, str) else json.dumps(line)}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert served.returncode == 0 and served.stderr == ""
    hello, garbage, ran = (json.loads(line) for line in served.stdout.splitlines())
    assert hello["implementation"]["name"] == "camelup"
    assert set(garbage) == {"errored"}
    assert ran["seq"] == 1 and ran["errored"]["message"].startswith("RuntimeError: the engine")
    missing = subprocess.run(
        [sys.executable, "-m", "camelup.testing.serve", "reference_class:Nothing"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2
    assert one_line(missing.stderr) == (
        "camelup.testing.serve: 'reference_class:Nothing': reference_class has no Nothing"
    )

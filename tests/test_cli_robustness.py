"""The defects of issue 10, each reproduced through the command line: ``python -m camelup`` in a
subprocess where the process is what is judged (real signals, closed and full standard output,
adapters that misbehave as real ones do and leave children: ``faux_adapters/evil.py``), and
``camelup.cli.main`` in this process where only what it prints and returns is (usage errors,
reports of misbehaving adapters, suites that cannot load).

Every test uses a handful of cases (``--id turn``: 8 cases) and short timeouts. A subprocess
is given a generous ``timeout`` only so that a regression fails the test instead of hanging
the suite; nothing here asserts how fast anything is.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import junitparser
import pytest
from tap.parser import Parser as TapParser

from commands import camelup, one_line, run_cli_completed
from commands import run_camelup as run

REPO = Path(__file__).resolve().parent.parent
EVIL = Path(__file__).parent / "faux_adapters" / "evil.py"
SELECTION = ("--id", "turn")  # 8 cases of the bundled suite, both editions
TARGET = "turn.order/wraps-to-seat-zero"  # one of them, first edition
OTHER = "turn.order/not-your-turn"  # another
GUARD = 120  # seconds: a hang guard for each subprocess, far beyond what any needs


def evil(mode: str, log: Path, case: str = "") -> str:
    return shlex.join([sys.executable, str(EVIL), mode, str(log), *([case] if case else [])])


def logged(log: Path, kind: str) -> list[str]:
    if not log.exists():
        return []
    words = (line.split(" ", 1) for line in log.read_text("utf-8").splitlines())
    return [rest for first, rest in words if first == kind]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's wait is missing


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)


def _sleeping_with_cpu(pid: int) -> tuple[bool, int]:
    """Whether ``pid`` is asleep (blocked, not runnable), and the CPU ticks it has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return fields[0] == "S", int(fields[11]) + int(fields[12])


def wait_until_blocked(pid: int, what: str) -> None:
    """Wait until ``pid`` sleeps and stays asleep without using CPU for 0.3 s: it has done all
    it could with the input it had (a runner waiting on a stalled adapter). Under load a
    process that merely waits for a core is runnable, not asleep, so it is not mistaken."""

    def blocked() -> bool:
        asleep, ticks = _sleeping_with_cpu(pid)
        if not asleep:
            return False
        time.sleep(0.3)
        still_asleep, later = _sleeping_with_cpu(pid)
        return still_asleep and later == ticks

    wait_until(blocked, what)


def assert_no_process_left(log: Path) -> None:
    started = [int(pid) for pid in logged(log, "pid")]
    assert started, "the adapter logged no process"
    wait_until(lambda: not any(alive(pid) for pid in started), f"processes {started} to end")


def jsonl_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


# -------------------------------------------------- 1. a timeout that holds, no orphan left


def test_an_adapter_that_exits_leaving_a_child_holding_stdout_fails_at_once(
    tmp_path: Path,
) -> None:
    log = tmp_path / "adapter.log"
    result = run(
        "conformance", "run", *SELECTION, "--timeout", "1",
        "--adapter", evil("exit-leaving-child", log),
    )  # fmt: skip
    assert result.returncode == 5, result.stderr
    assert "the adapter exited (status 1) before answering hello" in result.stderr
    assert_no_process_left(log)


def test_a_child_that_left_the_adapters_group_but_holds_its_stdout_is_killed(
    tmp_path: Path,
) -> None:
    log = tmp_path / "adapter.log"
    result = run(
        "conformance", "run", "--id", OTHER, "--adapter", evil("setsid-child", log),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert_no_process_left(log)


def test_the_shell_one_liner_of_the_audit_exits_with_5(tmp_path: Path) -> None:
    result = run(
        "conformance", "run", *SELECTION, "--timeout", "1",
        "--adapter", "sh -c 'sleep 600 & exit 1'",
    )  # fmt: skip
    assert result.returncode == 5, result.stderr
    assert "exited (status 1) before answering hello" in result.stderr


def test_a_wrapper_around_a_hung_engine_times_out_and_its_group_is_killed(
    tmp_path: Path,
) -> None:
    log = tmp_path / "adapter.log"
    result = run(
        "conformance", "run", *SELECTION, "--timeout", "1", "--format", "jsonl",
        "--adapter", evil("child-then-hang", log, TARGET),
    )  # fmt: skip
    assert result.returncode == 4, result.stderr
    lines = jsonl_lines(result.stdout)
    cases = {line["id"]: line for line in lines[1:-1]}
    assert cases[TARGET]["verdict"] == "errored"
    assert "no reply within 1 s" in cases[TARGET]["reason"]
    assert all(c["verdict"] == "passed" for i, c in cases.items() if i != TARGET)
    assert len(logged(log, "pid")) >= 4  # restarted after the timeout: two adapters, two children
    assert_no_process_left(log)


# ------------------------------------------------- 2. an interrupted run keeps its report


def _stalled_run(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[str], Path]:
    """A run of the selection on an adapter that answers two cases and then stalls, and the
    adapter's log."""
    log = tmp_path / "adapter.log"
    process = subprocess.Popen(
        camelup(
            "conformance", "run", *SELECTION, "--timeout", "60", "--adapter", evil("stall", log),
            *options,
        ),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    return process, log


def _interrupted_run(
    tmp_path: Path, number: signal.Signals, *options: str
) -> tuple[subprocess.Popen[str], Path, str, str]:
    process, log = _stalled_run(tmp_path, *options)
    wait_until(lambda: len(logged(log, "served")) >= 2, "two cases answered")
    # Answered is not yet judged: the signal comes once the runner has read both replies and
    # waits on the stalled third.
    wait_until_blocked(process.pid, "the runner to wait on the stalled case")
    process.send_signal(number)
    out, err = process.communicate(timeout=GUARD)
    return process, log, out, err


@pytest.mark.parametrize(
    ("number", "code"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_an_interrupted_run_writes_the_junit_report_of_the_finished_cases(
    tmp_path: Path, number: signal.Signals, code: int
) -> None:
    report = tmp_path / "r.xml"
    process, log, _, err = _interrupted_run(
        tmp_path, number, "--format", "junit", "-o", str(report)
    )
    assert process.returncode == code, err
    assert f"interrupted by {number.name}" in err and "Traceback" not in err
    xml = junitparser.JUnitXml.fromfile(str(report))
    cases = [case for suite in xml for case in suite]
    finished = [case for case in cases if case.classname != "camelup"]
    assert len(finished) == 2  # the adapter answered two cases, then stalled
    [run_error] = [case for case in cases if case.classname == "camelup"]
    assert f"interrupted by {number.name}" in run_error.result[0].message
    assert xml.errors >= 1
    assert_no_process_left(log)


def test_sigterm_during_a_jsonl_run_to_stdout_ends_with_the_footer(tmp_path: Path) -> None:
    process, log = _stalled_run(tmp_path, "--format", "jsonl")
    assert process.stdout is not None
    # The signal comes once the runner has streamed the header and two cases (not merely
    # once the adapter answered them: the runner may not have read those replies yet).
    head = [process.stdout.readline() for _ in range(3)]
    process.send_signal(signal.SIGTERM)

    rest, err = process.communicate(timeout=GUARD)
    out = "".join(head) + rest
    assert process.returncode == 143, err
    lines = jsonl_lines(out)
    assert lines[0]["report"] == 1 and lines[0]["implementation"]["name"] == "camelup"
    footer = lines[-1]
    assert footer["interrupted"] == "SIGTERM" and footer["exit_code"] == 143
    assert footer["selected"] == 8 and len(lines) - 2 == 2
    assert len({line["id"] for line in lines[1:-1]}) == 2, "each finished case once"
    assert sum(footer["counts"].values()) == len(lines) - 2
    assert_no_process_left(log)


def test_a_jsonl_report_is_streamed_as_the_cases_finish(tmp_path: Path) -> None:
    process, _ = _stalled_run(tmp_path, "--format", "jsonl")
    assert process.stdout is not None
    header = json.loads(process.stdout.readline())
    first = json.loads(process.stdout.readline())
    second = json.loads(process.stdout.readline())
    # Two lines came while the adapter stalls on the third case: written as the cases finished.
    assert header["report"] == 1 and first["verdict"] == second["verdict"] == "passed"
    assert process.poll() is None
    process.send_signal(signal.SIGTERM)
    rest, _ = process.communicate(timeout=GUARD)
    assert process.returncode == 143
    assert jsonl_lines(rest)[-1]["counts"]["passed"] == 2


# ------------------------------------------------------- 3. input from an adapter is bounded


def test_an_adapter_flooding_without_newlines_breaks_the_protocol_in_bounded_memory(
    tmp_path: Path,
) -> None:
    log = tmp_path / "adapter.log"
    measure = (
        "import resource, subprocess, sys\n"
        "result = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "print(result.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "sys.stdout.write(result.stdout)\n"
    )
    argv = camelup(
        "conformance", "run", *SELECTION, "--format", "jsonl",
        "--adapter", evil("flood", log, TARGET),
    )  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-c", measure, *argv],
        capture_output=True, text=True, timeout=GUARD, check=True,
    )  # fmt: skip
    first, report = result.stdout.split("\n", 1)
    code, peak_kib = map(int, first.split())
    assert code == 4
    cases = {line["id"]: line for line in jsonl_lines(report)[1:-1]}
    assert "longer than 16777216 bytes (--max-line-bytes)" in cases[TARGET]["reason"]
    assert sum(c["verdict"] == "passed" for c in cases.values()) == 7
    # The runner kept at most one 16 MiB line (and the adapter its 1 MiB chunk); unbounded, it
    # would hold all the adapter wrote in the 5 s of the default timeout (gigabytes).
    assert peak_kib < 300 * 1024
    assert_no_process_left(log)


def test_max_line_bytes_is_an_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "adapter.log"
    result = run_cli_completed(
        capsys, "conformance", "run", "--id", TARGET, "--format", "jsonl",
        "--max-line-bytes", "2000", "--adapter", evil("reference", log),
    )  # fmt: skip
    assert result.returncode == 4  # the reply of the reference is longer than 2000 bytes
    [case] = jsonl_lines(result.stdout)[1:-1]
    assert "a line longer than 2000 bytes (--max-line-bytes)" in case["reason"]


# -------------------------------------------------------------------- 4. deep nesting


def _deep_case_suite(root: Path) -> Path:
    from camelup.harness.suite import load_suite

    [case] = [c for c in load_suite().cases if c.id == TARGET]
    raw = json.loads(json.dumps(dict(case.raw)))
    value: Any = 1
    for _ in range(500):
        value = [value]
    raw["expect"][0].setdefault("state", {})["/players/0/money"] = value
    raw["expect"][0].pop("error", None)
    other = json.loads(json.dumps(dict(case.raw)))
    other["id"] = TARGET + "-too"
    (root / "cases").mkdir(parents=True)
    (root / "cases" / "deep.json").write_text(json.dumps({"area": "deep", "cases": [raw, other]}))
    return root


@pytest.mark.parametrize("verb", ["run", "validate", "explain"])
def test_a_deeply_nested_case_file_is_an_invalid_suite_with_a_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str
) -> None:
    root = _deep_case_suite(tmp_path / "suite")
    args = {"run": ["run"], "validate": ["validate"], "explain": ["explain", TARGET]}[verb]
    result = run_cli_completed(capsys, "conformance", *args, "--suite", str(root))
    assert result.returncode == 3, result.stderr
    assert "deep.json#/cases/0/expect/0/state/~1players~10~1money/" in result.stderr
    assert "nested more than 64 levels deep" in result.stderr
    assert "internal error" not in result.stderr
    if verb == "run":  # the other case still ran and is reported
        assert result.stdout.splitlines()[-1] == "1 passed, 0 failed, 0 errored, 0 skipped"


def test_a_deeply_nested_reply_errors_that_case_and_the_rest_is_reported(tmp_path: Path) -> None:
    log = tmp_path / "adapter.log"
    result = run(
        "conformance", "run", *SELECTION, "--format", "jsonl",
        "--adapter", evil("deep", log, TARGET),
    )  # fmt: skip
    assert result.returncode == 4, result.stderr
    cases = {line["id"]: line for line in jsonl_lines(result.stdout)[1:-1]}
    assert cases[TARGET]["verdict"] == "errored"
    assert (
        "nested more than 64 levels deep at /initial_state/players/0/money"
        in (cases[TARGET]["reason"])
    )
    assert sum(c["verdict"] == "passed" for c in cases.values()) == 7


def test_fuzz_against_a_deeply_nested_reply_is_a_protocol_break(tmp_path: Path) -> None:
    log = tmp_path / "adapter.log"
    result = run("conformance", "fuzz", "--games", "2", "--adapter", evil("deep", log, "*"))
    assert result.returncode == 4, result.stderr
    assert "nested more than 64 levels deep at /initial_state/players/0/money" in result.stderr
    assert "internal error" not in result.stderr


# --------------------------------------------------- 5, 6. standard output that fails


@pytest.mark.parametrize(
    "args",
    [
        ["conformance", "list"],
        ["conformance", "show", TARGET],
        ["conformance", "coverage"],
        ["spec", "trace"],
        ["spec", "show", "turn.order"],
    ],
    ids=" ".join,
)
def test_a_closed_pipe_is_a_quiet_exit(args: list[str]) -> None:
    process = subprocess.Popen(camelup(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.close()  # the reader is gone before anything is written: `| head -0`
    _, err = process.communicate(timeout=GUARD)
    assert process.returncode == 141, err
    assert err == b""


def test_a_closed_stdout_is_one_line_and_exit_74() -> None:
    argv = shlex.join(camelup("conformance", "run", *SELECTION))
    result = subprocess.run(
        ["sh", "-c", f"exec {argv} >&-"], capture_output=True, text=True, timeout=GUARD
    )
    assert result.returncode == 74
    assert one_line(result.stderr) == (
        "camelup: cannot write to standard output: standard output is closed"
    )


def test_a_full_stdout_is_one_line_and_exit_74() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            camelup("conformance", "run", *SELECTION),
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=GUARD,
        )  # fmt: skip
    assert result.returncode == 74
    assert one_line(result.stderr) == (
        "camelup: cannot write to standard output: No space left on device"
    )


# ------------------------------------------------------------- 7. options out of range


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "--timeout",
            "1e10",
            "--timeout 1e+10: must be a positive number of seconds, at most 86400 (one day)",
        ),
        (
            "--handshake-timeout",
            "1e300",
            "--handshake-timeout 1e+300: must be a positive number"
            " of seconds, at most 86400 (one day)",
        ),
        ("--max-line-bytes", "10", "--max-line-bytes 10: must be from 1024 to 1073741824 (1 GiB)"),
    ],
)
@pytest.mark.parametrize("verb", ["run", "explain", "fuzz"])
def test_options_out_of_range_are_usage_errors_naming_the_range(
    capsys: pytest.CaptureFixture[str], verb: str, option: str, value: str, message: str
) -> None:
    argv = ["conformance", verb, *([TARGET] if verb == "explain" else [])]
    adapter = ["--adapter", f"{sys.executable} -m camelup.adapter"]
    result = run_cli_completed(capsys, *argv, *adapter, option, value)
    assert result.returncode == 2
    assert one_line(result.stderr) == f"camelup conformance: {message}"


# ------------------------------------------------------------- 8. control characters


def _no_controls(text: str) -> None:
    assert not [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0]


def test_control_characters_of_an_adapter_never_reach_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "adapter.log"
    command = evil("control", log, f"{TARGET},{OTHER}")
    result = run("conformance", "run", *SELECTION, "--adapter", command)
    assert result.returncode == 4  # the crash
    _no_controls(result.stdout)
    _no_controls(result.stderr)
    assert "evil \\x1b]0;pwned\\x07" in result.stdout  # shown, escaped
    assert "boom \\x1b]0;pwned" in result.stdout
    assert "| stderr \\x1b]0;pwned" in result.stdout  # the crashed case's stderr tail
    explained = run("conformance", "explain", TARGET, "--adapter", command)
    assert explained.returncode == 1
    _no_controls(explained.stdout)
    _no_controls(explained.stderr)
    assert "ERRORED turn.order/wraps-to-seat-zero: boom \\x1b]0;pwned" in explained.stdout


def test_tap_of_an_adapter_writing_control_characters_parses_with_tap_py_and_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "adapter.log"
    result = run_cli_completed(
        capsys, "conformance", "run", *SELECTION, "--format", "tap",
        "--adapter", evil("control", log, f"{TARGET},{OTHER}"),
    )  # fmt: skip
    assert result.returncode == 4
    lines = list(TapParser().parse_text(result.stdout))
    tests = [line for line in lines if line.category == "test"]
    assert len(tests) == 8
    failed = {test.description.removeprefix("- "): test for test in tests if not test.ok}
    assert set(failed) == {TARGET, OTHER}
    # parsed by tap.py with PyYAML (None if the YAML were invalid)
    errored, crashed = failed[TARGET].yaml_block, failed[OTHER].yaml_block
    assert isinstance(errored, dict) and isinstance(crashed, dict), result.stdout
    assert errored["severity"] == crashed["severity"] == "errored"
    assert "boom \x1b]0;pwned" in errored["message"]  # a quoted scalar: the text as it was
    assert "stderr \\x1b]0;pwned" in crashed["stderr"]  # a block scalar: escaped
    _no_controls(result.stdout)


# ---------------------------------------------------------------- 9. a failed start


def test_tap_of_an_adapter_that_cannot_start_bails_out(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli_completed(
        capsys, "conformance", "run", *SELECTION, "--format", "tap",
        "--adapter", "/nonexistent/adapter",
    )  # fmt: skip
    assert result.returncode == 5
    lines = list(TapParser().parse_text(result.stdout))
    [bail] = [line for line in lines if line.category == "bail"]
    assert "the adapter could not start" in bail.reason


def test_junit_of_an_adapter_that_cannot_start_has_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = run_cli_completed(
        capsys, "conformance", "run", *SELECTION, "--format", "junit",
        "--adapter", "/nonexistent/adapter",
    )  # fmt: skip
    assert result.returncode == 5
    xml = junitparser.JUnitXml.fromstring(result.stdout)
    assert xml.tests >= 1 and xml.errors >= 1
    [case] = [case for suite in xml for case in suite]
    assert "the adapter could not start" in case.result[0].message


# ------------------------------------------------- 12. generate into the installed package


def test_generate_refuses_to_write_into_an_installed_package(tmp_path: Path) -> None:
    import shutil

    site = tmp_path / "site-packages"
    package = REPO / "reference" / "camelup"
    shutil.copytree(package, site / "camelup", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "spec", site / "camelup" / "_spec")
    shutil.copytree(REPO / "conformance", site / "camelup" / "_conformance")
    generated = site / "camelup" / "_conformance" / "generated"
    before = {p: p.read_bytes() for p in generated.rglob("*.json")}
    for p in before:
        p.write_bytes(b"{}")  # stale: a generate that went ahead would rewrite them
    result = run(
        "conformance", "generate", env={**os.environ, "PYTHONPATH": str(site)}, cwd=tmp_path
    )
    assert result.returncode == 2, result.stderr
    assert one_line(result.stderr).startswith(
        "camelup conformance: refusing to write into the installed package ("
    )
    assert "give the suite to rewrite with --suite DIR" in result.stderr
    assert all(p.read_bytes() == b"{}" for p in before)


# ------------------------------------------------------------ 13. -o /dev/stdout


@pytest.mark.parametrize("fmt", ["junit", "jsonl"])
def test_a_report_to_dev_stdout_holds_only_the_report(fmt: str) -> None:
    result = run("conformance", "run", *SELECTION, "--format", fmt, "-o", "/dev/stdout")
    assert result.returncode == 0, result.stderr
    if fmt == "junit":
        assert junitparser.JUnitXml.fromstring(result.stdout).tests == 8
    else:
        assert len(jsonl_lines(result.stdout)) == 10
    assert result.stderr.startswith("report written to /dev/stdout: 8 passed")


def test_the_report_verb_refuses_a_huge_timeout_too(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli_completed(capsys, "conformance", "report", "--timeout", "1e10")
    assert result.returncode == 2
    assert one_line(result.stderr) == (
        "camelup conformance: --timeout 1e+10: must be a positive number of seconds, at most"
        " 86400 (one day)"
    )


def test_deep_nesting_is_seen_from_the_text_and_the_comparison_has_a_net() -> None:
    from camelup.harness.adapter import hello_reply, run_case
    from camelup.harness.nesting import may_nest_too_deep, too_deep
    from camelup.harness.protocol import Reply, parse_hello
    from camelup.harness.runner import verdict
    from camelup.harness.suite import load_suite

    # a reply's text (level 0) may nest 64 levels, as too_deep counts; brackets of either kind,
    # and more of them than 64 (the text is read, not only counted)
    deep = [[{"a": [1]} | {f"wide{n}": [] for n in range(40)}]]
    for _ in range(30):
        deep = [{"b": deep}]
    assert too_deep(deep) is None and not may_nest_too_deep(json.dumps(deep).encode(), 0)
    deeper = [deep]
    assert too_deep(deeper) is not None and may_nest_too_deep(json.dumps(deeper).encode(), 0)
    brackets_in_a_string = {"a": "[[[[" * 100}
    assert not may_nest_too_deep(json.dumps(brackets_in_a_string).encode(), 0)  # text, not depth
    [case] = [c for c in load_suite().cases if c.id == TARGET]
    body = run_case(case.wire([0]))
    value: Any = 0
    for _ in range(2000):
        value = [value]
    for step in body["steps"]:
        for member in list(step.get("state", {})):
            step["state"][member] = value  # wherever the case looks, it meets the deep value
    # A reply whose depth its reader did not see (too_deep None) still errors, not crashes.
    result = verdict(case, Reply(body, 0.0), parse_hello(hello_reply()))
    assert result.verdict == "errored" and result.note == "protocol"
    # The schema gate meets the deep value first and says so.
    assert result.reason.startswith("malformed reply: ") and "nested too deeply" in result.reason

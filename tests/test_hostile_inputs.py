"""Hostile input through the real command line, every class of the second CLI audit (issue 20).

Each test starts ``camelup`` as a real process in a folder of its own and checks the
documented exit code, that nothing printed a traceback, that the process ended within the hang
bound (a FIFO or an endless file used to block for ever), and that no file was left behind
but the ones asked for. The table of files the input gate refuses x the verbs that read them
is generated (:data:`REFUSED` x :data:`STATE_VERBS`, and every refused file in one suite for
the suite verbs), not copied per verb. The gate itself is driven by a Hypothesis strategy of
documents combining the defects in random order (:mod:`camelup.testing.hostile`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from camelup.cli.app import build_parser
from camelup.cli.common import Verb
from camelup.harness.protocol import MAX_BLANK_LINES, SAME_BREAKS
from camelup.io import exits
from camelup.io.gate import MAX_INPUT_BYTES, nesting_exceeds, read_path
from camelup.io.jsonio import JSONInputError, parse_json
from camelup.io.outputs import OutputRefused, write_output
from camelup.testing.hostile import Hostile, hostile_documents
from commands import FAUX, PYTHON, camelup, one_line, run_cli

HANG = 60  # seconds: what none of these takes unless it hangs (each takes about one)
ROOT = Path(__file__).resolve().parent.parent
GOOD_FILE = ROOT / "conformance" / "cases" / "first" / "03-turn.json"
STATE = json.loads(GOOD_FILE.read_text("utf-8"))["cases"][0]["given"]["state"]
DEEP = "[" * 100_000 + "]" * 100_000


def _text(content: str) -> Callable[[Path], None]:
    return lambda path: path.write_text(content, "utf-8")


def _symlink_loop(path: Path) -> None:
    path.symlink_to(path.name + ".other")
    path.with_name(path.name + ".other").symlink_to(path.name)


def _too_large(path: Path) -> None:
    with path.open("wb") as file:  # sparse: the size without the disk
        file.truncate(MAX_INPUT_BYTES + 1)


# Each makes a file at the path it is given that the gate refuses, and says what the one line
# says. The JSON texts put a defect *before* the nesting: the order that was an exit 70.
REFUSED: dict[str, tuple[Callable[[Path], None], str]] = {
    "FIFO": (lambda path: os.mkfifo(path), "a FIFO (named pipe), not a regular file"),
    "character device": (lambda path: path.symlink_to("/dev/zero"), "a character device"),
    "folder": (lambda path: path.mkdir(), "a folder, not a regular file"),
    "symlink loop": (_symlink_loop, "Too many levels of symbolic links"),
    "too large": (_too_large, "larger than 64 MiB"),
    "duplicate key then deep": (_text('[{"a": 1, "a": 2}, ' + DEEP + "]"), "nested too deeply"),
    "NaN then deep": (_text("[NaN, " + DEEP + "]"), "nested too deeply"),
    "long integer then deep": (_text("[" + "9" * 5000 + ", " + DEEP + "]"), "nested too deeply"),
    "deep": (_text(DEEP), "nested too deeply"),
    # JSON Schema's integer accepts 3.0: the reader of files is what refuses it.
    "a float for an integer": (
        _text(json.dumps({**STATE, "players": [{**STATE["players"][0], "money": 3.0}]})),
        "#/players/0/money: not JSON this reader reads: 3.0 is not an integer",
    ),
}
STATE_VERBS = {"odds": ("odds",), "render -o": ("render", "-o", "b.svg")}  # FILE first
SUITE_VERBS = ("run", "validate", "list")


def _camelup(
    cwd: Path, *args: str, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``camelup ARGS`` in ``cwd``: failed as hung past HANG seconds, and with no traceback."""
    try:
        result = subprocess.run(
            camelup(*args), cwd=cwd, capture_output=True, text=True, timeout=HANG, stdin=stdin
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"camelup {' '.join(args)} hung (still running after {HANG} s)")
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert "internal error" not in result.stderr, result.stderr
    return result


# Each argv in turn through camelup's main in one Python process, each with its own working
# folder, printing its exit code, standard output and standard error as a JSON line.
_EACH = """
import contextlib, io, json, os, sys
from camelup.cli import main
for folder, argv in json.loads(sys.argv[1]):
    os.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as error:
            code = error.code
    print(json.dumps([code, out.getvalue(), err.getvalue()]), flush=True)
"""


def _each_in_one_process(rows: list[tuple[Path, tuple[str, ...]]]) -> list[tuple[int, str, str]]:
    """``camelup ARGV`` in ``FOLDER`` for each row, in one started interpreter (for rows that
    are not about start-up: a start per row was most of this module's CPU), guarded as a
    whole against a hang like :func:`_camelup`: the exit code, standard output and standard
    error of each."""
    batch = json.dumps([(str(folder), argv) for folder, argv in rows])
    try:
        result = subprocess.run(
            [sys.executable, "-c", _EACH, batch],
            capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{len(rows)} camelup commands in one process hung (after {HANG} s)")
    done = [(code, out, err) for code, out, err in map(json.loads, result.stdout.splitlines())]
    assert len(done) == len(rows), result.stderr
    for _, _, err in done:
        assert "Traceback" not in err and "internal error" not in err, err
    return done


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def refused_state_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, str], tuple[int, str, set[str], set[str]]]:
    """Each refused file as each state verb's FILE, all in one process: per (kind, verb), the
    exit code, standard error, and the listing of its folder before and after."""
    rows, before = [], []
    for kind in sorted(REFUSED):
        for _, args in sorted(STATE_VERBS.items()):
            folder = tmp_path_factory.mktemp("state")
            REFUSED[kind][0](folder / "state.json")
            before.append(_listing(folder))
            rows.append((folder, (args[0], "state.json", *args[1:])))
    done = _each_in_one_process(rows)
    keys = [(kind, verb) for kind in sorted(REFUSED) for verb in sorted(STATE_VERBS)]
    return {
        key: (code, err, listed, _listing(folder))
        for key, (folder, _), (code, _, err), listed in zip(keys, rows, done, before, strict=True)
    }


@pytest.mark.parametrize("verb", sorted(STATE_VERBS))
@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_a_refused_state_file_is_exit_3_in_one_line_and_leaves_nothing(
    refused_state_files: dict[tuple[str, str], tuple[int, str, set[str], set[str]]],
    kind: str,
    verb: str,
) -> None:
    code, err, before, after = refused_state_files[kind, verb]
    assert code == 3, err
    [line] = err.splitlines()
    assert "state.json" in line and REFUSED[kind][1] in line
    assert after == before  # no board, no temporary file


def _expecting_state_at(pointer: str) -> Callable[[Path], None]:
    case = json.loads(GOOD_FILE.read_text("utf-8"))["cases"][0]
    case = {**case, "id": "turn.order/bad-pointer", "expect": [{"after": 1, "state": {pointer: 2}}]}
    return _text(json.dumps({"area": "turn", "cases": [case]}))


# RFC 6901 escapes only ~0 and ~1: an expected pointer with ~2 was a failure blamed on the
# implementation (exit 1) where the case file is what is broken.
REFUSED_ONLY_AS_CASE_FILES: dict[str, tuple[Callable[[Path], None], str]] = {
    "pointer with a bad escape": (
        _expecting_state_at("/track~2"),
        "#/cases/0/expect/0/state/~1track~02: key '/track~2' is not allowed here",
    ),
}
REFUSED_AS_CASE_FILES = {**REFUSED, **REFUSED_ONLY_AS_CASE_FILES}
REFUSED_CASE_FILES = {
    kind: "x-" + kind.replace(" ", "-") + ".json" for kind in REFUSED_AS_CASE_FILES
}


@pytest.fixture(scope="module")
def refused_case_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[int, str, str, set[str], set[str]]]:
    """Each suite verb on a suite of a good file and every refused file, all in one process:
    per verb, the exit code, standard output and error, and the listing of its folder before
    and after."""
    rows, before = [], []
    for verb in SUITE_VERBS:
        folder = tmp_path_factory.mktemp("suite")
        suite = folder / "suite"
        shutil.copytree(ROOT / "conformance" / "schema", suite / "schema")
        cases = suite / "cases" / "first"
        cases.mkdir(parents=True)
        shutil.copy(GOOD_FILE, cases / "03-turn.json")
        for kind, name in REFUSED_CASE_FILES.items():
            REFUSED_AS_CASE_FILES[kind][0](cases / name)
        before.append(_listing(folder))
        rows.append((folder, ("conformance", verb, "--suite", str(suite))))
    done = _each_in_one_process(rows)
    return {
        verb: (code, out, err, listed, _listing(folder))
        for verb, (folder, _), (code, out, err), listed in zip(
            SUITE_VERBS, rows, done, before, strict=True
        )
    }


@pytest.mark.parametrize("verb", SUITE_VERBS)
def test_each_refused_case_file_is_named_and_the_good_cases_still_load(
    refused_case_files: dict[str, tuple[int, str, str, set[str], set[str]]], verb: str
) -> None:
    code, out, err, before, after = refused_case_files[verb]
    assert code == 3, err
    for kind, name in REFUSED_CASE_FILES.items():
        [line] = [line for line in err.splitlines() if f"/{name}" in line]
        assert REFUSED_AS_CASE_FILES[kind][1] in line, kind
    if verb == "run":
        assert "6 passed, 0 failed" in out  # the good file's cases all ran
    assert after - before <= {".camelup-lastfailed.json"}


def test_standard_input_closed_or_hostile_is_exit_3(tmp_path: Path) -> None:
    closed = subprocess.run(
        ["sh", "-c", 'exec "$@" <&-', "sh", *camelup("odds", "-")],
        cwd=tmp_path, capture_output=True, text=True, timeout=HANG,
    )  # fmt: skip
    assert closed.returncode == 3, closed.stderr
    assert "standard input: it is closed" in one_line(closed.stderr)
    source = tmp_path / "state.json"
    REFUSED["duplicate key then deep"][0](source)
    with source.open("rb") as stdin:
        for verb in ("odds", "render"):
            stdin.seek(0)
            result = _camelup(tmp_path, verb, "-", stdin=stdin.fileno())
            assert result.returncode == 3, result.stderr
            assert "nested too deeply" in result.stderr


# ------------------------------------------------------------------------------ the output


OUTPUT_PATHS = {  # where -o points, and the code: 2 for a bad path, 74 for an unwritable place
    "missing folder": ("missing/out.txt", 2),
    "a folder": (".", 2),
    "full disk": ("/dev/full", 74),
}
WRITERS = {
    "render -o": ("render", "state.json", "-o"),
    "run -o": ("conformance", "run", "--id", "turn.order/not-your-turn", "--suite", "suite", "-o"),
}


@pytest.fixture(scope="module")
def unwritable_outputs(
    tmp_path_factory: pytest.TempPathFactory, one_file_suite: Path
) -> dict[tuple[str, str], tuple[int, str, set[str], set[str]]]:
    """Each writer onto each OUTPUT_PATHS, all in one process: per (where, writer), the exit
    code, standard error, and the listing of its folder before and after."""
    keys = [(where, writer) for where in sorted(OUTPUT_PATHS) for writer in sorted(WRITERS)]
    rows, before = [], []
    for where, writer in keys:
        folder = tmp_path_factory.mktemp("output")
        (folder / "state.json").write_text(json.dumps(STATE), "utf-8")
        (folder / "suite").symlink_to(one_file_suite)
        before.append(_listing(folder))
        rows.append((folder, (*WRITERS[writer], OUTPUT_PATHS[where][0])))
    done = _each_in_one_process(rows)
    return {
        key: (code, err, listed, _listing(folder))
        for key, (folder, _), (code, _, err), listed in zip(keys, rows, done, before, strict=True)
    }


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("where", sorted(OUTPUT_PATHS))
def test_an_output_that_cannot_be_written_has_its_code_and_no_temporary_file(
    unwritable_outputs: dict[tuple[str, str], tuple[int, str, set[str], set[str]]],
    where: str,
    writer: str,
) -> None:
    target, expected = OUTPUT_PATHS[where]
    code, err, before, after = unwritable_outputs[where, writer]
    assert code == expected, err
    assert target in err
    assert after - before <= {".camelup-lastfailed.json"}


@pytest.mark.needs_rule_source
def test_export_and_docs_site_into_a_missing_folder_are_usage_errors(tmp_path: Path) -> None:
    verbs = [("conformance", "export"), ("docs", "site")]
    rows = [(tmp_path, (*args, "/proc/camelup-missing/out")) for args in verbs]
    for code, _, err in _each_in_one_process(rows):
        assert code == 2, err
        assert "no such folder" in err


def test_write_output_replaces_the_file_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    target.write_text("old", "utf-8")
    write_output(target, "new")
    assert target.read_text("utf-8") == "new"
    with pytest.raises(OutputRefused) as refused:
        write_output(tmp_path / "no" / "report.txt", "x")
    assert refused.value.exit_code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]


# ---------------------------------------------------- the same mistake, the same code


CASE = "turn.order/not-your-turn"
NOPE = "./no-such-adapter"
SMALL = ("--suite", "small")  # one case file (the test makes it): the whole suite loads slowly
# Each mistake with its code (docs/adapter-protocol.md's table), the words of its one line, and
# the verbs it can be made with: every verb must give the same code and say the same thing.
MISTAKES: dict[str, tuple[int, str, tuple[tuple[str, ...], ...]]] = {
    "no such suite folder": (
        exits.USAGE,
        "--suite missing: no such folder",
        tuple(
            (*verb, "--suite", "missing")
            for verb in (
                ("conformance", "run"),
                ("conformance", "validate"),
                ("conformance", "list"),
                ("conformance", "show", CASE),
                ("conformance", "explain", CASE),
                ("conformance", "export", "out"),
                ("conformance", "mutants"),
                ("conformance", "generate", "--check"),
                ("conformance", "coverage"),
                ("conformance", "report"),
                ("odds", "--case", CASE),
                ("render", "--case", CASE),
            )
        ),
    ),
    "no such case": (
        exits.USAGE,
        "no case 'no.such/case'",
        (
            ("conformance", "show", "no.such/case", *SMALL),
            ("conformance", "explain", "no.such/case", *SMALL),
            ("odds", "--case", "no.such/case", *SMALL),
            ("render", "--case", "no.such/case", *SMALL),
        ),
    ),
    "no such step": (
        exits.USAGE,
        f"--after 99: {CASE} has steps 0 to",
        (
            ("odds", "--case", CASE, "--after", "99", *SMALL),
            ("render", "--case", CASE, "--after", "99", *SMALL),
        ),
    ),
    "an adapter that cannot start": (
        exits.ADAPTER,
        f"cannot start {NOPE}",
        (
            ("conformance", "run", "--adapter", NOPE, *SMALL),
            ("conformance", "explain", CASE, "--adapter", NOPE, *SMALL),
            ("conformance", "fuzz", "--adapter", NOPE, "--games", "1"),
            ("conformance", "report", "--adapter", NOPE, "-", *SMALL),
        ),
    ),
    "an output on a full disk": (
        exits.OUTPUT,
        "/dev/full",
        (
            ("conformance", "run", "--id", CASE, "-o", "/dev/full", *SMALL),
            ("conformance", "report", "--adapter", NOPE, "-", "--out", "/dev/full", *SMALL),
            ("render", "--case", CASE, "-o", "/dev/full", *SMALL),
        ),
    ),
    "no such state file": (
        exits.USAGE,
        "nosuch.json: cannot read",
        (("odds", "nosuch.json"), ("render", "nosuch.json")),
    ),
    "a state file that is not JSON": (  # no pointer to the whole file, no clause unbroken
        exits.INVALID_INPUT,
        ": garbage.json: not JSON (line 1, column 1): Expecting value\n",
        (("odds", "garbage.json"), ("render", "garbage.json")),
    ),
    "no such clause": (
        exits.USAGE,
        "no clause 'no.such'",
        (("spec", "show", "no.such"),),
    ),
    "an output that is a symbolic link loop": (  # replacing the link is not writing the file
        exits.USAGE,
        "loop.out: cannot write: Too many levels of symbolic links",
        (
            ("conformance", "run", "--id", CASE, "-o", "loop.out", *SMALL),
            ("render", "--case", CASE, "-o", "loop.out", *SMALL),
        ),
    ),
    "no such folder to read": (
        exits.USAGE,
        "missing: no",
        (
            ("docs", "site", "--root", "missing", "out"),
            ("docs", "build", "--out", "missing", "--check"),
        ),
    ),
}


def _parser(argv: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of the verb ``argv`` runs, as the command line's parser finds it."""
    parser = build_parser()
    for word in argv:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not actions or word not in actions[0].choices:
            break
        parser = actions[0].choices[word]
    return parser


def _verb(argv: tuple[str, ...]) -> Verb[object]:
    """The verb ``argv`` runs."""
    verb: Verb[object] = _parser(argv).get_default("run").verb
    return verb


@pytest.mark.parametrize(
    ("mistake", "argv"), [(m, argv) for m, (_, _, verbs) in MISTAKES.items() for argv in verbs]
)
def test_the_same_mistake_has_the_same_code_and_words_in_every_verb(
    capsys: pytest.CaptureFixture[str], mistake: str, argv: tuple[str, ...]
) -> None:
    code, says, _ = MISTAKES[mistake]
    small = Path.cwd() / "small"  # conftest gives each test a working folder of its own
    shutil.copytree(ROOT / "conformance" / "schema", small / "schema")
    (small / "cases" / "first").mkdir(parents=True)
    shutil.copy(GOOD_FILE, small / "cases" / "first")
    Path("garbage.json").write_text("garbage{", "utf-8")
    _symlink_loop(Path("loop.out"))
    listed = dict((*_verb(argv).exit_codes, *exits.COMMON))  # what its --help lists
    assert code in listed, f"{' '.join(argv)} --help does not list {code}"
    returned, _, err = run_cli(capsys, *argv)
    assert returned == code, err
    assert says in err, err
    assert "Traceback" not in err and "internal error" not in err
    assert os.readlink("loop.out") == "loop.out.other"  # left as it was


# ------------------------------------------------------------------------- adapter noise


def _evil(mode: str, log: Path, case: str) -> str:
    return f"{PYTHON} {FAUX / 'evil.py'} {mode} {log} {case}"


NOISE = {
    "blank": "blank lines while running this case",
    "extra-steps": "answered 1002 steps to a case of 2",
    "seq-true": "seq True while seq 1 was due",
    "close-stdout": "the adapter closed its standard output but kept running",
}
NOISY_CASE = "turn.order/not-your-turn"


@pytest.fixture(scope="module")
def one_file_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite of GOOD_FILE alone (6 cases): loading the whole bundled suite in each
    process cost more than the case run through the adapter."""
    suite = tmp_path_factory.mktemp("suite")
    shutil.copytree(ROOT / "conformance" / "schema", suite / "schema")
    (suite / "cases" / "first").mkdir(parents=True)
    shutil.copy(GOOD_FILE, suite / "cases" / "first")
    return suite


@pytest.fixture(scope="module")
def noisy_runs(
    tmp_path_factory: pytest.TempPathFactory, one_file_suite: Path
) -> dict[str, tuple[int, str, str]]:
    """``run`` of one case through the evil adapter in each NOISE mode, all in one process."""
    rows = []
    for mode in sorted(NOISE):
        folder = tmp_path_factory.mktemp("noise")
        adapter = _evil(mode, folder / "log", NOISY_CASE)
        argv = ("conformance", "run", "--id", NOISY_CASE, "--timeout", "1", "--adapter", adapter)
        rows.append((folder, (*argv, "--format", "jsonl", "--suite", str(one_file_suite))))
    return dict(zip(sorted(NOISE), _each_in_one_process(rows), strict=True))


@pytest.mark.parametrize("mode", sorted(NOISE))
def test_adapter_noise_is_a_protocol_break_within_the_timeout(
    noisy_runs: dict[str, tuple[int, str, str]], mode: str
) -> None:
    code, out, err = noisy_runs[mode]
    assert code == 4, err
    [line] = [r for r in map(json.loads, out.splitlines()) if r.get("id") == NOISY_CASE]
    assert line["verdict"] == "errored"
    assert NOISE[mode] in line["reason"]


def _starts(log: Path) -> int:
    """How many times the adapter of ``log`` was started."""
    return sum(line.startswith("pid ") for line in log.read_text("utf-8").splitlines())


def test_an_adapter_that_breaks_the_same_way_after_each_restart_is_given_up(
    tmp_path: Path, one_file_suite: Path
) -> None:
    log = tmp_path / "log"
    result = _camelup(
        tmp_path, "conformance", "run", "--suite", str(one_file_suite), "--timeout", "1",
        "--adapter", _evil("blank", log, "*"), "--format", "jsonl",
    )  # fmt: skip
    assert result.returncode == 4, result.stderr
    reasons = [r["reason"] for r in map(json.loads, result.stdout.splitlines()) if "reason" in r]
    assert len(reasons) > SAME_BREAKS
    for reason in reasons[:SAME_BREAKS]:  # a loaded machine may see a timeout first
        assert "blank lines while running" in reason or "no reply within 1 s" in reason
    given_up = f"broke {SAME_BREAKS} times in a row, each time before its first reply"
    assert all(given_up in r for r in reasons[SAME_BREAKS:]), reasons
    assert _starts(log) == SAME_BREAKS
    help_text = _parser(("conformance", "run")).format_help()
    assert f"broke {SAME_BREAKS} times in a row" in " ".join(help_text.split())


def test_fuzz_stops_at_the_first_break_without_restarting_the_adapter(tmp_path: Path) -> None:
    log = tmp_path / "log"
    result = _camelup(
        tmp_path, "conformance", "fuzz", "--games", "2", "--timeout", "1", "--adapter",
        _evil("blank", log, "*"),
    )  # fmt: skip
    assert result.returncode == 4, result.stderr
    assert result.stderr.splitlines()[-1] in (
        "camelup conformance: the adapter broke the protocol: the adapter wrote more than"
        f" {MAX_BLANK_LINES} blank lines while running this case",
        "camelup conformance: the adapter broke the protocol: no reply within 1 s (the adapter"
        " was killed)",  # a loaded machine
    )
    assert _starts(log) == 1


# ------------------------------------------------------------------------------ signals


def _children(pid: int) -> list[int]:
    """The worker processes of ``pid`` (Linux's /proc, as CI runs)."""
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _interrupt_when(
    process: subprocess.Popen[str], ready: Callable[[], bool], number: signal.Signals
) -> tuple[str, str]:
    deadline = time.monotonic() + HANG
    while not ready():
        assert process.poll() is None, process.communicate()
        if time.monotonic() > deadline:
            process.kill()
            process.communicate()
            pytest.fail("never ready to be interrupted")
        time.sleep(0.05)
    process.send_signal(number)
    try:
        out, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        process.kill()  # not left running after the test
        process.communicate()
        pytest.fail(f"still running {HANG} s after {number.name}")
    assert "Traceback" not in out + err, err
    assert process.returncode == 128 + number, err
    return out, err


# A real signal, sent by the child to itself the moment the parser and the verbs start loading:
# the moment of start-up that used to print a traceback (before the handlers were in place).
_SIGNAL_AT_START = """
import os, signal, sys

class SignalOnImport:
    def find_spec(self, name, path=None, target=None):
        if name == "camelup.cli.common":
            os.kill(os.getpid(), signal.{name})
        return None

sys.meta_path.insert(0, SignalOnImport())
from camelup.cli import main
sys.exit(main(["conformance", "list"]))
"""


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_while_camelup_starts_is_one_line_and_its_code(
    tmp_path: Path, number: signal.Signals
) -> None:
    child = _SIGNAL_AT_START.format(name=number.name)
    result = subprocess.run(
        [sys.executable, "-c", child], cwd=tmp_path, capture_output=True, text=True, timeout=HANG
    )
    assert result.returncode == 128 + number, result.stderr
    assert (result.stdout, result.stderr) == ("", f"camelup: interrupted ({number.name})\n")


def test_odds_race_interrupted_prints_the_exact_odds_and_no_worker_traceback(
    tmp_path: Path,
) -> None:
    (tmp_path / "state.json").write_text(json.dumps(STATE), "utf-8")
    process = subprocess.Popen(
        camelup("odds", "state.json", "--race", "100000000", "--jobs", "2"),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    out, err = _interrupt_when(process, lambda: len(_children(process.pid)) >= 2, signal.SIGINT)
    assert out.startswith("leg odds")
    assert "race interrupted (SIGINT)" in err


@pytest.mark.needs_rule_source
def test_mutants_interrupted_print_the_verdicts_so_far(tmp_path: Path) -> None:
    process = subprocess.Popen(
        camelup("conformance", "mutants", "--jobs", "2"),
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    out, err = _interrupt_when(process, lambda: len(_children(process.pid)) >= 2, signal.SIGTERM)
    assert "mutants: " in out
    assert "mutants interrupted (SIGTERM)" in err


@pytest.mark.needs_rule_source
def test_mutants_interrupted_during_the_unpatched_run_is_an_interruption_not_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import attrs

    from camelup.harness.mutation import verdict

    interrupted = exits.Interrupted(signal.SIGINT)
    real_run = verdict.run_cases

    def cut_short(*args: Any, **kwargs: Any) -> Any:  # the signal came during the baseline
        return attrs.evolve(real_run(*args, **kwargs), interrupted=interrupted)

    monkeypatch.setattr(verdict, "run_cases", cut_short)
    report = verdict.run_mutants([], ["leg-no-floor"])
    assert (report.baseline_failure, report.interrupted, report.verdicts) == (None, interrupted, ())


# ------------------------------------------------------------------ the gate, by Hypothesis


@settings(max_examples=60, deadline=None)
@given(hostile_documents())
def test_the_gate_refuses_every_hostile_document_whatever_the_order(document: Hostile) -> None:
    with pytest.raises(JSONInputError) as refused:
        parse_json(document.text)
    assert "\n" not in str(refused.value)
    # Depth is judged first, from the text: another defect before it never changes the verdict.
    assert nesting_exceeds(document.text) == document.too_deep
    assert ("nested too deeply" in refused.value.message) == document.too_deep


def _depth(value: Any) -> int:
    """How many arrays and objects nest along the deepest path of ``value`` (a leaf: 0)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


# Strings of brackets and quotes, with a backslash (the regex strips the strings) or without
# (a split at the quotes does): the gate measures the same depth either way.
_TEXT = st.text(alphabet='[]{}"\\a', max_size=6)
_NESTED = st.recursive(
    st.integers(0, 9) | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=30,
)


@settings(max_examples=60, deadline=None)
@given(_NESTED, st.booleans())
def test_the_gate_measures_the_depth_outside_strings_exactly(value: Any, as_bytes: bool) -> None:
    text = json.dumps(value)
    depth = _depth(value)
    data = text.encode() if as_bytes else text
    assert nesting_exceeds(data, depth) is False
    if depth:
        assert nesting_exceeds(data, depth - 1) is True


@pytest.mark.parametrize(("text", "where"), [("[1, 4.0]", "/1"), ('{"a": [1e2]}', "/a/0")])
def test_a_reader_of_integers_only_refuses_a_fraction_or_an_exponent_where_it_is(
    text: str, where: str
) -> None:
    assert parse_json(text) == json.loads(text)  # an adapter's reply may say 4.0
    with pytest.raises(JSONInputError, match="is not an integer") as refused:
        parse_json(text, integers_only=True)
    assert refused.value.pointer == where


def test_the_gate_reads_a_regular_file_and_refuses_the_rest(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(b"[1]")
    assert read_path(good) == b"[1]"
    assert nesting_exceeds("[" * 512 + "]" * 512) is False
    assert nesting_exceeds("[" * 513 + "]" * 513) is True
    assert nesting_exceeds('["' + "[" * 600 + '"]') is False  # brackets in a string are text
    with pytest.raises(JSONInputError) as refused:
        parse_json('{"to_move": [0, 1e400]}')  # Python would read Infinity
    assert refused.value.pointer == "/to_move/1"
    assert parse_json("[1e308, 2.5e-400]") == [1e308, 0.0]


# ------------------------------------------------------------------- the codes, in one place


def test_the_exit_code_table_of_the_docs_lists_exactly_the_codes_of_camelup_io_exits() -> None:
    from camelup.io import exits

    text = (ROOT / "docs" / "adapter-protocol.md").read_text("utf-8")
    documented = {
        int(code)
        for row in text.splitlines()
        if row.startswith("| ") and row[2].isdigit()
        for code in row.split("|")[1].replace(",", " ").split()
    }
    defined = {v for k, v in vars(exits).items() if k.isupper() and isinstance(v, int)}
    assert documented == defined


def test_every_case_id_named_in_a_verbs_help_exists() -> None:
    import re

    from camelup.cli.conformance import VERBS
    from camelup.harness.suite import load_suite

    suite = load_suite()
    pattern = r"\b[a-z]+(?:\.[a-z-]+)+/[a-z0-9-]+"
    named = {m for verb in VERBS for m in re.findall(pattern, verb.example)}
    protocol = (ROOT / "docs" / "adapter-protocol.md").read_text("utf-8")
    named |= set(re.findall(r'"id": "([^"]+)"', protocol))  # the messages shown in the doc
    assert len(named) >= 2, named  # the patterns find what they are meant to
    assert sorted(i for i in named if suite.find(i) is None) == []

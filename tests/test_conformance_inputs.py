"""The conformance tooling against bad input: case files of the wrong types, strings no UTF-8
output can hold, characters XML forbids, bad options, and its own bugs.

Whatever the input, a command ends with one of its documented exit codes and one line per
problem on stderr, never a traceback or an exception name in place of a verdict.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import xml.dom.minidom
from pathlib import Path
from typing import Any

import pytest

from camelup.harness import suite
from camelup.harness.expectations import ExpectationsError, load_expectations
from camelup.harness.reports import render
from camelup.harness.runner import CaseResult, RunReport
from camelup.io.jsonio import JSONInputError, parse_json
from commands import run_cli
from test_conformance_runner import LEGAL_FIRST, MOVE_FIRST, PYTHON, suite_files

REPO = Path(__file__).resolve().parent.parent
CONFORMANCE = REPO / "reference" / "camelup" / "conformance"
REFERENCE = f"{PYTHON} -m camelup.adapter"


def write_suite(root: Path, bad_first_file: dict[str, Any] | str | None = None) -> Path:
    """The runner tests' suite (7 second-edition cases in good.json, 2 first-edition ones in
    bad.json), with bad.json replaced by ``bad_first_file`` (JSON, or raw text)."""
    files = suite_files()
    (root / "cases").mkdir(parents=True)
    (root / "cases" / "good.json").write_text(json.dumps(files["cases/second/movement.json"]))
    first = files["cases/first/movement.json"] if bad_first_file is None else bad_first_file
    text = first if isinstance(first, str) else json.dumps(first)
    (root / "cases" / "bad.json").write_text(text, "utf-8")
    return root


def first_file() -> dict[str, Any]:
    """The first-edition case file (MOVE_FIRST, then LEGAL_FIRST), safe to change (a copy
    through JSON: its cases share no ruleset object)."""
    data: dict[str, Any] = json.loads(json.dumps(suite_files()["cases/first/movement.json"]))
    return data


def one_line(err: str) -> str:
    assert err.count("\n") == 1, err
    return err.strip()


# ---------------------------------------------------------------- the loaded files, reused


def test_a_case_file_is_judged_once_and_read_anew_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """load_suite keeps what it made of a file while the file's bytes stay the same: a change
    that keeps the size and the time stamp is still seen, and so is a new working directory
    (the file names it shows are relative to it)."""
    root = write_suite(tmp_path / "suite")
    bad = root / "cases" / "bad.json"
    monkeypatch.chdir(tmp_path)
    first = suite.load_suite(root)
    assert not first.problems and {c.file for c in first.cases} == {
        "suite/cases/good.json",
        "suite/cases/bad.json",
    }

    def judged_again(*args: Any) -> None:
        raise AssertionError("an unchanged file was judged again")

    with monkeypatch.context() as judging:
        judging.setattr(suite, "_case", judged_again)
        assert suite.load_suite(root) == first

    before = bad.stat()
    text = bad.read_text("utf-8")
    assert text.count('"first"') > 1
    bad.write_text(text.replace('"first"', '"third"', 1), "utf-8")  # the same size
    os.utime(bad, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert bad.stat().st_size == before.st_size
    changed = suite.load_suite(root)
    assert [p.file for p in changed.problems] == ["suite/cases/bad.json"]
    assert "/ruleset/edition" in changed.problems[0].pointer

    monkeypatch.chdir(root)
    assert {c.file for c in suite.load_suite(root).cases} == {"cases/good.json", "cases/bad.json"}


# ------------------------------------------------------------------- badly typed case members

BAD_MEMBERS = [
    (("ruleset", "edition"), ["first"], "/ruleset/edition"),
    (("ruleset", "modules"), "whirlwind", "/ruleset/modules"),
    (("ruleset", "players"), "4", "/ruleset/players"),
    (("ruleset", "players"), True, "/ruleset/players"),
    (("ruleset", "variants"), [7], "/ruleset/variants/0"),
    (("source",), {"kind": "ruling", "ref": ["RUL-01"]}, "/source/ref"),
]


def _with_bad_member(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    data = first_file()
    node = data["cases"][1]  # LEGAL_FIRST
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(("path", "value", "where"), BAD_MEMBERS)
def test_badly_typed_members_are_suite_problems_and_the_rest_runs(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    path: tuple[str, ...],
    value: Any,
    where: str,
) -> None:
    root = write_suite(tmp_path, _with_bad_member(path, value))
    problem = f"cases/bad.json#/cases/1{where}: "
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert code == 3, err
    assert problem in err and "Error" not in err
    assert out.splitlines()[-1] == "8 passed, 0 failed, 0 errored, 0 skipped"
    code, out, err = run_cli(capsys, "conformance", "validate", "--suite", str(root))
    assert code == 3, err
    assert problem in err and "Error:" not in err
    assert out.startswith("conformance validate: 2 file(s), 8 case(s), ")
    code, out, err = run_cli(capsys, "conformance", "explain", LEGAL_FIRST, "--suite", str(root))
    assert code == 3 and problem in err and "no case" in err
    code, out, err = run_cli(capsys, "conformance", "explain", MOVE_FIRST, "--suite", str(root))
    assert code == 0 and out.splitlines()[-1] == f"PASS {MOVE_FIRST}"


def test_validate_runs_the_reference_only_on_cases_without_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = first_file()
    data["cases"][0]["steps"][0]["action"] = {"type": "fly", "player": 0}
    data["cases"][0]["expect"][0]["state"]["/track/1"] = ["nobody"]
    root = write_suite(tmp_path, data)
    code, _, err = run_cli(capsys, "conformance", "validate", "--suite", str(root))
    assert code == 3
    lines = err.splitlines()
    assert any("cases/bad.json#/cases/0/steps/0/action" in line for line in lines), err
    assert not any("the reference" in line for line in lines), err


# --------------------------------------------------------------------------- bad options


@pytest.mark.parametrize("command", ["", "   "])
@pytest.mark.parametrize("verb", ["run", "explain", "fuzz"])
def test_an_empty_adapter_command_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], verb: str, command: str
) -> None:
    argv = ["conformance", verb, *([MOVE_FIRST] if verb == "explain" else []), "--adapter", command]
    code, out, err = run_cli(capsys, *argv, *(["--games", "1"] if verb == "fuzz" else []))
    assert code == 2 and out == ""
    assert one_line(err) == "camelup conformance: --adapter: the command is empty"


def test_fuzz_needs_an_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "conformance", "fuzz", "--games", "1")
    assert code == 2 and out == ""
    assert "the following arguments are required: --adapter" in err


@pytest.mark.parametrize("timeout", ["nan", "inf", "-inf", "0", "-1"])
@pytest.mark.parametrize("verb", ["run", "explain", "fuzz"])
def test_timeout_must_be_positive_and_finite(
    capsys: pytest.CaptureFixture[str], verb: str, timeout: str
) -> None:
    argv = ["conformance", verb, *([MOVE_FIRST] if verb == "explain" else [])]
    if verb == "fuzz":
        argv += ["--adapter", REFERENCE, "--games", "1"]
    code, out, err = run_cli(capsys, *argv, f"--timeout={timeout}")
    assert code == 2 and out == ""
    assert one_line(err).startswith("camelup conformance: --timeout ")
    assert "must be a positive number of seconds" in err


@pytest.mark.parametrize("count", ["-1", str(10**22)])
@pytest.mark.parametrize("verb", ["run", "explain", "fuzz"])
def test_max_restarts_is_bounded(capsys: pytest.CaptureFixture[str], verb: str, count: str) -> None:
    argv = ["conformance", verb, *([MOVE_FIRST] if verb == "explain" else [])]
    if verb == "fuzz":
        argv += ["--adapter", REFERENCE, "--games", "1"]
    code, out, err = run_cli(capsys, *argv, "--max-restarts", count)
    assert code == 2 and out == ""
    assert one_line(err) == (
        f"camelup conformance: --max-restarts {count}: must be from 0 to 1,000,000"
    )


def test_an_output_file_that_cannot_be_written_fails_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such" / "report.txt"
    code, out, err = run_cli(capsys, "conformance", "run", "-o", str(missing))
    assert code == 2 and out == ""
    assert (
        one_line(err) == f"camelup conformance: --output {missing}: no such folder {missing.parent}"
    )
    code, out, err = run_cli(capsys, "conformance", "run", "-o", str(tmp_path))
    assert code == 2 and out == "" and "not a file name" in one_line(err)
    code, out, err = run_cli(
        capsys, "conformance", "fuzz", "--adapter", REFERENCE, "--games", "1", "--out", str(missing)
    )
    assert code == 2 and out == "" and "--out" in one_line(err)
    assert not missing.parent.exists()


# ---------------------------------------------------------------------- text no output can hold


def test_a_lone_surrogate_is_a_suite_problem_with_its_pointer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = first_file()
    text = json.dumps(data).replace(
        '"a first-edition camel moves onto the stack ahead"', '"a camel \\ud800 moves"', 1
    )
    assert "\\ud800" in text
    root = write_suite(tmp_path, text)
    problem = "cases/bad.json#/cases/0/description: a lone surrogate \\ud800 in a string"
    for verb in ("run", "list", "validate"):
        code, out, err = run_cli(capsys, "conformance", verb, "--suite", str(root))
        assert code == 3, (verb, err)
        assert problem in err, (verb, err)
    code, out, err = run_cli(
        capsys, "conformance", "run", "--suite", str(root), "--format", "jsonl"
    )
    assert code == 3
    footer = json.loads(out.splitlines()[-1])
    assert footer["counts"]["passed"] == 8 and problem in footer["problems"][0]
    code, out, err = run_cli(capsys, "conformance", "show", MOVE_FIRST, "--suite", str(root))
    assert code == 3 and problem in err
    code, out, err = run_cli(capsys, "conformance", "show", LEGAL_FIRST, "--suite", str(root))
    assert code == 0 and out.startswith(LEGAL_FIRST)


def test_a_lone_surrogate_in_a_key_or_the_area(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = first_file()
    data["cases"][0]["expect"][0]["state"]["/players/0/PLACEHOLDER"] = 1
    text = json.dumps(data).replace("PLACEHOLDER", "\\udc80")
    root = write_suite(tmp_path / "key", text)
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert code == 3
    assert "cases/bad.json#/cases/0/expect/0/state/~1players~10~1\\udc80: a lone surrogate" in err
    assert out.splitlines()[-1] == "8 passed, 0 failed, 0 errored, 0 skipped"
    root = write_suite(tmp_path / "area", json.dumps(data).replace('"first-edition"', '"\\ud83d"'))
    code, out, err = run_cli(capsys, "conformance", "run", "--suite", str(root))
    assert code == 3 and "cases/bad.json#/area: a lone surrogate \\ud83d" in err
    assert out.splitlines()[-1] == "7 passed, 0 failed, 0 errored, 0 skipped"


@pytest.mark.parametrize(("lists", "refused"), [(60, False), (61, True)])
def test_a_case_is_walked_for_depth_exactly_where_its_file_may_be_too_deep(
    tmp_path: Path, lists: int, refused: bool
) -> None:
    """A file's text spares the walk of its cases for depth only when none can be too deep:
    at the bound, a case is refused (its innermost list 64 levels below it), one level less is
    not (the list that holds the expected money is 4 levels below the case)."""
    data = first_file()
    value: Any = 1
    for _ in range(lists):
        value = [value]
    data["cases"][0]["expect"][0]["state"]["/players/0/money"] = value
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(data), "utf-8")
    cases, problems = suite.load_case_file(path, suite.bundled())
    deep = [str(p) for p in problems if "levels deep" in p.message]
    assert len(deep) == refused, problems
    if refused:
        where = "#/cases/0/expect/0/state/~1players~10~1money" + "/0" * 60
        assert f"{where}: nested more than 64 levels deep" in deep[0]
        assert len(cases) == 1  # the other case of the file still loads
        assert len(problems) == 1


ERRORED_WITH = """\
import json, sys
from camelup.harness.adapter import hello_reply
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "hello":
        print(json.dumps(hello_reply()), flush=True)
    elif message["cmd"] == "run":
        print('{"seq": %d, "errored": {"message": %s}}' % (message["seq"], sys.argv[1]), flush=True)
    else:
        break
"""


def _errored_with(tmp_path: Path, message_json: str) -> str:
    script = tmp_path / "errored_with.py"
    script.write_text(ERRORED_WITH)
    return " ".join([PYTHON, shlex.quote(str(script)), shlex.quote(message_json)])


def test_an_adapter_line_with_a_lone_surrogate_breaks_the_protocol_not_the_runner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_suite(tmp_path / "suite")
    adapter = _errored_with(tmp_path, '"broken \\ud800 text"')
    code, out, err = run_cli(
        capsys, "conformance", "run", "--suite", str(root), "--id", MOVE_FIRST, "--adapter", adapter
    )
    assert code == 4, err
    assert "a lone surrogate \\ud800" in out
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 errored, 0 skipped"


# ------------------------------------------------------------------------------ JUnit and XML


def test_junit_escapes_what_xml_forbids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = write_suite(tmp_path / "suite")
    adapter = _errored_with(tmp_path, '"nul \\u0000, escape \\u001b[31m, \\ufffe"')
    code, out, _ = run_cli(
        capsys, "conformance", "run", "--suite", str(root), "--ruleset", "first",
        "--format", "junit", "--adapter", adapter,
    )  # fmt: skip
    assert code == 1
    document = xml.dom.minidom.parseString(out.encode("utf-8"))
    [error, _] = document.getElementsByTagName("error")
    assert error.getAttribute("message") == "nul \\u0000, escape \\u001b[31m, \\ufffe"
    body = error.firstChild
    assert body is not None and "nul \\u0000, escape \\u001b[31m" in str(body.nodeValue)


def test_junit_of_a_report_with_control_characters_is_well_formed() -> None:
    case = suite.parse_case(first_file()["cases"][0], "area \x02", "file \x03.json")
    result = CaseResult(case, "errored", "", "reason \x00\x08\x0b\x0c\ud800 end", stderr="\x07")
    report = RunReport((result,), "adapter \x01", None, fatal="fatal \x1f")
    document = xml.dom.minidom.parseString(render(report, "junit").encode("utf-8"))
    [error, fatal] = document.getElementsByTagName("error")  # the case's, and the run's
    assert error.getAttribute("message") == "reason \\u0000\\u0008\\u000b\\u000c\\ud800 end"
    assert fatal.getAttribute("message") == "fatal \\u001f"
    [testcase, _] = document.getElementsByTagName("testcase")
    assert testcase.getAttribute("file") == "file \\u0003.json"
    assert "\\u0007" in str(getattr(error.firstChild, "nodeValue", ""))
    [system_err] = document.getElementsByTagName("system-err")
    assert system_err.firstChild is not None
    assert system_err.firstChild.nodeValue == "fatal \\u001f"


# ------------------------------------------------------------------------ one JSON reader


@pytest.mark.parametrize(
    ("data", "message", "where"),
    [
        ('{"a": [1,]}', "not JSON (line 1, column 10): Expecting value", ""),
        (b'["\xff"]', "not UTF-8 text: invalid start byte at byte 2", ""),
        ("[" * 100_000 + "]" * 100_000, "not JSON this reader reads: nested too deeply", ""),
        ("1" * 5000, "not JSON this reader reads: an integer of 5000 digits", ""),
        ('{"a": [0, ' + "1" * 5000 + "]}", "not JSON this reader reads: an integer of", "/a/1"),
        (
            '{"a": {"b/c": ["x", "\\udfff"]}}',
            "not JSON this reader reads: a lone surrogate",
            "/a/b~1c/1",
        ),
        ('{"\\ud800~": 1}', "not JSON this reader reads: a lone surrogate \\ud800", "/\\ud800~0"),
        (
            '{"cases": [{"id": "x", "expect": [], "expect": [1]}]}',
            "not JSON this reader reads: duplicate key 'expect' (twice in one object)",
            "/cases/0/expect",
        ),
        ('{"a": [1, NaN]}', "not JSON this reader reads: NaN is not a JSON number", "/a/1"),
        ('{"a": -Infinity}', "not JSON this reader reads: -Infinity is not a JSON number", "/a"),
    ],
)
def test_parse_json_turns_every_defect_into_one_message(
    data: str | bytes, message: str, where: str
) -> None:
    with pytest.raises(JSONInputError) as caught:
        parse_json(data)
    assert caught.value.message.startswith(message)
    assert caught.value.pointer == where
    assert "\n" not in str(caught.value)
    str(caught.value).encode("utf-8")  # printable


def test_parse_json_reads_good_json() -> None:
    assert parse_json(b'{"a": [1, "\\u00e9", "\\ud83d\\ude00"]}') == {"a": [1, "é", "😀"]}


def test_parse_json_bounds_the_nesting_when_asked() -> None:
    text = '{"a": [[[1]]], "b": [[{"c": [2]}]]}'
    assert parse_json(text, max_depth=4)["b"] == [[{"c": [2]}]]
    with pytest.raises(JSONInputError) as caught:
        parse_json(text, max_depth=3)
    assert caught.value.message == "not JSON this reader reads: nested more than 3 levels deep"
    assert caught.value.pointer == "/b/0/0/c"


def test_an_expectations_file_with_a_lone_surrogate(tmp_path: Path) -> None:
    path = tmp_path / "expect.json"
    path.write_text('{"xfail": [{"id": "x", "reason": "\\ud800"}]}')
    with pytest.raises(ExpectationsError, match=r"expect.json#/xfail/0/reason: not JSON this"):
        load_expectations(path)


def test_json_is_parsed_in_one_place_and_pointers_are_built_in_one_place() -> None:
    package = CONFORMANCE.parent
    for path in sorted(package.rglob("*.py")):
        text = path.read_text("utf-8")
        if path.name != "jsonio.py":
            assert "json.loads" not in text and "json.load(" not in text, path.name
        if path.name != "errors.py":  # camelup.model.errors.pointer, which jsonio.pointer wraps
            assert not re.search(r'replace\("~", "~0"\)', text), path.name
        assert "def _pointer" not in text, path.name


def test_schema_validators_are_built_in_one_place() -> None:
    package = CONFORMANCE.parent
    for path in sorted(package.rglob("*.py")):
        if path.name != "schemas.py":
            text = path.read_text("utf-8")
            assert "Draft202012Validator" not in text and "best_match" not in text, path.name


# ----------------------------------------------------------------------------- the camelup CLI


def test_an_internal_error_has_its_own_exit_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom\nin two lines")

    monkeypatch.setattr(suite, "load_suite", broken)
    code, out, err = run_cli(capsys, "conformance", "list")
    assert code == 70 and out == ""
    assert one_line(err) == "camelup: internal error: RuntimeError: boom in two lines"


@pytest.mark.parametrize("argv", [["--help"], ["spec", "--help"], ["conformance", "--help"]])
def test_the_help_documents_exit_code_70(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0
    assert re.search(r"^ +70  internal error", out, re.MULTILINE), out


@pytest.mark.parametrize("verb", ["check", "sync"])
def test_spec_commands_refuse_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str
) -> None:
    missing = tmp_path / "nonexistent"
    code, out, err = run_cli(capsys, "spec", verb, "--spec", str(missing))
    assert code == 2 and out == ""
    assert one_line(err) == f"camelup: --spec {missing}: no such folder"


def test_spec_sync_refuses_a_folder_without_a_rulings_register(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chapter = tmp_path / "01-components.md"
    chapter.write_text("# Components\n")
    code, out, err = run_cli(capsys, "spec", "sync", "--spec", str(tmp_path))
    assert code == 2 and out == ""
    assert "not a spec folder (it has no rulings.md)" in one_line(err)
    assert chapter.read_text() == "# Components\n"


# -------------------------------------------------------------------------------- the docs


def test_the_protocol_doc_matches_the_command_line() -> None:
    text = (REPO / "docs" / "adapter-protocol.md").read_text("utf-8")
    assert "camelup conformance fuzz     --adapter CMD [--seed N]" in text
    assert "| 70 | internal error" in text
    assert "a folder with `cases/`" not in text
    assert "every `*.json` below `DIR`" in text

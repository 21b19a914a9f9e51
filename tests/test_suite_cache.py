"""The judged suite kept on disk (camelup.io.cache): served to the next process, never stale.

Each test has a cache folder of its own (``CAMELUP_CACHE_DIR``), and forgets what this process
loaded before (``suite._LOADED``), as a new process would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from camelup.harness import suite
from camelup.io import cache
from camelup.io.resources import PACKAGE, schema_directory
from commands import GUARD, camelup, run_cli

REPO = Path(__file__).resolve().parent.parent
ONE_FILE = REPO / "conformance" / "cases" / "second" / "05-movement.json"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, and a process that has loaded nothing yet."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(suite, "_LOADED", {})
    return tmp_path / "cache"


@pytest.fixture
def judgements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files judged (not served from a cache) from now on."""
    judged: list[str] = []
    real = suite._case_file

    def counted(data: bytes, name: str, gate: Any) -> Any:
        judged.append(name)
        return real(data, name, gate)

    monkeypatch.setattr(suite, "_case_file", counted)
    return judged


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(suite, "_LOADED", {})


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "suite").iterdir() if not p.name.startswith("."))


def test_a_judged_file_is_served_to_the_next_process_and_judged_anew_when_its_bytes_change(
    tmp_path: Path, folder: Path, judgements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "movement.json"
    shutil.copyfile(ONE_FILE, path)
    first = suite.load_case_file(path)
    assert len(first[0]) > 1 and first[1] == []
    assert len(judgements) == 1 and len(_entries(folder)) == 1

    _new_process(monkeypatch)
    assert suite.load_case_file(path) == first
    assert len(judgements) == 1  # served from the disk

    data = json.loads(path.read_text("utf-8"))
    data["cases"][0]["ruleset"]["edition"] = "third"  # an invalid case now
    path.write_text(json.dumps(data), "utf-8")
    _new_process(monkeypatch)
    cases, problems = suite.load_case_file(path)
    assert len(judgements) == 2
    assert len(cases) == len(first[0]) - 1
    assert [p.pointer for p in problems] == ["/cases/0/ruleset/edition"]


def test_another_camelup_never_reads_the_entries_of_this_one(
    tmp_path: Path, folder: Path, judgements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "movement.json"
    shutil.copyfile(ONE_FILE, path)
    suite.load_case_file(path)
    _new_process(monkeypatch)
    monkeypatch.setattr(cache, "code_fingerprint", lambda: b"another camelup")
    suite.load_case_file(path)
    assert len(judgements) == 2 and len(_entries(folder)) == 2


def test_the_fingerprint_changes_with_any_byte_or_file_of_the_code(tmp_path: Path) -> None:
    code = tmp_path / "camelup"
    (code / "rules").mkdir(parents=True)
    (code / "rules" / "movement.py").write_text("STEPS = 3\n")
    (code / "__pycache__").mkdir()
    before = cache.fingerprint(code)
    (code / "__pycache__" / "movement.pyc").write_bytes(b"compiled")
    assert cache.fingerprint(code) == before  # bytecode is not code
    (code / "rules" / "movement.py").write_text("STEPS = 4\n")
    changed = cache.fingerprint(code)
    assert changed != before
    (code / "rules" / "tiles.py").write_text("")
    assert cache.fingerprint(code) != changed
    assert cache.code_fingerprint() == cache.fingerprint(PACKAGE, schema_directory())


def test_a_damaged_entry_is_judged_again_and_replaced(
    tmp_path: Path, folder: Path, judgements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "movement.json"
    shutil.copyfile(ONE_FILE, path)
    first = suite.load_case_file(path)
    [entry] = _entries(folder)
    for damage in (entry.read_bytes()[:100], b"", b"not a pickle"):
        entry.write_bytes(damage)
        _new_process(monkeypatch)
        assert suite.load_case_file(path) == first
    assert len(judgements) == 4
    _new_process(monkeypatch)
    assert suite.load_case_file(path) == first
    assert len(judgements) == 4  # the last judgement replaced the damaged entry


@pytest.mark.parametrize("setting", ["off", "shared", "a file"])
def test_no_cache_when_it_is_off_writable_by_others_or_not_a_folder(
    tmp_path: Path,
    folder: Path,
    judgements: list[str],
    monkeypatch: pytest.MonkeyPatch,
    setting: str,
) -> None:
    path = tmp_path / "movement.json"
    shutil.copyfile(ONE_FILE, path)
    if setting == "off":
        monkeypatch.setenv(cache.CACHE_ENV, "")
    elif setting == "shared":  # anyone could plant an entry there: a pickle runs code
        (folder / "suite").mkdir(parents=True)
        (folder / "suite").chmod(0o777)
    else:
        folder.write_text("")
    first = suite.load_case_file(path)
    _new_process(monkeypatch)
    assert suite.load_case_file(path) == first
    assert len(judgements) == 2
    assert not (folder / "suite").is_dir() or _entries(folder) == []


def test_the_oldest_entries_go_beyond_the_bound(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 4)
    for number in range(5):
        cache.remember("suite", bytes([number]), number)
        os.utime(folder / "suite" / bytes([number]).hex(), ns=(number, number))
    assert [p.name for p in _entries(folder)] == ["02", "03", "04"]
    assert cache.recall("suite", bytes([4])) == 4 and cache.recall("suite", bytes([0])) is None


def test_two_processes_that_race_on_an_empty_cache_list_the_same_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, "")
    code, expected, _ = run_cli(capsys, "conformance", "list", "--format", "jsonl")
    assert code == 0 and expected.count("\n") > 700
    env = {**os.environ, cache.CACHE_ENV: str(tmp_path / "cache")}
    command = camelup("conformance", "list", "--format", "jsonl")
    racing = [
        subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    outputs = [process.communicate(timeout=GUARD)[0] for process in racing]
    assert [process.returncode for process in racing] == [0, 0]
    assert outputs == [expected, expected]
    assert len(list((tmp_path / "cache" / "suite").iterdir())) == len(suite.load_suite().files)
    served = subprocess.run(command, env=env, capture_output=True, text=True, timeout=GUARD)
    assert served.stdout == expected

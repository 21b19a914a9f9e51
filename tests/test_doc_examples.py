"""Every example in the README and docs/*.md that is not Python works as written.

Python examples are doctests (tests/test_docs.py); the implementers' guide has its own test
(tests/test_implementers_guide.py). This file covers the rest of the fenced blocks, each by what
it is:

- ``sh`` / ``bash``: every command is run, exactly as printed, in a scratch folder like a user's
  repository: camelup installed from a wheel of this checkout by the README's own ``pip install
  camelup`` line (camelup is not on the package index yet; pip is pointed at the wheel, as the
  README says), ``./my-adapter`` an executable adapter and ``camelup-expectations.toml`` its
  known failures. The exit status must be 0, or what a ``<!-- example: exit N -->`` comment
  above the block says.
- ``<!-- example: run by .ci/run -->``: the Quickstart, which installs everything into
  ``.venv``; CI runs it as written, and this file checks CI's extraction finds these commands.
- ``<!-- example: collect only -->``: a command that runs this very test suite (minutes, or the
  35-minute long profile); run with ``--collect-only``, which proves its paths and its
  Hypothesis profile exist.
- ``<!-- example: as in .ci/run -->``: the contributor's checks before a commit
  (docs/contributing.md): each command must be a line of ``.ci/run``, which runs them.
- ``<!-- example: the layers of tests/test_layers.py -->``: the layer table, checked against
  ``tests/test_layers.py``'s ``LAYERS``; ``<!-- example: files in the repository -->``: a list
  of paths, each of which must exist.
- ``yaml``: the CI job: parsed, and its ``run`` steps executed with a job summary file.
- ``toml``: an expectations file, loaded by camelup's own loader.
- ``text``: output, shapes and synopses; the command-line synopsis is checked against ``--help``
  and the layout against the folders.

A test fails when it finds nothing to check, so an emptied document cannot pass.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
import yaml

from camelup.harness.expectations import parse_expectations
from commands import run_cli

REPO = Path(__file__).resolve().parent.parent
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
CHECKED_LANGUAGES = {"python", "sh", "bash", "yaml", "toml", "text"}
BLOCK = re.compile(
    r"(?:<!-- example: (?P<note>[^>]*?) -->\n)?^```(?P<language>[^\n`]*)\n(?P<body>.*?)^```$",
    re.S | re.M,
)
# What ./my-adapter is in each document's scratch folder, and its expectations file: the README
# shows a user's CI with a buggy program and its known failures (the toy and its file); the
# protocol page runs a correct engine (the reference's adapter) with the page's own example file.
MY_ADAPTER = {
    "README.md": (f'exec python3 "{REPO}/docs/toy_adapter.py" "$@"', "docs/toy_expectations.toml"),
    "adapter-protocol.md": ('exec python3 -m camelup.adapter "$@"', None),
}


@attrs.frozen
class Block:
    document: str
    line: int
    language: str
    note: str | None
    body: str

    @property
    def label(self) -> str:
        return f"{self.document}:{self.line}"

    def commands(self) -> list[str]:
        """The block's commands, a line ending in a backslash continued on the next."""
        return [c for c in self.body.replace("\\\n", " ").splitlines() if c.strip()]


def blocks(*languages: str) -> list[Block]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text("utf-8")
        for match in BLOCK.finditer(text):
            language = match["language"].strip()
            if languages and language not in languages:
                continue
            line = text.count("\n", 0, match.start("language")) + 1
            found.append(Block(path.name, line, language, match["note"], match["body"]))
    return found


def _run(command: str, cwd: Path, env: dict[str, str], timeout: int = 300) -> str:
    """Run ``command`` with bash; return its output, failing on an unexpected exit status."""
    result = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    return f"{result.returncode}\n{result.stdout}{result.stderr}"


def _status(output: str) -> int:
    return int(output.split("\n", 1)[0])


def test_every_block_names_a_checked_language() -> None:
    found = blocks()
    assert len(found) >= 15
    unchecked = [b.label for b in found if b.language not in CHECKED_LANGUAGES]
    assert unchecked == [], "a fenced block without a language this file (or test_docs) checks"


# ------------------------------------------------------------------------ the user's repository


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of a user's CI job after the README's ``pip install camelup``: a fresh
    venv first on PATH, camelup installed into it from a wheel of this checkout. The venv's
    ``pip`` is this interpreter's pip run on the venv (``pip --python``, pip's own way to serve
    an environment without it): seeding the venv with a copy of pip took 9 s of CPU. The wheel
    is built with the backend the test extras install (hatchling), not in a fresh isolated
    environment that pip would fill with it first (6 s of CPU against 2 s, the same wheel)."""
    root = tmp_path_factory.mktemp("user")
    wheels = root / "wheels"
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"),
            *("-w", str(wheels), str(REPO)),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    pip.write_text(
        f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m pip"
        f' --python {shlex.quote(str(venv / "bin" / "python"))} "$@"\n',
        "utf-8",
    )
    pip.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_FIND_LINKS"] = f"{wheels} {env.get('PIP_FIND_LINKS', '')}".strip()
    env["NO_COLOR"] = "1"
    install = [c for b in blocks("bash") for c in b.commands() if c.startswith("pip install")]
    assert install == ["pip install camelup"], "the README's install line changed"
    output = _run(install[0], root, env)
    assert _status(output) == 0, output[-3000:]
    yield env


def _workspace(document: str, tmp_path: Path) -> Path:
    """A scratch folder holding ./my-adapter, camelup-expectations.toml and docs/."""
    script, expectations = MY_ADAPTER[document]
    adapter = tmp_path / "my-adapter"
    adapter.write_text(f"#!/bin/sh\n{script}\n", "utf-8")
    adapter.chmod(0o755)
    (tmp_path / "docs").symlink_to(REPO / "docs")
    if expectations is not None:
        shutil.copy(REPO / expectations, tmp_path / "camelup-expectations.toml")
    else:
        (written,) = [b for b in blocks("toml") if b.document == document]
        (tmp_path / "camelup-expectations.toml").write_text(written.body, "utf-8")
    return tmp_path


NOT_RUN_HERE = ("run by .ci/run", "collect only", "as in .ci/run")
SHELL = [b for b in blocks("sh", "bash") if b.note not in NOT_RUN_HERE]


def test_there_are_shell_examples_to_run() -> None:
    assert {b.document for b in SHELL} == {"README.md", "adapter-protocol.md"}
    assert len(SHELL) >= 4


@pytest.mark.parametrize("block", SHELL, ids=lambda b: b.label)
def test_shell_example_runs_as_written(
    block: Block, installed: dict[str, str], tmp_path: Path
) -> None:
    workspace = _workspace(block.document, tmp_path)
    expected = int(block.note.removeprefix("exit ")) if block.note else 0
    commands = block.commands()
    assert commands
    for command in commands:
        output = _run(command, workspace, installed)
        assert _status(output) == expected, f"{block.label}: {command}\n{output[-3000:]}"
        if command.startswith("camelup conformance run"):
            assert "passed" in output  # it ran cases, not only an early error


def test_the_ci_job_of_the_readme_runs(installed: dict[str, str], tmp_path: Path) -> None:
    (job_block,) = blocks("yaml")
    job = yaml.safe_load(job_block.body)
    steps = job["conformance"]["steps"]
    assert [s["uses"].split("@")[0] for s in steps if "uses" in s] == [
        "actions/checkout",
        "actions/setup-python",
    ]
    workspace = _workspace("README.md", tmp_path)
    summary = tmp_path / "summary.md"
    env = installed | {"GITHUB_STEP_SUMMARY": str(summary)}
    scripts = [s["run"] for s in steps if "run" in s]
    assert len(scripts) >= 2
    for script in scripts:
        output = _run(script, workspace, env)
        assert _status(output) == 0, f"{script}\n{output[-3000:]}"
    published = summary.read_text("utf-8")
    assert published.startswith("#") and "| passed |" in published.replace("**", "")
    known = re.search(r"(\d+) expected failures", published)  # the toy's, counted as such
    assert known is not None and int(known[1]) > 0


# ------------------------------------------------------------------------ the other blocks


def test_ci_runs_the_quickstart_as_written() -> None:
    """.ci/run extracts the Quickstart with awk; the commands it gets are the marked blocks."""
    ci = (REPO / ".ci" / "run").read_text("utf-8")
    match = re.search(r"awk '([^']*)' README\.md", ci)
    assert match is not None, ".ci/run no longer extracts the Quickstart with awk"
    extracted = subprocess.run(
        ["awk", match[1], str(REPO / "README.md")], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    marked = [c for b in blocks("sh") if b.note == "run by .ci/run" for c in b.commands()]
    assert len(marked) == 2
    assert extracted == marked


@pytest.mark.parametrize(
    "block", [b for b in blocks("sh") if b.note == "collect only"], ids=lambda b: b.label
)
def test_test_suite_commands_name_real_tests(block: Block) -> None:
    venv_python = REPO / ".venv" / "bin" / "python"
    env = dict(os.environ)
    for command in block.commands():
        if not venv_python.exists():  # tests run from another environment: use its python
            command = command.replace(".venv/bin/python", shlex.quote(sys.executable))
        # --assert=plain: collecting needs no rewritten asserts, and rewriting every test
        # module and hypothesis was most of the run's CPU; no cache is written in the checkout;
        # -n 0: collected once, here, not again by each xdist worker that addopts would start.
        collect = "--collect-only -q --assert=plain -p no:cacheprovider -n 0"
        output = _run(f"{command} {collect}", REPO, env, timeout=600)
        assert _status(output) == 0, output[-3000:]
        # -q twice (pyproject's addopts and this one): a count per test file
        counts = re.findall(r"^tests/test_\w+\.py: (\d+)$", output, re.M)
        assert counts and all(int(n) > 0 for n in counts), output[-3000:]


def test_expectations_examples_load() -> None:
    examples = blocks("toml")
    assert examples
    for block in examples:
        loaded = parse_expectations(tomllib.loads(block.body), block.label)
        assert loaded.entries, block.label


def test_the_command_line_synopsis_matches_the_help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (synopsis,) = [b for b in blocks("text") if b.body.startswith("camelup conformance run")]
    verbs: dict[tuple[str, ...], list[str]] = {}
    current: tuple[str, ...] = ()
    for line in synopsis.body.splitlines():
        words = line.split()
        if words and words[0] == "camelup":
            current = tuple(w for w in words[:3] if not w.startswith(("-", "[")))
            verbs[current] = []
        verbs[current] += re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", line)
    assert len(verbs) >= 10
    monkeypatch.setenv("COLUMNS", "200")  # argparse wraps its help to the terminal's width
    for verb, options in verbs.items():
        code, out, err = run_cli(capsys, *verb[1:], "--help")  # in-process: the help's text
        assert code == 0, (verb, err)
        missing = [o for o in options if o not in out]
        assert missing == [], f"{' '.join(verb)}: the synopsis names {missing}, --help does not"


def test_the_layout_names_real_folders() -> None:
    (layout,) = [b for b in blocks("text") if b.document == "README.md"]
    folders = re.findall(r"^(\S+/)\s", layout.body, re.M)
    assert len(folders) >= 6
    assert [f for f in folders if not (REPO / f).is_dir()] == []


def _noted(note: str) -> list[Block]:
    found = [b for b in blocks() if b.note == note]
    assert found, f"no block marked {note!r}"
    return found


def test_the_contributors_checks_are_those_ci_runs() -> None:
    ci = {line.strip() for line in (REPO / ".ci" / "run").read_text("utf-8").splitlines()}
    for block in _noted("as in .ci/run"):
        commands = block.commands()
        assert len(commands) >= 5, block.label
        assert [c for c in commands if c not in ci] == [], f"{block.label}: not in .ci/run"


def test_the_layer_table_is_the_layer_test() -> None:
    from test_layers import LAYERS

    folders = {name.split(".")[1]: layer for name, layer in LAYERS.items() if name.count(".") == 1}
    folders = {name: layer for name, layer in folders.items() if name != "__main__"}
    (table,) = _noted("the layers of tests/test_layers.py")
    rows = re.findall(r"^(\w+)/\s+(\d+)\s", table.body, re.M)
    assert {name: int(layer) for name, layer in rows} == folders
    assert [int(layer) for _, layer in rows] == sorted(folders.values())


def test_the_listed_files_exist() -> None:
    for block in _noted("files in the repository"):
        paths = re.findall(r"^(\S+)\s", block.body, re.M)
        assert len(paths) >= 5, block.label
        assert [p for p in paths if not (REPO / p).is_file()] == [], block.label

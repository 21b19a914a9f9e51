"""Syntactic mutation testing of the rules and the engine with cosmic-ray, the conformance suite
(in-process) as the test, then the unit tests of the functions the wire cannot see.

Run: ``python benchmarks/syntactic/run.py`` (every mutant: about an hour on two cores),
``python benchmarks/syntactic/run.py --sample 20`` (a fixed sample, as CI runs it) or
``--only FILE...`` (the files a change touched). cosmic-ray mutates ``reference/camelup/rules/``
and ``reference/camelup/play/engine.py`` one mutation at a time in a scratch copy of the
checkout (never the checkout itself) and runs ``suite_passes.py`` on each: a mutant is killed
when a conformance case fails or, for a mutant the whole suite passes, when one of the unit
tests ``suite_passes.UNIT_TESTS`` names fails (the tests of ``chance_outcomes``,
``random_setup`` and of the odds' action values, which read a move's landing: library API the
adapter protocol never calls, so no case can see them). A survivor is either listed in
``equivalent.toml`` beside this file, with a one-line reason why no engine behaviour changes,
or a hole in the suite. Exit code 1 when a survivor is not listed, 0 otherwise. Prints a score
per mutated file and in all: killed mutants over mutants that are not listed as equivalent.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult
from suite_passes import SUITE_FILE

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
MUTATED = ("reference/camelup/rules", "reference/camelup/play/engine.py")
COPIED = ("reference", "conformance", "spec")
EQUIVALENT = HERE / "equivalent.toml"
# Seconds per mutant, as a multiple of the unmutated suite's own time (2 to 3 s alone, several
# times that on a busy machine): an endless loop is killed here, a slow survivor is not.
TIMEOUT_FACTOR, TIMEOUT_FLOOR = 10.0, 20.0


def mutant_keys(items: list[WorkItem]) -> dict[str, str]:
    """Each mutant's name in ``equivalent.toml``, by job: its file, operator and the source line
    it changes (with ``#k`` for the k-th such mutation on that line, counted from the left,
    then in the operator's own order: a number's two mutations, to n + 1 and to n - 1, start
    at one place, and ordering them by job id named them at random from run to run).
    A line number would go stale with every edit above it; the line's text only with the line."""
    sites: dict[tuple[str, str, str], list[tuple[tuple[int, int], int, str]]] = {}
    lines: dict[str, list[str]] = {}
    for item in items:
        [mutation] = item.mutations
        module = Path(mutation.module_path)
        path = module.as_posix().split("reference/camelup/", 1)[-1]
        if path not in lines:
            lines[path] = module.read_text("utf-8").splitlines()
        text = lines[path][mutation.start_pos[0] - 1].strip()
        site = (path, mutation.operator_name, text)
        place = (mutation.start_pos[0], mutation.start_pos[1])
        sites.setdefault(site, []).append((place, mutation.occurrence, item.job_id))
    keys = {}
    for (path, operator, text), found in sites.items():
        for index, (_, _, job) in enumerate(sorted(found)):
            suffix = f" #{index}" if index else ""
            keys[job] = f"{path} {operator}{suffix} @ {text}"
    return keys


def _equivalent_file() -> dict[str, Any]:
    return tomllib.loads(EQUIVALENT.read_text("utf-8"))


def equivalents() -> dict[str, str]:
    """Each mutant listed as equivalent, and why."""
    return {entry["mutant"]: entry["reason"] for entry in _equivalent_file().get("mutant", [])}


def unobserved_lines() -> dict[str, str]:
    """The source lines (``<file> @ <line>``) no conformance case can observe, and why: every
    mutant of such a line is listed, whatever its operator."""
    return {entry["line"]: entry["reason"] for entry in _equivalent_file().get("line", [])}


def is_listed(key: str, listed: dict[str, str], lines: dict[str, str]) -> bool:
    path, _, text = key.partition(" @ ")
    return key in listed or f"{path.split()[0]} @ {text}" in lines


def test_command(workspace: Path) -> list[str]:
    return [sys.executable, str(HERE / "suite_passes.py"), str(workspace)]


def config_text(workspace: Path, timeout: float, mutated: tuple[str, ...] = MUTATED) -> str:
    paths = ", ".join(f'"{workspace / p}"' for p in mutated)
    command = " ".join(test_command(workspace))
    return (
        "[cosmic-ray]\n"
        f"module-path = [{paths}]\n"
        f"timeout = {timeout:.0f}\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n'
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
    )


Span = tuple[tuple[int, int], tuple[int, int]]


def annotation_spans(path: Path) -> list[Span]:
    """Where the type annotations of ``path`` lie, ((line, column), (line, column)): with ``from
    __future__ import annotations`` they are never evaluated, so a mutant there changes nothing."""
    spans: list[Span] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        annotation = None
        if isinstance(node, ast.arg | ast.AnnAssign):
            annotation = node.annotation
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotation = node.returns
        if annotation is not None and annotation.end_lineno is not None:
            start = (annotation.lineno, annotation.col_offset)
            spans.append((start, (annotation.end_lineno, annotation.end_col_offset or 0)))
    return spans


def _inside(position: tuple[int, int], spans: list[Span]) -> bool:
    return any(start <= position < end for start, end in spans)


_IDENTITY_OPERATORS = {
    "core/ReplaceComparisonOperator_Is_Eq",
    "core/ReplaceComparisonOperator_IsNot_NotEq",
}


class Kinds:
    """Which of the kinds ``equivalent.toml`` lists a mutant is of, if any."""

    def __init__(self) -> None:
        self.listed = {entry["kind"] for entry in _equivalent_file().get("kind", [])}
        self._annotations: dict[Path, list[Span]] = {}

    def of(self, mutation: Any) -> str | None:
        path = Path(mutation.module_path)
        if path not in self._annotations:
            self._annotations[path] = annotation_spans(path)
        operator = mutation.operator_name
        if "annotation" in self.listed and _inside(
            tuple(mutation.start_pos), self._annotations[path]
        ):
            return "annotation"
        if "identity" in self.listed and operator in _IDENTITY_OPERATORS:
            return "identity"
        if operator in ("core/RemoveDecorator", "core/NumberReplacer"):
            line = path.read_text("utf-8").splitlines()[mutation.start_pos[0] - 1].strip()
            if operator == "core/NumberReplacer":
                if "cache-size" in self.listed and line.startswith("@functools.lru_cache(maxsize="):
                    return "cache-size"
            elif "decorator" in self.listed and line.startswith(("@implements", "@functools.")):
                return "decorator"
        return None


def skip_by_kind(db: WorkDB) -> None:
    """Mark the mutants of a kind ``equivalent.toml`` lists as equivalent, as skipped."""
    kinds = Kinds()
    for item in list(db.pending_work_items):
        [mutation] = item.mutations
        kind = kinds.of(mutation)
        if kind is not None:
            db.set_result(
                item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=kind)
            )


def keep_sample(db: WorkDB, size: int, seed: int) -> None:
    """Mark all but ``size`` mutants as skipped: those whose keys hash lowest with ``seed``.
    A mutant's draw depends on its own key only, so a change elsewhere in the rules adds or
    removes mutants without drawing a different sample."""
    pending = list(db.pending_work_items)
    keys = mutant_keys(pending)

    def draw(item: WorkItem) -> str:
        return hashlib.sha256(f"{seed} {keys[item.job_id]}".encode()).hexdigest()

    kept = {item.job_id for item in sorted(pending, key=draw)[:size]}
    for item in pending:
        if item.job_id not in kept:
            db.set_result(
                item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="sample")
            )


def prepare(workspace: Path, env: dict[str, str]) -> float:
    """Make each mutant's test cheap, check the unmutated suite passes, and return the timeout.

    cosmic-ray runs the test with ``PYTHONDONTWRITEBYTECODE``, so the unmutated modules are
    compiled once here; the suite is loaded once, by the unmutated copy, into the pickle that
    ``suite_passes.py`` reads."""
    compile_all = [sys.executable, "-m", "compileall", "-q", str(workspace / "reference")]
    subprocess.run(compile_all, check=True, env=env)
    pickle_suite = (
        "import pickle, sys; from camelup.harness import load_suite;"
        " open(sys.argv[1], 'wb').write(pickle.dumps(load_suite()))"
    )
    suite_file = str(workspace / SUITE_FILE)
    subprocess.run([sys.executable, "-c", pickle_suite, suite_file], check=True, env=env)
    began = time.monotonic()
    baseline = subprocess.run(test_command(workspace), env=env, capture_output=True, text=True)
    seconds = time.monotonic() - began
    if baseline.returncode != 0:
        sys.exit(f"the unmutated suite does not pass: {baseline.stderr.strip()}")
    return max(TIMEOUT_FLOOR, TIMEOUT_FACTOR * seconds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, metavar="N", help="run N mutants drawn by --seed")
    parser.add_argument("--seed", type=int, default=18, help="the sample's seed (default 18)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (session.sqlite)")
    parser.add_argument(
        "--again",
        metavar="DIR",
        help="run again only the unlisted survivors of the run kept in DIR, against the checkout's"
        " suite and tests as they are now (after adding cases); DIR's mutated sources stay",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="PATH",
        help="mutate only these files (paths from the checkout's root, under rules/ or the engine),"
        " to check the files a change touched",
    )
    options = parser.parse_args()
    mutated = MUTATED
    if options.only:
        mutated = tuple(Path(path).as_posix() for path in options.only)
        outside = [p for p in mutated if not p.startswith(MUTATED) or not (CHECKOUT / p).is_file()]
        if outside:
            parser.error(f"not a file of {' or '.join(MUTATED)}: {', '.join(outside)}")
    if options.again:
        return again(Path(options.again))
    workspace = Path(options.keep or tempfile.mkdtemp(prefix="camelup-syntactic-"))
    try:
        for name in COPIED:
            shutil.copytree(CHECKOUT / name, workspace / name, dirs_exist_ok=True)
        # The scratch copy comes first on the path, before the checkout's editable install.
        env = {**os.environ, "PYTHONPATH": str(workspace / "reference")}
        timeout = prepare(workspace, env)
        config = workspace / "cosmic-ray.toml"
        config.write_text(config_text(workspace, timeout, mutated), "utf-8")
        session = workspace / "session.sqlite"
        cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
        subprocess.run([*cosmic, "init", "--force", str(config), str(session)], check=True)
        with use_db(str(session)) as db:
            skip_by_kind(db)
            if options.sample is not None:
                keep_sample(db, options.sample, options.seed)
        began = time.monotonic()
        subprocess.run([*cosmic, "exec", str(config), str(session)], check=True, env=env)
        return report(session, time.monotonic() - began)
    finally:
        if not options.keep:
            shutil.rmtree(workspace, ignore_errors=True)


def again(workspace: Path) -> int:
    """Forget the results of the unlisted survivors (and timeouts) of a kept run and run those
    mutants again."""
    session = workspace / "session.sqlite"
    for name in COPIED[1:]:  # the suite and the spec; the mutated sources stay as they were
        shutil.rmtree(workspace / name, ignore_errors=True)
        shutil.copytree(CHECKOUT / name, workspace / name)
    env = {**os.environ, "PYTHONPATH": str(workspace / "reference")}
    config = workspace / "cosmic-ray.toml"
    config.write_text(config_text(workspace, prepare(workspace, env)), "utf-8")
    listed, lines, kinds = equivalents(), unobserved_lines(), Kinds()
    with use_db(str(session), WorkDB.Mode.open) as db:
        completed = list(db.completed_work_items)
        keys = mutant_keys([item for item, _ in completed])
        survivors = [
            item.job_id
            for item, result in completed
            # A timeout on a busy machine may be a slow survivor: run again, with the new timeout.
            if (result.test_outcome is TestOutcome.SURVIVED or result.output == "timeout")
            and not is_listed(keys[item.job_id], listed, lines)
            and kinds.of(item.mutations[0]) is None
        ]
    with sqlite3.connect(session) as connection:
        connection.executemany(
            "DELETE FROM work_results WHERE job_id = ?", [(j,) for j in survivors]
        )
    print(f"running the {len(survivors)} unlisted survivors of {session} again")
    began = time.monotonic()
    cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
    subprocess.run([*cosmic, "exec", str(config), str(session)], check=True, env=env)
    return report(session, time.monotonic() - began)


def report(session: Path, seconds: float) -> int:
    """Print every unlisted survivor with its diff, a score per mutated file, and the total."""
    listed = equivalents()
    lines = unobserved_lines()
    kinds = Kinds()
    survived: list[tuple[str, str]] = []
    tally: dict[str, Counter[str]] = {}
    with use_db(str(session), WorkDB.Mode.open) as db:
        completed = list(db.completed_work_items)
        keys = mutant_keys([item for item, _ in completed])
        for item, result in completed:
            key = keys[item.job_id]
            counts = tally.setdefault(key.split()[0], Counter())
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                counts["sample" if result.output == "sample" else "by kind"] += 1
            elif result.test_outcome is not TestOutcome.SURVIVED:
                counts["killed"] += 1
            elif is_listed(key, listed, lines) or kinds.of(item.mutations[0]) is not None:
                counts["listed"] += 1
            else:
                counts["survived"] += 1
                survived.append((key, result.diff or ""))
    for key, diff in sorted(survived):
        print(f"survived  {key}\n{diff}")
    columns = ("killed", "survived", "listed", "by kind", "sample")
    print(f"{'file':<24}" + "".join(f"{c:>10}" for c in columns) + f"{'score':>9}")
    for path, counts in [*sorted(tally.items()), ("total", sum(tally.values(), Counter()))]:
        print(f"{path:<24}" + "".join(f"{counts[c]:>10}" for c in columns) + _score(counts))
    total = sum(tally.values(), Counter())
    print(
        f"syntactic mutants: {total['killed'] + total['survived'] + total['listed']} run,"
        f" {total['killed']} killed, {total['listed']} listed as equivalent,"
        f" {total['survived']} survived ({total['by kind']} equivalent by kind, not run);"
        f" score {_score(total).strip()} of the non-equivalent; {seconds / 60:.1f} min"
    )
    return 1 if survived else 0


def _score(counts: Counter[str]) -> str:
    """Killed over killed and unlisted survivors: the listed equivalents are not in the score."""
    scored = counts["killed"] + counts["survived"]
    return f"{100.0 * counts['killed'] / scored if scored else 100.0:>8.1f}%"


if __name__ == "__main__":
    sys.exit(main())

"""Syntactic mutation testing of the rules and the engine with cosmic-ray, the conformance suite
(in-process) as the test.

Run: ``python benchmarks/syntactic/run.py`` (every mutant: hours on two cores) or
``python benchmarks/syntactic/run.py --sample 30`` (a fixed sample, as CI runs it). cosmic-ray
mutates ``reference/camelup/rules/`` and ``reference/camelup/play/engine.py`` one mutation at a
time in a scratch copy of the checkout (never the checkout itself) and runs
``suite_passes.py`` on each: a mutant is killed when a case fails. A survivor is either listed
in ``equivalent.toml`` beside this file, with a one-line reason why no engine behaviour changes,
or a hole in the suite. Exit code 1 when a survivor is not listed, 0 otherwise. Prints the score:
killed mutants over mutants that are not listed as equivalent.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent.parent
MUTATED = ("reference/camelup/rules", "reference/camelup/play/engine.py")
COPIED = ("reference", "conformance", "spec")
EQUIVALENT = HERE / "equivalent.toml"
TIMEOUT = 120.0  # seconds per mutant: the suite takes 2 to 3; an endless loop is killed here


def mutant_keys(items: list[WorkItem]) -> dict[str, str]:
    """Each mutant's name in ``equivalent.toml``, by job: its file, operator and the source line
    it changes (with ``#k`` for the k-th such mutation on that line, counted from the left).
    A line number would go stale with every edit above it; the line's text only with the line."""
    sites: dict[tuple[str, str, str], list[tuple[tuple[int, int], str]]] = {}
    lines: dict[str, list[str]] = {}
    for item in items:
        [mutation] = item.mutations
        module = Path(mutation.module_path)
        path = module.as_posix().split("reference/camelup/", 1)[-1]
        if path not in lines:
            lines[path] = module.read_text("utf-8").splitlines()
        text = lines[path][mutation.start_pos[0] - 1].strip()
        site = (path, mutation.operator_name, text)
        sites.setdefault(site, []).append((tuple(mutation.start_pos), item.job_id))
    keys = {}
    for (path, operator, text), found in sites.items():
        for index, (_, job) in enumerate(sorted(found)):
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


def config_text(workspace: Path) -> str:
    paths = ", ".join(f'"{workspace / p}"' for p in MUTATED)
    command = f"{sys.executable} {HERE / 'suite_passes.py'}"
    return (
        "[cosmic-ray]\n"
        f"module-path = [{paths}]\n"
        f"timeout = {TIMEOUT}\n"
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


def skip_by_kind(db: WorkDB) -> None:
    """Mark the mutants of a kind ``equivalent.toml`` lists as equivalent, as skipped."""
    kinds = {entry["kind"] for entry in _equivalent_file().get("kind", [])}
    annotations: dict[Path, list[Span]] = {}
    for item in list(db.pending_work_items):
        [mutation] = item.mutations
        path = Path(mutation.module_path)
        if path not in annotations:
            annotations[path] = annotation_spans(path)
        kind = None
        if "annotation" in kinds and _inside(tuple(mutation.start_pos), annotations[path]):
            kind = "annotation"
        elif "identity" in kinds and mutation.operator_name in _IDENTITY_OPERATORS:
            kind = "identity"
        elif "decorator" in kinds and mutation.operator_name == "core/RemoveDecorator":
            line = path.read_text("utf-8").splitlines()[mutation.start_pos[0] - 1].strip()
            if line.startswith(("@implements", "@functools.")):
                kind = "decorator"
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, metavar="N", help="run N mutants drawn by --seed")
    parser.add_argument("--seed", type=int, default=18, help="the sample's seed (default 18)")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (session.sqlite)")
    options = parser.parse_args()
    workspace = Path(options.keep or tempfile.mkdtemp(prefix="camelup-syntactic-"))
    try:
        for name in COPIED:
            shutil.copytree(CHECKOUT / name, workspace / name, dirs_exist_ok=True)
        config = workspace / "cosmic-ray.toml"
        config.write_text(config_text(workspace), "utf-8")
        session = workspace / "session.sqlite"
        cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
        subprocess.run([*cosmic, "init", "--force", str(config), str(session)], check=True)
        with use_db(str(session)) as db:
            skip_by_kind(db)
            if options.sample is not None:
                keep_sample(db, options.sample, options.seed)
        # The scratch copy comes first on the path, before the checkout's editable install.
        env = {**os.environ, "PYTHONPATH": str(workspace / "reference")}
        subprocess.run([*cosmic, "exec", str(config), str(session)], check=True, env=env)
        return report(session)
    finally:
        if not options.keep:
            shutil.rmtree(workspace, ignore_errors=True)


def report(session: Path) -> int:
    listed = equivalents()
    lines = unobserved_lines()
    killed, survived, equivalent = [], [], []
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        completed = list(db.completed_work_items)
        keys = mutant_keys([item for item, _ in completed])
        for item, result in completed:
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                skipped += result.output != "sample"
                continue
            key = keys[item.job_id]
            if result.test_outcome is TestOutcome.SURVIVED:
                known = is_listed(key, listed, lines)
                (equivalent if known else survived).append((key, result.diff or ""))
            else:
                killed.append(key)
    for key, diff in sorted(survived):
        print(f"survived  {key}\n{diff}")
    scored = len(killed) + len(survived)
    score = 100.0 * len(killed) / scored if scored else 100.0
    print(
        f"syntactic mutants: {scored + len(equivalent)} run, {len(killed)} killed,"
        f" {len(equivalent)} listed as equivalent, {len(survived)} survived"
        f" ({skipped} equivalent by kind, not run);"
        f" score {score:.1f}% of the non-equivalent"
    )
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())

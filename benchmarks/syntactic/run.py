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
import os
import random
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


def mutant_key(item: WorkItem) -> str:
    """A mutant's name in ``equivalent.toml``: file, line, operator and occurrence."""
    [mutation] = item.mutations
    path = Path(mutation.module_path).as_posix().split("reference/camelup/", 1)[-1]
    line = mutation.start_pos[0]
    return f"{path}:{line} {mutation.operator_name} #{mutation.occurrence}"


def _equivalent_file() -> dict[str, Any]:
    return tomllib.loads(EQUIVALENT.read_text("utf-8"))


def equivalents() -> dict[str, str]:
    """Each mutant listed as equivalent, and why."""
    return {entry["mutant"]: entry["reason"] for entry in _equivalent_file().get("mutant", [])}


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
        elif "decorator" in kinds and mutation.operator_name == "core/RemoveDecorator":
            line = path.read_text("utf-8").splitlines()[mutation.start_pos[0] - 1].strip()
            if line.startswith(("@implements", "@functools.")):
                kind = "decorator"
        if kind is not None:
            db.set_result(
                item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=kind)
            )


def keep_sample(db: WorkDB, size: int, seed: int) -> None:
    """Mark all but ``size`` mutants, drawn with ``seed`` from the sorted list, as skipped."""
    items = sorted(db.pending_work_items, key=mutant_key)
    kept = {item.job_id for item in random.Random(seed).sample(items, min(size, len(items)))}
    for item in items:
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
    killed, survived, equivalent = [], [], []
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.worker_outcome is WorkerOutcome.SKIPPED:
                skipped += result.output != "sample"
                continue
            key = mutant_key(item)
            if result.test_outcome is TestOutcome.SURVIVED:
                (equivalent if key in listed else survived).append((key, result.diff or ""))
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

"""How often ``camelup conformance run`` names the true rule: for every mutant of the catalogue,
served through the subprocess adapter (``python -m camelup.adapter --mutant NAME``), the share of
its failing cases whose first named clause is the mutated one.

    .venv/bin/python benchmarks/clause_naming_bench.py [--mutant NAME ...] [--jobs N]

A failing case's first named clause is the clause of its first mismatch in the JSONL report (an
errored case with none: its primary clause), which is the clause a reader sees first. Prints the
mutants below 100% (named right / failing cases) and the share over all failing cases of all
mutants. Slow: one whole suite run per mutant (about 2 s each).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import attrs


@attrs.frozen
class Naming:
    mutant: str
    clause: str
    failing: int
    named_right: int


def catalogue() -> list[tuple[str, str]]:
    """(name, clause) of every mutant, as ``conformance mutants --list`` prints them."""
    listed = subprocess.run(
        [sys.executable, "-m", "camelup", "conformance", "mutants", "--list"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [(line.split()[0], line.split()[1]) for line in listed.splitlines() if line.strip()]


def first_clause(line: dict[str, object]) -> str:
    mismatches = line.get("mismatches")
    if isinstance(mismatches, list) and mismatches:
        return str(mismatches[0]["clause"])
    clauses = line.get("clauses")
    return str(clauses[0]) if isinstance(clauses, list) and clauses else ""


def naming(name: str, clause: str) -> Naming:
    adapter = shlex.join([sys.executable, "-m", "camelup.adapter", "--mutant", name])
    argv = [sys.executable, "-m", "camelup", "conformance", "run", "--adapter", adapter]
    report = subprocess.run(
        [*argv, "--format", "jsonl"], capture_output=True, text=True, check=False
    ).stdout
    lines = [json.loads(text) for text in report.splitlines()[1:] if text.strip()]
    failing = [line for line in lines if line.get("verdict") in ("failed", "errored")]
    right = sum(first_clause(line) == clause for line in failing)
    return Naming(name, clause, len(failing), right)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutant", action="append", default=[], metavar="NAME")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    args = parser.parse_args()
    rows = [(n, c) for n, c in catalogue() if not args.mutant or n in args.mutant]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        found = list(pool.map(lambda row: naming(*row), rows))
    for result in found:
        if result.named_right < result.failing or not result.failing:
            print(
                f"{result.mutant:40} {result.clause:30}"
                f" {result.named_right:3} / {result.failing:3} failing cases name it first"
            )
    failing = sum(r.failing for r in found)
    right = sum(r.named_right for r in found)
    whole = sum(r.named_right == r.failing > 0 for r in found)
    print(
        f"{len(found)} mutants: {right} of {failing} failing cases"
        f" ({100 * right / max(failing, 1):.1f}%) name the mutated clause first;"
        f" {whole} mutants ({100 * whole / max(len(found), 1):.1f}%) in every failing case"
    )


if __name__ == "__main__":
    main()

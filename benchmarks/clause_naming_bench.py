"""How often ``camelup conformance run`` names the true rule: for every mutant of the catalogue,
served through the subprocess adapter (``python -m camelup.adapter --mutant NAME``), the share of
its failing cases whose first named clause is the mutated one.

    .venv/bin/python benchmarks/clause_naming_bench.py [--mutant NAME ...] [--jobs N]

A failing case's first named clause is the clause of its first mismatch in the JSONL report (an
errored case with none: its primary clause), which is the clause a reader sees first. Prints the
mutants below 100% (named right / failing cases) and the share over all failing cases of all
mutants. Slow: one whole suite run per mutant (about 2 s each).

With ``--ties``, each miss is also sorted by what its reply can show: an odds case (an odds
reply only says that the odds differ), a *tie* (another mutant of the catalogue, of the clause
named, gives the very same reply to the case, replayed in process: no diagnosis can tell the
two apart from that case alone), or a miss the reply could have named right. This looks the
mutants up in the catalogue to measure, never to name.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs


@attrs.frozen
class Naming:
    mutant: str
    clause: str
    failing: int
    named_right: int
    misses: tuple[tuple[str, str, bool], ...] = ()  # (case ID, clause named, an odds case)


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
    misses = tuple(
        (str(line["id"]), first_clause(line), is_odds(line))
        for line in failing
        if first_clause(line) != clause
    )
    return Naming(name, clause, len(failing), right, misses)


def is_odds(line: dict[str, object]) -> bool:
    mismatches = line.get("mismatches")
    first = mismatches[0] if isinstance(mismatches, list) and mismatches else {}
    actual = first.get("actual") if isinstance(first, dict) else None
    return isinstance(actual, dict) and "places" in actual


def replies(mutant: str, case_id: str) -> list[object]:
    """What the in-process engine with ``mutant`` applied replies to the case, as sent."""
    from camelup.harness import InProcessReference, load_suite, run_cases
    from camelup.harness import mutation as mutants
    from camelup.harness.mutation.catalogue import CATALOGUE
    from camelup.harness.protocol import Reply

    class Recording(InProcessReference):
        def __init__(self) -> None:
            super().__init__()
            self.bodies: list[object] = []

        def run(self, cases: Any) -> Any:
            for index, outcome in super().run(cases):
                self.bodies.append(outcome.body if isinstance(outcome, Reply) else None)
                yield index, outcome

    case = load_suite().find(case_id)
    assert case is not None, case_id
    client = Recording()
    with mutants.applied(CATALOGUE[mutant]):
        run_cases([case], client)
    return client.bodies


def ties(found: list[Naming]) -> None:
    """Print the misses sorted by what their replies can show (see the module's doc)."""
    by_clause: dict[str, list[str]] = {}
    for name, clause in catalogue():
        by_clause.setdefault(clause, []).append(name)
    odds = tied = 0
    left: dict[str, int] = {}
    for result in found:
        for case_id, named, odds_case in result.misses:
            if odds_case:
                odds += 1
                continue
            own = replies(result.mutant, case_id)
            others = [m for m in by_clause.get(named, []) if m != result.mutant]
            if any(replies(other, case_id) == own for other in others):
                tied += 1
            else:
                left[result.mutant] = left.get(result.mutant, 0) + 1
    misses = sum(len(r.misses) for r in found)
    print(
        f"{misses} misses: {odds} odds cases, {tied} ties (another mutant of the clause named"
        f" replies the same), {misses - odds - tied} the reply could have named right"
    )
    for mutant, count in sorted(left.items(), key=lambda item: -item[1]):
        print(f"  {mutant:40} {count:3} namable misses")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutant", action="append", default=[], metavar="NAME")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument("--ties", action="store_true", help="sort the misses (see above)")
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
    if args.ties:
        ties(found)


if __name__ == "__main__":
    main()

"""The suite inside pytest (camelup.testing.plugin) against ``conformance run``, on the toy.

Run: ``python benchmarks/pytest_plugin_bench.py`` (``--repeat`` runs per measurement, default
3). Prints numbers only; nothing here asserts a timing.

* "run_cases, one call": the whole suite judged in one call on the toy's adapter class.
* "run_cases, case by case": the same, one call per case, as the plugin runs its items: the
  plugin's own cost over the runner's.
* "pytest --camelup-adapter": the whole pytest session (start-up and collection included).
* "conformance run": the command line on the toy's adapter program, for comparison.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from camelup.harness import load_suite, run_cases
from camelup.testing.adapter import InProcessAdapter

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, str(DOCS))

from toy_adapter import ToyAdapter  # noqa: E402  (docs/ is not a package)


def best_of(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def command(*argv: str) -> Callable[[], object]:
    # With bytecode caching, as usual: without it pytest compiles the modules it rewrites
    # (those of every pytest plugin's distribution) again in each session.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run() -> object:
        return subprocess.run(argv, cwd=DOCS, env=env, capture_output=True, timeout=600)

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    cases = list(load_suite().cases)
    client = InProcessAdapter(ToyAdapter)
    measured = {
        "run_cases, one call": best_of(repeat, lambda: run_cases(cases, client)),
        "run_cases, case by case": best_of(
            repeat, lambda: [run_cases([case], client) for case in cases]
        ),
        "pytest --camelup-adapter": best_of(
            repeat,
            command(
                sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "toy_adapter.py",
                "--camelup-adapter", "toy_adapter:ToyAdapter",
            ),
        ),
        "conformance run": best_of(
            repeat,
            command(
                sys.executable, "-m", "camelup", "conformance", "run",
                "--adapter", f"{sys.executable} toy_adapter.py",
            ),
        ),
    }  # fmt: skip
    print(f"{len(cases)} cases, best of {repeat}")
    for name, seconds in measured.items():
        print(f"{name:<26} {seconds:7.2f} s")


if __name__ == "__main__":
    main()

"""How long ``camelup conformance fuzz`` takes on the toy adapter, with one worker and with more.

    .venv/bin/python benchmarks/fuzz_bench.py [--games N] [--jobs N]

Prints the seconds per run (process start, handshake, judging and shrinking included), the games
per second, and the ratio of each worker count to one worker. The findings are the same for
every worker count (a test checks it); only the time changes.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time
from pathlib import Path

TOY = shlex.join([sys.executable, str(Path(__file__).parent.parent / "docs" / "toy_adapter.py")])


def run(games: int, jobs: int) -> float:
    argv = [sys.executable, "-m", "camelup", "conformance", "fuzz", "--adapter", TOY]
    argv += ["--seed", "1", "--games", str(games), "--jobs", str(jobs), "--max-findings", "99"]
    began = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=False)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2, help="the largest worker count tried")
    args = parser.parse_args()
    one = run(args.games, 1)
    print(f"fuzz, toy, {args.games} games, 1 job:  {one:7.2f} s  {args.games / one:6.1f} games/s")
    for jobs in range(2, args.jobs + 1):
        seconds = run(args.games, jobs)
        print(
            f"fuzz, toy, {args.games} games, {jobs} jobs: {seconds:7.2f} s"
            f"  {args.games / seconds:6.1f} games/s  ({one / seconds:.2f}x one job)"
        )


if __name__ == "__main__":
    main()

"""Conformance runner throughput: the whole suite in-process and through the adapter program.

Run: ``python benchmarks/conformance_bench.py`` (``--repeat`` runs per measurement, default 5;
``--suite DIR`` for another suite). Prints numbers only; nothing here asserts a timing.
Goals: the whole suite in-process in under 2 s; at least 1,000 cases/s through the adapter.

* "in-process": ``run_cases`` on the bundled reference (loading, running and judging).
* "adapter, whole suite": one ``camelup conformance run --adapter "python -m camelup.adapter"``
  worth of work, starting the adapter process included.
* "adapter, steady": the suite sent several times over to one running adapter, so that the
  process start-up is amortised: the protocol's throughput.
* "reference states, cold": what the first run through an adapter spends on the reference's
  states of the multi-step cases (the first divergence compares with them); later runs in the
  same process find them cached, so the adapter lines above (best of several) leave it out.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from camelup.harness import (
    InProcessReference,
    SubprocessAdapter,
    divergence,
    load_suite,
    run_cases,
)
from camelup.harness.suite import Case

ADAPTER = f"{shlex.quote(sys.executable)} -m camelup.adapter"


def best_of(repeat: int, work: Callable[[], int]) -> tuple[float, int]:
    """The fastest of ``repeat`` runs of ``work`` (seconds) and the cases it ran."""
    times, count = [], 0
    for _ in range(repeat):
        began = time.perf_counter()
        count = work()
        times.append(time.perf_counter() - began)
    return min(times), count


def in_process(cases: list[Case]) -> int:
    report = run_cases(cases, InProcessReference())
    assert report.count("passed") + report.count("failed") == len(cases)
    return len(cases)


def through_adapter(cases: list[Case]) -> int:
    report = run_cases(cases, SubprocessAdapter(ADAPTER))
    assert report.count("errored") == 0, report.results
    return len(cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--suite", type=Path, default=None)
    args = parser.parse_args()
    cases = list(load_suite(args.suite).cases)
    print(f"suite: {len(cases)} cases")
    load, _ = best_of(args.repeat, lambda: len(load_suite(args.suite).cases))
    print(f"loading the suite:        {load * 1000:8.1f} ms")
    seconds, count = best_of(args.repeat, lambda: in_process(cases))
    print(f"in-process, whole suite:  {seconds * 1000:8.1f} ms  {count / seconds:9.0f} cases/s")
    seconds, count = best_of(args.repeat, lambda: through_adapter(cases))
    print(
        f"adapter, whole suite:     {seconds * 1000:8.1f} ms  {count / seconds:9.0f} cases/s"
        "  (process start included)"
    )
    many = cases * max(1, 5000 // max(1, len(cases)))
    seconds, count = best_of(max(1, args.repeat // 2), lambda: through_adapter(many))
    print(
        f"adapter, steady:          {seconds * 1000:8.1f} ms  {count / seconds:9.0f} cases/s"
        f"  ({count} cases)"
    )

    def handshake() -> int:
        client = SubprocessAdapter(ADAPTER)
        client.start()
        client.close()
        return 1

    def reference_states() -> int:
        divergence.clear_cache()
        multi = [c for c in cases if len(c.steps) >= divergence.MIN_STEPS]
        for case in multi:
            divergence.reference_reply(case)
        return len(multi)

    seconds, count = best_of(args.repeat, reference_states)
    print(
        f"reference states, cold:   {seconds * 1000:8.1f} ms  ({count} multi-step cases,"
        f" {seconds / max(1, count) * 1000:.2f} ms each)"
    )

    samples = [best_of(1, handshake)[0] for _ in range(args.repeat)]
    print(f"adapter start+hello+stop: {statistics.median(samples) * 1000:8.1f} ms (median)")


if __name__ == "__main__":
    main()

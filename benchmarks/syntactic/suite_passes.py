"""The test of the syntactic mutation run: the whole conformance suite, in-process, against the
(mutated) reference engine on ``sys.path``. Exit 0 when every case passes; 1 at the first case
that fails or errors (the mutant is killed, so nothing more is needed); 2 when the engine cannot
even be imported (a mutant that breaks loading is killed too)."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from camelup.harness import InProcessReference, load_suite, run_cases
    except Exception as error:  # any failure to load kills the mutant
        print(f"the engine does not load: {error!r}", file=sys.stderr)
        return 2
    suite = load_suite()
    reference = InProcessReference()
    # Families first: one step each, so most mutants of the movement rules die in milliseconds.
    cases = sorted(suite.cases, key=lambda c: not c.id.startswith("generated.movement"))
    for case in cases:
        report = run_cases([case], reference)
        if report.exit_code != 0:
            print(f"killed by {case.id}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

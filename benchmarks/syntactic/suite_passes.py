"""The test of the syntactic mutation run: the whole conformance suite, in-process, against the
(mutated) reference engine on ``sys.path``, then the unit tests named in ``UNIT_TESTS`` (of the
library functions the adapter protocol never calls, so no case can see them). Exit 0 when every
case and test passes; 1 at the first case or test that fails or errors (the mutant is killed,
so nothing more is needed); 2 when the engine cannot even be imported (a mutant that breaks
loading is killed too).

``python suite_passes.py [SCRATCH]``: with a scratch directory (``run.py`` makes it), the suite
is read from ``SCRATCH/suite.pickle``, the cases as the *unmutated* checkout loaded them (the
suite is the judge's data, read once, as it is when any other engine is judged; the engine
under test still decodes every case's state itself), and the cases run in the order of
``SCRATCH/kills.json``: the cases that killed most mutants so far first, so that a mutant
usually dies at its first or second case. Without it, the suite is loaded from the checkout.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from camelup.harness import Case, CaseResult

# The functions of rules/ and play/engine.py outside the adapter protocol, each with the unit
# test that judges it: run after the suite passes (only a mutant the suite cannot see needs it).
UNIT_TESTS = {
    # the probability of each roll (the odds the protocol carries come from odds/exact.py)
    "chance_outcomes": "tests/test_rules_movement.py"
    "::test_every_die_and_face_is_equally_likely_as_exact_fractions",
    # draws the setups of generate's and fuzz's random games; every case states its setup
    "random_setup": "tests/test_rules_setup.py::test_random_setup_draws_every_input_new_game_takes",
    # the defaults of Setup: the setup schema requires every field, so no case can omit one
    "Setup": "tests/test_rules_setup.py"
    "::test_a_setup_given_only_rolls_and_stacking_starts_at_seat_zero_with_no_crazy_inputs",
    # crazy-camel inputs refused in a first-edition setup: camels.crazy is a second-edition
    # clause, so no first-edition case may name it
    "camels.crazy": "tests/test_rules_setup.py"
    "::test_crazy_camel_inputs_in_a_first_edition_setup_are_refused_where_they_are",
    # a move's landing (Moved.landing, .reached): read only where odds/exact.py shares moves
    # across tile layouts to value actions, which no message of the protocol carries
    "Moved.reached": "tests/test_odds.py::test_action_values_equal_the_enumeration_through_apply",
}

CHECKOUT = Path(__file__).resolve().parent.parent.parent
SUITE_FILE = "suite.pickle"
KILLS_FILE = "kills.json"


def _kills(scratch: Path | None) -> dict[str, int]:
    if scratch is None:
        return {}
    try:
        kills: dict[str, int] = json.loads((scratch / KILLS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return kills


def _record_kill(scratch: Path | None, kills: dict[str, int], case_id: str) -> None:
    if scratch is None:
        return
    kills[case_id] = kills.get(case_id, 0) + 1
    # Written whole and renamed into place: a worker killed mid-write leaves the old file.
    partial = scratch / f"{KILLS_FILE}.{os.getpid()}"
    partial.write_text(json.dumps(kills, sort_keys=True), "utf-8")
    partial.replace(scratch / KILLS_FILE)


def _order(cases: tuple[Case, ...], kills: dict[str, int]) -> list[Case]:
    """The likeliest killers first: by kills so far, then the one-step movement families (most
    movement mutants die there in milliseconds), then the rest in suite order; the odds cases,
    slowest by far, last among those that never killed."""

    def rank(case: Case) -> tuple[int, int]:
        if case.id.startswith("generated.movement"):
            kind = 0
        elif ".chance/odds" in case.id:
            kind = 2
        else:
            kind = 1
        return (-kills.get(case.id, 0), kind)

    return sorted(cases, key=rank)


def main() -> int:
    scratch = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    try:
        from camelup.harness import InProcessReference, load_suite, run_cases
    except Exception as error:  # any failure to load kills the mutant
        print(f"the engine does not load: {error!r}", file=sys.stderr)
        return 2
    if scratch is not None and (scratch / SUITE_FILE).exists():
        suite = pickle.loads((scratch / SUITE_FILE).read_bytes())
    else:
        suite = load_suite()
    try:
        reference = InProcessReference()
    except Exception as error:
        print(f"the engine does not start: {error!r}", file=sys.stderr)
        return 2
    kills = _kills(scratch)
    failed: list[CaseResult] = []

    def note(result: CaseResult) -> None:
        if result.verdict in ("failed", "errored"):
            failed.append(result)

    report = run_cases(_order(suite.cases, kills), reference, on_result=note, maxfail=1)
    if report.exit_code == 0:
        return _unit_tests_pass()
    killer = failed[0].case.id if failed else "the run"
    print(f"killed by {killer}", file=sys.stderr)
    if failed:
        _record_kill(scratch, kills, killer)
    return 1


def _unit_tests_pass() -> int:
    import pytest

    tests = [str(CHECKOUT / test) for test in UNIT_TESTS.values()]
    # In this process, so the tests import the mutated camelup already loaded from sys.path.
    options = ["-q", "-x", "-n", "0", "-p", "no:cacheprovider", "--rootdir", str(CHECKOUT)]
    if pytest.main([*options, *tests]) == pytest.ExitCode.OK:
        return 0
    print("killed by a unit test of a function outside the protocol", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

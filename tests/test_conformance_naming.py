"""``camelup conformance run`` names the cause like ``fuzz`` (issue 18, item 4): a failing check
is named after the reference's events at the first diverging step, each member after the event
that wrote it; the check's own clause stays where no event explains the member, or where it is
a sibling of the events' clause (``leg.score.second`` beside ``leg.score.net``) and so says
more. The report says so when the two differ.

The adapters are real subprocesses with known mistakes: the toy of ``docs/`` (its grey die
ignores the crazy-camel exceptions, money has no floor) and camelcalc (a unit moving past 16
stops on 16; final scoring has no floor).
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from camelup.harness import InProcessReference, load_suite, run_cases
from camelup.harness import mutation as mutants
from camelup.harness.divergence import refines
from camelup.harness.mutation.catalogue import CATALOGUE
from commands import run_cli

REPO = Path(__file__).resolve().parent.parent
TOY = shlex.join([sys.executable, str(REPO / "docs" / "toy_adapter.py")])
CAMELCALC = shlex.join([sys.executable, str(REPO / "adapters" / "camelcalc" / "adapter.py")])


def mismatches(capsys: pytest.CaptureFixture[str], adapter: str, case: str) -> list[Any]:
    argv = ["conformance", "run", "--adapter", adapter, "--id", case, "--format", "jsonl"]
    _, out, err = run_cli(capsys, *argv)
    [line] = [json.loads(text) for text in out.splitlines()[1:-1]]
    assert line["id"] == case, err
    found: list[Any] = line["mismatches"]
    return found


def _failing(mutant: str, case_id: str) -> Any:
    """The result of case ``case_id`` run in-process on the reference with ``mutant`` applied,
    checked to fail."""
    case = load_suite().find(case_id)
    assert case is not None
    with mutants.applied(CATALOGUE[mutant]):
        [result] = run_cases([case], InProcessReference()).results
    assert result.verdict == "failed"
    return result


def test_a_one_step_case_names_the_rule_the_reference_used(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The case is about carrying; the toy's grey die moved the wrong crazy camel."""
    found = mismatches(capsys, TOY, "crazy.carry/takes-all-above-lands-on-top")
    assert found and {m["clause"] for m in found} == {"crazy.select.only-carrier"}
    assert found[0]["diff"][-1] == (
        "named after the reference's events at step 1 (crazy.select.only-carrier);"
        " the check names crazy.carry"
    )


def test_a_loss_the_floor_cuts_short_is_named_money_floor(
    capsys: pytest.CaptureFixture[str],
) -> None:
    [found] = mismatches(capsys, TOY, "leg.score.net/floor-on-the-total-not-per-ticket")
    assert found["clause"] == "money.floor" and "the check names leg.score.net" in found["diff"][-1]


def test_a_move_capped_at_sixteen_is_named_after_the_crossing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Not after the move of the die (``move.racing.clockwise``): the unit went the right way
    and stopped at the line."""
    [found] = mismatches(capsys, CAMELCALC, "end.crossing.racing/past-sixteen")
    assert found["clause"] == "end.crossing.racing"
    assert not any(line.startswith("named after") for line in found["diff"])


def test_a_checks_clause_refines_a_sibling_of_the_events_clause() -> None:
    assert refines("leg.score.second", "leg.score.net")
    assert not refines("move.stack.carry", "move.racing.clockwise")
    assert not refines("turn.order", "money")


def test_a_legal_action_listed_beyond_the_references_is_named_after_its_refusal() -> None:
    """A legal-actions check naming no clause of its own stands for its case's subject; the
    adapter listing a finish card of a colour the seat already used is named after the rule by
    which the reference refuses it, as the fuzzer names it."""
    from camelup.harness.compare import Mismatch
    from camelup.harness.divergence import named_by_refusal
    from camelup.harness.suite import LegalActionsCheck, load_suite

    [case] = [c for c in load_suite().cases if c.id == "turn.actions.first/small-legal-set"]
    [check] = [c for c in case.checks if isinstance(c, LegalActionsCheck)]
    assert check.clause is None
    state = case.given["state"]
    used = state["players"][0]["finish_cards"]
    spent = next(c for c in ("blue", "green", "orange", "yellow", "white") if c not in used)
    extra = {"type": "place_finish_card", "player": 0, "camel": spent, "pile": "loser"}
    listed = Mismatch(
        check.after, case.clause_of(check), "", (), check.index, None, None,
        [*check.actions, extra],
    )  # fmt: skip
    named = named_by_refusal(case, listed)
    assert named.clause == "bet.finish.one-per-colour"
    assert named.diff[-1].endswith(f"the check names {case.primary_clause}")
    left_out = named_by_refusal(case, attrs.evolve(listed, actual=list(check.actions[1:])))
    assert left_out.clause != case.primary_clause  # the rule of the action left out


def test_a_setup_read_otherwise_is_named_after_the_setup_rule_of_the_member(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """camelcalc stacks the camels of a start space in its own colour order: a case with no
    step, about the track's sixteen spaces, names the setup's stacking rule."""
    [found] = mismatches(capsys, CAMELCALC, "track.spaces/sixteen-spaces")
    assert found["clause"] == "setup.stack-order"
    assert found["diff"][-1] == (
        "named after the setup rule of what differs (setup.stack-order); the check names"
        " track.spaces"
    )


@pytest.mark.needs_rule_source
@pytest.mark.parametrize(
    ("mutant", "case_id", "clause"),
    [
        # the adapter's finish cards scored on another loser than its own game_ended reports
        ("loser-top-of-rearmost-stack", "final.loser/rearmost-stack-skips-crazy", "final.loser"),
        # its own ranking of a track it reports right: white and yellow on one space swapped
        ("rank-lower-camel-ahead", "rank.space/farther-space-leads", "rank.stack"),
    ],
)
def test_a_wrong_engine_is_named_after_the_rule_its_reply_shows(
    mutant: str, case_id: str, clause: str
) -> None:
    result = _failing(mutant, case_id)
    assert {m.clause for m in result.mismatches} == {clause}


@pytest.mark.needs_rule_source
@pytest.mark.parametrize(
    ("mutant", "case_id", "clause"),
    [
        # a wrong card of a netted pile worth 0: the netted sum on its first card differs
        ("final-wrong-card-free", "final.net/netted-at-zero", "final.wrong-costs"),
        # a correct card worth another amount, netted with a wrong card before it
        ("final-wrong-card-takes-payout", "final.net/per-pile-winner-first", "final.correct-pays"),
        # netted where each card is paid at its own place
        ("final-netted-by-default", "generated.first-whirlwind/21", "final.wrong-costs"),
        # card by card where the rule set nets (not the floor: the loss is not cut short)
        ("final-net-variant-ignored", "generated.second-final-scoring-net/71", "final.net"),
        # a refusal citing the rule of a variant the rule set does not play
        ("tile-own-old-space-blocks", "generated.second/14", "tile.move.different-space"),
        # another crazy camel chosen by a rule tried before the reference's (the colour)
        (
            "crazy-top-of-other-with-gap",
            "crazy.select.top-of-other/racing-camel-between-is-not-on-top",
            "crazy.select.top-of-other",
        ),
        # the same camel, the rule the adapter cites for it tried first: it applied it wrongly
        (
            "crazy-top-of-other-with-gap",
            "crazy.select.colour/between-and-above-black",
            "crazy.select.top-of-other",
        ),
        # the same camel, chosen by a rule tried after the reference's: the reference's missed
        (
            "crazy-carrier-direct-only",
            "crazy.select.top-of-other/racing-on-top",
            "crazy.select.only-carrier",
        ),
        # a crazy camel stepping through the whirlwind by the arrows
        (
            "whirlwind-crazy-follows-arrows",
            "whirlwind.crazy-by-number/nine-to-six",
            "whirlwind.crazy-by-number",
        ),
        # a leader scored as the adapter's own track ranks it: the landing is at fault
        ("unit-lands-underneath", "leg.end.first/after-tile-step", "move.unit.lands-on-top"),
        ("tile-backward-turns-unit-over", "generated.first/3", "tile.land.backward"),
        # at a setup, the rule of the member (not the check's sibling setup clause)
        ("setup-stack-reversed", "setup.racing-camels/start-on-die-value", "setup.stack-order"),
        ("setup-racing-one-ahead", "setup.stack-order/one-space", "setup.racing-camels"),
        # a one-step case whose step fails after its setup diverged
        (
            "setup-start-seat-zero",
            "setup.partnership-cards/five-players-none",
            "setup.start-player",
        ),
        # a partner's bonus that copies a ticket's reward scored otherwise: the ticket's rule
        ("leg-second-pays-nothing", "generated.second-whirlwind/34", "leg.score.second"),
    ],
)
def test_the_first_mismatch_names_the_rule_the_reply_shows(
    mutant: str, case_id: str, clause: str
) -> None:
    result = _failing(mutant, case_id)
    assert result.mismatches[0].clause == clause

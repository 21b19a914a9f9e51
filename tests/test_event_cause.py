"""The first reference event an adapter reports otherwise names the rule that went otherwise
(camelup.harness.event_cause), read from what differs within it."""

from __future__ import annotations

from typing import Any

import pytest

from camelup.harness.event_cause import first_event_cause

DIE = {
    "type": "die_revealed",
    "roll": {"die": "blue", "value": 2},
    "clause": "move.pyramid.take-ticket",
}
MOVE = {
    "type": "unit_moved",
    "unit": ["blue", "green"],
    "from_space": 1,
    "to_space": 3,
    "placement": "top",
    "clause": "move.racing.clockwise",
}
BEFORE = {"track": {"1": ["blue", "green"], "2": []}, "tiles": [{"space": 2, "owner": 0}]}


def scored(**changes: Any) -> dict[str, Any]:
    score = {"player": 0, "tickets": [{"ticket": {"camel": "green", "value": 5}, "reward": 1}]}
    score |= {"pyramid": 2, "partner_bonus": 0, "total": 3, "paid": 3} | changes
    return {"type": "leg_scored", "leader": "blue", "second": "green", "scores": [score],
            "clause": "leg.score.net"}  # fmt: skip


@pytest.mark.parametrize(
    ("theirs", "clause"),
    [
        ([DIE, MOVE | {"unit": ["green", "blue"]}], "move.stack.carry"),
        ([DIE, MOVE | {"unit": ["blue"]}], "move.stack.carry"),
        ([DIE, MOVE | {"placement": "underneath"}], "move.unit.lands-on-top"),
        ([DIE, MOVE | {"to_space": 2}], "move.only-final-space"),
        ([DIE, MOVE | {"to_space": 4}], "move.racing.clockwise"),
        ([DIE], "move.racing.clockwise"),  # the move left out
        ([DIE | {"roll": {"die": "blue", "value": 1}}, MOVE], "move.pyramid.take-ticket"),
    ],
)
def test_a_move_reported_otherwise_names_the_rule_of_what_differs(
    theirs: list[dict[str, Any]], clause: str
) -> None:
    found = first_event_cause([DIE, MOVE], theirs, BEFORE, BEFORE)
    assert found is not None and found.clause == clause


@pytest.mark.parametrize(
    ("theirs", "clause"),
    [
        (scored(total=1, paid=1), "leg.score.pyramid"),  # the pyramid's 2 left out of the sum
        (scored(total=2, paid=2), "leg.score.net"),  # no one part explains it
        (scored(pyramid=1, total=2, paid=2), "leg.score.pyramid"),
        (
            scored(tickets=[{"ticket": {"camel": "green", "value": 5}, "reward": 0}]),
            "leg.score.second",
        ),
        (scored() | {"leader": "green", "second": "blue"}, "rank.stack"),
    ],
)
def test_leg_scoring_reported_otherwise_names_the_part_that_differs(
    theirs: dict[str, Any], clause: str
) -> None:
    after = {"track": {"1": [], "3": ["green", "blue"]}}
    found = first_event_cause([scored()], [theirs], BEFORE, after)
    assert found is not None and found.clause == clause


@pytest.mark.parametrize(
    ("paid", "clause"),
    [(-3, "money.floor"), (-2, "leg.score.net")],  # the whole loss; floored another way
)
def test_a_leg_loss_the_floor_cut_short_paid_otherwise(paid: int, clause: str) -> None:
    ours = scored(tickets=[], pyramid=0, total=-3, paid=-1)  # the seat had 1 coin
    found = first_event_cause(
        [ours], [ours | {"scores": [ours["scores"][0] | {"paid": paid}]}], BEFORE, BEFORE
    )
    assert found is not None and found.clause == clause


def test_final_scoring_in_another_order_names_the_pile_rules() -> None:
    def card(pile: str, owner: int) -> dict[str, Any]:
        return {"type": "finish_card_scored", "pile": pile, "owner": owner, "camel": "blue",
                "amount": 8, "paid": 8, "clause": "final.correct-pays"}  # fmt: skip

    ours = [card("winner", 0), card("winner", 1), card("loser", 0)]
    other_pile = first_event_cause(ours, [card("loser", 0), *ours[:2]], BEFORE, BEFORE)
    other_card = first_event_cause(ours, [ours[1], ours[0], ours[2]], BEFORE, BEFORE)
    assert other_pile is not None and other_pile.clause == "final.pile-sequence"
    assert other_card is not None and other_card.clause == "final.pile-order"


def test_events_reported_alike_name_nothing_whatever_their_clauses() -> None:
    assert first_event_cause([DIE, MOVE], [DIE, MOVE | {"clause": "x"}], BEFORE, BEFORE) is None


@pytest.mark.parametrize(
    ("destination", "theirs", "clause"),
    [
        (18, 17, "end.crossing.racing"),  # both crossed the line, put down otherwise
        (19, 16, "end.crossing.racing"),  # held on 16
        (17, 16, "move.racing.clockwise"),  # one pip short: the count, not the line
    ],
)
def test_a_move_across_the_line_reported_otherwise(
    destination: int, theirs: int, clause: str
) -> None:
    crossing = MOVE | {"from_space": 15, "to_space": destination}
    found = first_event_cause(
        [DIE, crossing], [DIE, crossing | {"to_space": theirs}], BEFORE, BEFORE
    )
    assert found is not None and found.clause == clause


def test_a_move_reported_whole_in_place_of_whirlwind_steps() -> None:
    step = {"type": "whirlwind_step", "unit": ["blue"], "from_space": 8, "to_space": 9,
            "clause": "whirlwind.leave-eight"}  # fmt: skip
    move = MOVE | {"unit": ["blue"], "from_space": 8, "to_space": 9}
    elsewhere = first_event_cause([DIE, step, move], [DIE, move | {"to_space": 8}], BEFORE, BEFORE)
    steps_left_out = first_event_cause([DIE, step, move], [DIE, move], BEFORE, BEFORE)
    assert elsewhere is not None and elsewhere.clause == "move.racing.clockwise"
    assert steps_left_out is not None and steps_left_out.clause == "whirlwind.leave-eight"

"""The first reference event an adapter reports otherwise names the rule that went otherwise
(camelup.harness.event_cause), read from what differs within it."""

from __future__ import annotations

from typing import Any

import pytest

from camelup.harness.event_cause import first_event_cause, ranking_order_clause

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
        (scored(pyramid=1, total=2, paid=2), "leg.score.net"),  # held otherwise: no pay rule
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


CHOSEN = {"type": "crazy_camel_chosen", "camel": "crazy-white", "clause": "crazy.select.colour"}
CRAZY = MOVE | {"unit": ["crazy-white", "red"], "from_space": 9, "to_space": 7}


@pytest.mark.parametrize(
    ("ours", "theirs", "clause"),
    [
        # the same camels in another order: no other crazy camel chosen, the order every unit keeps
        ([CHOSEN, CRAZY], [CHOSEN, CRAZY | {"unit": ["red", "crazy-white"]}], "move.stack.carry"),
        ([CHOSEN, CRAZY], [CHOSEN, CRAZY | {"unit": ["crazy-white"]}], "crazy.carry"),
        # the camel below the chosen one taken along: the chosen one did move
        (
            [CHOSEN, CRAZY],
            [CHOSEN, CRAZY | {"unit": ["crazy-black", "crazy-white", "red"]}],
            "move.stack.carry",
        ),
        ([CHOSEN, CRAZY], [CHOSEN, CRAZY | {"unit": ["crazy-black"]}], "crazy.select.colour"),
        # a racing camel that leaves only its crazy rider behind
        (
            [DIE, MOVE | {"unit": ["blue", "crazy-black"]}],
            [DIE, MOVE | {"unit": ["blue"]}],
            "crazy.move.counterclockwise",
        ),
    ],
)
def test_a_unit_moved_with_other_camels(
    ours: list[dict[str, Any]], theirs: list[dict[str, Any]], clause: str
) -> None:
    found = first_event_cause(ours, theirs, BEFORE, BEFORE)
    assert found is not None and found.clause == clause


def test_the_die_move_after_whirlwind_steps_put_underneath() -> None:
    step = {"type": "whirlwind_step", "unit": ["blue"], "from_space": 6, "to_space": 8,
            "clause": "whirlwind.leave-six"}  # fmt: skip
    move = MOVE | {"unit": ["blue"], "from_space": 4, "to_space": 8}
    found = first_event_cause(
        [DIE, step, move], [DIE, step, move | {"placement": "underneath"}], BEFORE, BEFORE
    )
    assert found is not None and found.clause == "move.unit.lands-on-top"


LEG_END = [
    scored(),
    {"type": "start_player_passed", "player": 1, "clause": "leg.start-player"},
    {"type": "leg_started", "leg": 2, "clause": "leg.cleanup"},
]


@pytest.mark.parametrize("edition", ["first", "second"])
def test_a_leg_ended_on_one_side_only_names_when_a_leg_ends(edition: str) -> None:
    before = BEFORE | {"ruleset": {"edition": edition}}
    missed = first_event_cause([DIE, MOVE, *LEG_END], [DIE, MOVE], before, BEFORE)
    early = first_event_cause([DIE, MOVE], [DIE, MOVE, *LEG_END], before, BEFORE)
    for found in (missed, early):
        assert found is not None and found.clause == f"leg.end.{edition}"


TAKEN = {"type": "pyramid_ticket_taken", "player": 0, "clause": "move.pyramid.take-ticket"}
ENDED = {"type": "race_ended", "clause": "end.crossing.racing"}


@pytest.mark.parametrize(
    ("before_scoring", "theirs", "clause"),
    [
        ([TAKEN, DIE], scored(pyramid=1, total=2, paid=2), "move.pyramid.take-ticket"),
        ([TAKEN, DIE, ENDED], scored(pyramid=1, total=2, paid=2), "end.final-leg-scoring"),
        ([TAKEN, DIE, ENDED], scored(tickets=[], pyramid=0, total=0, paid=0),
         "end.final-leg-scoring"),
    ],
)  # fmt: skip
def test_other_tickets_scored_name_what_decides_the_tickets_held(
    before_scoring: list[dict[str, Any]], theirs: dict[str, Any], clause: str
) -> None:
    found = first_event_cause(
        [*before_scoring, scored()], [*before_scoring, theirs], BEFORE, BEFORE
    )
    assert found is not None and found.clause == clause


PUSHED = MOVE | {"from_space": 3, "to_space": 4, "clause": "tile.land.forward"}


@pytest.mark.parametrize(
    ("push", "theirs", "clause"),
    [
        (PUSHED | {"unit": ["blue", "crazy-white"]}, {"to_space": 2}, "tile.land.crazy-reversed"),
        (PUSHED, {"placement": "underneath"}, "tile.land.forward"),
        (PUSHED | {"to_space": 2, "placement": "underneath", "clause": "tile.land.crazy-reversed"},
         {"placement": "top"}, "tile.land.backward"),
    ],
)  # fmt: skip
def test_a_tiles_push_reported_otherwise(
    push: dict[str, Any], theirs: dict[str, Any], clause: str
) -> None:
    found = first_event_cause([DIE, MOVE, push], [DIE, MOVE, push | theirs], BEFORE, BEFORE)
    assert found is not None and found.clause == clause


def test_a_push_held_on_the_track_names_the_rule_of_the_crossing() -> None:
    push = PUSHED | {"from_space": 16, "to_space": 17}
    ended = {"type": "race_ended", "unit": ["blue"], "clause": "tile.land.off-track"}
    ours, theirs = [DIE, MOVE, push, ended], [DIE, MOVE, push | {"to_space": 16}]
    found = first_event_cause(ours, theirs, BEFORE, BEFORE)
    assert found is not None and found.clause == "tile.land.off-track"


@pytest.mark.parametrize(
    ("destination", "theirs", "clause"),
    [
        (0, 16, "crazy.no-wrap"),  # wrapped round where the reference crosses
        (-1, 1, "crazy.no-wrap"),  # held on 1, two pips short
        (0, 1, "crazy.move.counterclockwise"),  # one pip short: the count, not the line
        (0, 4, "crazy.move.counterclockwise"),  # the other way: not wrapped, the direction
        (15, 0, "crazy.wrap"),  # crossed where the reference wraps round (the variant)
    ],
)
def test_a_crazy_move_past_space_one_reported_otherwise(
    destination: int, theirs: int, clause: str
) -> None:
    move = MOVE | {"unit": ["crazy-white"], "from_space": 2, "to_space": destination,
                   "clause": "crazy.move.counterclockwise"}  # fmt: skip
    found = first_event_cause([DIE, move], [DIE, move | {"to_space": theirs}], BEFORE, BEFORE)
    assert found is not None and found.clause == clause


def test_a_total_beyond_the_reported_parts_is_the_pyramids_pay() -> None:
    found = first_event_cause([scored()], [scored(total=2, paid=2)], BEFORE, BEFORE)
    assert found is not None and found.clause == "leg.score.pyramid"  # 2 tickets paid 1


def test_under_the_wrapping_variant_its_rule_decides_which_crazy_units_cross() -> None:
    move = MOVE | {"unit": ["crazy-white", "blue"], "from_space": 2, "to_space": 0,
                   "clause": "crazy.move.counterclockwise"}  # fmt: skip
    before = BEFORE | {"ruleset": {"edition": "second", "variants": ["crazy-finish-needs-racing"]}}
    found = first_event_cause([DIE, move], [DIE, move | {"to_space": 16}], before, BEFORE)
    assert found is not None and found.clause == "crazy.wrap"


def test_a_whirlwind_step_going_elsewhere_is_no_tiles_push() -> None:
    """A racing camel carrying a crazy camel leaves 7 for 8 instead of 6: the step's own rule,
    not the rule of a tile's push of a crazy-led unit (it is no push, and goes the racing way)."""
    step = {"type": "whirlwind_step", "unit": ["blue", "crazy-white"], "from_space": 7,
            "to_space": 6, "clause": "whirlwind.leave-seven"}  # fmt: skip
    move = MOVE | {"unit": ["blue", "crazy-white"], "from_space": 7, "to_space": 6}
    theirs = [DIE, step | {"to_space": 8}, move | {"to_space": 8}]
    found = first_event_cause([DIE, step, move], theirs, BEFORE, BEFORE)
    assert found is not None and found.clause == "whirlwind.leave-seven"


@pytest.mark.parametrize(
    ("their_loser", "clause"), [("red", "rank.crossed-finish"), ("yellow", "rank.stack")]
)
def test_the_unit_past_the_line_ranked_otherwise(their_loser: str, clause: str) -> None:
    """Blue carried green over the line; red is under yellow on 11. The leader differs first;
    with the loser on 11 reported otherwise too, one rule explains both (the order of every
    stack), not the crossing rule that repeats it for the unit past the line."""
    after = {"track": {"11": ["red", "yellow"], "18": ["blue", "green"]}}
    ranked = {"type": "leg_scored", "leader": "green", "second": "blue", "scores": [],
              "clause": "leg.score.net"}  # fmt: skip
    ended = {"type": "game_ended", "winner_camel": "green", "loser_camel": "red",
             "clause": "final.winners"}  # fmt: skip
    theirs = [ranked | {"leader": "blue", "second": "green"}, ended | {"loser_camel": their_loser}]
    found = first_event_cause([ranked, ended], theirs, after, after)
    assert found is not None and found.clause == clause


def test_a_loser_pile_card_judged_otherwise_with_the_loser_reported_alike() -> None:
    """The adapter's card on red pays where the reference's costs, and both report red as the
    loser: its pile was scored on another loser (the rule that picks it), no ranking rule."""
    card = {"type": "finish_card_scored", "pile": "loser", "owner": 1, "camel": "red",
            "amount": -1, "paid": -1, "clause": "final.wrong-costs"}  # fmt: skip
    ended = {"type": "game_ended", "winner_camel": "green", "loser_camel": "red",
             "clause": "final.winners"}  # fmt: skip
    theirs = [card | {"amount": 8, "paid": 8}, ended]
    after = {"track": {"3": ["red", "yellow"], "18": ["green"]}}
    found = first_event_cause([card, ended], theirs, after, after)
    assert found is not None and found.clause == "final.loser"
    elsewhere = first_event_cause([card, ended], [*theirs[:1], ended | {"loser_camel": "yellow"}],
                                  after, after)  # fmt: skip
    assert elsewhere is not None and elsewhere.clause == "rank.stack"


@pytest.mark.parametrize(
    ("got", "clause"),
    [
        (["green", "blue", "yellow", "red", "orange", "white"], "rank.crossed-finish"),
        (["blue", "green", "yellow", "orange", "red", "white"], "rank.space"),
        (["blue", "green", "yellow", "red", "white", "orange"], "rank.carried-backwards"),
        (["green", "blue", "red", "yellow", "orange", "white"], "rank.stack"),  # both: one rule
        # the same order with a crazy camel after it, or with the last camel left out
        (["blue", "green", "yellow", "red", "orange", "white", "crazy-black"], "rank.ignore-crazy"),
        (["blue", "green", "yellow", "red", "orange"], "rank.one-ranking"),
        (["blue", "green", "yellow", "red", "orange", "white"], None),
    ],
)
def test_a_ranking_given_otherwise_names_the_rule_of_its_first_difference(
    got: list[str], clause: str | None
) -> None:
    """blue on green past the line, yellow on red on 5, orange on 4, white carried back over
    the line."""
    position = {
        "track": {"-1": ["white"], "4": ["orange"], "5": ["red", "yellow"], "17": ["green", "blue"]}
    }
    want = ["blue", "green", "yellow", "red", "orange", "white"]
    assert ranking_order_clause(position, want, got) == clause


CHOSEN = {"type": "crazy_camel_chosen", "camel": "crazy-white", "clause": "crazy.select.colour"}


@pytest.mark.parametrize(
    ("theirs", "cited", "clause"),
    [
        # the adapter's exception applied where the reference's colour rule holds
        (
            {"camel": "crazy-black", "clause": "crazy.select.top-of-other"},
            True,
            "crazy.select.top-of-other",
        ),
        # its clauses not declared (no event_clauses): the reference's rule
        (
            {"camel": "crazy-black", "clause": "crazy.select.top-of-other"},
            False,
            "crazy.select.colour",
        ),
        # a clause of no rule that chooses: the reference's rule
        ({"camel": "crazy-black", "clause": "turn.order"}, True, "crazy.select.colour"),
    ],
)
def test_a_crazy_camel_chosen_by_another_rule_names_the_rule_tried_first(
    theirs: dict[str, Any], cited: bool, clause: str
) -> None:
    found = first_event_cause([DIE, CHOSEN], [DIE, CHOSEN | theirs], BEFORE, BEFORE, cited=cited)
    assert found is not None and found.clause == clause


def test_in_force_knows_the_rule_sets_and_variants_of_a_clause() -> None:
    from camelup.harness.attribution import in_force

    first = {"edition": "first", "modules": [], "variants": []}
    assert in_force("tile.move.different-space", first)
    assert not in_force("tile.move.old-space-blocks", first)  # a variant not played
    assert in_force(
        "tile.move.old-space-blocks", first | {"variants": ["tile-move-old-space-blocks"]}
    )
    assert not in_force("partner.six-plus", first)  # second edition only
    assert not in_force("no.such-clause", first)

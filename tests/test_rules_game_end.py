"""Chapter 11, the end of the race, final scoring and winners: spec/11-game-end.md.

The race ends the moment a unit crosses the line (clockwise past 16, or a crazy-led unit
counterclockwise past 1). Exactly one leg scoring follows, then the winner pile and the loser
pile are paid card by card (8, 5, 3, 2, then 1 each; -1 per wrong card; floor 0 at each card).
Every amount below is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from camelup import Camel, Pile, PlaceFinishCard, TakeLegTicket, legal_actions, ranking
from camelup.model.events import (
    FinishCardScored,
    GameEnded,
    LegScored,
    LegStarted,
    RaceEnded,
    StartPlayerPassed,
)
from helpers import assert_illegal, board, build, camels, events_of, money, pyramid, ruleset

FIRST3 = ruleset("first", 3)
SECOND3 = ruleset("second", 3)


def kinds(result: object) -> list[str]:
    return [type(e).__name__ for e in result.events]  # type: ignore[attr-defined]


# --- crossing the finish line -------------------------------------------------------------------


def scenario_a() -> object:
    return build(
        FIRST3,
        {2: "W", 5: "Y", 9: "O", 15: "B", 16: "G"},
        money=[3, 0, 2],
        leg_tickets={0: [("G", 5)], 1: [("B", 5)], 2: [("O", 5)]},
        pyramid_tickets={1: 1},
        revealed=["Y"],
        winner_pile=[(1, "G"), (0, "B"), (2, "G")],
        loser_pile=[(0, "W"), (1, "Y")],
        to_move=0,
    )


@pytest.mark.clause(
    "end.crossing.racing",
    "end.final-leg-scoring",
    "final.pile-sequence",
    "final.correct-pays",
    "final.wrong-costs",
    "final.winners",
    "turn.game-over",
)
@pytest.mark.parametrize("pips", [1, 3])
def test_a_racing_camel_crossing_ends_the_game_with_one_leg_scoring_then_final_scoring(
    pips: int,
) -> None:
    state = scenario_a()
    result = pyramid(state, "G", pips)  # 16 -> past the line; leftover pips are dropped
    # ranking G (crossed), B, O, Y, W
    # leg: seat 0 G5 +5, pyramid +1 -> 9; seat 1 B5 (second) +1, pyramid +1 -> 2; seat 2 O5 -1 -> 1
    # winner pile (G): seat 1 +8 -> 10; seat 0 -1 -> 8; seat 2 +5 -> 6
    # loser pile (W): seat 0 +8 -> 16; seat 1 -1 -> 9
    assert result.state.is_over
    assert money(result.state) == [16, 9, 6]
    assert result.state.result is not None and result.state.result.winners == (0,)
    assert events_of(result, RaceEnded) == [
        RaceEnded((Camel.GREEN,), "clockwise", "end.crossing.racing")
    ]
    (scored,) = events_of(result, LegScored)
    assert (scored.leader, scored.second) == (Camel.GREEN, Camel.BLUE)
    assert [(s.total, s.paid) for s in scored.scores] == [(6, 6), (2, 2), (-1, -1)]
    cards = events_of(result, FinishCardScored)
    assert [(c.pile, c.owner, c.amount, c.paid) for c in cards] == [
        (Pile.WINNER, 1, 8, 8),
        (Pile.WINNER, 0, -1, -1),
        (Pile.WINNER, 2, 5, 5),
        (Pile.LOSER, 0, 8, 8),
        (Pile.LOSER, 1, -1, -1),
    ]
    assert events_of(result, GameEnded) == [GameEnded(Camel.GREEN, Camel.WHITE, (16, 9, 6), (0,))]
    tail = kinds(result)[kinds(result).index("RaceEnded") :]
    assert tail == ["RaceEnded", "LegScored"] + ["FinishCardScored"] * 5 + ["GameEnded"]
    assert events_of(result, LegStarted) == [] and events_of(result, StartPlayerPassed) == []
    assert legal_actions(result.state) == ()
    assert_illegal(result.state, TakeLegTicket(1, Camel.BLUE), "game-over", "turn.game-over")


@pytest.mark.clause("end.crossing.racing", "rank.crossed-finish", "move.only-final-space")
def test_a_crossing_stack_ranks_top_first_and_ignores_the_camel_it_passed() -> None:
    state = build(FIRST3, {2: "O", 3: "Y", 15: "B G", 16: "W"})
    result = pyramid(state, "B", 2)
    assert result.state.is_over
    assert ranking(result.state.track) == camels(FIRST3, "G B W Y O")
    assert board(result.state)[16] == "W"
    (ended,) = events_of(result, GameEnded)
    assert (ended.winner_camel, ended.loser_camel) == (Camel.GREEN, Camel.ORANGE)


@pytest.mark.clause("end.crossing.racing", "track.spaces")
def test_landing_exactly_on_16_does_not_end_the_race() -> None:
    state = build(FIRST3, {2: "O", 3: "Y", 14: "B G", 10: "W"})
    result = pyramid(state, "B", 2)
    assert not result.state.is_over
    assert board(result.state)[16] == "B G"


@pytest.mark.clause("end.crossing.crazy", "crazy.no-wrap")
@pytest.mark.parametrize(("space", "pips"), [(2, 3), (1, 1)])
def test_a_lone_crazy_camel_crossing_ends_the_game_by_default(space: int, pips: int) -> None:
    state = build(SECOND3, {space: "cW", 5: "B G R Y P", 13: "cK"})
    result = pyramid(state, "grey", pips, "cW")
    assert result.state.is_over
    assert events_of(result, RaceEnded) == [
        RaceEnded((Camel.CRAZY_WHITE,), "counterclockwise", "end.crossing.crazy")
    ]
    assert 1 not in board(result.state) and 16 not in board(result.state)  # no clamp, no wrap
    assert money(result.state) == [4, 3, 3]  # only the mover's pyramid ticket: +1


@pytest.mark.clause(
    "end.crossing.crazy",
    "rank.carried-backwards",
    "final.loser",
    "end.final-leg-scoring",
    "money.floor",
)
def test_a_crazy_camel_carrying_racing_camels_over_the_line_makes_them_last_bottom_one_last() -> (
    None
):
    state = build(
        SECOND3,
        {2: "cK B G", 7: "R", 10: "Y P", 14: "cW"},
        money=[3, 2, 0],
        leg_tickets={0: [("P", 5)], 1: [("G", 5)], 2: [("B", 5)]},
        winner_pile=[(0, "P")],
        loser_pile=[(1, "B"), (2, "G"), (0, "R")],
    )
    result = pyramid(state, "grey", 3, "cK")  # 2 - 3: past space 1
    assert events_of(result, RaceEnded) == [
        RaceEnded(camels(SECOND3, "cK B G"), "counterclockwise", "end.crossing.crazy")
    ]
    # ranking P, Y, R, then the carried G (higher), then B (lowest) last
    assert ranking(result.state.track) == camels(SECOND3, "P Y R G B")
    # leg: seat 0 P5 +5 pyramid +1 -> 9; seat 1 G5 (4th) -1 -> 1; seat 2 B5 (last) -1 -> 0 (floor)
    # winner pile (P): seat 0 +8 -> 17
    # loser pile (B): seat 1 +8 -> 9, seat 2 -1 -> 0, seat 0 -1 -> 16
    assert money(result.state) == [16, 9, 0]
    assert events_of(result, GameEnded) == [GameEnded(Camel.PURPLE, Camel.BLUE, (16, 9, 0), (0,))]


FIRST2 = ruleset("first", 2)
LAST_DIE = {
    "money": [1, 0],
    "leg_tickets": {0: [("G", 5)], 1: [("W", 5), ("Y", 5)]},
    "pyramid_tickets": {0: 2, 1: 2},
    "revealed": ["B", "O", "Y", "W"],
}


@pytest.mark.clause("end.final-leg-scoring", "leg.end.first", "turn.game-over")
def test_game_ending_on_the_last_die_of_a_leg_scores_it_once_and_starts_no_leg() -> None:
    state = build(FIRST2, {3: "B", 4: "O", 5: "Y", 6: "W", 16: "G"}, **LAST_DIE)  # type: ignore[arg-type]
    result = pyramid(state, "G", 1)
    # ranking G, W, Y, O, B. seat 0: G5 +5, pyramid 3 -> +8 -> 9
    # seat 1: W5 second +1, Y5 third -1, pyramid 2 -> +2 -> 2
    assert result.state.is_over
    assert money(result.state) == [9, 2]
    assert len(events_of(result, LegScored)) == 1
    assert events_of(result, LegStarted) == [] and events_of(result, StartPlayerPassed) == []
    assert result.state.leg == 1


@pytest.mark.clause("leg.end.first", "leg.start-player")
def test_the_same_last_die_without_a_crossing_ends_the_leg_instead() -> None:
    state = build(FIRST2, {3: "B", 4: "O", 5: "Y", 6: "W", 15: "G"}, **LAST_DIE)  # type: ignore[arg-type]
    result = pyramid(state, "G", 1)
    assert not result.state.is_over
    assert money(result.state) == [9, 2]
    assert events_of(result, LegStarted) == [LegStarted(2)]
    assert result.state.leg == 2 and result.state.to_move == 1


@pytest.mark.clause("end.final-leg-scoring", "leg.end.second")
def test_second_edition_race_ending_on_the_fifth_die_is_scored_once() -> None:
    state = build(
        SECOND3,
        {2: "B", 3: "G", 4: "R", 5: "P", 10: "cW", 12: "cK", 16: "Y"},
        pyramid_tickets={0: 1, 1: 3},
        revealed=["B", "G", "R", "grey"],
        to_move=2,
    )
    result = pyramid(state, "Y", 2)
    # leg: seat 0 +1 -> 4, seat 1 +3 -> 6, seat 2 +1 (the ending ticket) -> 4
    assert result.state.is_over
    assert money(result.state) == [4, 6, 4]
    assert len(events_of(result, LegScored)) == 1
    assert result.state.result is not None and result.state.result.winners == (1,)


# --- final scoring --------------------------------------------------------------------------------


@pytest.mark.clause("final.correct-pays", "final.wrong-costs", "final.pile-order")
def test_correct_cards_pay_8_5_3_2_then_1_each_including_a_sixth() -> None:
    rules = ruleset("first", 8)
    state = build(
        rules,
        {2: "B O Y W", 16: "G"},
        money=[3, 3, 3, 3, 0, 3, 3, 3],
        winner_pile=[(3, "G"), (1, "G"), (0, "B"), (2, "G"), (5, "G"), (6, "G"), (7, "G")],
        to_move=4,
    )
    result = pyramid(state, "G", 1)
    cards = events_of(result, FinishCardScored)
    assert [(c.owner, c.amount, c.correct) for c in cards] == [
        (3, 8, True),
        (1, 5, True),
        (0, -1, False),
        (2, 3, True),
        (5, 2, True),
        (6, 1, True),
        (7, 1, True),
    ]
    assert money(result.state) == [2, 8, 6, 11, 1, 5, 4, 4]
    assert result.state.result is not None and result.state.result.winners == (3,)


def floor_scenario(variants: tuple = ()) -> object:  # type: ignore[type-arg]
    rules = ruleset("first", 4, variants=variants)
    return build(
        rules,
        {2: "B O Y W", 16: "G"},  # ranking G, W, Y, O, B: winner G, loser B
        money=[3, 0, 0, 0],
        winner_pile=[(1, "B"), (2, "O"), (1, "G"), (3, "Y")],
        loser_pile=[(2, "B")],
    )


@pytest.mark.clause("final.wrong-costs", "money.floor", "final.pile-sequence", "final.winners")
def test_zero_floor_card_by_card_and_winner_pile_first() -> None:
    result = pyramid(floor_scenario(), "G", 1)
    # seat 1: 0, wrong B -> stays 0, then the first correct G +8 -> 8
    # seat 2: 0, wrong O in the winner pile -> stays 0, then loser pile B +8 -> 8
    #         (loser pile first would have given 8 - 1 = 7)
    # seat 3: 0, wrong Y -> stays 0. seat 0: +1 pyramid -> 4
    assert money(result.state) == [4, 8, 8, 0]
    cards = events_of(result, FinishCardScored)
    assert [(c.pile, c.owner, c.amount, c.paid, c.clause) for c in cards] == [
        (Pile.WINNER, 1, -1, 0, "final.wrong-costs"),
        (Pile.WINNER, 2, -1, 0, "final.wrong-costs"),
        (Pile.WINNER, 1, 8, 8, "final.correct-pays"),
        (Pile.WINNER, 3, -1, 0, "final.wrong-costs"),
        (Pile.LOSER, 2, 8, 8, "final.correct-pays"),
    ]
    # a tie for the most money shares the victory
    assert result.state.result is not None and result.state.result.winners == (1, 2)


@pytest.mark.clause("final.wrong-costs", "money.floor")
def test_a_player_with_1_and_two_wrong_cards_ends_on_0() -> None:
    state = build(
        FIRST3,
        {2: "B O Y W", 16: "G"},
        money=[3, 1, 3],
        winner_pile=[(1, "B")],
        loser_pile=[(1, "O")],
    )
    result = pyramid(state, "G", 1)
    assert money(result.state) == [4, 0, 3]
    assert [c.paid for c in events_of(result, FinishCardScored)] == [-1, 0]


@pytest.mark.clause("final.winners")
def test_all_players_tied_all_win() -> None:
    state = build(FIRST3, {2: "B O Y W", 16: "G"}, money=[2, 3, 3])
    result = pyramid(state, "G", 1)  # seat 0: 2 + 1 pyramid = 3
    assert money(result.state) == [3, 3, 3]
    assert result.state.result is not None and result.state.result.winners == (0, 1, 2)


@pytest.mark.clause("bet.finish.pile-order", "bet.finish.place", "final.pile-order")
def test_finish_cards_are_scored_in_the_order_they_were_placed() -> None:
    from camelup import apply

    state = build(FIRST3, {2: "B O Y W", 15: "G"}, to_move=2)
    state = apply(state, PlaceFinishCard(2, Camel.GREEN, Pile.WINNER)).state
    state = apply(state, PlaceFinishCard(0, Camel.GREEN, Pile.WINNER)).state
    state = apply(state, PlaceFinishCard(1, Camel.GREEN, Pile.WINNER)).state
    assert [c.owner for c in state.winner_pile] == [2, 0, 1]
    result = pyramid(state, "G", 2)  # seat 2 to move again: G 15 -> past the line
    # seat 2: 8 + 1 pyramid; seat 0: 5; seat 1: 3 -> 3+8+1, 3+5, 3+3
    assert money(result.state) == [8, 6, 12]


@pytest.mark.clause("end.final-leg-scoring", "partner.copy-best", "leg.score.pyramid")
def test_the_race_ending_pyramid_ticket_pays_and_a_partner_may_copy_it() -> None:
    # RUL-37, RUL-47: seat 0 (partnered with seat 1) takes the pyramid ticket whose die ends the
    # race: +1 for seat 0, and seat 1 copies it (+1) in the one final leg scoring
    rules = ruleset("second", 6)
    state = build(
        rules,
        {2: "B", 3: "G", 4: "R", 5: "Y", 16: "P", 10: "cW", 12: "cK"},
        partners={0: 1},
    )
    result = pyramid(state, "P", 1)
    assert result.state.is_over
    (scored,) = events_of(result, LegScored)
    assert [(s.pyramid, s.partner_bonus, s.total) for s in scored.scores[:2]] == [
        (1, 0, 1),
        (0, 1, 1),
    ]
    assert money(result.state) == [4, 4, 3, 3, 3, 3]

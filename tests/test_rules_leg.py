"""Chapter 10, the end of a leg, leg scoring and the next start player: spec/10-leg.md
(with the partnership bonus of 13.5, which is part of every leg scoring).

Leg scoring: a ticket on the leader pays its face value, on the second camel 1, on any other
camel -1; each pyramid ticket pays 1; with a partner, add max(0, the partner's best single
ticket). Each player's amounts are netted and settled once, floored at 0 (RUL-42).
"""

from __future__ import annotations

import pytest

from camelup import Camel, LegTicket, TileSide
from camelup.model.events import LegScored, LegStarted, PlayerLegScore, StartPlayerPassed, TilePaid
from helpers import board, build, events_of, money, pyramid, ruleset

FIRST = ruleset("first", 4)
SECOND = ruleset("second", 4)


def scores(result: object) -> tuple[PlayerLegScore, ...]:
    (scored,) = events_of(result, LegScored)  # type: ignore[arg-type]
    return scored.scores


@pytest.mark.clause(
    "leg.score.leader", "leg.score.second", "leg.score.others", "leg.score.pyramid", "leg.end.first"
)
def test_first_edition_leader_tickets_pay_5_3_2_second_pays_1_others_cost_1() -> None:
    state = build(
        FIRST,
        {3: "W", 4: "Y", 5: "O", 8: "B", 9: "G"},
        leg_tickets={
            0: [("G", 5)],
            1: [("G", 3)],
            2: [("G", 2)],
            3: [("B", 5), ("B", 3), ("O", 5), ("Y", 5), ("W", 5)],
        },
        pyramid_tickets={0: 1, 1: 1, 2: 1, 3: 1},
        revealed=["O", "Y", "W", "B"],
        to_move=0,
    )
    result = pyramid(state, "G", 1)  # the fifth die: G 9 -> 10, the leg ends
    (scored,) = events_of(result, LegScored)
    assert (scored.leader, scored.second) == (Camel.GREEN, Camel.BLUE)
    # seat 0: 5 + 2 pyramid = 7; seat 1: 3 + 1 = 4; seat 2: 2 + 1 = 3
    # seat 3: B5 +1, B3 +1, O5 -1, Y5 -1, W5 -1, pyramid +1 = 0
    assert [s.total for s in scored.scores] == [7, 4, 3, 0]
    assert [r for _, r in scored.scores[3].tickets] == [1, 1, -1, -1, -1]
    assert money(result.state) == [10, 7, 6, 3]


@pytest.mark.clause(
    "leg.score.leader",
    "leg.score.second",
    "leg.score.others",
    "leg.end.second",
    "tickets.leg.second",
)
def test_second_edition_leader_tickets_pay_5_3_2_2() -> None:
    state = build(
        SECOND,
        {1: "B", 2: "G", 3: "R", 4: "Y", 6: "P", 14: "cW", 16: "cK"},
        leg_tickets={
            0: [("P", 5)],
            1: [("P", 3)],
            2: [("P", 2), ("R", 5)],
            3: [("P", 2), ("Y", 5)],
        },
        pyramid_tickets={1: 2, 2: 1, 3: 1},
        revealed=["B", "G", "R", "Y"],
        to_move=0,
    )
    result = pyramid(state, "P", 1)  # fifth of six dice: the leg ends, the grey die stays in
    # ranking P, Y, R, G, B
    # seat 0: 5 + 1 pyramid = 6 -> 9; seat 1: 3 + 2 = 5 -> 8
    # seat 2: 2 - 1 (R third) + 1 = 2 -> 5; seat 3: 2 + 1 (Y second) + 1 = 4 -> 7
    assert [s.total for s in scores(result)] == [6, 5, 2, 4]
    assert money(result.state) == [9, 8, 5, 7]
    assert result.state.leg == 2


@pytest.mark.clause("leg.end.second", "move.die.stays-out")
def test_second_edition_fourth_die_does_not_end_the_leg() -> None:
    state = build(
        SECOND,
        {1: "B", 2: "G", 3: "R", 4: "Y", 6: "P", 14: "cW", 16: "cK"},
        pyramid_tickets={1: 3},
        revealed=["B", "G", "R"],
    )
    result = pyramid(state, "grey", 1, "cK")
    assert events_of(result, LegScored) == []
    assert set(result.state.pyramid) == {state.ruleset.dice[3], state.ruleset.dice[4]}
    assert result.state.pyramid_tickets_left == 1


@pytest.mark.clause("leg.score.net", "money.floor")
def test_netting_then_the_zero_floor() -> None:
    # EC-39: 0 EP with +2 and -1 ends on 1 (not 2, and not 0 whatever the order)
    state = build(
        FIRST,
        {3: "W", 4: "Y", 5: "O", 8: "B", 9: "G"},
        money=[3, 0, 0, 1],
        leg_tickets={
            0: [("G", 5), ("G", 3)],
            1: [("G", 2), ("O", 5)],
            2: [("Y", 5), ("W", 5)],
            3: [("O", 3), ("Y", 3), ("W", 3)],
        },
        pyramid_tickets={0: 4},
        revealed=["G", "B", "O", "Y"],
        to_move=0,
    )
    result = pyramid(state, "W", 1)  # W 3 -> 4 on top of Y: ranking G, B, O, W, Y
    assert board(result.state) == {4: "Y W", 5: "O", 8: "B", 9: "G"}
    assert [(s.total, s.paid) for s in scores(result)] == [(13, 13), (1, 1), (-2, 0), (-3, -1)]
    assert money(result.state) == [16, 1, 0, 0]


@pytest.mark.clause("tile.land.pay-owner", "leg.score.net", "money.floor")
def test_tile_coin_is_paid_before_and_apart_from_the_leg_total() -> None:
    # seat 2 has 0 EP and one losing ticket; the last die lands on seat 2's tile:
    # +1 at once (-> 1), then the leg total -1 (-> 0). Paid after scoring it would end on 1.
    state = build(
        FIRST,
        {3: "W", 4: "Y", 5: "O", 8: "B", 10: "G"},
        money=[3, 3, 0, 3],
        leg_tickets={2: [("W", 5)]},
        tiles=[(6, 2, TileSide.MIRAGE)],
        pyramid_tickets={0: 4},
        revealed=["G", "B", "Y", "W"],
    )
    result = pyramid(state, "O", 1)  # O 5 -> 6 (tile) -> 5
    assert events_of(result, TilePaid) == [TilePaid(2, 6, 1)]
    assert scores(result)[2].total == -1 and scores(result)[2].paid == -1
    assert money(result.state)[2] == 0


@pytest.mark.clause("leg.start-player", "turn.order")
@pytest.mark.parametrize(("last_taker", "next_start"), [(2, 3), (3, 0), (0, 1)])
def test_start_player_is_left_of_whoever_took_the_last_pyramid_ticket(
    last_taker: int, next_start: int
) -> None:
    state = build(
        FIRST,
        {3: "W", 4: "Y", 5: "O", 8: "B", 9: "G"},
        pyramid_tickets={(last_taker + 1) % 4: 4},
        revealed=["O", "Y", "W", "B"],
        to_move=last_taker,
        start_player=(last_taker + 2) % 4,
    )
    result = pyramid(state, "G", 1)
    assert events_of(result, StartPlayerPassed) == [
        StartPlayerPassed(next_start, "leg.start-player")
    ]
    assert result.state.start_player == next_start
    assert result.state.to_move == next_start


@pytest.mark.clause("leg.cleanup", "leg.number", "tile.stays", "partner.reset")
def test_cleanup_returns_tickets_tiles_and_dice_and_keeps_camels_money_and_cards() -> None:
    rules = ruleset("second", 6)
    state = build(
        rules,
        {1: "B", 2: "G", 3: "R", 4: "Y", 6: "P", 14: "cW", 16: "cK"},
        leg_tickets={0: [("P", 5)], 3: [("B", 5)]},
        tiles=[(10, 1, TileSide.CHEERING), (12, 4, TileSide.BOOING)],
        pyramid_tickets={2: 4},
        revealed=["B", "G", "grey", "Y"],
        partners={0: 5},
        winner_pile=[(2, "P")],
        loser_pile=[(3, "B")],
        to_move=2,
        leg=3,
    )
    result = pyramid(state, "R", 3)  # R 3 -> 6 on top of P; the fifth die ends leg 3
    new = result.state
    assert board(new) == {1: "B", 2: "G", 4: "Y", 6: "P R", 14: "cW", 16: "cK"}
    assert events_of(result, LegStarted) == [LegStarted(4)]
    assert new.leg == 4
    assert new.tiles == ()
    assert new.ticket_stacks == tuple((2, 2, 3, 5) for _ in range(5))
    assert all(p.leg_tickets == () and p.pyramid_tickets == 0 for p in new.players)
    assert new.pyramid == rules.dice and new.revealed == ()
    assert new.winner_pile == state.winner_pile and new.loser_pile == state.loser_pile
    assert new.partnerships == ()
    assert new.hands == state.hands
    # money: seat 0 P5 leader... R is now on top of P: ranking R, P, Y, G, B
    # seat 0: P5 second +1, partner seat 5 (nothing) -> 4; seat 2: +5 pyramid -> 8
    # seat 3: B5 last -1 -> 2; seat 5: partner seat 0's best ticket +1 -> 4
    assert money(new) == [4, 3, 8, 2, 3, 4]


# --- partnership bonus (13.5) in leg scoring --------------------------------------------------


@pytest.mark.clause("partner.copy-best", "partner.not-tiles", "leg.score.net", "leg.score.pyramid")
def test_partnership_bonus_is_the_partners_best_single_ticket_or_zero() -> None:
    rules = ruleset("second", 6)
    state = build(
        rules,
        {1: "B", 2: "G", 3: "R", 5: "Y", 7: "P", 14: "cW", 16: "cK"},
        leg_tickets={
            0: [("R", 5)],
            1: [("P", 5), ("G", 5)],
            2: [("Y", 5)],
            3: [("B", 5), ("G", 3)],
        },
        tiles=[(8, 5, TileSide.CHEERING)],
        pyramid_tickets={2: 3, 5: 1},
        revealed=["B", "G", "R", "grey"],
        partners={0: 1, 2: 3, 4: 5},
        to_move=5,
    )
    result = pyramid(state, "P", 1)  # P 7 -> 8 (seat 5's tile, +1 at once) -> 9
    # ranking P, Y, R, G, B
    # seat 0: R5 -1, copies seat 1's P5 +5 -> 4
    # seat 1: P5 +5, G5 -1 = 4, seat 0 holds only a losing ticket -> bonus 0
    # seat 2: Y5 +1, pyramid 3 = 4; seat 3 holds only losing tickets, no pyramid -> bonus 0
    # seat 3: B5 -1, G3 -1 = -2, copies seat 2's best single ticket (1) -> -1
    # seat 4: nothing of its own, copies one of seat 5's pyramid tickets (1) -> 1
    # seat 5: pyramid 2 -> 2, bonus 0; its tile coin is not a ticket and not copied
    got = scores(result)
    assert [s.partner_bonus for s in got] == [5, 0, 0, 1, 1, 0]
    assert [s.total for s in got] == [4, 4, 4, -1, 1, 2]
    assert money(result.state) == [7, 7, 7, 2, 4, 6]


@pytest.mark.clause("partner.copy-best")
def test_a_partner_with_only_losing_tickets_adds_nothing_and_copying_takes_nothing() -> None:
    rules = ruleset("second", 6)
    state = build(
        rules,
        {1: "B", 2: "G", 3: "R", 5: "Y", 7: "P", 14: "cW", 16: "cK"},
        money=[0, 3, 3, 3, 3, 3],
        leg_tickets={0: [("B", 5)], 1: [("G", 5), ("R", 5)]},
        pyramid_tickets={2: 4},
        revealed=["B", "G", "R", "grey"],
        partners={0: 1},
        to_move=2,
    )
    result = pyramid(state, "Y", 1)  # Y 5 -> 6: ranking P, Y, R, G, B
    got = scores(result)
    assert (got[0].partner_bonus, got[0].total, got[0].paid) == (0, -1, 0)
    assert (got[1].partner_bonus, got[1].total) == (0, -2)
    assert money(result.state)[:2] == [0, 1]


@pytest.mark.clause("leg.score.pyramid", "leg.score.net")
def test_pyramid_tickets_pay_1_each_netted_with_tickets() -> None:
    state = build(
        FIRST,
        {3: "W", 4: "Y", 5: "O", 8: "B", 9: "G"},
        money=[0, 3, 3, 3],
        leg_tickets={0: [("W", 5), ("Y", 5)]},
        pyramid_tickets={0: 3, 1: 1},
        revealed=["O", "Y", "W", "B"],
        to_move=1,
    )
    result = pyramid(state, "G", 2)
    # seat 0: -1 -1 +3 = 1 -> 1; seat 1: +2 pyramid -> 5
    assert [s.pyramid for s in scores(result)] == [3, 2, 0, 0]
    assert money(result.state) == [1, 5, 3, 3]
    assert scores(result)[0].tickets == (
        (LegTicket(Camel.WHITE, 5), -1),
        (LegTicket(Camel.YELLOW, 5), -1),
    )

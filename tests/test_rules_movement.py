"""Chapter 5, the pyramid action and movement: spec/05-movement.md."""

from __future__ import annotations

from fractions import Fraction

import pytest

from camelup import Camel, Die, DieRoll, TakePyramidTicket, chance_outcomes, legal_actions
from camelup.model.events import DieRevealed, PyramidTicketTaken, UnitMoved
from helpers import assert_illegal, board, build, camels, pyramid, roll, ruleset

FIRST = ruleset("first", 4)
SECOND = ruleset("second", 4)


@pytest.mark.clause("move.pyramid.take-ticket", "move.die.stays-out", "turn.order")
def test_the_pyramid_action_takes_a_ticket_reveals_the_die_and_sets_it_aside() -> None:
    state = build(FIRST, {1: "B G", 2: "O", 3: "Y W"}, to_move=3)
    result = pyramid(state, "O", 2)
    new = result.state
    assert new.players[3].pyramid_tickets == 1 and new.pyramid_tickets_left == 4
    assert Die.ORANGE not in new.pyramid and new.revealed == (roll(FIRST, "O", 2),)
    assert new.to_move == 0
    assert result.events == (
        PyramidTicketTaken(3),
        DieRevealed(roll(FIRST, "O", 2)),
        UnitMoved((Camel.ORANGE,), 2, 4, "top", "move.racing.clockwise"),
    )
    assert_illegal(
        new, TakePyramidTicket(0, roll(FIRST, "O", 1)), "die-not-in-pyramid", "move.die.stays-out"
    )
    offered = {a.roll.die for a in legal_actions(new) if type(a) is TakePyramidTicket}
    assert offered == {Die.BLUE, Die.GREEN, Die.YELLOW, Die.WHITE}


@pytest.mark.clause("move.racing.clockwise")
@pytest.mark.parametrize("pips", [1, 2, 3])
def test_a_racing_die_moves_its_camel_exactly_the_number_shown(pips: int) -> None:
    state = build(FIRST, {1: "B G", 2: "O", 3: "Y", 12: "W"})
    result = pyramid(state, "W", pips)
    assert board(result.state)[12 + pips] == "W"


@pytest.mark.clause("move.stack.carry", "move.unit.lands-on-top")
def test_a_camel_carries_the_camels_above_it_and_lands_on_top() -> None:
    state = build(FIRST, {3: "B G O", 5: "Y W"})
    result = pyramid(state, "G", 2)  # G and O move; B stays; [G, O] lands on [Y, W]
    assert board(result.state) == {3: "B", 5: "Y W G O"}
    assert result.events[-1] == UnitMoved(
        camels(FIRST, "G O"), 3, 5, "top", "move.racing.clockwise"
    )


@pytest.mark.clause("move.stack.carry")
def test_the_top_camel_moves_alone() -> None:
    state = build(FIRST, {3: "B G O", 5: "Y W"})
    result = pyramid(state, "O", 1)
    assert board(result.state) == {3: "B G", 4: "O", 5: "Y W"}


@pytest.mark.clause("move.pyramid.chance")
def test_every_die_and_face_is_equally_likely_as_exact_fractions() -> None:
    first = chance_outcomes(build(FIRST, {1: "B G O Y W"}))
    assert len(first) == 15
    assert {p for _, p in first} == {Fraction(1, 15)}
    second = dict(chance_outcomes(build(SECOND, {1: "B G R Y P", 14: "cW cK"})))
    assert second[DieRoll(Die.BLUE, 3)] == Fraction(1, 18)  # 1/6 die, 2 of 6 faces show 3
    assert second[DieRoll(Die.GREY, 2, Camel.CRAZY_BLACK)] == Fraction(1, 36)
    assert len(second) == 5 * 3 + 6
    assert sum(second.values()) == 1
    later = build(FIRST, {1: "B G O Y W"}, pyramid_tickets={0: 3}, revealed=["B", "G", "O"])
    assert {p for _, p in chance_outcomes(later)} == {Fraction(1, 6)}


@pytest.mark.clause("move.only-final-space", "tile.land.pay-owner", "end.crossing.racing")
def test_the_race_kernel_says_where_the_move_ended_what_it_owes_and_whether_it_crossed() -> None:
    from camelup.model.events import TilePaid
    from camelup.model.state import TileSide
    from camelup.rules import race

    state = build(FIRST, {3: "B", 4: "G", 5: "O", 15: "Y W"}, tiles=[(6, 2, TileSide.OASIS)])
    plain = race.reveal(list(state.track), state.tiles, FIRST, roll(FIRST, "B", 2))
    assert (plain.landing, plain.crossed, plain.payments) == (5, False, ())
    track = list(state.track)
    on_tile = race.reveal(track, state.tiles, FIRST, roll(FIRST, "B", 3))
    assert on_tile.landing == 6 and not on_tile.crossed  # pushed on to 7, but it landed on 6
    assert on_tile.payments == (TilePaid(2, 6, 1),)
    assert track[7 + 2] == (Camel.BLUE,)
    over = race.reveal(list(state.track), state.tiles, FIRST, roll(FIRST, "Y", 2))
    assert (over.landing, over.crossed, over.payments) == (17, True, ())


@pytest.mark.clause("money.bank-unlimited", "tile.land.pay-owner")
def test_money_is_paid_in_full_and_tickets_stay_held() -> None:
    from camelup.model.state import LegTicket, Player
    from camelup.rules import money

    players = (Player(3, (LegTicket(Camel.BLUE, 5),), 1), Player(0))
    paid = money.pay(players, [(1, 40), (0, -2), (1, 1)])
    assert paid == (Player(1, (LegTicket(Camel.BLUE, 5),), 1), Player(41))
    assert money.pay(players, []) == players
    assert money.balances(players, [(1, 40), (0, -2), (1, 1)]) == [1, 41]
    # a player paid nothing in all (here, paid and charged alike) is the same object
    assert money.pay(players, [(1, 5), (1, -5)])[1] is players[1]

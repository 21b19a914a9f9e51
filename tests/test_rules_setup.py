"""Chapter 2, setup: spec/02-setup.md. The dice rolls, stacking order, first crazy camel and
first player are inputs of ``Setup``."""

from __future__ import annotations

import random

import pytest

from camelup import Camel, CamelUpError, Die, DieRoll, InvalidSetup, Setup, new_game, random_setup
from helpers import board, ruleset

CK, CW = Camel.CRAZY_BLACK, Camel.CRAZY_WHITE


def first_setup(start: int = 2) -> Setup:
    rolls = (
        DieRoll(Die.BLUE, 2),
        DieRoll(Die.GREEN, 1),
        DieRoll(Die.ORANGE, 2),
        DieRoll(Die.YELLOW, 3),
        DieRoll(Die.WHITE, 2),
    )
    stacking = (Camel.WHITE, Camel.BLUE, Camel.YELLOW, Camel.ORANGE, Camel.GREEN)
    return Setup(rolls, stacking, start)


@pytest.mark.clause(
    "setup.racing-camels",
    "setup.stack-order",
    "setup.money",
    "setup.leg-ticket-stacks",
    "setup.pyramid-tickets",
    "setup.dice-in-pyramid",
    "setup.player-kit",
    "setup.start-player",
)
def test_first_edition_setup() -> None:
    rules = ruleset("first", 3)
    state = new_game(rules, first_setup())
    assert board(state) == {1: "G", 2: "W B O", 3: "Y"}
    assert [p.money for p in state.players] == [3, 3, 3]
    assert state.ticket_stacks == ((2, 3, 5),) * 5
    assert state.pyramid == rules.dice and state.revealed == () and state.pyramid_tickets_left == 5
    assert all(hand == frozenset(rules.racing_camels) for hand in state.hands)
    assert all(p.leg_tickets == () and p.pyramid_tickets == 0 for p in state.players)
    assert state.tiles == () and state.winner_pile == () and state.loser_pile == ()
    assert (state.to_move, state.start_player, state.leg) == (2, 2, 1)


@pytest.mark.clause(
    "setup.crazy-space", "setup.crazy-second", "setup.dice-in-pyramid", "setup.leg-ticket-stacks"
)
@pytest.mark.parametrize(
    ("rolls", "first", "expected"),
    [
        ((1, 1), CK, {16: "cK cW"}),  # same space: the second on top; colour ignored
        ((1, 1), CW, {16: "cW cK"}),
        ((2, 3), CW, {15: "cW", 14: "cK"}),
        ((3, 1), CK, {14: "cK", 16: "cW"}),
    ],
)
def test_second_edition_crazy_camels_by_number_alone(
    rolls: tuple[int, int], first: Camel, expected: dict[int, str]
) -> None:
    rules = ruleset("second", 4)
    racing = tuple(DieRoll(Die(c.value), 1) for c in rules.racing_camels)
    grey = (DieRoll(Die.GREY, rolls[0], CW), DieRoll(Die.GREY, rolls[1], CW))  # both white
    state = new_game(rules, Setup(racing, rules.racing_camels, 0, grey, first))
    assert board(state) == {1: "B G R Y P", **expected}
    assert Die.GREY in state.pyramid and len(state.pyramid) == 6
    assert state.ticket_stacks == ((2, 2, 3, 5),) * 5


@pytest.mark.clause("setup.partnership-cards", "partner.six-plus")
@pytest.mark.parametrize(("players", "partnerships"), [(5, False), (6, True), (8, True)])
def test_partnership_cards_only_with_six_or_more(players: int, partnerships: bool) -> None:
    rules = ruleset("second", players)
    state = new_game(rules, random_setup(rules, random.Random(players)))
    assert rules.partnerships is partnerships
    assert state.partnerships == ()


@pytest.mark.clause(
    "setup.racing-camels", "setup.stack-order", "setup.start-player", "camels.crazy"
)
def test_bad_setups_are_refused() -> None:
    rules = ruleset("first", 3)
    good = first_setup()
    with pytest.raises(CamelUpError):
        new_game(rules, Setup(good.racing_rolls[:4], good.stacking, 0))
    with pytest.raises(CamelUpError):
        new_game(rules, Setup(good.racing_rolls, good.stacking[:4], 0))
    with pytest.raises(CamelUpError):
        new_game(rules, Setup(good.racing_rolls, good.stacking, 3))
    with pytest.raises(CamelUpError):
        new_game(
            rules, Setup(good.racing_rolls, good.stacking, 0, (DieRoll(Die.GREY, 1, CW),) * 2, CW)
        )


@pytest.mark.clause(
    "dice.racing-faces", "dice.grey-faces", "setup.crazy-space", "setup.stack-order"
)
@pytest.mark.parametrize(
    ("change", "clause", "pointer"),
    [
        ({"racing": (4, DieRoll(Die.PURPLE, 4))}, "dice.racing-faces", "/racing_rolls/4/value"),
        ({"racing": (1, DieRoll(Die.GREEN, 1, CW))}, "dice.racing-faces", "/racing_rolls/1/colour"),
        ({"racing": (2, DieRoll(Die.BLUE, 1))}, "setup.racing-camels", "/racing_rolls/2/die"),
        ({"stacking": (Camel.BLUE,) * 5}, "setup.stack-order", "/stacking"),
        (
            {"grey": (1, DieRoll(Die.GREY, 2, Camel.BLUE))},
            "dice.grey-faces",
            "/crazy_rolls/1/colour",
        ),
        ({"grey": (0, DieRoll(Die.GREY, 2))}, "dice.grey-faces", "/crazy_rolls/0/colour"),
        ({"grey": (0, DieRoll(Die.RED, 2))}, "setup.crazy-space", "/crazy_rolls/0/die"),
    ],
)
def test_a_bad_setup_names_the_input_at_fault(
    change: dict[str, object], clause: str, pointer: str
) -> None:
    """A die shows 1-3; a racing roll has no colour; a grey roll is white or black."""
    rules = ruleset("second", 4)
    rolls = [DieRoll(Die(c.value), 1) for c in rules.racing_camels]  # blue green red yellow purple
    grey = [DieRoll(Die.GREY, 1, CW), DieRoll(Die.GREY, 3, CK)]
    stacking: tuple[Camel, ...] = rules.racing_camels
    if "racing" in change:
        index, roll = change["racing"]  # type: ignore[misc]
        rolls[index] = roll
    if "grey" in change:
        index, roll = change["grey"]  # type: ignore[misc]
        grey[index] = roll
    if "stacking" in change:
        stacking = change["stacking"]  # type: ignore[assignment]
    with pytest.raises(InvalidSetup) as caught:
        new_game(rules, Setup(tuple(rolls), stacking, 0, tuple(grey), CW))
    assert (caught.value.clause, caught.value.pointer) == (clause, pointer)


@pytest.mark.clause(
    "setup.racing-camels", "setup.stack-order", "setup.start-player", "setup.crazy-space"
)
@pytest.mark.parametrize(("edition", "players"), [("first", 4), ("second", 5)])
def test_random_setup_draws_every_input_new_game_takes(edition: str, players: int) -> None:
    # random_setup feeds generate's and fuzz's random games; no conformance case can see it
    # (every case states its setup), so this test is named by the syntactic mutation run.
    rules = ruleset(edition, players)
    setups = [random_setup(rules, random.Random(seed)) for seed in range(120)]
    for setup in setups:
        new_game(rules, setup)  # accepted: one roll per racing camel, a full stacking order
        assert sorted(r.die.camel.value for r in setup.racing_rolls) == sorted(
            c.value for c in rules.racing_camels
        )
        assert sorted(c.value for c in setup.stacking) == sorted(
            c.value for c in rules.racing_camels
        )
    assert {r.value for s in setups for r in s.racing_rolls} == {1, 2, 3}
    assert len({s.stacking for s in setups}) > 60  # shuffled, not one fixed order
    assert {s.start_player for s in setups} == set(range(players))
    crazy_rolls = [r for s in setups for r in s.crazy_rolls]
    if edition == "first":
        assert crazy_rolls == [] and {s.first_crazy for s in setups} == {None}
    else:
        assert all(len(s.crazy_rolls) == 2 for s in setups)
        assert {r.value for r in crazy_rolls} == {1, 2, 3}
        assert {r.colour for r in crazy_rolls} == {CK, CW}
        assert {s.first_crazy for s in setups} == {CK, CW}
    again = [random_setup(rules, random.Random(seed)) for seed in range(120)]
    assert again == setups  # all its randomness comes from the generator it is given


@pytest.mark.clause("setup.start-player", "camels.crazy")
def test_a_setup_given_only_rolls_and_stacking_starts_at_seat_zero_with_no_crazy_inputs() -> None:
    # The defaults of the library's Setup; no adapter can omit them, so the syntactic mutation
    # run names this test for their mutants.
    setup = Setup(first_setup().racing_rolls, first_setup().stacking)
    assert (setup.start_player, setup.crazy_rolls, setup.first_crazy) == (0, (), None)
    assert new_game(ruleset("first", 3), setup).to_move == 0


@pytest.mark.clause("camels.crazy")
def test_crazy_camel_inputs_in_a_first_edition_setup_are_refused_where_they_are() -> None:
    # camels.crazy is a second-edition clause, so no first-edition conformance case may name it:
    # the syntactic mutation run names this test for the mutants of this refusal.
    rules, base = ruleset("first", 3), first_setup()
    grey = (DieRoll(Die.GREY, 1, CW), DieRoll(Die.GREY, 3, CK))
    for setup, pointer in [
        (Setup(base.racing_rolls, base.stacking, 0, grey, None), "/crazy_rolls"),
        (Setup(base.racing_rolls, base.stacking, 0, (), CW), "/first_crazy"),
    ]:
        with pytest.raises(InvalidSetup) as caught:
            new_game(rules, setup)
        assert (caught.value.clause, caught.value.pointer) == ("camels.crazy", pointer)

"""Chapter 1, rule sets and components: spec/01-components.md.

Which rule sets exist (edition, modules, variants, player count), and the components each
edition brings: racing and crazy camels, dice faces, ticket values.
"""

from __future__ import annotations

import pytest

from camelup import (
    CRAZY_CAMELS,
    Camel,
    Die,
    DieRoll,
    Edition,
    InvalidRuleset,
    Module,
    Pile,
    PlaceFinishCard,
    Ruleset,
    TakeLegTicket,
    TakePyramidTicket,
    Variant,
)
from camelup.spec.registry import load_registry
from helpers import assert_illegal, build, ruleset

WW = frozenset({Module.WHIRLWIND})


def refused(code: str, clause: str, *args: object, **kwargs: object) -> None:
    assert clause in load_registry().clause_ids
    with pytest.raises(InvalidRuleset) as caught:
        Ruleset(*args, **kwargs)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.clause) == (code, clause)


@pytest.mark.clause("ruleset.players.first")
@pytest.mark.parametrize("players", [0, 1, 9])
def test_first_edition_needs_2_to_8_players(players: int) -> None:
    refused("player-count", "ruleset.players.first", Edition.FIRST, players)


@pytest.mark.clause("ruleset.players.second")
@pytest.mark.parametrize("players", [1, 2, 9])
def test_second_edition_needs_3_to_8_players(players: int) -> None:
    refused("player-count", "ruleset.players.second", Edition.SECOND, players)


@pytest.mark.clause("ruleset.players.first", "ruleset.players.second", "ruleset.editions")
@pytest.mark.parametrize(
    ("edition", "players"),
    [(Edition.FIRST, 2), (Edition.FIRST, 8), (Edition.SECOND, 3), (Edition.SECOND, 8)],
)
def test_the_player_count_limits_are_inclusive(edition: Edition, players: int) -> None:
    assert Ruleset(edition, players).players == players


@pytest.mark.clause("ruleset.whirlwind.first-edition")
def test_whirlwind_with_the_second_edition_needs_the_variant() -> None:
    refused("module-edition", "ruleset.whirlwind.first-edition", Edition.SECOND, 4, WW)
    ok = Ruleset(Edition.SECOND, 4, WW, frozenset({Variant.WHIRLWIND_SECOND_EDITION}))
    assert ok.whirlwind
    assert Ruleset(Edition.FIRST, 4, WW).whirlwind


@pytest.mark.clause("ruleset.variants")
@pytest.mark.parametrize(
    ("edition", "modules", "variant"),
    [
        (Edition.SECOND, frozenset(), Variant.START_MARKER_ROTATES),
        (Edition.FIRST, frozenset(), Variant.CRAZY_FINISH_NEEDS_RACING),
        (Edition.FIRST, WW, Variant.WHIRLWIND_SECOND_EDITION),
        (Edition.SECOND, frozenset(), Variant.WHIRLWIND_SECOND_EDITION),
    ],
)
def test_a_variant_for_the_wrong_rule_set_is_refused(
    edition: Edition, modules: frozenset[Module], variant: Variant
) -> None:
    refused("variant-ruleset", "ruleset.variants", edition, 4, modules, frozenset({variant}))


@pytest.mark.clause("ruleset.variants")
@pytest.mark.parametrize(
    ("edition", "variant"),
    [
        (Edition.FIRST, Variant.START_MARKER_ROTATES),
        (Edition.SECOND, Variant.CRAZY_FINISH_NEEDS_RACING),
        (Edition.FIRST, Variant.FINAL_SCORING_NET),
        (Edition.SECOND, Variant.FINAL_SCORING_NET),
        (Edition.FIRST, Variant.TILE_MOVE_OLD_SPACE_BLOCKS),
        (Edition.SECOND, Variant.TILE_MOVE_OLD_SPACE_BLOCKS),
    ],
)
def test_a_variant_fits_the_rule_sets_its_ruling_names(edition: Edition, variant: Variant) -> None:
    assert Ruleset(edition, 4, variants=frozenset({variant})).has(variant)


@pytest.mark.clause("ruleset.variants")
def test_every_variant_enum_member_is_defined_by_a_ruling() -> None:
    assert {v.value for v in Variant} == set(load_registry().variants)


@pytest.mark.clause(
    "camels.racing.first",
    "camels.racing.second",
    "camels.crazy",
    "tickets.leg.first",
    "tickets.leg.second",
)
def test_components_per_edition() -> None:
    first, second = Ruleset(Edition.FIRST, 4), Ruleset(Edition.SECOND, 4)
    assert set(first.racing_camels) == {
        Camel.BLUE,
        Camel.GREEN,
        Camel.ORANGE,
        Camel.YELLOW,
        Camel.WHITE,
    }
    assert set(first.camels) == set(first.racing_camels)
    assert set(second.racing_camels) == {
        Camel.BLUE,
        Camel.GREEN,
        Camel.RED,
        Camel.YELLOW,
        Camel.PURPLE,
    }
    assert set(second.camels) == set(second.racing_camels) | set(CRAZY_CAMELS)
    assert len(first.dice) == 5 and Die.GREY not in first.dice
    assert len(second.dice) == 6 and Die.GREY in second.dice
    assert first.leg_ticket_values == (2, 3, 5)
    assert second.leg_ticket_values == (2, 2, 3, 5)


@pytest.mark.clause("dice.racing-faces", "dice.grey-faces")
def test_dice_show_only_their_faces() -> None:
    first = build(ruleset("first", 4), {1: "B G O Y W"})
    assert_illegal(
        first, TakePyramidTicket(0, DieRoll(Die.BLUE, 4)), "die-face", "dice.racing-faces"
    )
    assert_illegal(
        first, TakePyramidTicket(0, DieRoll(Die.BLUE, 0)), "die-face", "dice.racing-faces"
    )
    assert_illegal(
        first,
        TakePyramidTicket(0, DieRoll(Die.BLUE, 1, Camel.CRAZY_WHITE)),
        "die-face",
        "dice.racing-faces",
    )
    second = build(ruleset("second", 4), {1: "B G R Y P", 14: "cW cK"})
    assert_illegal(
        second, TakePyramidTicket(0, DieRoll(Die.GREY, 2)), "die-face", "dice.grey-faces"
    )
    assert_illegal(
        second,
        TakePyramidTicket(0, DieRoll(Die.GREY, 2, Camel.BLUE)),
        "die-face",
        "dice.grey-faces",
    )


@pytest.mark.clause("camels.racing.first", "move.die.stays-out")
def test_a_die_of_another_edition_is_not_in_the_pyramid() -> None:
    first = build(ruleset("first", 4), {1: "B G O Y W"})
    assert_illegal(
        first, TakePyramidTicket(0, DieRoll(Die.RED, 1)), "die-not-in-pyramid", "move.die.stays-out"
    )
    assert_illegal(
        first,
        TakePyramidTicket(0, DieRoll(Die.GREY, 1, Camel.CRAZY_WHITE)),
        "die-not-in-pyramid",
        "move.die.stays-out",
    )


@pytest.mark.clause("bets.no-crazy")
@pytest.mark.parametrize("crazy", CRAZY_CAMELS)
def test_nobody_can_bet_on_a_crazy_camel(crazy: Camel) -> None:
    state = build(ruleset("second", 4), {1: "B G R Y P", 14: "cW cK"})
    assert_illegal(state, TakeLegTicket(0, crazy), "not-a-racing-camel", "bets.no-crazy")
    assert_illegal(
        state, PlaceFinishCard(0, crazy, Pile.WINNER), "not-a-racing-camel", "bets.no-crazy"
    )

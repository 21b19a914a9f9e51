"""Rulesets: an edition, its modules, the selected variants and the number of players."""

from __future__ import annotations

import attrs

from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.enums import IdentityEnum
from camelup.model.errors import InvalidRuleset
from camelup.model.trace import implements


class Edition(IdentityEnum):
    FIRST = "first"
    SECOND = "second"


class Module(IdentityEnum):
    WHIRLWIND = "whirlwind"


class Variant(IdentityEnum):
    """The named variants of the rulings register (``spec/rulings.md``)."""

    START_MARKER_ROTATES = "start-marker-rotates"
    CRAZY_FINISH_NEEDS_RACING = "crazy-finish-needs-racing"
    WHIRLWIND_SECOND_EDITION = "whirlwind-second-edition"
    FINAL_SCORING_NET = "final-scoring-net"
    TILE_MOVE_OLD_SPACE_BLOCKS = "tile-move-old-space-blocks"


RACING_CAMELS = {
    Edition.FIRST: (Camel.BLUE, Camel.GREEN, Camel.ORANGE, Camel.YELLOW, Camel.WHITE),
    Edition.SECOND: (Camel.BLUE, Camel.GREEN, Camel.RED, Camel.YELLOW, Camel.PURPLE),
}
LEG_TICKET_VALUES = {  # bottom to top
    Edition.FIRST: (2, 3, 5),
    Edition.SECOND: (2, 2, 3, 5),
}
PLAYER_COUNTS = {Edition.FIRST: range(2, 9), Edition.SECOND: range(3, 9)}
PYRAMID_TICKETS = 5
STARTING_MONEY = 3
PARTNERSHIP_MIN_PLAYERS = 6


# Which rule sets each variant of the rulings register is defined for: (editions, modules it
# needs). spec/rulings.md is the source ("Defines variant: `name` (first, whirlwind)"); kept
# here so that the library needs no Markdown at import, and `camelup spec check` fails when the
# two disagree.
VARIANT_RULE_SETS: dict[Variant, tuple[frozenset[Edition], frozenset[Module]]] = {
    Variant.START_MARKER_ROTATES: (frozenset({Edition.FIRST}), frozenset()),
    Variant.CRAZY_FINISH_NEEDS_RACING: (frozenset({Edition.SECOND}), frozenset()),
    Variant.WHIRLWIND_SECOND_EDITION: (
        frozenset({Edition.SECOND}),
        frozenset({Module.WHIRLWIND}),
    ),
    Variant.FINAL_SCORING_NET: (frozenset({Edition.FIRST, Edition.SECOND}), frozenset()),
    Variant.TILE_MOVE_OLD_SPACE_BLOCKS: (frozenset({Edition.FIRST, Edition.SECOND}), frozenset()),
}


def _variant_fits(variant: Variant, edition: Edition, modules: frozenset[Module]) -> bool:
    """Whether the rulings register defines ``variant`` for this edition and these modules."""
    editions, needs_modules = VARIANT_RULE_SETS[variant]
    return edition in editions and needs_modules <= modules


@attrs.frozen
class Ruleset:
    """What is being played. Invalid combinations are refused when the ruleset is built.

    >>> Ruleset(Edition.SECOND, players=4).dice_per_leg
    5
    """

    edition: Edition
    players: int
    modules: frozenset[Module] = frozenset()
    variants: frozenset[Variant] = frozenset()

    # Derived once here so that the hot path reads plain attributes.
    racing_camels: tuple[Camel, ...] = attrs.field(init=False, eq=False, repr=False)
    camels: tuple[Camel, ...] = attrs.field(init=False, eq=False, repr=False)
    dice: tuple[Die, ...] = attrs.field(init=False, eq=False, repr=False)
    dice_per_leg: int = attrs.field(init=False, eq=False, repr=False)
    leg_ticket_values: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)
    full_ticket_stacks: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, repr=False)
    whirlwind: bool = attrs.field(init=False, eq=False, repr=False)
    partnerships: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        _validate(self)
        racing = RACING_CAMELS[self.edition]
        second = self.edition is Edition.SECOND
        dice = tuple(Die(c.value) for c in racing) + ((Die.GREY,) if second else ())
        derived = {
            "racing_camels": racing,
            "camels": racing + (CRAZY_CAMELS if second else ()),
            "dice": dice,
            "dice_per_leg": PYRAMID_TICKETS,  # one die comes out per pyramid ticket
            "leg_ticket_values": LEG_TICKET_VALUES[self.edition],
            "full_ticket_stacks": tuple(LEG_TICKET_VALUES[self.edition] for _ in racing),
            "whirlwind": Module.WHIRLWIND in self.modules,
            "partnerships": second and self.players >= PARTNERSHIP_MIN_PLAYERS,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def has(self, variant: Variant) -> bool:
        return variant in self.variants


@implements(
    "ruleset.editions",
    "ruleset.players.first",
    "ruleset.players.second",
    "ruleset.whirlwind.first-edition",
    "ruleset.variants",
)
def _validate(ruleset: Ruleset) -> None:
    if not isinstance(ruleset.edition, Edition):
        raise InvalidRuleset(
            "unknown-edition", "ruleset.editions", f"no edition {ruleset.edition!r}"
        )
    counts = PLAYER_COUNTS[ruleset.edition]
    if not isinstance(ruleset.players, int) or ruleset.players not in counts:
        clause = f"ruleset.players.{ruleset.edition.value}"
        given: object = ruleset.players
        if isinstance(given, int) and abs(given) > 10**6:
            given = "that many"  # str() of a huge int raises; say less instead
        raise InvalidRuleset(
            "player-count",
            clause,
            f"the {ruleset.edition.value} edition is for {counts.start}-{counts.stop - 1} players,"
            f" not {given}",
        )
    if (
        Module.WHIRLWIND in ruleset.modules
        and ruleset.edition is Edition.SECOND
        and Variant.WHIRLWIND_SECOND_EDITION not in ruleset.variants
    ):
        raise InvalidRuleset(
            "module-edition",
            "ruleset.whirlwind.first-edition",
            "the whirlwind module is defined for the first edition; with the second edition"
            " select the variant whirlwind-second-edition",
        )
    for variant in sorted(ruleset.variants, key=lambda v: v.value):
        if not _variant_fits(variant, ruleset.edition, ruleset.modules):
            raise InvalidRuleset(
                "variant-ruleset",
                "ruleset.variants",
                f"variant {variant.value} does not fit the {ruleset.edition.value} edition"
                + (" with these modules" if ruleset.modules else ""),
            )

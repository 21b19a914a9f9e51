"""The chance rule (``move.pyramid.chance``, :func:`camelup.rules.race.roll_chances`) in whole
numbers, as the exact odds weigh their sequences: the rule's fractions are turned into weights
once per ruleset and pyramid, so the enumeration adds and multiplies integers only. Nothing here
states a chance of its own: a patched rule is asked again (the cache is keyed by the rule)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from fractions import Fraction

import attrs

from camelup.model.camels import Die
from camelup.model.dice import DieRoll
from camelup.model.ruleset import Ruleset
from camelup.rules import race

__all__ = ["ChanceRule", "Chances", "chances_of"]

ChanceRule = Callable[[tuple[Die, ...]], tuple[tuple[DieRoll, Fraction], ...]]


@attrs.frozen
class Chances:
    """The chance rule (``move.pyramid.chance``, :func:`camelup.rules.race.roll_chances`) in
    whole numbers, for one ruleset's dice and one pyramid.

    ``faces``: the common denominator of the faces' chances once a die is drawn (6 with the grey
    die, else 3); ``rolls[die]``: each roll of ``die`` with its chance times ``faces``.
    ``draws[mask]``, for the dice of ``pyramid`` whose bits are set in ``mask``: each die, its
    chance of being drawn times ``per_draw[number of dice in mask]`` (the common denominator of
    the draws from that many dice), and the mask without it.
    """

    faces: int
    rolls: Mapping[Die, tuple[tuple[DieRoll, int], ...]]
    draws: tuple[tuple[tuple[Die, int, int], ...], ...]
    per_draw: Mapping[int, int]

    def scale(self, pyramid_size: int, steps: int) -> list[int]:
        """``scale[k]``: the weight of one unit at level ``k`` (``k`` dice out) in units of
        ``1 / scale[0]``, the product of the weights of the steps after ``k``."""
        scale = [1] * (steps + 1)
        for k in range(steps - 1, -1, -1):
            scale[k] = scale[k + 1] * self.faces * self.per_draw[pyramid_size - k]
        return scale


# One ask of the chance rule in whole numbers: the common denominator of its chances, and per
# die its rolls with their chances times it (each roll's and all of them together).
_Asked = tuple[int, dict[Die, tuple[list[tuple[DieRoll, int]], int]]]


def _ask(rule: ChanceRule, dice: tuple[Die, ...]) -> _Asked:
    """``rule``'s chances with ``dice`` in the pyramid, in whole numbers (Fraction arithmetic
    would cost more than the enumeration of a small position)."""
    chances = rule(dice)
    common = math.lcm(*(chance.denominator for _, chance in chances))
    by_die: dict[Die, tuple[list[tuple[DieRoll, int]], int]] = {}
    for roll, chance in chances:
        weight = chance.numerator * (common // chance.denominator)
        found = by_die.get(roll.die)
        if found is None:
            by_die[roll.die] = ([(roll, weight)], weight)
        else:
            found[0].append((roll, weight))
            by_die[roll.die] = (found[0], found[1] + weight)
    return common, by_die


@functools.lru_cache(maxsize=256)
def _whole_chances(
    rule: ChanceRule, all_dice: tuple[Die, ...], pyramid: tuple[Die, ...]
) -> Chances:
    """``rule``'s chances as :class:`Chances`; keyed by the rule itself, so that a patched rule
    is asked again. The faces' chances once a die is drawn are those with every die of the
    ruleset in the pyramid; the enumeration shares a die's moves among the positions with any
    dice left, so a rule under which a die's faces have other chances with other dice left is
    refused."""
    _, given = _ask(rule, all_dice)
    # faces: the least whole number that makes every face's chance once drawn a whole weight
    faces = math.lcm(
        *(
            total // math.gcd(total, weight)
            for rolls, total in given.values()
            for _, weight in rolls
        )
    )
    rolls = {
        die: tuple((roll, weight * faces // total) for roll, weight in found if weight)
        for die, (found, total) in given.items()
    }
    asked = [
        _ask(rule, tuple(die for i, die in enumerate(pyramid) if mask >> i & 1))
        for mask in range(1 << len(pyramid))
    ]
    for _, by_die in asked:
        for die, (found, total) in by_die.items():
            reference, reference_total = given[die]
            same = len(found) == len(reference) and all(
                roll is other and weight * reference_total == other_weight * total
                for (roll, weight), (other, other_weight) in zip(found, reference, strict=True)
            )
            if not same:
                message = f"the {die.value} die's faces have other chances with other dice left"
                raise ValueError(message)
    # per number of dice left: the least whole number that makes every draw's chance a weight
    per_draw: dict[int, int] = {}
    for mask, (common, by_die) in enumerate(asked):
        size = mask.bit_count()
        per_draw[size] = math.lcm(
            per_draw.get(size, 1), *(common // math.gcd(common, t) for _, t in by_die.values())
        )
    draws = tuple(
        tuple(
            (die, by_die[die][1] * per_draw[mask.bit_count()] // common, mask & ~(1 << i))
            for i, die in enumerate(pyramid)
            if mask >> i & 1 and die in by_die and by_die[die][1]
        )
        for mask, (common, by_die) in enumerate(asked)
    )
    return Chances(faces, rolls, draws, per_draw)


def chances_of(ruleset: Ruleset, pyramid: tuple[Die, ...]) -> Chances:
    return _whole_chances(race.roll_chances, ruleset.dice, pyramid)

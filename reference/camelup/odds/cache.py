"""Leg odds kept by position across calls, for a caller that asks about many positions (a solver
weighing the actions of one game, a tool asking again about a position it has seen).

The cache is an object the caller makes and passes around; the library keeps no state between
calls. An answer is kept under the position it answers (rule set, track, tiles, dice in the
pyramid, dice revealed) *and the rules in force*: every name bound in every module of
:mod:`camelup.rules` when it was computed. A rule patched in its module (a test's monkeypatch, a
mutant) is another set of rules, so it never gets an answer computed under the real ones, and
the real rules get theirs back once the patch is undone.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Hashable
from types import ModuleType

import camelup.rules
from camelup.model.state import State, Tile
from camelup.odds.exact import LegOdds, leg_odds

__all__ = ["OddsCache"]


def _rule_modules() -> tuple[ModuleType, ...]:
    return tuple(
        importlib.import_module(f"{camelup.rules.__name__}.{found.name}")
        for found in pkgutil.iter_modules(camelup.rules.__path__)
    )


class OddsCache:
    """:func:`camelup.odds.exact.leg_odds` answers kept by position and by the rules in force.

    ``leg_odds(state, tiles)`` answers as the function does; a position asked about again under
    the same rules costs a lookup. The answers are shared: do not change their mappings.
    ``hits`` and ``misses`` count the lookups.
    """

    def __init__(self) -> None:
        self._modules = _rule_modules()
        # the ids of the bound names -> (those objects, kept alive so that no id is reused while
        # its answers are kept; the answers by position)
        self._by_rules: dict[tuple[int, ...], tuple[tuple[object, ...], dict[Hashable, LegOdds]]]
        self._by_rules = {}
        self.hits = self.misses = 0

    def _rules_in_force(self) -> dict[Hashable, LegOdds]:
        bound = tuple(value for module in self._modules for value in vars(module).values())
        key = tuple(map(id, bound))
        found = self._by_rules.get(key)
        if found is None:
            found = self._by_rules[key] = (bound, {})
        return found[1]

    def leg_odds(self, state: State, tiles: tuple[Tile, ...] | None = None) -> LegOdds:
        """:func:`~camelup.odds.exact.leg_odds` of ``state`` (with ``tiles`` instead of its
        tiles, if given), computed once per position and rules in force."""
        on_track = state.tiles if tiles is None else tiles
        position = (state.ruleset, state.track, on_track, state.pyramid, len(state.revealed))
        answers = self._rules_in_force()
        found = answers.get(position)
        if found is None:
            self.misses += 1
            found = answers[position] = leg_odds(state, on_track)
        else:
            self.hits += 1
        return found

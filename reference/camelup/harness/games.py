"""Random games played by the reference engine, for ``camelup conformance generate`` and
``camelup conformance fuzz``.

A game is a ruleset, the setup inputs and a list of legal actions, every die roll written out,
ending when the race ends. Everything is drawn from the ``random.Random`` passed in, so a seed
gives the same game on every run and every platform (only integer draws, ``choice`` and
``random`` are used; the engine lists legal actions in a fixed order).

The turns mix every kind of action: with probability ``pyramid_share`` the pyramid action (a die
still in the pyramid, a face, for the grey die a colour, all uniformly), otherwise a kind of
action drawn uniformly among the other kinds the player may take (leg ticket, tile, finish card,
partnership) and then one action of that kind. With ``partnerships=False`` no partnership is
ever formed (for an engine that plays 6-8 players without partnership cards); the draws are
otherwise the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import attrs

from camelup.io.codec import action_from_json
from camelup.model.actions import Action, FormPartnership, TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, Die
from camelup.model.dice import DieRoll
from camelup.model.errors import CamelUpError
from camelup.model.ruleset import PLAYER_COUNTS, Edition, Module, Ruleset, Variant
from camelup.model.state import State
from camelup.play.engine import apply, legal_actions
from camelup.rules.setup import Setup, new_game, random_setup

PYRAMID_SHARE = 0.45
MAX_STEPS = 2000  # a safety net: a game ends after about 15 to 30 pyramid actions


@attrs.frozen
class RulesetConfig:
    """A named family of rulesets: an edition, its modules and variants, and player counts.

    ``generated`` lists the player count of each recorded game (``generate``), ``players`` every
    player count the fuzzer may draw; ``seeds`` are the seeds of the recorded games.
    """

    name: str
    edition: Edition
    modules: frozenset[Module]
    variants: frozenset[Variant]
    players: tuple[int, ...]
    generated: tuple[int, ...]
    seeds: tuple[int, ...]

    def ruleset(self, players: int) -> Ruleset:
        return Ruleset(self.edition, players, self.modules, self.variants)

    def names(self) -> set[str]:
        """What ``--ruleset NAME`` may name to select this family."""
        return {
            self.name,
            self.edition.value,
            *(m.value for m in self.modules),
            *(v.value for v in self.variants),
        }


_WW = frozenset({Module.WHIRLWIND})
_NONE: frozenset[Variant] = frozenset()
_FIRST = tuple(PLAYER_COUNTS[Edition.FIRST])
_SECOND = tuple(PLAYER_COUNTS[Edition.SECOND])

CONFIGS: tuple[RulesetConfig, ...] = (
    RulesetConfig("first", Edition.FIRST, frozenset(), _NONE, _FIRST, (2, 4, 5, 8), (1, 2, 3, 4)),
    RulesetConfig(
        "second", Edition.SECOND, frozenset(), _NONE, (3, 4, 5), (3, 4, 5, 4), (11, 12, 13, 14)
    ),
    RulesetConfig(
        "first-whirlwind", Edition.FIRST, _WW, _NONE, _FIRST, (3, 4, 2, 6), (21, 22, 23, 24)
    ),
    RulesetConfig(
        "second-whirlwind",
        Edition.SECOND,
        _WW,
        frozenset({Variant.WHIRLWIND_SECOND_EDITION}),
        _SECOND,
        (4, 3, 5, 6),
        (31, 32, 33, 34),
    ),
    RulesetConfig(  # 6 or more players: partnerships (spec chapter 13)
        "second-partnerships",
        Edition.SECOND,
        frozenset(),
        _NONE,
        (6, 7, 8),
        (6, 6, 7, 8),
        (41, 42, 43, 44),
    ),
    RulesetConfig(
        "first-start-marker-rotates",
        Edition.FIRST,
        frozenset(),
        frozenset({Variant.START_MARKER_ROTATES}),
        _FIRST,
        (3, 4, 5, 2),
        (51, 52, 53, 54),
    ),
    RulesetConfig(
        "second-crazy-finish-needs-racing",
        Edition.SECOND,
        frozenset(),
        frozenset({Variant.CRAZY_FINISH_NEEDS_RACING}),
        _SECOND,
        (3, 4, 5, 4),
        (61, 62, 63, 64),
    ),
    RulesetConfig(
        "second-final-scoring-net",
        Edition.SECOND,
        frozenset(),
        frozenset({Variant.FINAL_SCORING_NET}),
        _SECOND,
        (5, 4, 3, 5),
        (71, 72, 73, 74),
    ),
    RulesetConfig(
        "first-tile-move-old-space-blocks",
        Edition.FIRST,
        frozenset(),
        frozenset({Variant.TILE_MOVE_OLD_SPACE_BLOCKS}),
        _FIRST,
        (4, 3, 6, 2),
        (81, 82, 83, 84),
    ),
)
"""Every ruleset family ``generate`` records (one file each) and ``fuzz`` draws from."""


@attrs.frozen
class Game:
    """A ruleset, the setup inputs and the actions, each legal when it is taken."""

    ruleset: Ruleset
    setup: Setup
    actions: tuple[Action, ...]


def random_action(
    state: State,
    rng: random.Random,
    pyramid_share: float = PYRAMID_SHARE,
    partnerships: bool = True,
) -> Action:
    """A legal action for the player to move, drawn as the module docstring says."""
    seat = state.to_move
    if rng.random() < pyramid_share:
        return _pyramid(state, rng)
    kinds: dict[type, list[Action]] = {}
    for action in legal_actions(state):
        if type(action) is not TakePyramidTicket and (
            partnerships or type(action) is not FormPartnership
        ):
            kinds.setdefault(type(action), []).append(action)
    if not kinds:
        return _pyramid(state, rng)
    group = kinds[rng.choice(list(kinds))]
    chosen = rng.choice(group)
    assert chosen.player == seat
    return chosen


def _pyramid(state: State, rng: random.Random) -> TakePyramidTicket:
    die = rng.choice(state.pyramid)
    value = rng.randint(1, 3)
    colour = rng.choice(CRAZY_CAMELS) if die is Die.GREY else None
    return TakePyramidTicket(state.to_move, DieRoll(die, value, colour))


def random_game(
    ruleset: Ruleset,
    rng: random.Random,
    pyramid_share: float = PYRAMID_SHARE,
    partnerships: bool = True,
) -> Game:
    """A whole game from a random setup to the end of the race (no partnership formed unless
    ``partnerships``)."""
    setup = random_setup(ruleset, rng)
    state = new_game(ruleset, setup)
    actions: list[Action] = []
    while state.result is None and len(actions) < MAX_STEPS:
        action = random_action(state, rng, pyramid_share, partnerships)
        state = apply(state, action).state
        actions.append(action)
    return Game(ruleset, setup, tuple(actions))


def states(game: Game) -> list[State]:
    """The position before the first action and after each action (all must be legal)."""
    state = new_game(game.ruleset, game.setup)
    out = [state]
    for action in game.actions:
        state = apply(state, action).state
        out.append(state)
    return out


def relegalise(start: State, actions: Iterable[Any]) -> list[dict[str, Any]]:
    """Replay JSON ``actions`` from ``start``: each is given to the player to move, and an action
    the reference then rejects is dropped. Returns the kept actions (JSON)."""
    state = start
    kept: list[dict[str, Any]] = []
    for raw in actions:
        if state.result is not None:
            break
        candidate = dict(raw)
        candidate["player"] = state.to_move
        if (
            candidate.get("type") == "form_partnership"
            and candidate.get("partner") == state.to_move
        ):
            continue
        try:
            state = apply(state, action_from_json(candidate)).state
        except CamelUpError:
            continue
        kept.append(candidate)
    return kept

"""Hypothesis strategies for camelup: rulesets, setups, reachable states and actions.

This module is for *testing* code that uses camelup (or camelup itself). It imports
`hypothesis <https://hypothesis.readthedocs.io>`_, which is not a dependency of camelup:
install it yourself, or the ``test`` extra (``pip install 'camelup[test]'``). ``import camelup``
never imports this module.

- :func:`rulesets`: every valid combination of edition, player count, module and variants.
- :func:`setups`: the setup inputs of a ruleset (start rolls, stacking order, start player, ...).
- :func:`states`: states reachable by play from a random setup.
- :func:`a_legal_action`, :func:`a_chance_outcome`: one of the engine's legal actions or die rolls.
- :func:`invalid_actions`: well-typed actions the engine must refuse in a state.
- :func:`actions`: well-typed actions with values near the valid ranges, legal or not.

>>> from hypothesis import given
>>> from camelup import apply
>>> @given(data=st.data())
... def test_every_legal_action_is_accepted(data: st.DataObject) -> None:
...     state = data.draw(states(max_steps=20))
...     if not state.is_over:
...         apply(state, data.draw(a_legal_action(state)))
>>> test_every_legal_action_is_accepted()
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import TypeVar

import attrs
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from camelup.model.actions import (
    Action,
    FormPartnership,
    MoveTile,
    PlaceFinishCard,
    PlaceTile,
    TakeLegTicket,
    TakePyramidTicket,
)
from camelup.model.camels import CRAZY_CAMELS, DIE_OF_CAMEL, Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.errors import InvalidRuleset
from camelup.model.ruleset import Edition, Module, Ruleset, Variant
from camelup.model.state import Pile, State, TileSide
from camelup.play import engine
from camelup.rules import betting, movement, partnership, tiles  # called through: see engine.py
from camelup.rules.setup import Setup, new_game

__all__ = [
    "a_chance_outcome",
    "a_legal_action",
    "actions",
    "all_rulesets",
    "invalid_actions",
    "rulesets",
    "setups",
    "states",
]

_T = TypeVar("_T")

_FACES = (1, 2, 3)
_BAD_FACES = (-1, 0, 4, 6, 7, 2**31)


def _subsets(items: Iterable[_T]) -> list[frozenset[_T]]:
    pool = list(items)
    return [
        frozenset(combo)
        for size in range(len(pool) + 1)
        for combo in itertools.combinations(pool, size)
    ]


@functools.cache
def all_rulesets() -> tuple[Ruleset, ...]:
    """Every ruleset the :class:`~camelup.Ruleset` constructor accepts, simplest first.

    Nothing is listed by hand: every edition, player count from 0 to 12, set of modules and set
    of variants is tried, and whatever ``Ruleset`` (which reads the variant definitions of the
    rulings register) refuses is left out.

    >>> rulesets = all_rulesets()
    >>> rulesets[0]
    Ruleset(edition=<Edition.FIRST: 'first'>, players=2, modules=frozenset(), variants=frozenset())
    >>> sorted({r.players for r in rulesets if r.edition is Edition.SECOND})
    [3, 4, 5, 6, 7, 8]
    """
    found: list[Ruleset] = []
    for edition in Edition:
        for players in range(13):
            for modules in _subsets(Module):
                for variants in _subsets(Variant):
                    try:
                        found.append(Ruleset(edition, players, modules, variants))
                    except InvalidRuleset:
                        continue
    editions = list(Edition)
    found.sort(
        key=lambda r: (
            len(r.variants),
            len(r.modules),
            editions.index(r.edition),
            r.players,
            sorted(v.value for v in r.variants),
        )
    )
    return tuple(found)


def rulesets(
    *,
    edition: Edition | None = None,
    players: int | range | None = None,
    whirlwind: bool | None = None,
    partnerships: bool | None = None,
    variants: Iterable[Variant] | None = None,
    including: Iterable[Variant] = (),
) -> st.SearchStrategy[Ruleset]:
    """Valid rulesets (see :func:`all_rulesets`), optionally narrowed down.

    ``edition``, ``players`` (a count or a range), ``whirlwind`` (module in play or not) and
    ``partnerships`` (2nd edition with 6+ players or not) keep the matching rulesets;
    ``variants`` keeps those with exactly these variants, ``including`` those with at least
    these. Shrinks towards the first edition, two players, no module and no variant.

    >>> from hypothesis import find
    >>> find(rulesets(), lambda r: r.partnerships).players
    6
    >>> find(rulesets(including=[Variant.WHIRLWIND_SECOND_EDITION]), lambda r: True).modules
    frozenset({<Module.WHIRLWIND: 'whirlwind'>})
    """
    exact = None if variants is None else frozenset(variants)
    required = frozenset(including)
    counts = range(players, players + 1) if isinstance(players, int) else players
    chosen = [
        r
        for r in all_rulesets()
        if (edition is None or r.edition is edition)
        and (counts is None or r.players in counts)
        and (whirlwind is None or r.whirlwind is whirlwind)
        and (partnerships is None or r.partnerships is partnerships)
        and (exact is None or r.variants == exact)
        and required <= r.variants
    ]
    if not chosen:
        raise InvalidArgument("rulesets(): no valid ruleset matches these arguments")
    return st.sampled_from(chosen)


@st.composite
def setups(draw: st.DrawFn, ruleset: Ruleset) -> Setup:
    """Setup inputs for ``ruleset``: every value :func:`camelup.new_game` accepts.

    One roll of 1-3 per racing camel, any stacking order, any start player and, in the 2nd
    edition, two grey-die rolls and the crazy camel placed first.

    >>> from hypothesis import find
    >>> from camelup import new_game
    >>> ruleset = Ruleset(Edition.FIRST, 3)
    >>> setup = find(setups(ruleset), lambda s: all(r.value == 3 for r in s.racing_rolls))
    >>> [space for space, _ in new_game(ruleset, setup).occupied()]
    [3]
    """
    racing = ruleset.racing_camels
    values = draw(st.lists(st.sampled_from(_FACES), min_size=len(racing), max_size=len(racing)))
    rolls = tuple(DieRoll(DIE_OF_CAMEL[c], v) for c, v in zip(racing, values, strict=True))
    stacking = tuple(draw(st.permutations(racing)))
    start = draw(st.integers(0, ruleset.players - 1))
    if ruleset.edition is Edition.FIRST:
        return Setup(rolls, stacking, start)
    crazy = tuple(
        DieRoll(Die.GREY, draw(st.sampled_from(_FACES)), draw(st.sampled_from(CRAZY_CAMELS)))
        for _ in range(2)
    )
    return Setup(rolls, stacking, start, crazy, draw(st.sampled_from(CRAZY_CAMELS)))


@st.composite
def states(
    draw: st.DrawFn,
    ruleset: Ruleset | st.SearchStrategy[Ruleset] | None = None,
    max_steps: int = 100,
) -> State:
    """A state reached from a random setup by up to ``max_steps`` legal actions.

    ``ruleset`` is a ruleset, a strategy of rulesets or None (any ruleset). Each step is,
    about half the time, the pyramid action with a roll from :func:`a_chance_outcome`, and
    otherwise any action of :func:`a_legal_action`; play stops early when the race ends, so
    finished games are among the states too.

    >>> from hypothesis import given, settings
    >>> @settings(max_examples=10)
    ... @given(states(Ruleset(Edition.SECOND, 4), max_steps=30))
    ... def test_six_dice(state: State) -> None:
    ...     assert len(state.pyramid) + len(state.revealed) == 6
    >>> test_six_dice()
    """
    if max_steps < 0:
        raise InvalidArgument(f"states(): max_steps={max_steps} must not be negative")
    if ruleset is None:
        ruleset = rulesets()
    rules = draw(ruleset) if isinstance(ruleset, st.SearchStrategy) else ruleset
    state = new_game(rules, draw(setups(rules)))
    for _ in range(draw(st.integers(0, max_steps))):
        if state.is_over:
            break
        # a coin rather than st.one_of(...) of two strategies built afresh at every step, whose
        # validation cost hypothesis ten times the step itself; False (the pyramid, as one_of's
        # first branch) is where it shrinks to
        action: Action
        if draw(st.booleans()):
            action = _draw_one_of(draw, engine.legal_actions(state))
        else:
            action = TakePyramidTicket(state.to_move, _draw_chance_outcome(draw, state))
        state = engine.apply(state, action).state
    return state


def a_legal_action(state: State) -> st.SearchStrategy[Action]:
    """One of ``camelup.legal_actions(state)``; nothing at all once the race is over.

    Tile actions are most of the list, so the pyramid action comes up less than in real play;
    draw from :func:`a_chance_outcome` to take it more often.

    >>> from hypothesis import find
    >>> from camelup import PlaceFinishCard, new_game
    >>> ruleset = Ruleset(Edition.FIRST, 2)
    >>> state = new_game(ruleset, find(setups(ruleset), lambda s: True))
    >>> type(find(a_legal_action(state), lambda a: isinstance(a, PlaceFinishCard))).__name__
    'PlaceFinishCard'
    """
    return _sampled(engine.legal_actions(state))


@st.composite
def a_chance_outcome(draw: st.DrawFn, state: State) -> DieRoll:
    """A die roll the pyramid action can produce in ``state``: a die still in the pyramid, each
    equally likely, then one of its faces (shrinks to the first die showing 1).

    Every roll is one of ``camelup.chance_outcomes(state)``, whose exact probabilities are
    left to the engine; nothing is drawn once the race is over.

    >>> from hypothesis import find
    >>> from camelup import new_game
    >>> ruleset = Ruleset(Edition.SECOND, 3)
    >>> state = new_game(ruleset, find(setups(ruleset), lambda s: True))
    >>> find(a_chance_outcome(state), lambda roll: roll.die is Die.GREY)
    DieRoll(Die.GREY, 1, Camel.CRAZY_WHITE)
    """
    return _draw_chance_outcome(draw, state)


def _draw_chance_outcome(draw: st.DrawFn, state: State) -> DieRoll:
    outcomes = [roll for roll, _ in engine.chance_outcomes(state)]
    dice = list(dict.fromkeys(roll.die for roll in outcomes))
    die = _draw_one_of(draw, dice)
    return _draw_one_of(draw, [roll for roll in outcomes if roll.die is die])


def _draw_one_of(draw: st.DrawFn, pool: Sequence[_T]) -> _T:
    """What ``draw(_sampled(pool))`` draws, from the same choice (an index into ``pool``, which
    shrinks to the first item), but through one strategy per length of pool: a strategy built
    afresh for every pool is validated and labelled by hashing every item, which cost the games
    of :func:`states` more than playing them."""
    if not pool:
        draw(st.nothing())
    return pool[draw(_indices(len(pool)))]


@functools.cache
def _indices(length: int) -> st.SearchStrategy[int]:
    return st.sampled_from(range(length))


def actions(ruleset: Ruleset) -> st.SearchStrategy[Action]:
    """Actions of every type with values near the valid ranges, legal or not: seats from -1 to
    ``players``, any camel, spaces from -3 to 20, any tile side and pile, any die with faces
    from -1 to 7 and any or no colour. For checking that ``apply`` accepts exactly
    ``legal_actions``.

    >>> from hypothesis import find
    >>> find(actions(Ruleset(Edition.FIRST, 2)), lambda a: isinstance(a, TakeLegTicket))
    TakeLegTicket(player=0, camel=Camel.BLUE)
    """
    seats = st.integers(-1, ruleset.players)
    camels = st.sampled_from(list(Camel))
    spaces = st.integers(-3, 20)
    sides = st.sampled_from(list(TileSide))
    rolls = st.builds(
        DieRoll,
        st.sampled_from(list(Die)),
        st.integers(-1, 7),
        st.one_of(st.none(), st.sampled_from(list(Camel))),
    )
    return st.one_of(
        st.builds(TakeLegTicket, seats, camels),
        st.builds(PlaceTile, seats, spaces, sides),
        st.builds(MoveTile, seats, spaces, sides),
        st.builds(TakePyramidTicket, seats, rolls),
        st.builds(PlaceFinishCard, seats, camels, st.sampled_from(list(Pile))),
        st.builds(FormPartnership, seats, seats),
    )


def invalid_actions(state: State) -> st.SearchStrategy[Action]:
    """Well-typed actions that ``apply`` must refuse in ``state`` (with an IllegalAction).

    Each kind of mistake is about equally likely: another seat than the one to move; a leg
    ticket of an empty stack or of a camel without tickets; the tile placed when it is already
    on the track, or moved when it is not; a tile on a space the rules forbid (off the track,
    space 1, a whirlwind space, a camel's space, a tile's space or next to another player's
    tile, its own space, the wrong side); a finish card not in hand; a die not in the pyramid
    or showing a face it does not have; a partnership nobody can enter. Once the race is over
    every action is invalid. Which actions are invalid is decided by the rules' own predicates
    (the ones ``apply`` and ``legal_actions`` call), so a rule is never written a second time
    here; what this strategy adds is the choice of candidates near each rule's boundary.

    >>> from hypothesis import find
    >>> from camelup import new_game
    >>> ruleset = Ruleset(Edition.FIRST, 2)
    >>> state = new_game(ruleset, find(setups(ruleset), lambda s: True))
    >>> action = find(invalid_actions(state), lambda a: isinstance(a, TakePyramidTicket))
    >>> action.roll
    DieRoll(Die.RED, 1)
    >>> from camelup import IllegalAction, apply
    >>> try:
    ...     apply(state, action)
    ... except IllegalAction as error:
    ...     print(error.code, error.clause)
    die-not-in-pyramid move.die.stays-out
    """
    if state.is_over:
        return actions(state.ruleset)
    others = [s for s in range(-2, state.ruleset.players + 2) if s != state.to_move]
    wrong_seat = st.builds(
        lambda action, other: attrs.evolve(action, player=other),
        a_legal_action(state),
        st.sampled_from(others),
    )
    kinds = invalid_action_kinds(state)
    return st.one_of(wrong_seat, *(st.sampled_from(kind) for kind in kinds if kind))


def invalid_action_kinds(state: State) -> list[list[Action]]:
    """The candidates of :func:`invalid_actions` by the rule they break, for the seat to move
    in a state whose race goes on (each list may be empty)."""
    ruleset, seat = state.ruleset, state.to_move
    racing = ruleset.racing_camels
    own_tile = state.tile_of(seat)
    tile_action = PlaceTile if own_tile is None else MoveTile
    wrong_tile_action = MoveTile if own_tile is None else PlaceTile
    racing_dice = [DIE_OF_CAMEL[c] for c in racing]
    dice = racing_dice + ([Die.GREY] if ruleset.edition is Edition.SECOND else [])

    def rolls_of(die: Die) -> list[DieRoll]:
        if die is Die.GREY:
            return [DieRoll(die, v, c) for v in _FACES for c in CRAZY_CAMELS]
        return [DieRoll(die, v) for v in _FACES]

    bad_faces = [
        DieRoll(d, v, CRAZY_CAMELS[0] if d is Die.GREY else None) for d in dice for v in _BAD_FACES
    ]
    bad_faces += [DieRoll(Die.GREY, v, c) for v in _FACES for c in (None, *racing)]
    bad_faces += [DieRoll(d, v, c) for d in racing_dice for v in _FACES for c in Camel]
    kinds: list[list[Action]] = [
        [TakeLegTicket(seat, c) for c in Camel if betting.leg_ticket_problem(state, c) is not None],
        [wrong_tile_action(seat, space, side) for space in range(-1, 19) for side in TileSide],
        [
            tile_action(seat, space, side)
            for space in range(-3, 21)
            for side in TileSide
            if tiles.tile_space_problem(state, seat, space, side) is not None
        ],
        [
            PlaceFinishCard(seat, c, pile)
            for c in Camel
            if betting.finish_card_problem(state, seat, c) is not None
            for pile in Pile
        ],
        [
            TakePyramidTicket(seat, roll)
            for die in Die
            if die not in state.pyramid
            for roll in rolls_of(die)
        ],
        [
            TakePyramidTicket(seat, roll)
            for roll in bad_faces
            if roll.die in state.pyramid and movement.roll_problem(state.pyramid, roll) is not None
        ],
        [
            FormPartnership(seat, other)
            for other in range(-1, ruleset.players + 1)
            if partnership.partnership_problem(state, seat, other) is not None
        ],
    ]
    return kinds


def _sampled(values: Iterable[_T]) -> st.SearchStrategy[_T]:
    """``sampled_from`` that draws nothing from an empty list (rather than raising)."""
    pool = list(values)
    return st.sampled_from(pool) if pool else st.nothing()

"""Exact leg odds and the values of actions, computed with the engine's own rule code.

The model
---------
From a position, only the pyramid action is played, with the chances of the chance rule
(``move.pyramid.chance``, :func:`camelup.rules.race.roll_chances`, which ``chance_outcomes``
gives too): every die left in the pyramid is equally likely to come out, a racing die shows 1, 2
or 3 with probability 1/3 each and the grey die each of its six faces (1, 2, 3 in white or
black) with probability 1/6.
Dice come out until the edition's leg end (``leg.end.first``, ``leg.end.second``: five dice) or
until a unit crosses the finish line (``end.crossing.*``), whichever comes first. Nobody bets,
places a tile or moves one meanwhile. Who takes each pyramid ticket changes nothing in this
model, because the dice come out in a uniformly random order whoever draws them.

Each die is revealed by the race kernel :func:`camelup.rules.race.reveal`, the function
``apply`` uses for the pyramid action, or by its two halves, on a bare list-of-stacks track: no
``State``, ``Player`` or event is built. The die's camel is lifted off a track once
(:func:`camelup.rules.race.lift_mover`) and moved for each of its numbers
(:func:`camelup.rules.movement.move_camel_unit`). For the grey die the crazy-camel rule
(:func:`camelup.rules.crazy.choose_crazy_camel`) is asked once per track and colour and its
answer handed to the kernel for the three numbers of that colour; when both colours move the
same camel (a crazy-camel exception), the two faces of each number are one move of weight two.
Rankings are the ranking rule's (:func:`camelup.rules.ranking.ranking`), ticket rewards the
leg-scoring rule's (:func:`camelup.rules.leg.ticket_reward`). Every rule is looked up in its
module when the odds are asked for, so a patched rule changes the odds as it changes ``apply``.

Exactness
---------
:func:`leg_odds` enumerates every outcome sequence, merging equal positions (the track and the
dice left) level by level, and weighs them with whole numbers: with ``n`` dice in the pyramid a
step has ``n × m`` equally likely faces (``m`` = 6 when the ruleset has the grey die, else 3), a
racing face counting ``m / 3`` of them and a grey face one (the whole numbers are worked out
from the chance rule's fractions: :mod:`camelup.odds.chances`). Every figure is a whole-number
weight over :attr:`LegOdds.total_weight`, the product of ``n × m`` over the leg's steps, so that a
sequence ending the race early weighs as many full sequences as it cuts off; one division at the
end gives each exact :class:`~fractions.Fraction`. In the first edition a full sequence weighs 1,
so :attr:`LegOdds.total_weight` of a fresh leg is its number of sequences, 29,160.

Values of actions
-----------------
:func:`action_values` gives, for the player to move, the expected coins within the leg of every
legal action that pays within the leg, measured against the same leg played by dice alone with
the board as it is: a leg ticket's expected reward (its value, 1 or -1 by the final ranking);
the pyramid ticket's 1 EP (the dice themselves come out the same whoever draws them); a tile
placement or move with either side: the tile coins the player can expect from it minus those of
their tile where it lies now (if it is on the track), plus the change it makes to the expected
rewards of the leg tickets the player holds. Amounts are face values: the 0 floor of leg scoring
(``leg.score.net``) and partnership bonuses are left out.

Whole races are estimated by :mod:`camelup.odds.races`, on the same race kernel.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

import attrs

from camelup.model.actions import Action, MoveTile, PlaceTile, TakeLegTicket, TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.ruleset import Ruleset
from camelup.model.state import LegTicket, Player, State, Tile
from camelup.model.track import Stack
from camelup.odds.chances import chances_of
from camelup.play.engine import apply, legal_actions
from camelup.rules import crazy, leg, movement, race, ranking

__all__ = [
    "ActionValue",
    "GameOver",
    "LegOdds",
    "action_values",
    "iter_action_values",
    "leg_odds",
    "leg_odds_and_values",
]

Ranking = tuple[Camel, ...]


def _steps_left(ruleset: Ruleset, revealed: int, in_pyramid: int) -> int:
    """How many more dice the leg reveals (the leg-end rule decides), at most those left."""
    steps = 0
    while steps < in_pyramid and not leg.leg_is_over(ruleset, revealed + steps):
        steps += 1
    return steps


@attrs.frozen
class LegOdds:
    """The exact outcome of the rest of the leg (or of the race, if it ends first).

    Every ``*_weight`` figure is a whole number of units of ``1 / total_weight``.
    ``place_weights[i][k]`` is the weight of racing camel ``camels[i]`` being in place ``k + 1``
    at the end; ``final_rankings`` maps each possible final ranking (first to last) to its
    weight; ``tile_weights`` maps each tile owner to the weight of their expected tile coins (1
    EP per landing); ``sequences`` counts the distinct outcome sequences (the perft) and
    ``race_end_sequences`` those that end the race.
    """

    camels: tuple[Camel, ...]
    total_weight: int
    place_weights: tuple[tuple[int, ...], ...]
    race_end_weight: int
    final_rankings: Mapping[Ranking, int]
    tile_weights: Mapping[int, int]
    sequences: int
    race_end_sequences: int
    steps: int

    def place(self, camel: Camel, place: int) -> Fraction:
        """The probability that ``camel`` is in ``place`` (1 = first) at the end."""
        return Fraction(self.place_weights[self.camels.index(camel)][place - 1], self.total_weight)

    def places(self) -> dict[Camel, tuple[Fraction, ...]]:
        """Each racing camel's probability of each place, first to last."""
        return {
            camel: tuple(Fraction(w, self.total_weight) for w in row)
            for camel, row in zip(self.camels, self.place_weights, strict=True)
        }

    @property
    def race_end(self) -> Fraction:
        """The probability that the race ends within this leg."""
        return Fraction(self.race_end_weight, self.total_weight)

    def tile_coins(self, owner: int) -> Fraction:
        """The expected coins that ``owner``'s tile earns within the leg."""
        return Fraction(self.tile_weights.get(owner, 0), self.total_weight)

    def ticket_value(self, ticket: LegTicket) -> Fraction:
        """The expected reward of ``ticket`` at this leg's scoring (``leg.score.*``)."""
        total = 0
        for ranked, weight in self.final_rankings.items():
            total += weight * leg.ticket_reward(ticket, ranked[0], ranked[1])
        return Fraction(total, self.total_weight)


# One move of a die on a track: the face weight it counts, the outcome sequences it stands for,
# what the kernel says the move did, the track after it (in the move source's terms), and the
# roll that made it (for the grey die, the first of the two rolls it stands for).
_Step = tuple[int, int, movement.Moved, Any, DieRoll]
# A die's unit lifted off a track, by the colour of the roll (None for a racing die): a copy of
# the track without the unit, the camel, the space it stood on and the unit (race.lift_mover).
_Lifts = dict[Camel | None, tuple[list[Stack], Camel, int, Stack]]


class _Moves(Protocol):
    def __call__(self, here: Any, die: Die, lifts: _Lifts | None = None, /) -> Sequence[_Step]:
        """The moves of ``die`` from ``here``; the lifts made for them go to ``lifts`` when
        given (the kernel's sources), for a caller that makes some of them again with other
        tiles."""
        ...


@attrs.frozen
class _MoveSource:
    """Where the enumeration gets the moves of a die on a track.

    ``moves(here, die)`` lists them; a track is whatever the source likes (a tuple of stacks, a
    number). ``position`` turns a track after a move into the key under which equal positions
    merge (None: the track is its own key); ``rank`` gives its ranking (``rank.*``).
    """

    moves: _Moves
    position: Callable[[Any], Hashable] | None
    rank: Callable[[Any], Ranking]


def _kernel_moves(ruleset: Ruleset, tiles: tuple[Tile, ...]) -> _MoveSource:
    """The moves of a die on a track, as the race kernel makes them with ``tiles`` on the track.

    A die's camel and its unit are the same for each of its numbers, so each is lifted once
    (:func:`camelup.rules.race.lift_mover`) and moved per number
    (:func:`camelup.rules.movement.move_camel_unit`). For the grey die the crazy-camel rule is
    asked once per colour (it is given the colour, not the number, and the colour reaches no
    other rule); when both colours move the same camel, the faces of each number are one move
    whose weight is theirs together. The faces' weights are the chance rule's
    (:func:`camelup.rules.race.roll_chances`). Every rule is looked up when the source is made,
    so a patched rule changes the odds as it changes ``apply``.
    """
    rolls = chances_of(ruleset, ()).rolls
    # a racing die's faces but the last, and the last (which moves the lifted track itself)
    racing: dict[Die, tuple[tuple[tuple[DieRoll, int], ...], tuple[DieRoll, int]]] = {
        die: (found[:-1], found[-1]) for die, found in rolls.items() if die is not Die.GREY
    }
    white, black = CRAZY_CAMELS
    grey_rolls = rolls.get(Die.GREY, ())
    # the grey die's moves by colour (weight, sequences, roll), and both colours' moves when
    # they move the same camel: one per number, with the weights of its faces together
    by_white = tuple((w, 1, r) for r, w in grey_rolls if r.colour is white)
    by_black = tuple((w, 1, r) for r, w in grey_rolls if r.colour is black)
    together: dict[int, tuple[int, int, DieRoll]] = {}
    for weight, times, roll in by_white + by_black:
        was = together.get(roll.value, (0, 0, roll))
        together[roll.value] = (was[0] + weight, was[1] + times, was[2])
    by_both = tuple(together.values())
    choose, lift, move = crazy.choose_crazy_camel, race.lift_mover, movement.move_camel_unit
    grey = Die.GREY

    def lift_and_move(
        here: tuple[Stack, ...],
        faces: tuple[tuple[int, int, DieRoll], ...],
        chosen: tuple[Camel, str],
        steps: list[_Step],
        lifts: _Lifts | None,
    ) -> list[_Step]:
        if not faces:  # a colour the chance rule never shows
            return steps
        lifted = list(here)
        camel, origin, unit = lift(lifted, faces[0][2], chosen)
        if lifts is not None:
            lifted_again = (lifted.copy(), camel, origin, unit)
            for _, _, roll in faces:
                lifts[roll.colour] = lifted_again
        for weight, times, roll in faces:
            moved = lifted.copy()
            outcome = move(moved, tiles, ruleset, camel, origin, unit, roll.value)
            steps.append((weight, times, outcome, moved, roll))
        return steps

    def moves(here: tuple[Stack, ...], die: Die, lifts: _Lifts | None = None) -> list[_Step]:
        steps: list[_Step] = []
        if die is not grey:  # five dice in six are racing: lift_and_move's loop, written out
            faces, (last, last_weight) = racing[die]
            lifted = list(here)
            camel, origin, unit = lift(lifted, last, None)
            if lifts is not None:
                lifts[None] = (lifted.copy(), camel, origin, unit)
            for roll, weight in faces:
                moved = lifted.copy()
                outcome = move(moved, tiles, ruleset, camel, origin, unit, roll.value)
                steps.append((weight, 1, outcome, moved, roll))
            # the last face moves the lifted track itself: no other move needs it after
            outcome = move(lifted, tiles, ruleset, camel, origin, unit, last.value)
            steps.append((last_weight, 1, outcome, lifted, last))
            return steps
        white_moves, black_moves = choose(here, white), choose(here, black)
        if white_moves[0] is black_moves[0]:  # the faces of each number make the same move
            return lift_and_move(here, by_both, white_moves, steps, lifts)
        lift_and_move(here, by_white, white_moves, steps, lifts)
        return lift_and_move(here, by_black, black_moves, steps, lifts)

    return _MoveSource(moves, tuple, ranking.ranking)


class _SharedMoves:
    """The moves with ``tiles`` (none by default) on the track, made once per (track, die) and
    kept for every layout of one search that adds tiles to them; tracks are numbered, so that
    positions are keyed by small numbers."""

    def __init__(self, ruleset: Ruleset, tiles: tuple[Tile, ...] = ()) -> None:
        self.ruleset, self.tiles = ruleset, tiles
        self.bare = _kernel_moves(ruleset, tiles)
        self.ids: dict[tuple[Stack, ...], int] = {}
        self.tracks: list[tuple[Stack, ...]] = []
        self.rankings: dict[int, Ranking] = {}
        self.kept: dict[tuple[int, Die], tuple[Sequence[_Step], frozenset[int]]] = {}
        self.kept_steps: dict[tuple[int, Die], Sequence[_Step]] = {}

    def number(self, track: tuple[Stack, ...]) -> int:
        found = self.ids.get(track)
        if found is None:
            found = self.ids[track] = len(self.tracks)
            self.tracks.append(track)
        return found

    def numbered(self, steps: Sequence[_Step]) -> list[_Step]:
        ids, tracks, numbered = self.ids, self.tracks, []
        for weight, times, moved, after, roll in steps:  # number()'s lookup, written out
            track = tuple(after)
            found = ids.get(track)
            if found is None:
                found = ids[track] = len(tracks)
                tracks.append(track)
            numbered.append((weight, times, moved, found, roll))
        return numbered

    def rank(self, track: int) -> Ranking:
        found = self.rankings.get(track)
        if found is None:
            found = self.rankings[track] = self.bare.rank(self.tracks[track])
        return found

    def moves_from(self, here: int, die: Die, lifts: _Lifts | None = None) -> Sequence[_Step]:
        """The kept moves of ``die`` from track number ``here``, kept without their landings;
        when they are made here, their lifts go to ``lifts`` if given."""
        found = self.kept_steps.get((here, die))
        if found is None:
            found = self.kept_steps[here, die] = self.numbered(
                self.bare.moves(self.tracks[here], die, lifts)
            )
        return found

    def kept_moves(self, here: int, die: Die) -> tuple[Sequence[_Step], frozenset[int]]:
        """The kept moves of ``die`` from track number ``here`` and the spaces they land on."""
        found = self.kept.get((here, die))
        if found is None:
            steps = self.kept_steps.get((here, die)) or self.moves_from(here, die)
            landings = frozenset(space for step in steps for space in step[2].reached)
            found = self.kept[here, die] = (steps, landings)
        return found

    def layout(self, tiles: tuple[Tile, ...]) -> _MoveSource:
        """The moves with ``tiles`` on the track, shared with every other layout of the search.

        A tile acts only on a unit whose move ends on its space (``move.only-final-space``,
        ``tile.land.pay-owner``), so a kept move with no tile whose spaces reached
        (``Moved.reached``: the landing) hold no tile of this layout is this layout's move
        too; the moves of a die that reaches one of them are made again with the tiles. This is
        the whole of the sharing across tile layouts: the enumeration itself does not know
        about it.
        """
        tiled = _kernel_moves(self.ruleset, tiles).moves
        spaces = frozenset(tile.space for tile in tiles if tile not in self.tiles)
        kept, tracks, kept_moves = self.kept, self.tracks, self.kept_moves

        def moves(here: int, die: Die, _: _Lifts | None = None) -> Sequence[_Step]:
            found = kept.get((here, die)) or kept_moves(here, die)
            if spaces.isdisjoint(found[1]):
                return found[0]
            return self.numbered(tiled(tracks[here], die))

        return _MoveSource(moves, None, self.rank)


def _enumerate(
    ruleset: Ruleset, track: Any, pyramid: tuple[Die, ...], revealed: int, source: _MoveSource
) -> LegOdds:
    """The one enumeration of the leg: level by level, one die per level, merging equal
    positions (the track and the dice left), with the moves that ``source`` gives from
    ``track`` (a track in the source's terms)."""
    chances = chances_of(ruleset, pyramid)
    steps = _steps_left(ruleset, revealed, len(pyramid))
    # scale[k]: the weight of one unit at level k in units of 1/total (the steps after k)
    scale = chances.scale(len(pyramid), steps)
    # the dice left as a bit mask: draws[mask] = ((a die left, its weight, the mask without it),
    # ...)
    draws = chances.draws
    moves, position, rank = source.moves, source.position, source.rank
    finals: dict[Ranking, int] = {}
    finals_get = finals.get
    paid: dict[int, int] = {}
    race_end = sequences = race_end_sequences = 0
    # level[mask]: the positions with the dice of ``mask`` left, each track with its weight
    # and its number of sequences
    level: list[dict[Any, list[int]]] = [{} for _ in draws]
    level[-1][track] = [1, 1]
    if steps == 0:
        finals[rank(track)] = 1
        sequences = 1
    for k in range(steps):
        last = k + 1 == steps
        unit = scale[k + 1]
        following: list[dict[Any, list[int]]] = [{} for _ in draws]
        for mask, positions in enumerate(level):
            for here, (weight, count) in positions.items():
                if last:  # every move ends the leg: only its ranking, payment and crossing count
                    times_here = 0  # the sequences the moves from here stand for, per count
                    for die, drawn, _ in draws[mask]:
                        weighed = weight * drawn * unit
                        for face_weight, times, moved, after, _ in moves(here, die):
                            ranked = rank(after)
                            w = weighed * face_weight
                            finals[ranked] = finals_get(ranked, 0) + w
                            times_here += times
                            if moved.payments or moved.crossed:
                                for payment in moved.payments:
                                    owed = w * payment.amount
                                    paid[payment.owner] = paid.get(payment.owner, 0) + owed
                                if moved.crossed:
                                    race_end += w
                                    race_end_sequences += count * times
                    sequences += count * times_here
                    continue
                for die, drawn, rest in draws[mask]:
                    reached = following[rest]
                    weighed = weight * drawn
                    for face_weight, times, moved, after, _ in moves(here, die):
                        w = weighed * face_weight
                        c = count * times
                        if moved.payments:
                            for payment in moved.payments:
                                owed = w * unit * payment.amount
                                paid[payment.owner] = paid.get(payment.owner, 0) + owed
                        if moved.crossed:
                            ranked = rank(after)
                            finals[ranked] = finals.get(ranked, 0) + w * unit
                            sequences += c
                            race_end += w * unit
                            race_end_sequences += c
                            continue
                        # one lookup, not a get and then a store: the key hashes again each time
                        new = [w, c]
                        entry = reached.setdefault(
                            after if position is None else position(after), new
                        )
                        if entry is not new:
                            entry[0] += w
                            entry[1] += c
        level = following
    return _odds(ruleset, scale[0], finals, race_end, paid, sequences, race_end_sequences, steps)


def _odds(
    ruleset: Ruleset,
    total: int,
    finals: dict[Ranking, int],
    race_end: int,
    paid: dict[int, int],
    sequences: int,
    race_end_sequences: int,
    steps: int,
) -> LegOdds:
    camels = ruleset.racing_camels
    places = [[0] * len(camels) for _ in camels]
    for ranked, weight in finals.items():
        for place, camel in enumerate(ranked):
            places[camels.index(camel)][place] += weight
    return LegOdds(
        camels=camels,
        total_weight=total,
        place_weights=tuple(tuple(row) for row in places),
        race_end_weight=race_end,
        final_rankings=finals,
        tile_weights=paid,
        sequences=sequences,
        race_end_sequences=race_end_sequences,
        steps=steps,
    )


class GameOver(ValueError):
    """The game is over: there is no leg left to compute odds for."""


def leg_odds(state: State, tiles: tuple[Tile, ...] | None = None) -> LegOdds:
    """The exact odds of the rest of the current leg of ``state`` (see the module's model).

    ``tiles`` replaces the tiles on the track (to ask "what if this tile lay there").
    Raises :class:`GameOver` for a finished game.
    """
    if state.is_over:
        raise GameOver("the game is over: there is no leg to compute odds for")
    with _no_cycle_collection():
        source = _kernel_moves(state.ruleset, state.tiles if tiles is None else tiles)
        return _enumerate(state.ruleset, state.track, state.pyramid, len(state.revealed), source)


def _layout_odds(state: State, tiles: tuple[Tile, ...], shared: _SharedMoves) -> LegOdds:
    """:func:`leg_odds` with ``tiles`` on the track, sharing the moves that no tile of the
    layout changes with the other layouts asked about with the same ``shared``."""
    source = shared.layout(tiles)
    root = shared.number(state.track)
    with _no_cycle_collection():
        return _enumerate(state.ruleset, root, state.pyramid, len(state.revealed), source)


@contextlib.contextmanager
def _no_cycle_collection(*, settle: bool = False) -> Iterator[None]:
    """The cyclic collector kept out of an enumeration: it makes some 10^5 short-lived tuples
    and lists and no reference cycle, and the collector would only scan the growing levels again
    and again (about 5% of the time).

    With ``settle``, for a pass whose objects mostly live until it ends (the layouts' pass): the
    collector, disabled while they are made, would still scan them all once enabled again. So
    before it is enabled they go straight to its oldest generation, which only a full collection
    scans (gc.freeze, then gc.unfreeze: nothing stays frozen while the values are handed out),
    unless the process froze objects of its own, which unfreeze would thaw too."""
    collecting = gc.isenabled()
    settle = settle and collecting and gc.get_freeze_count() == 0
    gc.disable()
    try:
        yield
    finally:
        if settle:
            gc.freeze()
            gc.unfreeze()
        if collecting:
            gc.enable()


def _every_layout(
    state: State, steps: int, layouts: Sequence[tuple[Tile, ...]], with_leg: bool = False
) -> tuple[list[tuple[int, int] | None], LegOdds | None]:
    """For each of ``layouts`` that is the other players' tiles plus one of the player to
    move's (``None`` for any other): their tile coins and their held leg tickets' value with
    those tiles on the track, in whole units of ``1 / total`` as in :class:`LegOdds`.

    All the layouts are enumerated together, level by level as :func:`_enumerate` does, over
    the positions of any of them: a position carries its weight in each layout, one field of
    ``width`` bits per layout in one whole number. A tile acts only on a unit whose move ends
    on its space (``move.only-final-space``: ``Moved.reached``), so a move made without the
    player's tile (:class:`_SharedMoves`) is every layout's move except those whose tile lies
    where it lands: for them it is made again with their tiles, by the race kernel, from the
    lift that the shared move made (``_Moves``' ``lifts``). A position that only one layout
    reaches (a track its tile made) takes its moves from the kernel with that layout's tiles
    instead, none of them made twice. A field sums the weights of some of the paths to one
    level, which together weigh at most ``total``, so no field overflows into the next; the
    final rankings too, but the rankings of the moves made with a layout's tiles are weighed
    apart, per layout, in plain whole numbers.

    With ``with_leg``, when the player to move has no tile on the track (the leg as it is is
    then the leg with the other players' tiles alone), the leg's own odds (:func:`leg_odds`) come
    from the same pass: its weights are the lowest field (no layout's tile changes its moves),
    its sequences are counted beside each position; otherwise the second answer is None.
    """
    seat, ruleset = state.to_move, state.ruleset
    others = tuple(t for t in state.tiles if t.owner != seat)
    with_leg = with_leg and others == state.tiles
    shared = _SharedMoves(ruleset, others)
    chances = chances_of(ruleset, state.pyramid)
    draws = chances.draws
    scale = chances.scale(len(state.pyramid), steps)
    width = scale[0].bit_length() + 1
    field = (1 << width) - 1
    # the layouts valued here, each with its field's shift, by the space of the player's tile
    # (the lowest field is the leg's own, with_leg or not)
    on: dict[int, list[tuple[int, int, tuple[Tile, ...]]]] = {}
    ones = 1
    for number, tiles in enumerate(layouts):
        added = [t for t in tiles if t not in others]
        if len(added) == 1 and added[0].owner == seat and len(tiles) == len(others) + 1:
            on.setdefault(added[0].space, []).append((number, (number + 1) * width, tiles))
            ones |= 1 << ((number + 1) * width)
    if not on:
        return [None] * len(layouts), None
    everything = field + sum(field << shift for found in on.values() for _, shift, _ in found)
    by_field = {
        shift // width: (layout, shift, tiles, _kernel_moves(ruleset, tiles).moves)
        for found in on.values()
        for layout, shift, tiles in found
    }
    # by a move's outcome (Moved.reached: the spaces where a tile acts): the fields of the
    # layouts with no tile there, and the layouts with one (whose moves are made again); keyed
    # by identity, for the outcomes are few and shared, and attrs hashes one in Python
    keeps: dict[int, tuple[int, list[tuple[int, int, tuple[Tile, ...]]], movement.Moved]] = {}
    kept, moves_from = shared.kept_steps, shared.moves_from
    number_of, tracks = shared.number, shared.tracks
    rank, lift, move = shared.rank, race.lift_mover, movement.move_camel_unit
    bare_moves, ranks = shared.bare.moves, shared.bare.rank
    # the unit of the die drawn lifted off the track, by the colour of the roll (the grey die's
    # unit depends on it), for the moves made again with a layout's tiles: the bare moves' own
    # lifts when they are made in this pass, else made when first needed
    lifts: _Lifts = {}
    coins = [0] * len(layouts)
    # the final rankings' weights, packed as the positions' are, and those of the moves made
    # again, by layout (a small number each, where a packed one is long)
    finals: dict[Ranking, int] = {}
    finals_alone: list[dict[Ranking, int]] = [{} for _ in layouts]
    # the leg's own figures (with_leg): its tile payments, race end and sequences, and the
    # number of sequences to each position, beside ``level``
    paid: dict[int, int] = {}
    race_end = sequences = race_end_sequences = 0
    level: list[dict[int, int]] = [{} for _ in draws]
    counts: list[dict[int, int]] = [{} for _ in draws]
    level[-1][number_of(state.track)] = ones
    counts[-1][number_of(state.track)] = 1
    if steps == 0:
        finals[rank(number_of(state.track))] = ones
        sequences = 1
    for k in range(steps):
        last = k + 1 == steps
        unit = scale[k + 1]
        following: list[dict[int, int]] = [{} for _ in draws]
        counted: list[dict[int, int]] = [{} for _ in draws]
        for mask, positions in enumerate(level):
            counts_here = counts[mask]
            for here, packed in positions.items():
                top = (packed.bit_length() - 1) // width
                if top > 0 and packed >> (top * width) << (top * width) == packed:
                    # in one layout only: its moves are the kernel's with its tiles (the
                    # layouts' moves made again, below, are counted as these are; written out
                    # twice, for a function call per move costs 3% of the pass)
                    layout, shift, _, tiled_moves = by_field[top]
                    here_weight = packed >> shift
                    for die, drawn, rest in draws[mask]:
                        reached = following[rest]
                        for face_weight, _, met, moved, _ in tiled_moves(tracks[here], die):
                            weighed = here_weight * face_weight * drawn
                            for payment in met.payments:
                                if payment.owner == seat:
                                    coins[layout] += weighed * unit * payment.amount
                            if last or met.crossed:
                                ranked = ranks(moved)
                                alone = finals_alone[layout]
                                alone[ranked] = alone.get(ranked, 0) + weighed * unit
                            else:
                                track = number_of(tuple(moved))
                                reached[track] = reached.get(track, 0) + (weighed << shift)
                    continue
                # the leg's own weight here: none on a track that only a layout's tile makes
                own_weight = packed & field if with_leg else 0
                count = counts_here.get(here, 0)
                for die, drawn, rest in draws[mask]:
                    reached = following[rest]
                    counting = counted[rest]
                    lifts.clear()
                    if last:  # tracks that only get ranked: not numbered, not kept
                        moves = bare_moves(tracks[here], die, lifts)
                    else:
                        moves = kept.get((here, die)) or moves_from(here, die, lifts)
                    for face_weight, times, outcome, after, roll in moves:
                        weight = face_weight * drawn
                        if own_weight:
                            if outcome.payments or outcome.crossed:
                                own = own_weight * weight * unit
                                for payment in outcome.payments:
                                    paid[payment.owner] = (
                                        paid.get(payment.owner, 0) + own * payment.amount
                                    )
                                if outcome.crossed:
                                    race_end += own
                                    race_end_sequences += count * times
                            if last or outcome.crossed:
                                sequences += count * times
                            else:
                                counting[after] = counting.get(after, 0) + count * times
                        at_landing = keeps.get(id(outcome))
                        if at_landing is None:
                            tiled = [
                                layout for space in outcome.reached for layout in on.get(space, ())
                            ]
                            keep = everything
                            for _, shift, _ in tiled:
                                keep &= ~(field << shift)
                            # the outcome stays in its entry: no other object takes its id
                            at_landing = keeps[id(outcome)] = (keep, tiled, outcome)
                        keep, tiled, _ = at_landing
                        common = packed & keep if tiled else packed
                        if common:
                            if last or outcome.crossed:
                                ranked = ranks(after) if last else rank(after)
                                finals[ranked] = finals.get(ranked, 0) + common * (weight * unit)
                            else:
                                reached[after] = reached.get(after, 0) + common * weight
                        if common == packed:  # no layout with a tile where it landed
                            continue
                        for layout, shift, tiles in tiled:  # made again with their tiles
                            # counted as the moves of a position in one layout only (above)
                            here_weight = (packed >> shift) & field
                            if not here_weight:
                                continue
                            lifted = lifts.get(roll.colour)
                            if lifted is None:  # the kernel's first half, once per colour
                                bare = list(tracks[here])
                                lifted = lifts[roll.colour] = (bare, *lift(bare, roll))
                            bare, camel, origin, unit_lifted = lifted
                            moved = bare.copy()
                            met = move(
                                moved, tiles, ruleset, camel, origin, unit_lifted, roll.value
                            )
                            weighed = here_weight * weight
                            for payment in met.payments:
                                if payment.owner == seat:
                                    coins[layout] += weighed * unit * payment.amount
                            if last or met.crossed:
                                ranked = ranks(moved)
                                alone = finals_alone[layout]
                                alone[ranked] = alone.get(ranked, 0) + weighed * unit
                            else:
                                track = number_of(tuple(moved))
                                reached[track] = reached.get(track, 0) + (weighed << shift)
        level, counts = following, counted
    held = state.players[seat].leg_tickets
    ticket_reward = leg.ticket_reward
    held_reward = {
        ranked: sum(ticket_reward(t, ranked[0], ranked[1]) for t in held)
        for ranked in {*finals, *(r for alone in finals_alone for r in alone)}
    }
    rewards = [(packed, held_reward[ranked]) for ranked, packed in finals.items()]
    found: list[tuple[int, int] | None] = [None] * len(layouts)
    for in_space in on.values():
        for layout, shift, _ in in_space:
            reward = 0
            for packed, ticket_coins in rewards:
                weight = (packed >> shift) & field
                if weight:
                    reward += weight * ticket_coins
            for ranked, weight in finals_alone[layout].items():
                reward += weight * held_reward[ranked]
            found[layout] = (coins[layout], reward)
    if not with_leg:
        return found, None
    kept_finals = {ranked: packed & field for ranked, packed in finals.items() if packed & field}
    odds = _odds(
        ruleset, scale[0], kept_finals, race_end, paid, sequences, race_end_sequences, steps
    )
    return found, odds


@attrs.frozen
class ActionValue:
    """The expected coins within the leg of one action for the player to move.

    ``value`` = ``tile_coins`` - ``tile_coins_now`` + ``ticket_change`` for a tile action
    (``tile_coins_now``: what the player's tile where it lies now would earn); for a leg ticket
    ``value`` is its expected reward and for the pyramid ticket its 1 EP. The pyramid action is
    listed once, as the first of its rolls in ``legal_actions`` (the player does not choose the
    roll).
    """

    action: Action
    value: Fraction
    tile_coins: Fraction = Fraction(0)
    tile_coins_now: Fraction = Fraction(0)
    ticket_change: Fraction = Fraction(0)


def _pyramid_ticket_value() -> int:
    """What one pyramid ticket pays at leg scoring, asked of the leg-scoring rule itself."""
    none = Player(money=0)
    one = Player(money=0, pyramid_tickets=1)
    ranked = (Camel.BLUE, Camel.GREEN)
    return (
        leg.score_leg((one,), (), ranked, 1).scores[0].total
        - leg.score_leg((none,), (), ranked, 1).scores[0].total
    )


def action_values(
    state: State, base: LegOdds | None = None, *, tiles: bool = True
) -> tuple[ActionValue, ...]:
    """Every legal action of the player to move that pays within the leg, best first (equal
    values in the order of ``legal_actions``); see :func:`iter_action_values`."""
    found = list(_values(state, base, tiles=tiles))
    found.sort(key=lambda pair: (-pair[1].value, pair[0]))
    return tuple(value for _, value in found)


def leg_odds_and_values(
    state: State, *, tiles: bool = True
) -> tuple[LegOdds, tuple[ActionValue, ...]]:
    """:func:`leg_odds` of ``state`` and the values of :func:`action_values`, here in the order
    of ``legal_actions`` (the pyramid ticket once, at its first roll). When the player to move
    has no tile on the track, the leg's odds come from the tile layouts' pass: the leg is
    walked once, not twice. Raises :class:`GameOver` for a finished game."""
    if state.is_over:
        raise GameOver("the game is over: there is no leg to compute odds for")
    found: list[LegOdds] = []
    values = sorted(_values(state, None, tiles=tiles, odds_found=found.append))
    return found[0], tuple(value for _, value in values)


def iter_action_values(
    state: State, base: LegOdds | None = None, *, tickets: bool = True, tiles: bool = True
) -> Iterator[ActionValue]:
    """Every legal action of the player to move that pays within the leg, as it is worked out:
    the leg tickets and the pyramid ticket from the leg's odds (``base``; if not given, computed
    in the tile layouts' pass when it can give them), then each tile placement or move (with
    each side) with the tile where that action would put it (the tiles are those ``apply``
    leaves). All the tile layouts are valued in one pass over the leg (:func:`_every_layout`).
    ``tickets=False`` leaves out the first part, ``tiles=False`` the second."""
    for _, value in _values(state, base, tickets, tiles):
        yield value


def _values(
    state: State,
    base: LegOdds | None,
    tickets: bool = True,
    tiles: bool = True,
    odds_found: Callable[[LegOdds], None] | None = None,
) -> Iterator[tuple[int, ActionValue]]:
    """Each value with the index of its action in ``legal_actions``, tile actions last. With no
    ``base``, the leg's odds come from the tile layouts' pass when it can give them;
    ``odds_found`` is handed the leg's odds used."""
    seat = state.to_move
    actions = legal_actions(state)
    tile_actions = [
        (index, action)
        for index, action in enumerate(actions)
        if type(action) is PlaceTile or type(action) is MoveTile
    ]
    every: list[tuple[int, int] | None] = []
    layouts = []
    odds = base
    if tiles and tile_actions:
        steps = _steps_left(state.ruleset, len(state.revealed), len(state.pyramid))
        layouts = [apply(state, action).state.tiles for _, action in tile_actions]
        every, odds = _layouts_pass(state, steps, layouts, base is None)
        odds = base if base is not None else odds
    if odds is None:
        odds = leg_odds(state)
    if odds_found is not None:
        odds_found(odds)
    pyramid_done = False
    for index, action in enumerate(actions):
        if type(action) is TakeLegTicket:
            if not tickets:
                continue
            ticket = LegTicket(action.camel, state.ticket_stack(action.camel)[-1])
            yield index, ActionValue(action, odds.ticket_value(ticket))
        elif type(action) is TakePyramidTicket and tickets and not pyramid_done:
            pyramid_done = True  # one action per roll: the value is the action's
            generic = TakePyramidTicket(seat, action.roll)
            yield index, ActionValue(generic, Fraction(_pyramid_ticket_value()))
    if not tiles or not tile_actions:
        return
    held = state.players[seat].leg_tickets
    held_now = sum((odds.ticket_value(t) for t in held), Fraction(0))
    coins_now = odds.tile_coins(seat)
    shared = _SharedMoves(state.ruleset)
    total = chances_of(state.ruleset, state.pyramid).scale(len(state.pyramid), odds.steps)[0]
    for (index, action), layout, found in zip(tile_actions, layouts, every, strict=True):
        if found is None:  # not one tile added to the others': the leg with these tiles
            new = _layout_odds(state, layout, shared)
            coins = new.tile_coins(seat)
            change = sum((new.ticket_value(t) for t in held), Fraction(0)) - held_now
        else:
            coins = Fraction(found[0], total)
            change = Fraction(found[1], total) - held_now
        yield index, ActionValue(action, coins - coins_now + change, coins, coins_now, change)


def _layouts_pass(
    state: State, steps: int, layouts: Sequence[tuple[Tile, ...]], with_leg: bool
) -> tuple[list[tuple[int, int] | None], LegOdds | None]:
    """:func:`_every_layout`, with the cyclic collector kept out of it."""
    with _no_cycle_collection(settle=True):
        return _every_layout(state, steps, layouts, with_leg)

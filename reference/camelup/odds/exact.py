"""Exact leg odds and whole-race estimates, computed with the engine's own rule code.

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

Whole races
-----------
:func:`race_estimates` plays whole races by dice alone from the position (later legs with no
tiles and a full pyramid, as after ``leg.cleanup``) with a seeded ``random.Random``, and
estimates each racing camel's chance of winning and of losing the race and the value of a
finish card on it, each with a 95% confidence interval.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from camelup.model.actions import Action, MoveTile, PlaceTile, TakeLegTicket, TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.ruleset import Ruleset
from camelup.model.state import FinishCard, LegTicket, Player, State, Tile
from camelup.model.track import LAST_SPACE, Stack
from camelup.odds.chances import ChanceRule, chances_of
from camelup.play.engine import apply, legal_actions
from camelup.rules import crazy, final, leg, movement, race, ranking

__all__ = [
    "ActionValue",
    "Estimate",
    "LegOdds",
    "RaceEstimates",
    "action_values",
    "iter_action_values",
    "leg_odds",
    "race_estimates",
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


@attrs.frozen
class _MoveSource:
    """Where the enumeration gets the moves of a die on a track.

    ``moves(here, die)`` lists them; a track is whatever the source likes (a tuple of stacks, a
    number). ``position`` turns a track after a move into the key under which equal positions
    merge (None: the track is its own key); ``rank`` gives its ranking (``rank.*``).
    """

    moves: Callable[[Any, Die], Sequence[_Step]]
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
    racing: dict[Die, tuple[tuple[DieRoll, int], ...]] = {
        die: found for die, found in rolls.items() if die is not Die.GREY
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
    ) -> list[_Step]:
        if not faces:  # a colour the chance rule never shows
            return steps
        lifted = list(here)
        camel, origin, unit = lift(lifted, faces[0][2], chosen)
        for weight, times, roll in faces:
            moved = lifted.copy()
            outcome = move(moved, tiles, ruleset, camel, origin, unit, roll.value)
            steps.append((weight, times, outcome, moved, roll))
        return steps

    def moves(here: tuple[Stack, ...], die: Die) -> list[_Step]:
        steps: list[_Step] = []
        if die is not grey:  # five dice in six are racing: lift_and_move's loop, written out
            faces = racing[die]
            lifted = list(here)
            camel, origin, unit = lift(lifted, faces[0][0], None)
            for roll, weight in faces:
                moved = lifted.copy()
                outcome = move(moved, tiles, ruleset, camel, origin, unit, roll.value)
                steps.append((weight, 1, outcome, moved, roll))
            return steps
        white_moves, black_moves = choose(here, white), choose(here, black)
        if white_moves[0] is black_moves[0]:  # the faces of each number make the same move
            return lift_and_move(here, by_both, white_moves, steps)
        lift_and_move(here, by_white, white_moves, steps)
        return lift_and_move(here, by_black, black_moves, steps)

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

    def number(self, track: tuple[Stack, ...]) -> int:
        found = self.ids.get(track)
        if found is None:
            found = self.ids[track] = len(self.tracks)
            self.tracks.append(track)
        return found

    def numbered(self, steps: Sequence[_Step]) -> list[_Step]:
        number = self.number
        return [(w, c, moved, number(tuple(after)), roll) for w, c, moved, after, roll in steps]

    def rank(self, track: int) -> Ranking:
        found = self.rankings.get(track)
        if found is None:
            found = self.rankings[track] = self.bare.rank(self.tracks[track])
        return found

    def kept_moves(self, here: int, die: Die) -> tuple[Sequence[_Step], frozenset[int]]:
        """The kept moves of ``die`` from track number ``here`` and the spaces they land on."""
        found = self.kept.get((here, die))
        if found is None:
            steps = self.numbered(self.bare.moves(self.tracks[here], die))
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

        def moves(here: int, die: Die) -> Sequence[_Step]:
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
                    for die, drawn, _ in draws[mask]:
                        weighed = weight * drawn * unit
                        for face_weight, times, moved, after, _ in moves(here, die):
                            ranked = rank(after)
                            finals[ranked] = finals_get(ranked, 0) + weighed * face_weight
                            sequences += count * times
                            if moved.payments or moved.crossed:
                                for payment in moved.payments:
                                    owed = weighed * face_weight * payment.amount
                                    paid[payment.owner] = paid.get(payment.owner, 0) + owed
                                if moved.crossed:
                                    race_end += weighed * face_weight
                                    race_end_sequences += count * times
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
                        key = after if position is None else position(after)
                        entry = reached.get(key)
                        if entry is None:
                            reached[key] = [w, c]
                        else:
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
    # The enumeration makes some 10^5 short-lived tuples and lists and no reference cycle; the
    # cyclic collector would only scan the growing levels again and again (about 5% of the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        source = _kernel_moves(state.ruleset, state.tiles if tiles is None else tiles)
        return _enumerate(state.ruleset, state.track, state.pyramid, len(state.revealed), source)
    finally:
        if collecting:
            gc.enable()


def _layout_odds(state: State, tiles: tuple[Tile, ...], shared: _SharedMoves) -> LegOdds:
    """:func:`leg_odds` with ``tiles`` on the track, sharing the moves that no tile of the
    layout changes with the other layouts asked about with the same ``shared``."""
    source = shared.layout(tiles)
    root = shared.number(state.track)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _enumerate(state.ruleset, root, state.pyramid, len(state.revealed), source)
    finally:
        if collecting:
            gc.enable()


# One draw of a die from a position of the pass without the player's tile: the die, its draw
# weight, the dice left after it, the weighted reward of its moves that end the leg, the bits of
# the spaces its own moves land on, and the other moves' (weight, track after, reward below,
# bits landed below); the weights include the draw's.
_Draw = tuple[Die, int, int, int, int, tuple[tuple[int, int, int, int], ...]]


class _TileValues:
    """What a tile of the player to move would earn them, and do to their leg tickets, for every
    space and side at once: one pass over the leg without their tile, then a little more work
    per layout.

    Until a unit's move reaches the new tile's space (``Moved.reached``: where it lands, as a
    tile acts only on the space where a move ends, ``move.only-final-space``), the leg goes as it
    does without the tile. So the value of a position under a layout is the value without the
    tile wherever no move below it reaches that space; :meth:`_base` finds, once for the leg,
    each position's value without the tile and the spaces that moves below it reach, and
    :meth:`layout` works out again only the positions from which the new tile can be reached.
    Values are whole numbers of units of ``1 / total`` as in :class:`LegOdds`.
    """

    def __init__(self, state: State, steps: int) -> None:
        self.seat = seat = state.to_move
        self.ruleset, self.steps = state.ruleset, steps
        self.others = tuple(t for t in state.tiles if t.owner != seat)
        self.shared = _SharedMoves(state.ruleset, self.others)
        self.root = self.shared.number(state.track)
        self.dice = state.pyramid
        chances = chances_of(state.ruleset, self.dice)
        self.draws = chances.draws
        self.root_mask = len(self.draws) - 1
        self.scale = chances.scale(len(self.dice), steps)
        self.held = state.players[seat].leg_tickets
        self.rewards: dict[Ranking, int] = {}
        # (track number, dice left) -> (value of the held tickets, bits of the spaces landed on)
        self.base: dict[tuple[int, int], tuple[int, int]] = {}
        self.summaries: dict[tuple[int, Die, bool], tuple[int, tuple[tuple[int, int], ...]]] = {}
        # (track number, dice left) -> per draw, what a layout needs to skip the draw's moves
        # that cannot meet its tile without looking anything up (see _Draw)
        self.details: dict[tuple[int, int], tuple[_Draw, ...]] = {}
        self.total_reward = self._base(self.root, self.root_mask, 0)[0]

    @property
    def total(self) -> int:
        return self.scale[0]

    def _reward(self, ranked: Ranking) -> int:
        found = self.rewards.get(ranked)
        if found is None:
            ticket_reward = leg.ticket_reward
            found = sum(ticket_reward(t, ranked[0], ranked[1]) for t in self.held)
            self.rewards[ranked] = found
        return found

    def _summary(self, here: int, die: Die, last: bool) -> tuple[int, tuple[tuple[int, int], ...]]:
        """The kept moves of ``die`` from ``here`` (without the player's tile): the weighted
        reward of those that end the leg (in units of one step) and the others' weights and
        tracks."""
        found = self.summaries.get((here, die, last))
        if found is None:
            ended, going = 0, []
            rank, reward = self.shared.rank, self._reward
            for weight, _, outcome, after, _ in self.shared.kept_moves(here, die)[0]:
                if last or outcome.crossed:
                    ended += weight * reward(rank(after))
                else:
                    going.append((weight, after))
            found = self.summaries[here, die, last] = (ended, tuple(going))
        return found

    def _base(self, here: int, mask: int, k: int) -> tuple[int, int]:
        if k == self.steps:
            return self._reward(self.shared.rank(here)), 0
        found = self.base.get((here, mask))
        if found is not None:
            return found
        unit, last = self.scale[k + 1], k + 1 == self.steps
        reward = landed = 0
        draws = []
        for die, drawn, rest in self.draws[mask]:
            lands = 0
            for landing in self.shared.kept_moves(here, die)[1]:
                if 1 <= landing <= LAST_SPACE:
                    lands |= 1 << landing
            ended, going = self._summary(here, die, last)
            ended *= drawn
            reward += ended * unit
            children = []
            for face_weight, after in going:
                weight = face_weight * drawn
                below, below_landed = self._base(after, rest, k + 1)
                reward += weight * below
                landed |= below_landed
                children.append((weight, after, below, below_landed))
            landed |= lands
            draws.append((die, drawn, rest, ended, lands, tuple(children)))
        self.details[here, mask] = tuple(draws)
        found = self.base[here, mask] = (reward, landed)
        return found

    def added(self, tiles: tuple[Tile, ...]) -> Tile | None:
        """The player's tile that ``tiles`` adds to the other players', or None if ``tiles`` is
        not the other players' tiles plus one of the player's."""
        added = [t for t in tiles if t not in self.others]
        if len(added) != 1 or added[0].owner != self.seat or len(tiles) != len(self.others) + 1:
            return None
        return added[0]

    def layout(self, tiles: tuple[Tile, ...]) -> tuple[int, int] | None:
        """The player's tile coins and held tickets' value with ``tiles`` on the track, or None
        if ``tiles`` is not the other players' tiles plus one of the player's."""
        added = self.added(tiles)
        if added is None:
            return None
        return self._search(tiles, added)[0](self.root, self.root_mask, 0)

    def pair(
        self, first: tuple[Tile, ...], second: tuple[Tile, ...]
    ) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """:meth:`layout` of two layouts whose added tiles lie on the same space (the two sides
        of the player's tile), or None if they are not such a pair.

        Until a move lands on that space the leg goes as without either tile, so the positions
        before the first landing are walked once for both; each move that lands there is made
        with each layout's tiles and followed in that layout alone (:meth:`_search`)."""
        one, two = self.added(first), self.added(second)
        if one is None or two is None or one.space != two.space:
            return None
        value_one, met_one = self._search(first, one)
        value_two, met_two = self._search(second, two)
        bit, space, steps, scale = 1 << one.space, one.space, self.steps, self.scale
        shared, base, details = self.shared, self.base, self.details
        kept, rankings, rewards = shared.kept, shared.rankings, self.rewards
        memo: dict[tuple[int, int], tuple[int, int, int, int]] = {}

        def both(here: int, mask: int, k: int) -> tuple[int, int, int, int]:
            """(coins, reward) of the first layout, then of the second, from a position that the
            leg without the tile reaches with no move landing on the tile's space before."""
            if k == steps:
                reward = self._reward(shared.rank(here))
                return 0, reward, 0, reward
            known = base.get((here, mask))
            if known is None:  # not a position of the pass without the tile (never, in fact)
                return value_one(here, mask, k) + value_two(here, mask, k)
            if not known[1] & bit:
                return 0, known[0], 0, known[0]
            found = memo.get((here, mask))
            if found is not None:
                return found
            unit, last = scale[k + 1], k + 1 == steps
            coins_one = reward_one = coins_two = reward_two = 0
            for die, drawn, rest, ended, lands, children in details[here, mask]:
                if not lands & bit:
                    reward_one += ended * unit  # no move of this die lands on the tile
                    reward_two += ended * unit
                    for weight, after, below, below_landed in children:
                        if below_landed & bit:
                            found = both(after, rest, k + 1)
                            coins_one += weight * found[0]
                            reward_one += weight * found[1]
                            coins_two += weight * found[2]
                            reward_two += weight * found[3]
                        else:  # the tile is out of reach below
                            reward_one += weight * below
                            reward_two += weight * below
                    continue
                moves = kept.get((here, die)) or shared.kept_moves(here, die)
                for face_weight, _, outcome, after, roll in moves[0]:
                    weight = face_weight * drawn
                    if space in outcome.reached:  # the first landing: each layout its own way
                        met = met_one(here, roll, weight, rest, k, unit, last)
                        coins_one += met[0]
                        reward_one += met[1]
                        met = met_two(here, roll, weight, rest, k, unit, last)
                        coins_two += met[0]
                        reward_two += met[1]
                    elif last or outcome.crossed:
                        ranked = rankings.get(after) or shared.rank(after)
                        ticket = rewards.get(ranked)
                        if ticket is None:
                            ticket = self._reward(ranked)
                        reward_one += weight * unit * ticket
                        reward_two += weight * unit * ticket
                    else:
                        found = both(after, rest, k + 1)
                        coins_one += weight * found[0]
                        reward_one += weight * found[1]
                        coins_two += weight * found[2]
                        reward_two += weight * found[3]
            found = memo[here, mask] = (coins_one, reward_one, coins_two, reward_two)
            return found

        found = both(self.root, self.root_mask, 0)
        return (found[0], found[1]), (found[2], found[3])

    def _search(
        self, tiles: tuple[Tile, ...], added: Tile
    ) -> tuple[
        Callable[[int, int, int], tuple[int, int]],
        Callable[[int, DieRoll, int, int, int, int, bool], tuple[int, int]],
    ]:
        """The value of a position with ``tiles`` on the track, and of one move that lands on
        the space of ``added`` (the player's tile) made with them, each memoized for the
        layout."""
        space, seat, bit = added.space, self.seat, 1 << added.space
        reveal, rank, ruleset = race.reveal, ranking.ranking, self.ruleset
        shared, base, summary, details = self.shared, self.base, self._summary, self.details
        memo: dict[tuple[int, int], tuple[int, int]] = {}
        kept, tracks, rankings, rewards = shared.kept, shared.tracks, shared.rankings, self.rewards

        def value(here: int, mask: int, k: int) -> tuple[int, int]:
            if k == self.steps:
                return 0, self._reward(shared.rank(here))
            known = base.get((here, mask))
            if known is not None and not known[1] & bit:
                return 0, known[0]
            found = memo.get((here, mask))
            if found is not None:
                return found
            unit, last = self.scale[k + 1], k + 1 == self.steps
            coins = reward = 0
            if known is not None:  # a position of the pass without the tile: its draws are known
                for die, drawn, rest, ended, lands, children in details[here, mask]:
                    if lands & bit:
                        found = meets(here, die, drawn, rest, k, unit, last)
                        coins += found[0]
                        reward += found[1]
                        continue
                    reward += ended * unit  # no move of this die lands on the tile
                    for weight, after, below, below_landed in children:
                        if below_landed & bit:
                            below_coins, below_reward = value(after, rest, k + 1)
                            coins += weight * below_coins
                            reward += weight * below_reward
                        else:  # the tile is out of reach below
                            reward += weight * below
                found = memo[here, mask] = (coins, reward)
                return found
            for die, drawn, rest in self.draws[mask]:
                landings = shared.kept_moves(here, die)[1]
                if space not in landings:  # every kept move holds with the tile
                    ended, going = summary(here, die, last)
                    reward += ended * drawn * unit
                    for face_weight, after in going:
                        weight = face_weight * drawn
                        known = base.get((after, rest))
                        if known is not None and not known[1] & bit:  # the tile is out of reach
                            reward += weight * known[0]
                            continue
                        below_coins, below_reward = value(after, rest, k + 1)
                        coins += weight * below_coins
                        reward += weight * below_reward
                    continue
                found = meets(here, die, drawn, rest, k, unit, last)
                coins += found[0]
                reward += found[1]
            found = memo[here, mask] = (coins, reward)
            return found

        def meets(
            here: int, die: Die, drawn: int, rest: int, k: int, unit: int, last: bool
        ) -> tuple[int, int]:
            """The moves of ``die`` (drawn with weight ``drawn``) from ``here`` when one of them
            lands on the tile."""
            coins = reward = 0
            found = kept.get((here, die)) or shared.kept_moves(here, die)
            for face_weight, _, outcome, after, roll in found[0]:
                weight = face_weight * drawn
                if space in outcome.reached:  # this move meets the tile: made again with it
                    met_coins, met_reward = met(here, roll, weight, rest, k, unit, last)
                    coins += met_coins
                    reward += met_reward
                    continue
                if last or outcome.crossed:
                    ranked = rankings.get(after) or shared.rank(after)
                    ticket = rewards.get(ranked)
                    if ticket is None:
                        ticket = self._reward(ranked)
                    reward += weight * unit * ticket
                    continue
                known = base.get((after, rest))  # a move of the pass without the tile:
                if known is not None and not known[1] & bit:  # its value there if out of reach
                    reward += weight * known[0]
                    continue
                below_coins, below_reward = value(after, rest, k + 1)
                coins += weight * below_coins
                reward += weight * below_reward
            return coins, reward

        def met(
            here: int, roll: DieRoll, weight: int, rest: int, k: int, unit: int, last: bool
        ) -> tuple[int, int]:
            """A move (``roll``, its weight ``weight``) from ``here`` that lands on the tile's
            space, made again with the tile."""
            moved = list(tracks[here])
            outcome = reveal(moved, tiles, ruleset, roll)
            coins = 0
            for payment in outcome.payments:
                if payment.owner == seat:
                    coins += weight * unit * payment.amount
            if last or outcome.crossed:
                return coins, weight * unit * self._reward(rank(moved))
            below_coins, below_reward = value(shared.number(tuple(moved)), rest, k + 1)
            return coins + weight * below_coins, weight * below_reward

        return value, met


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


def iter_action_values(
    state: State, base: LegOdds | None = None, *, tickets: bool = True, tiles: bool = True
) -> Iterator[ActionValue]:
    """Every legal action of the player to move that pays within the leg, as it is worked out:
    the leg tickets and the pyramid ticket at once from the leg's odds (``base``, computed if
    not given), then each tile placement or move (with each side) with the tile where that
    action would put it (the tiles are those ``apply`` leaves). All the tile layouts are valued
    in one pass over the leg (:class:`_TileValues`). ``tickets=False`` leaves out the first
    part, ``tiles=False`` the second."""
    for _, value in _values(state, base, tickets, tiles):
        yield value


def _values(
    state: State, base: LegOdds | None, tickets: bool = True, tiles: bool = True
) -> Iterator[tuple[int, ActionValue]]:
    """Each value with the index of its action in ``legal_actions``, tile actions last."""
    odds = leg_odds(state) if base is None else base
    seat = state.to_move
    actions = legal_actions(state)
    tile_actions: list[tuple[int, Action]] = []
    pyramid_done = False
    for index, action in enumerate(actions):
        if type(action) is TakeLegTicket:
            if not tickets:
                continue
            ticket = LegTicket(action.camel, state.ticket_stack(action.camel)[-1])
            yield index, ActionValue(action, odds.ticket_value(ticket))
        elif type(action) is TakePyramidTicket:
            if tickets and not pyramid_done:  # one action per roll: the value is the action's
                pyramid_done = True
                generic = TakePyramidTicket(seat, action.roll)
                yield index, ActionValue(generic, Fraction(_pyramid_ticket_value()))
        elif type(action) is PlaceTile or type(action) is MoveTile:
            tile_actions.append((index, action))
    if not tiles or not tile_actions:
        return
    held = state.players[seat].leg_tickets
    held_now = sum((odds.ticket_value(t) for t in held), Fraction(0))
    coins_now = odds.tile_coins(seat)
    shared = _SharedMoves(state.ruleset)
    # The pass without the tile and each layout make some 10^6 objects with no reference cycle,
    # most of which live until the last layout: with the cyclic collector disabled while they
    # are made (as in leg_odds), it would still scan them all once enabled again, a fifth of the
    # time. So before it is enabled they go straight to its oldest generation, which only a full
    # collection scans (gc.freeze, then gc.unfreeze: nothing stays frozen while the values are
    # handed out), unless the process froze objects of its own, which unfreeze would thaw too.
    collecting = gc.isenabled()
    settle = collecting and gc.get_freeze_count() == 0
    gc.disable()
    try:
        tile_values = _TileValues(state, odds.steps)
    finally:
        if settle:
            gc.freeze()
            gc.unfreeze()
        if collecting:
            gc.enable()
    layouts = [apply(state, action).state.tiles for _, action in tile_actions]
    spaces = [tile_values.added(layout) for layout in layouts]
    # the other side of the same space, valued in the same walk (_TileValues.pair)
    paired: dict[int, tuple[int, int]] = {}
    for number, (index, action) in enumerate(tile_actions):
        layout = layouts[number]
        gc.disable()
        try:
            found = paired.pop(number, None)
            added = spaces[number]
            partner = next(
                (
                    other
                    for other in range(number + 1, len(layouts))
                    if other not in paired
                    and added is not None
                    and (tile := spaces[other]) is not None
                    and tile.space == added.space
                ),
                None,
            )
            if found is not None:
                pass
            elif partner is None:
                found = tile_values.layout(layout)
            else:
                both = tile_values.pair(layout, layouts[partner])
                assert both is not None
                found, paired[partner] = both
        finally:
            if settle:
                gc.freeze()
                gc.unfreeze()
            if collecting:
                gc.enable()
        if found is None:  # not one tile added to the others': the leg with these tiles
            new = _layout_odds(state, layout, shared)
            coins = new.tile_coins(seat)
            change = sum((new.ticket_value(t) for t in held), Fraction(0)) - held_now
        else:
            coins = Fraction(found[0], tile_values.total)
            change = Fraction(found[1], tile_values.total) - held_now
        yield index, ActionValue(action, coins - coins_now + change, coins, coins_now, change)


# --- whole races -------------------------------------------------------------------------


@attrs.frozen
class Estimate:
    """A Monte Carlo estimate with its 95% confidence interval (normal approximation)."""

    value: float
    low: float
    high: float


@attrs.frozen
class RaceEstimates:
    """Whole-race estimates from ``races`` races played by dice alone (seed ``seed``).

    ``winner[c]`` / ``loser[c]``: the chance that racing camel ``c`` wins / loses the race;
    ``winner_card[c]`` / ``loser_card[c]``: the expected value of a finish card on ``c``
    placed first on the winner / loser pile (8 EP if right, -1 if wrong, by the final-scoring
    rule; a card placed later pays less when right: 5, 3, 2, 1); ``winner_counts`` /
    ``loser_counts``: the raw counts.
    """

    races: int
    seed: int
    winner: Mapping[Camel, Estimate]
    loser: Mapping[Camel, Estimate]
    winner_card: Mapping[Camel, Estimate]
    loser_card: Mapping[Camel, Estimate]
    winner_counts: Mapping[Camel, int]
    loser_counts: Mapping[Camel, int]


_Z95 = 1.959963984540054


def _proportion(count: int, n: int, scale: float = 1.0, shift: float = 0.0) -> Estimate:
    p = count / n
    half = _Z95 * math.sqrt(p * (1 - p) / n) * abs(scale)
    centre = shift + scale * p
    return Estimate(centre, centre - half, centre + half)


_Draws = tuple[tuple[DieRoll, tuple[Die, ...]], ...]


def _roll_table(
    rule: ChanceRule, dice: tuple[Die, ...], tables: dict[tuple[Die, ...], _Draws]
) -> _Draws:
    """The rolls of the pyramid action with ``dice`` in the pyramid, each repeated in proportion
    to its chance by ``rule`` and paired with the dice left after it, so that one uniform draw
    from the table is one pyramid action; ``tables`` keeps them by dice left."""
    found = tables.get(dice)
    if found is None:
        chances = rule(dice)
        common = math.lcm(*(chance.denominator for _, chance in chances))
        share = math.gcd(*(int(chance * common) for _, chance in chances))
        found = tables[dice] = tuple(
            (roll, tuple(d for d in dice if d is not roll.die))
            for roll, chance in chances
            for _ in range(int(chance * common) // share)
        )
    return found


def _play_races(
    ruleset: Ruleset,
    track: tuple[Stack, ...],
    tiles: tuple[Tile, ...],
    pyramid: tuple[Die, ...],
    revealed: int,
    races: int,
    rng: random.Random,
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[Camel, int], dict[Camel, int]]:
    """Play ``races`` whole races by dice alone; count each camel's wins and losses. Each
    pyramid action is one draw from the table of the chance rule's rolls
    (:func:`camelup.rules.race.roll_chances`, :func:`_roll_table`)."""
    rule = race.roll_chances
    tables: dict[tuple[Die, ...], _Draws] = {}
    wins = dict.fromkeys(ruleset.racing_camels, 0)
    losses = dict.fromkeys(ruleset.racing_camels, 0)
    reveal = race.reveal
    leg_is_over = leg.leg_is_over
    draw = rng.random
    full = ruleset.dice
    for done in range(races):
        moved = list(track)
        dice = pyramid
        on_track = tiles
        out = revealed
        while True:
            table = tables.get(dice) or _roll_table(rule, dice, tables)
            roll, dice = table[int(draw() * len(table))]
            if reveal(moved, on_track, ruleset, roll).crossed:
                break
            out += 1
            if leg_is_over(ruleset, out) or not dice:  # leg.cleanup: tiles off, dice back
                dice, on_track, out = full, (), 0
        ranked = ranking.ranking(moved)
        wins[ranked[0]] += 1
        losses[ranked[-1]] += 1
        if progress is not None and done % 1000 == 999:
            progress(1000)
    if progress is not None:
        progress(races % 1000)
    return wins, losses


def _worker(
    job: tuple[Ruleset, tuple[Stack, ...], tuple[Tile, ...], tuple[Die, ...], int, int, str],
) -> tuple[dict[Camel, int], dict[Camel, int]]:
    ruleset, track, tiles, pyramid, revealed, races, seed = job
    return _play_races(ruleset, track, tiles, pyramid, revealed, races, random.Random(seed))


def race_estimates(
    state: State,
    races: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    start_pool: Callable[[int], multiprocessing.pool.Pool] | None = None,
) -> RaceEstimates:
    """Estimate the whole race from ``state`` by ``races`` races played by dice alone.

    The result depends only on ``state``, ``races``, ``seed`` and ``jobs``: each of the
    ``jobs`` worker processes plays its share with ``random.Random(f"{seed}/{job}")`` (one job
    runs in this process). ``progress`` is called with the number of races just finished (in
    this process only: with several jobs, once per finished job). ``start_pool`` starts the
    worker processes (the command line's handles its signals); by default a plain pool.
    """
    if state.is_over:
        raise GameOver("the game is over: there is no race left to estimate")
    if races < 1 or jobs < 1:
        raise ValueError("races and jobs must be at least 1")
    ruleset = state.ruleset
    args = (ruleset, state.track, state.tiles, state.pyramid, len(state.revealed))
    shares = [races // jobs + (1 if j < races % jobs else 0) for j in range(jobs)]
    shares = [s for s in shares if s]
    seeds = [f"{seed}/{j}" for j in range(len(shares))]
    if len(shares) == 1:
        counts = [_play_races(*args, shares[0], random.Random(seeds[0]), progress)]
    else:
        pool = None
        try:
            pool = (start_pool or multiprocessing.get_context().Pool)(len(shares))
            counts = []
            for result, share in zip(
                pool.imap(_worker, [(*args, s, sd) for s, sd in zip(shares, seeds, strict=True)]),
                shares,
                strict=True,
            ):
                counts.append(result)
                if progress is not None:
                    progress(share)
        finally:  # a signal or not: no worker outlives the estimate
            if pool is not None:
                pool.terminate()
    wins = dict.fromkeys(ruleset.racing_camels, 0)
    losses = dict.fromkeys(ruleset.racing_camels, 0)
    for won, lost in counts:
        for camel in ruleset.racing_camels:
            wins[camel] += won[camel]
            losses[camel] += lost[camel]

    def card(camel: Camel, ranked: Camel) -> int:
        return final.card_amounts((FinishCard(0, camel),), ranked)[0]

    def card_estimate(camel: Camel, count: int) -> Estimate:
        other = next(c for c in ruleset.racing_camels if c is not camel)
        right, wrong = card(camel, camel), card(camel, other)
        return _proportion(count, races, right - wrong, wrong)

    camels = ruleset.racing_camels
    return RaceEstimates(
        races=races,
        seed=seed,
        winner={c: _proportion(wins[c], races) for c in camels},
        loser={c: _proportion(losses[c], races) for c in camels},
        winner_card={c: card_estimate(c, wins[c]) for c in camels},
        loser_card={c: card_estimate(c, losses[c]) for c in camels},
        winner_counts=wins,
        loser_counts=losses,
    )

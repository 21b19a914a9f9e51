"""Exact leg odds and whole-race estimates, computed with the engine's own rule code.

The model
---------
From a position, only the pyramid action is played: every die left in the pyramid is equally
likely to come out, a racing die shows 1, 2 or 3 with probability 1/3 each and the grey die
each of its six faces (1, 2, 3 in white or black) with probability 1/6 (``move.pyramid.chance``).
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
racing face counting ``m / 3`` of them and a grey face one. Every figure is a whole-number weight
over :attr:`LegOdds.total_weight`, the product of ``n × m`` over the leg's steps, so that a
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
from collections.abc import Callable, Mapping
from fractions import Fraction

import attrs

from camelup.model.actions import Action, MoveTile, PlaceTile, TakeLegTicket, TakePyramidTicket
from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.dice import FACE_VALUES, DieRoll
from camelup.model.events import Event, UnitMoved
from camelup.model.ruleset import Ruleset
from camelup.model.state import FinishCard, LegTicket, Player, State, Tile
from camelup.model.track import Stack
from camelup.play.engine import apply, legal_actions
from camelup.rules import crazy, final, leg, movement, race, ranking

__all__ = [
    "ActionValue",
    "Estimate",
    "LegOdds",
    "RaceEstimates",
    "action_values",
    "leg_odds",
    "race_estimates",
]

Ranking = tuple[Camel, ...]
_Position = tuple[tuple[Stack, ...], tuple[Die, ...]]


def _faces_per_die(ruleset: Ruleset) -> int:
    """``m``: the equally likely faces one step counts per die (6 with the grey die, else 3)."""
    return 6 if Die.GREY in ruleset.dice else 3


def _rolls(die: Die, faces: int) -> tuple[tuple[DieRoll, int], ...]:
    """Every roll of ``die`` with its weight among ``faces`` equally likely faces of a die."""
    if die is Die.GREY:
        return tuple((DieRoll(die, v, c), 1) for c in CRAZY_CAMELS for v in FACE_VALUES)
    return tuple((DieRoll(die, v), faces // 3) for v in FACE_VALUES)


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


class _TileSearch:
    """The leg enumerated for many tile layouts at once, for :func:`action_values`.

    The moves of every die from every track that the leg reaches with no tile on the track are
    revealed once, with the kernel recording events, and shared by the enumerations of all the
    layouts. A move is kept as ``(roll, weight, landing, next track, crossed, ranking)``, where
    ``landing`` is the space on which the die's own move ended (the kernel's first
    ``UnitMoved`` event). A tile acts only on a unit whose move ends on its space
    (``move.only-final-space``, ``tile.land.pay-owner``), so under a layout with no tile on
    ``landing`` the move is exactly the shared one; a move that ends on a tile, and every move
    after it (the track then differs from all shared ones), is revealed again with the tiles.
    Tracks are numbered once, so that positions are keyed by small integers.
    """

    def __init__(self, state: State, steps: int) -> None:
        ruleset = self.ruleset = state.ruleset
        self.steps = steps
        self.faces = _faces_per_die(ruleset)
        self.dice = ruleset.dice
        self.rolls = [_rolls(die, self.faces) for die in self.dice]
        self.ids: dict[tuple[Stack, ...], int] = {}
        self.tracks: list[tuple[Stack, ...]] = []
        self.root = self._id(state.track)
        self.root_mask = sum(1 << self.dice.index(die) for die in state.pyramid)
        self.in_pyramid = len(state.pyramid)
        # mask -> ((die index, mask without it), ...)
        self.draws = [
            tuple((i, mask & ~(1 << i)) for i in range(len(self.dice)) if mask >> i & 1)
            for mask in range(1 << len(self.dice))
        ]
        self.moves: dict[int, tuple[tuple[DieRoll, int, int, int, bool, Ranking], ...]] = {}
        self._fill()

    def _id(self, track: tuple[Stack, ...]) -> int:
        found = self.ids.get(track)
        if found is None:
            found = self.ids[track] = len(self.tracks)
            self.tracks.append(track)
        return found

    def _fill(self) -> None:
        level = {self.root * 64 + self.root_mask}
        for k in range(self.steps):
            following: set[int] = set()
            for key in level:
                here, mask = divmod(key, 64)
                for index, rest in self.draws[mask]:
                    moves = self.moves.get(here * 8 + index)
                    if moves is None:
                        moves = self._reveal_all(here, index)
                    if k + 1 < self.steps:
                        following.update(m[3] * 64 + rest for m in moves if not m[4])
            level = following

    def _reveal_all(
        self, here: int, index: int
    ) -> tuple[tuple[DieRoll, int, int, int, bool, Ranking], ...]:
        found = []
        track = self.tracks[here]
        for roll, weight in self.rolls[index]:
            moved = list(track)
            events: list[Event] = []
            _, crossed = race.reveal(moved, (), self.ruleset, roll, events)
            landing = next(e.to_space for e in events if type(e) is UnitMoved)
            after = self._id(tuple(moved))
            found.append((roll, weight, landing, after, crossed, ranking.ranking(moved)))
        moves = self.moves[here * 8 + index] = tuple(found)
        return moves

    def odds(self, tiles: tuple[Tile, ...]) -> LegOdds:
        """The leg's odds with ``tiles`` on the track (as :func:`leg_odds` would give them)."""
        ruleset, steps = self.ruleset, self.steps
        scale = [1] * (steps + 1)
        for k in range(steps - 1, -1, -1):
            scale[k] = scale[k + 1] * self.faces * (self.in_pyramid - k)
        reveal = race.reveal
        rank = ranking.ranking
        spaces = {tile.space for tile in tiles}
        shared, tracks, rolls, draws, number = (
            self.moves,
            self.tracks,
            self.rolls,
            self.draws,
            self._id,
        )
        finals: dict[Ranking, int] = {}
        paid: dict[int, int] = {}
        race_end = sequences = race_end_sequences = 0
        level: dict[int, list[int]] = {self.root * 64 + self.root_mask: [1, 1]}
        if steps == 0:
            finals[rank(tracks[self.root])] = 1
            sequences = 1
        for k in range(steps):
            last = k + 1 == steps
            unit = scale[k + 1]
            following: dict[int, list[int]] = {}
            for key, (weight, count) in level.items():
                here, mask = divmod(key, 64)
                for index, rest in draws[mask]:
                    known = shared.get(here * 8 + index)
                    if known is None:  # off the shared tracks: every move with the tiles
                        known = tuple((roll, w, -99, -1, False, ()) for roll, w in rolls[index])
                    for roll, face_weight, landing, after, crossed, ranked in known:
                        w = weight * face_weight
                        if after < 0 or landing in spaces:
                            moved = list(tracks[here])
                            payment, crossed = reveal(moved, tiles, ruleset, roll)
                            if payment is not None:
                                paid[payment.owner] = paid.get(payment.owner, 0) + w * unit
                            if crossed or last:
                                ranked = rank(moved)
                            else:
                                after = number(tuple(moved))
                        if crossed or last:
                            finals[ranked] = finals.get(ranked, 0) + w * unit
                            sequences += count
                            if crossed:
                                race_end += w * unit
                                race_end_sequences += count
                            continue
                        entry = following.get(after * 64 + rest)
                        if entry is None:
                            following[after * 64 + rest] = [w, count]
                        else:
                            entry[0] += w
                            entry[1] += count
            level = following
        return _odds(
            ruleset, scale[0], finals, race_end, paid, sequences, race_end_sequences, steps
        )


_Move = tuple[tuple[DieRoll, ...], int, int, tuple[Camel, str] | None]


def _enumerate(
    ruleset: Ruleset,
    track: tuple[Stack, ...],
    tiles: tuple[Tile, ...],
    pyramid: tuple[Die, ...],
    revealed: int,
) -> LegOdds:
    faces = _faces_per_die(ruleset)
    steps = _steps_left(ruleset, revealed, len(pyramid))
    # scale[k]: the weight of one unit at level k in units of 1/total (the steps after k)
    scale = [1] * (steps + 1)
    for k in range(steps - 1, -1, -1):
        scale[k] = scale[k + 1] * faces * (len(pyramid) - k)
    # A die's moves on a track: (its rolls, the faces each roll counts for, the sequences each
    # stands for, the crazy-camel choice to hand to the kernel). A racing die's are fixed; the
    # grey die's follow chapter 7's choice on the track, asked once per colour: the rule is
    # given the colour and not the number, and the colour reaches no other rule.
    racing_moves: list[tuple[_Move, ...]] = [
        ()
        if die is Die.GREY
        else ((tuple(DieRoll(die, v) for v in FACE_VALUES), faces // 3, 1, None),)
        for die in pyramid
    ]
    grey = pyramid.index(Die.GREY) if Die.GREY in pyramid else -1
    white, black = CRAZY_CAMELS
    white_rolls = tuple(DieRoll(Die.GREY, v, white) for v in FACE_VALUES)
    black_rolls = tuple(DieRoll(Die.GREY, v, black) for v in FACE_VALUES)
    choose = crazy.choose_crazy_camel

    def grey_moves(here: tuple[Stack, ...]) -> tuple[_Move, ...]:
        by_white, by_black = choose(here, white), choose(here, black)
        if by_white[0] is by_black[0]:  # both faces of each number make the same move
            return ((white_rolls, 2, 2, by_white),)
        return ((white_rolls, 1, 1, by_white), (black_rolls, 1, 1, by_black))

    # the dice left as a bit mask: draws[mask] = ((a die left, the mask without it), ...)
    draws = [
        tuple((i, mask & ~(1 << i)) for i in range(len(pyramid)) if mask >> i & 1)
        for mask in range(1 << len(pyramid))
    ]
    lift, move = race.lift_mover, movement.move_camel_unit
    rank = ranking.ranking
    finals: dict[Ranking, int] = {}
    paid: dict[int, int] = {}
    race_end = sequences = race_end_sequences = 0
    # level[mask]: the positions with the dice of ``mask`` left, each track with its weight
    # and its number of sequences
    level: list[dict[tuple[Stack, ...], list[int]]] = [{} for _ in draws]
    level[-1][track] = [1, 1]
    if steps == 0:
        finals[rank(track)] = 1
        sequences = 1
    for k in range(steps):
        last = k + 1 == steps
        unit = scale[k + 1]
        following: list[dict[tuple[Stack, ...], list[int]]] = [{} for _ in draws]
        for mask, positions in enumerate(level):
            for here, (weight, count) in positions.items():
                for index, rest in draws[mask]:
                    reached = following[rest]
                    for rolls, face_weight, times, chosen in (
                        grey_moves(here) if index == grey else racing_moves[index]
                    ):
                        w = weight * face_weight
                        c = count * times
                        # the die's camel and its unit are the same for each number: lift once
                        lifted = list(here)
                        camel, origin, riders = lift(lifted, rolls[0], chosen)
                        for roll in rolls:
                            moved = lifted.copy()
                            payment, crossed = move(
                                moved, tiles, ruleset, camel, origin, riders, roll.value
                            )
                            if payment is not None:
                                paid[payment.owner] = paid.get(payment.owner, 0) + w * unit
                            if crossed or last:
                                ranked = rank(moved)
                                finals[ranked] = finals.get(ranked, 0) + w * unit
                                sequences += c
                                if crossed:
                                    race_end += w * unit
                                    race_end_sequences += c
                                continue
                            key = tuple(moved)
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
        return _enumerate(
            state.ruleset,
            state.track,
            state.tiles if tiles is None else tiles,
            state.pyramid,
            len(state.revealed),
        )
    finally:
        if collecting:
            gc.enable()


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


def action_values(state: State, base: LegOdds | None = None) -> tuple[ActionValue, ...]:
    """Every legal action of the player to move that pays within the leg, best first.

    One enumeration of the leg as it stands (``base``, computed if not given) values the leg
    tickets; each legal tile placement or move (with each side) takes one more enumeration with
    the tile where that action would put it (the tiles are those ``apply`` leaves).
    """
    odds = leg_odds(state) if base is None else base
    search: _TileSearch | None = None
    seat = state.to_move
    held = state.players[seat].leg_tickets
    held_now = sum((odds.ticket_value(t) for t in held), Fraction(0))
    coins_now = odds.tile_coins(seat)
    values: list[ActionValue] = []
    pyramid_done = False
    for action in legal_actions(state):
        if type(action) is TakeLegTicket:
            ticket = LegTicket(action.camel, state.ticket_stack(action.camel)[-1])
            values.append(ActionValue(action, odds.ticket_value(ticket)))
        elif type(action) is TakePyramidTicket:
            if not pyramid_done:  # one action per possible roll: the value is the action's
                pyramid_done = True
                generic = TakePyramidTicket(seat, action.roll)
                values.append(ActionValue(generic, Fraction(_pyramid_ticket_value())))
        elif type(action) is PlaceTile or type(action) is MoveTile:
            tiles = apply(state, action).state.tiles
            if search is None:
                search = _TileSearch(state, odds.steps)
            new = search.odds(tiles)
            coins = new.tile_coins(seat)
            change = sum((new.ticket_value(t) for t in held), Fraction(0)) - held_now
            values.append(ActionValue(action, coins - coins_now + change, coins, coins_now, change))
    values.sort(key=lambda v: -v.value)
    return tuple(values)


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
    """Play ``races`` whole races by dice alone; count each camel's wins and losses."""
    faces = _faces_per_die(ruleset)
    rolls = {die: tuple(r for r, _ in _rolls(die, faces)) for die in ruleset.dice}
    wins = dict.fromkeys(ruleset.racing_camels, 0)
    losses = dict.fromkeys(ruleset.racing_camels, 0)
    reveal = race.reveal
    leg_is_over = leg.leg_is_over
    draw = rng.random
    full = ruleset.dice
    for done in range(races):
        moved = list(track)
        dice = list(pyramid)
        on_track = tiles
        out = revealed
        while True:
            die = dice.pop(int(draw() * len(dice)))
            faces_of = rolls[die]
            _, crossed = reveal(moved, on_track, ruleset, faces_of[int(draw() * len(faces_of))])
            if crossed:
                break
            out += 1
            if leg_is_over(ruleset, out) or not dice:  # leg.cleanup: tiles off, dice back
                dice, on_track, out = list(full), (), 0
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

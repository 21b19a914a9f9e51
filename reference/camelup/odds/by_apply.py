"""The leg odds by plain enumeration through ``apply``: slow, simple, independent of the oracle.

This is the check for :mod:`camelup.odds.exact`, in the way perft checks a chess move generator: it
plays the pyramid action with every roll of :func:`camelup.chance_outcomes` through
:func:`camelup.apply`, multiplies their exact probabilities along each path, and stops a path
at the leg scoring event (``LegScored``), which ``apply`` emits both at the end of a leg and at
the end of the race. It shares no code with the oracle
beyond the engine itself: no memo, no integer weights, no result type.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import attrs

from camelup.model.actions import TakePyramidTicket
from camelup.model.camels import Camel
from camelup.model.events import GameEnded, LegScored, TilePaid
from camelup.model.state import State
from camelup.play.engine import apply, chance_outcomes
from camelup.rules.ranking import ranking


@attrs.frozen
class Leaf:
    """One outcome sequence: its probability, the final ranking, whether the race ended, the
    tile coins each owner earned and each player's leg-ticket rewards in the scoring."""

    probability: Fraction
    ranking: tuple[Camel, ...]
    race_ended: bool
    tile_coins: dict[int, int]
    ticket_rewards: dict[int, int]


def leaves(state: State) -> Iterator[Leaf]:
    """Every outcome sequence of the rest of the leg, in ``chance_outcomes`` order."""
    yield from _walk(state, Fraction(1), {})


def _walk(state: State, probability: Fraction, coins: dict[int, int]) -> Iterator[Leaf]:
    for roll, chance in chance_outcomes(state):
        result = apply(state, TakePyramidTicket(state.to_move, roll))
        here = probability * chance
        earned = dict(coins)
        scored = None
        ended = False
        for event in result.events:
            if isinstance(event, TilePaid):
                earned[event.owner] = earned.get(event.owner, 0) + event.amount
            elif isinstance(event, LegScored):
                scored = event
            elif isinstance(event, GameEnded):
                ended = True
        if scored is None:
            yield from _walk(result.state, here, earned)
            continue
        rewards = {s.player: sum(r for _, r in s.tickets) for s in scored.scores}
        # the track is left as it was at the scoring, after a leg end and a race end alike
        yield Leaf(here, ranking(result.state.track), ended, earned, rewards)


@attrs.frozen
class Summary:
    """What the leaves add up to: each camel's place probabilities (first to last), the chance
    that the race ends, the number of sequences, each owner's expected tile coins and each
    player's expected leg-ticket rewards."""

    places: dict[Camel, list[Fraction]]
    race_end: Fraction
    sequences: int
    tile_coins: dict[int, Fraction]
    ticket_rewards: dict[int, Fraction]


def summary(state: State) -> Summary:
    camels = state.ruleset.racing_camels
    places = {c: [Fraction(0)] * len(camels) for c in camels}
    race_end = Fraction(0)
    sequences = 0
    coins: dict[int, Fraction] = {}
    rewards: dict[int, Fraction] = {}
    for leaf in leaves(state):
        sequences += 1
        for place, camel in enumerate(leaf.ranking):
            places[camel][place] += leaf.probability
        if leaf.race_ended:
            race_end += leaf.probability
        for owner, amount in leaf.tile_coins.items():
            coins[owner] = coins.get(owner, Fraction(0)) + amount * leaf.probability
        for player, amount in leaf.ticket_rewards.items():
            rewards[player] = rewards.get(player, Fraction(0)) + amount * leaf.probability
    return Summary(places, race_end, sequences, coins, rewards)

"""Chapter 2: setting up a game from explicit inputs (``spec/02-setup.md``).

The dice rolls, the stacking order of camels sharing a space, which crazy camel is placed
first and the first player are all inputs: the engine itself draws nothing at random.
:func:`random_setup` draws those inputs from a ``random.Random`` you pass in.
"""

from __future__ import annotations

import random

import attrs

from camelup.model.camels import CRAZY_CAMELS, DIE_OF_CAMEL, Camel, Die
from camelup.model.dice import DieRoll, face_problem
from camelup.model.errors import InvalidSetup, pointer
from camelup.model.ruleset import STARTING_MONEY, Edition, Ruleset
from camelup.model.state import Player, State
from camelup.model.trace import implements
from camelup.model.track import LAST_SPACE, SLOTS, slot

CRAZY_START_SPACE = {1: LAST_SPACE, 2: LAST_SPACE - 1, 3: LAST_SPACE - 2}


@attrs.frozen
class Setup:
    """The inputs of setup.

    ``racing_rolls``: one roll per racing camel (the die of that camel and its value 1-3).
    ``stacking``: every racing camel once, bottom to top; camels that share a start space are
    stacked in this relative order. ``crazy_rolls``: the two grey-die rolls (2nd edition; only
    the number counts). ``first_crazy``: the crazy camel placed with the first roll.
    ``start_player``: the seat that holds the start marker (the youngest player).
    """

    racing_rolls: tuple[DieRoll, ...]
    stacking: tuple[Camel, ...]
    start_player: int = 0
    crazy_rolls: tuple[DieRoll, ...] = ()
    first_crazy: Camel | None = None


def _setup_error(clause: str, message: str, pointer: str) -> InvalidSetup:
    return InvalidSetup("bad-setup", clause, message, pointer)


@implements(
    "setup.leg-ticket-stacks",
    "setup.pyramid-tickets",
    "setup.money",
    "setup.player-kit",
    "setup.partnership-cards",
    "setup.racing-camels",
    "setup.stack-order",
    "setup.crazy-space",
    "setup.crazy-second",
    "setup.dice-in-pyramid",
    "setup.start-player",
    "tickets.leg.first",
    "tickets.leg.second",
    "tickets.pyramid",
    "camels.racing.first",
    "camels.racing.second",
    "camels.crazy",
)
def new_game(ruleset: Ruleset, setup: Setup) -> State:
    """The state at the start of the first leg."""
    racing = ruleset.racing_camels
    values: dict[Camel, int] = {}
    for index, roll in enumerate(setup.racing_rolls):
        camel = roll.die.camel
        if camel not in racing or camel in values:
            message = f"one roll per racing camel is needed, not a second or other {roll.die.value}"
            raise _setup_error("setup.racing-camels", message, f"/racing_rolls/{index}/die")
        face = face_problem(roll)
        if face is not None:
            raise _setup_error(
                face.clause, face.message, pointer("racing_rolls", index, *face.where)
            )
        values[camel] = roll.value
    if len(values) != len(racing):
        raise _setup_error(
            "setup.racing-camels", "one roll per racing camel is needed", "/racing_rolls"
        )
    if len(setup.stacking) != len(racing) or set(setup.stacking) != values.keys():
        message = "the stacking order must list every racing camel once"
        raise _setup_error("setup.stack-order", message, "/stacking")
    if not 0 <= setup.start_player < ruleset.players:
        raise _setup_error("setup.start-player", "the start player must be a seat", "/start_player")
    track: list[tuple[Camel, ...]] = [()] * SLOTS
    for camel in setup.stacking:
        index = slot(values[camel])
        track[index] = track[index] + (camel,)
    if ruleset.edition is Edition.SECOND:
        _place_crazy_camels(track, setup)
    elif setup.crazy_rolls or setup.first_crazy is not None:
        message = "the first edition has no crazy camels"
        raise _setup_error(
            "camels.crazy", message, "/crazy_rolls" if setup.crazy_rolls else "/first_crazy"
        )
    players = tuple(Player(money=STARTING_MONEY) for _ in range(ruleset.players))
    return State(
        ruleset=ruleset,
        track=tuple(track),
        tiles=(),
        revealed=(),
        players=players,
        winner_pile=(),
        loser_pile=(),
        to_move=setup.start_player,
        start_player=setup.start_player,
        leg=1,
    )


def _place_crazy_camels(track: list[tuple[Camel, ...]], setup: Setup) -> None:
    if len(setup.crazy_rolls) != 2:
        raise _setup_error("setup.crazy-space", "two grey-die rolls are needed", "/crazy_rolls")
    if setup.first_crazy not in CRAZY_CAMELS:
        message = "the crazy camel placed first must be named"
        raise _setup_error("setup.crazy-space", message, "/first_crazy")
    second = CRAZY_CAMELS[1] if setup.first_crazy is CRAZY_CAMELS[0] else CRAZY_CAMELS[0]
    placed = (setup.first_crazy, second)
    for index, (camel, roll) in enumerate(zip(placed, setup.crazy_rolls, strict=True)):
        if roll.die is not Die.GREY:
            raise _setup_error(
                "setup.crazy-space", "a grey-die roll is needed", f"/crazy_rolls/{index}/die"
            )
        face = face_problem(roll)
        if face is not None:
            raise _setup_error(
                face.clause, face.message, pointer("crazy_rolls", index, *face.where)
            )
        where = slot(CRAZY_START_SPACE[roll.value])
        track[where] = track[where] + (camel,)  # the second goes on top of the first


def random_setup(ruleset: Ruleset, rng: random.Random) -> Setup:
    """Draw every setup input from ``rng``: the only randomness of the library is here."""
    racing = ruleset.racing_camels
    rolls = tuple(DieRoll(DIE_OF_CAMEL[c], rng.randint(1, 3)) for c in racing)
    stacking = list(racing)
    rng.shuffle(stacking)
    start = rng.randrange(ruleset.players)
    if ruleset.edition is Edition.FIRST:
        return Setup(rolls, tuple(stacking), start)
    grey = tuple(DieRoll(Die.GREY, rng.randint(1, 3), rng.choice(CRAZY_CAMELS)) for _ in range(2))
    return Setup(rolls, tuple(stacking), start, grey, rng.choice(CRAZY_CAMELS))

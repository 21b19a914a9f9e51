"""camelup: the formal reference implementation of the rules of Camel Up.

>>> import random
>>> from camelup import Edition, Ruleset, apply, legal_actions, new_game, random_setup
>>> ruleset = Ruleset(Edition.SECOND, players=4)
>>> state = new_game(ruleset, random_setup(ruleset, random.Random(1)))
>>> len(state.players), state.leg
(4, 1)
"""

from camelup.model.actions import (
    Action,
    FormPartnership,
    MoveTile,
    PlaceFinishCard,
    PlaceTile,
    TakeLegTicket,
    TakePyramidTicket,
)
from camelup.model.camels import CRAZY_CAMELS, Camel, Die
from camelup.model.dice import DieRoll
from camelup.model.errors import (
    CamelUpError,
    IllegalAction,
    InvalidRuleset,
    InvalidSetup,
    InvalidState,
)
from camelup.model.ruleset import Edition, Module, Ruleset, Variant
from camelup.model.state import (
    FinishCard,
    GameResult,
    LegTicket,
    Pile,
    Player,
    State,
    Tile,
    TileSide,
)
from camelup.play.engine import Result, apply, chance_outcomes, legal_actions
from camelup.rules.ranking import ranking
from camelup.rules.setup import Setup, new_game, random_setup

__all__ = [
    "CRAZY_CAMELS",
    "Action",
    "Camel",
    "CamelUpError",
    "Die",
    "DieRoll",
    "Edition",
    "FinishCard",
    "FormPartnership",
    "GameResult",
    "IllegalAction",
    "InvalidRuleset",
    "InvalidSetup",
    "InvalidState",
    "LegTicket",
    "Module",
    "MoveTile",
    "Pile",
    "PlaceFinishCard",
    "PlaceTile",
    "Player",
    "Result",
    "Ruleset",
    "Setup",
    "State",
    "TakeLegTicket",
    "TakePyramidTicket",
    "Tile",
    "TileSide",
    "Variant",
    "apply",
    "chance_outcomes",
    "legal_actions",
    "new_game",
    "random_setup",
    "ranking",
]

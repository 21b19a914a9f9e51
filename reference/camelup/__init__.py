"""camelup: the formal reference implementation of the rules of Camel Up.

>>> import random
>>> from camelup import Edition, Ruleset, apply, legal_actions, new_game, random_setup
>>> ruleset = Ruleset(Edition.SECOND, players=4)
>>> state = new_game(ruleset, random_setup(ruleset, random.Random(1)))
>>> len(state.players), state.leg
(4, 1)
"""

# The public names are imported on first use, not by ``import camelup``: the command line
# (camelup.cli) sits in this package, and its signal handlers must be in place before the
# engine's modules load, so that a Ctrl-C at start-up ends in one line, not a traceback. Even
# typing is not imported: type checkers read any ``if TYPE_CHECKING:`` block.
TYPE_CHECKING = False

if TYPE_CHECKING:
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

_DEFINED_IN = (  # the modules that define the names of __all__
    "camelup.model.actions",
    "camelup.model.camels",
    "camelup.model.dice",
    "camelup.model.errors",
    "camelup.model.ruleset",
    "camelup.model.state",
    "camelup.play.engine",
    "camelup.rules.ranking",
    "camelup.rules.setup",
)


def __getattr__(name: str) -> object:
    """A public name, imported with all the others the first time one is asked for."""
    if name not in __all__:
        raise AttributeError(f"module 'camelup' has no attribute {name!r}")
    import importlib

    for module_name in _DEFINED_IN:
        module = importlib.import_module(module_name)
        globals().update(
            (public, getattr(module, public)) for public in __all__ if hasattr(module, public)
        )
    return globals()[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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

"""The odds on the wire, written once: the leg's exact odds as the adapter protocol carries them
(capability ``odds``) and, around them, the document ``camelup odds --json`` prints (the action
values and the Monte Carlo race estimates). Every probability is an exact ``"n/d"`` string,
spelled by :func:`camelup.io.codec.to_json`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from camelup.io.codec import to_json
from camelup.model.actions import TakePyramidTicket
from camelup.model.camels import Camel
from camelup.odds.exact import ActionValue, LegOdds
from camelup.odds.races import Estimate, RaceEstimates

__all__ = ["leg_odds_json", "odds_json", "race_json"]


def leg_odds_json(odds: LegOdds) -> dict[str, Any]:
    """The leg's odds as the protocol's ``odds`` reply member carries them."""
    return {
        "places": {camel.value: to_json(row) for camel, row in odds.places().items()},
        "race_end": to_json(odds.race_end),
        "sequences": odds.sequences,
    }


def odds_json(odds: LegOdds, values: Iterable[ActionValue] = ()) -> dict[str, Any]:
    """The leg's odds with the outcome counts and the value of each action, best first."""
    return {
        **leg_odds_json(odds),
        "race_end_sequences": odds.race_end_sequences,
        "total_weight": odds.total_weight,
        "actions": [
            {
                "action": _action_json(value.action),
                "value": to_json(value.value),
                "tile_coins": to_json(value.tile_coins),
                "tile_coins_now": to_json(value.tile_coins_now),
                "ticket_change": to_json(value.ticket_change),
            }
            for value in values
        ],
    }


def race_json(estimates: RaceEstimates) -> dict[str, Any]:
    """The Monte Carlo estimates: each figure as ``[value, low, high]`` (a 95% interval)."""

    def figures(table: Mapping[Camel, Estimate]) -> dict[str, list[float]]:
        return {camel.value: [e.value, e.low, e.high] for camel, e in table.items()}

    return {
        "races": estimates.races,
        "seed": estimates.seed,
        "winner": figures(estimates.winner),
        "loser": figures(estimates.loser),
        "winner_card": figures(estimates.winner_card),
        "loser_card": figures(estimates.loser_card),
    }


def _action_json(action: Any) -> Any:
    """The action as JSON; the pyramid action without a roll, which it does not choose."""
    if type(action) is TakePyramidTicket:
        return {"type": "take_pyramid_ticket", "player": action.player}
    return to_json(action)

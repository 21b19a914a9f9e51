"""The odds as text for a terminal: the leg's place table, an action's name, and the table of
the Monte Carlo race estimates with their 95% intervals."""

from __future__ import annotations

from camelup.io.codec import to_json
from camelup.model.actions import Action, MoveTile, PlaceTile, TakeLegTicket
from camelup.odds.exact import LegOdds
from camelup.odds.races import Estimate, RaceEstimates

__all__ = ["action_label", "leg_table", "race_table"]

_PLACES = ("1st", "2nd", "3rd", "4th", "5th")


def leg_table(leg: LegOdds) -> list[str]:
    """Each racing camel's chance of each place, then the chance the race ends in the leg."""
    places = leg.places()
    header = " ".join(f"{n:>9}" for n in _PLACES[: len(places)])
    lines = [
        f"leg odds ({leg.steps} dice to come, {leg.sequences:,} outcome sequences)",
        f"{'camel':8} {header}",
    ]
    for camel, row in places.items():
        lines.append(f"{camel.value:8} " + " ".join(f"{float(p):9.4f}" for p in row))
    lines.append(f"race ends this leg: {float(leg.race_end):.4f} ({to_json(leg.race_end)})")
    return lines


def action_label(action: Action) -> str:
    """``leg ticket blue``, ``place tile on 7 mirage``, ``pyramid ticket``..."""
    if isinstance(action, TakeLegTicket):
        return f"leg ticket {action.camel.value}"
    if isinstance(action, PlaceTile | MoveTile):
        verb = "place" if isinstance(action, PlaceTile) else "move"
        return f"{verb} tile on {action.space} {action.side.value}"
    return "pyramid ticket"


def race_table(estimates: RaceEstimates) -> list[str]:
    """Each camel's chance to win and to lose the race, and its winner and loser cards."""

    def cell(e: Estimate, digits: int = 4) -> str:
        return f"{e.value:.{digits}f} [{e.low:.{digits}f},{e.high:.{digits}f}]"

    lines = [
        f"whole race, {estimates.races:,} races by dice alone (seed {estimates.seed}),"
        " 95% intervals:",
        f"{'camel':8} {'wins':>20} {'loses':>20} {'winner card':>22} {'loser card':>22}",
    ]
    for camel in estimates.winner:
        wins, loses = cell(estimates.winner[camel]), cell(estimates.loser[camel])
        winner_card = cell(estimates.winner_card[camel], 3)
        loser_card = cell(estimates.loser_card[camel], 3)
        lines.append(f"{camel.value:8} {wins:>20} {loses:>20} {winner_card:>22} {loser_card:>22}")
    return lines

"""Rule features a case needs beyond its rule set: today, betting partnerships.

The second edition plays with partnership cards from six players on (``setup.partnership-cards``,
``partner.six-plus``), but a game of six to eight players in which no partnership is ever formed
goes exactly as it would without the cards. Engines that support 6-8 players but no partnership
cards declare ``"partnerships": false`` in their hello's ``supports`` (an adapter that says
nothing is taken to support them, as protocol 1 always assumed); the runner then sends them every
case of their editions except those that need partnerships.

Whether a case needs them is derived from the case itself, never written by hand: it needs them
when its rule set has partnership cards (2nd edition, six players or more) and anything in the
case plays or shows one: a ``form_partnership`` step, a given state in which a player has a
partner, or an expectation that names one (a ``form_partnership`` among legal actions, a
``partnership_formed`` event, a player's ``partner`` set, a partner bonus paid at leg scoring).
A legal-actions check of such a rule set lists the ``form_partnership`` actions a player could
take, so it is caught by the same scan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from camelup.model.ruleset import PARTNERSHIP_MIN_PLAYERS

PARTNERSHIP_ACTION = "form_partnership"
PARTNERSHIP_EVENT = "partnership_formed"
PARTNERSHIP_SKIP = "the adapter does not support partnerships (the case forms or shows one)"


def has_partnership_cards(ruleset: Mapping[str, Any]) -> bool:
    """Whether this rule set deals partnership cards (2nd edition, six players or more)."""
    players = ruleset.get("players")
    return (
        ruleset.get("edition") == "second"
        and isinstance(players, int)
        and not isinstance(players, bool)
        and players >= PARTNERSHIP_MIN_PLAYERS
    )


def needs_partnerships(case: Mapping[str, Any]) -> bool:
    """Whether ``case`` (its JSON as in a case file, or as sent on the wire) plays or shows a
    betting partnership, so that only an engine with partnership cards can pass it."""
    if not has_partnership_cards(case.get("ruleset", {})):
        return False
    return any(_shows_partnership(case.get(part)) for part in ("given", "steps", "expect", "want"))


def _shows_partnership(node: Any) -> bool:
    """A partnership action or event, a partner set, or a partner bonus anywhere in ``node``."""
    if isinstance(node, Mapping):
        if node.get("type") in (PARTNERSHIP_ACTION, PARTNERSHIP_EVENT):
            return True
        if node.get("partner") is not None and "finish_cards" in node:  # a player of a state
            return True
        bonus = node.get("partner_bonus")
        if isinstance(bonus, int) and not isinstance(bonus, bool) and bonus != 0:
            return True
        return any(
            _shows_partnership(value) or _is_partner_pointer(key, value)
            for key, value in node.items()
        )
    if isinstance(node, list):
        return any(_shows_partnership(item) for item in node)
    return False


def _is_partner_pointer(key: str, value: Any) -> bool:
    """A state check's ``"/players/3/partner": 0`` (or a whole player with a partner)."""
    if not key.startswith("/players/"):
        return False
    if key.endswith("/partner"):
        return value is not None
    return isinstance(value, Mapping) and value.get("partner") is not None


__all__ = ["PARTNERSHIP_SKIP", "has_partnership_cards", "needs_partnerships"]

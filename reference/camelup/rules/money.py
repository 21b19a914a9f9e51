"""Chapter 12: money (``spec/12-money.md``)."""

from __future__ import annotations

from collections.abc import Iterable

from camelup.model.state import Player
from camelup.model.trace import implements


@implements("money.bank-unlimited")
def pay(players: tuple[Player, ...], payments: Iterable[tuple[int, int]]) -> tuple[Player, ...]:
    """``players`` after the bank paid each ``(seat, amount)`` in full (the bank never runs out).

    The one place where money changes hands: tile payments, leg scoring and the end of the race
    all pay through it. An amount may be negative; the rule that decided it has already applied
    the floor (``money.floor``). Tickets held stay held.
    """
    paid = list(players)
    for seat, amount in payments:
        player = paid[seat]
        paid[seat] = Player(player.money + amount, player.leg_tickets, player.pyramid_tickets)
    return tuple(paid)

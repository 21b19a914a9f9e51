"""Chapter 12: money (``spec/12-money.md``)."""

from __future__ import annotations

from collections.abc import Iterable

from camelup.model.state import Player
from camelup.model.trace import implements


@implements("money.bank-unlimited")
def balances(players: tuple[Player, ...], payments: Iterable[tuple[int, int]]) -> list[int]:
    """Each player's money after the bank paid each ``(seat, amount)`` in full (the bank never
    runs out).

    The one place where money changes hands: tile payments, leg scoring and the end of the race
    all pay through it (or through :func:`pay`). An amount may be negative; the rule that
    decided it has already applied the floor (``money.floor``).
    """
    money = [player.money for player in players]
    for seat, amount in payments:
        money[seat] += amount
    return money


def pay(players: tuple[Player, ...], payments: Iterable[tuple[int, int]]) -> tuple[Player, ...]:
    """``players`` with their :func:`balances` after ``payments``; tickets held stay held. A
    player whose money did not change is the same object (``apply`` makes one per payment)."""
    paid = list(players)
    for seat, money in enumerate(balances(players, payments)):
        player = paid[seat]
        if money != player.money:
            paid[seat] = Player(money, player.leg_tickets, player.pyramid_tickets)
    return tuple(paid)

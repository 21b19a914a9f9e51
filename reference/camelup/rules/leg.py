"""Chapter 10: the end of a leg, leg scoring and the next start player (``spec/10-leg.md``)."""

from __future__ import annotations

from typing import Final

from camelup.model.camels import Camel
from camelup.model.events import LegScored, PlayerLegScore, StartPlayerPassed
from camelup.model.ruleset import Ruleset, Variant
from camelup.model.state import LegTicket, Player
from camelup.model.trace import implements
from camelup.rules import money


@implements("leg.end.first", "leg.end.second")
def leg_is_over(ruleset: Ruleset, dice_revealed: int) -> bool:
    """A leg ends once 5 dice are out: all of them in the 1st edition, 5 of 6 in the 2nd."""
    return dice_revealed >= ruleset.dice_per_leg


@implements("leg.score.leader", "leg.score.second", "leg.score.others")
def ticket_reward(ticket: LegTicket, leader: Camel, second: Camel) -> int:
    """A ticket on the leader pays its value, on the second camel 1; any other costs 1."""
    if ticket.camel is leader:
        return ticket.value
    if ticket.camel is second:
        return 1
    return -1


@implements("partner.copy-best", "partner.not-tiles")
def partner_bonus(partner: Player, leader: Camel, second: Camel) -> int:
    """The best single reward among the partner's tickets (a pyramid ticket is worth 1), or 0:
    copying is optional, so a partner holding only losing tickets adds nothing."""
    rewards = [ticket_reward(t, leader, second) for t in partner.leg_tickets]
    if partner.pyramid_tickets:
        rewards.append(1)
    return max([0, *rewards])


@implements("leg.score.pyramid", "leg.score.net", "money.floor")
def score_leg(
    players: tuple[Player, ...],
    partnerships: tuple[tuple[int, int], ...],
    ranked: tuple[Camel, ...],
    leg: int,
) -> LegScored:
    """Every player's tickets, pyramid tickets and partner bonus, settled in one payment each.

    The event's ``paid`` per player is the change of money after the zero floor.
    """
    leader, second = ranked[0], ranked[1]
    partner_of: dict[int, int] = {}
    for first, other in partnerships:
        partner_of[first], partner_of[other] = other, first
    scores = []
    for seat, player in enumerate(players):
        total = player.pyramid_tickets
        tickets: tuple[tuple[LegTicket, int], ...] = ()
        if player.leg_tickets:
            tickets = tuple((t, ticket_reward(t, leader, second)) for t in player.leg_tickets)
            total += sum(reward for _, reward in tickets)
        bonus = 0
        if seat in partner_of:
            bonus = partner_bonus(players[partner_of[seat]], leader, second)
            total += bonus
        paid = max(0, player.money + total) - player.money
        scores.append(PlayerLegScore(seat, tickets, player.pyramid_tickets, bonus, total, paid))
    return LegScored(leg, leader, second, tuple(scores))


@implements("leg.cleanup", "partner.reset")
def players_for_new_leg(players: tuple[Player, ...], scored: LegScored) -> tuple[Player, ...]:
    """After leg scoring: the money paid; tickets back to their stacks (the state then has no
    partnerships either: the partnership cards go back to their owners)."""
    settled = money.balances(players, [(score.player, score.paid) for score in scored.scores])
    return tuple(Player(amount) for amount in settled)


_START_MARKER_ROTATES: Final = Variant.START_MARKER_ROTATES  # a module constant: see rules/race.py


@implements("leg.start-player", "leg.start-player.rotate")
def next_start_player(
    ruleset: Ruleset, last_pyramid_taker: int, start_player: int
) -> StartPlayerPassed:
    """The marker goes to the player left of whoever took the last pyramid ticket; under the
    variant ``start-marker-rotates`` it goes to the left neighbour of its holder instead."""
    if _START_MARKER_ROTATES in ruleset.variants:
        return StartPlayerPassed((start_player + 1) % ruleset.players, "leg.start-player.rotate")
    return StartPlayerPassed((last_pyramid_taker + 1) % ruleset.players, "leg.start-player")

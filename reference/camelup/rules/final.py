"""Chapter 11: final scoring and the winners (``spec/11-game-end.md``)."""

from __future__ import annotations

from typing import Final

from camelup.model.camels import Camel
from camelup.model.events import FinishCardScored
from camelup.model.ruleset import Ruleset, Variant
from camelup.model.state import FinishCard, Pile
from camelup.model.trace import implements

CORRECT_CARD_PAYOUTS: Final = (8, 5, 3, 2)
LATER_CORRECT_CARD_PAYOUT: Final = 1
WRONG_CARD_COST: Final = -1


@implements("final.correct-pays", "final.wrong-costs")
def card_amounts(pile: tuple[FinishCard, ...], camel: Camel) -> list[int]:
    """What each card of a pile is worth, in placement order: 8, 5, 3, 2, then 1 for each
    further correct card; -1 for every wrong one."""
    amounts = []
    correct = 0
    for card in pile:
        if card.camel is camel:
            amounts.append(
                CORRECT_CARD_PAYOUTS[correct]
                if correct < len(CORRECT_CARD_PAYOUTS)
                else LATER_CORRECT_CARD_PAYOUT
            )
            correct += 1
        else:
            amounts.append(WRONG_CARD_COST)
    return amounts


@implements("final.pile-order", "final.pile-sequence", "final.loser", "final.net", "money.floor")
def score_finish_piles(
    ruleset: Ruleset,
    money: list[int],
    winner_pile: tuple[FinishCard, ...],
    loser_pile: tuple[FinishCard, ...],
    winner: Camel,
    loser: Camel,
) -> list[FinishCardScored]:
    """Score the winner pile, then the loser pile, each from the first card placed, changing
    ``money`` in place. Each payment is floored at 0 on its own; under ``final-scoring-net``
    each player's cards of one pile are added up and settled once."""
    events: list[FinishCardScored] = []
    net = Variant.FINAL_SCORING_NET in ruleset.variants
    for pile, pile_name, camel in (
        (winner_pile, Pile.WINNER, winner),
        (loser_pile, Pile.LOSER, loser),
    ):
        amounts = card_amounts(pile, camel)
        if net:
            totals: dict[int, int] = {}
            for card, amount in zip(pile, amounts, strict=True):
                totals[card.owner] = totals.get(card.owner, 0) + amount
            paid_now = {}
            for owner, total in totals.items():
                after = max(0, money[owner] + total)
                paid_now[owner] = after - money[owner]
                money[owner] = after
            for card, amount in zip(pile, amounts, strict=True):
                paid = paid_now.pop(card.owner, 0)
                events.append(
                    FinishCardScored(
                        pile_name,
                        card.owner,
                        card.camel,
                        card.camel is camel,
                        amount,
                        paid,
                        "final.net",
                    )
                )
            continue
        for card, amount in zip(pile, amounts, strict=True):
            after = max(0, money[card.owner] + amount)
            paid = after - money[card.owner]
            money[card.owner] = after
            clause = "final.correct-pays" if amount > 0 else "final.wrong-costs"
            events.append(
                FinishCardScored(
                    pile_name, card.owner, card.camel, amount > 0, amount, paid, clause
                )
            )
    return events

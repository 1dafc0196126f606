"""Bazar Blot card orders and points (bot/rulebook/blot.md "Card order and points").

Strength comes from the explicit order tables, never from point values:
plain 9 > 8 > 7 although all three score 0.
"""

from __future__ import annotations

from engine.core.cards import Card, standard_deck
from engine.core.trick import Ranking

J, Q, K, A, T = 11, 12, 13, 14, 10
#: trump, high to low: J 9 A T K Q 8 7
TRUMP_ORDER: tuple[int, ...] = (J, 9, A, T, K, Q, 8, 7)
#: plain and no-trump, high to low: A T K Q J 9 8 7
PLAIN_ORDER: tuple[int, ...] = (A, T, K, Q, J, 9, 8, 7)
#: sequences (runs) use the natural order A K Q J T 9 8 7
NATURAL_ORDER: tuple[int, ...] = (A, K, Q, J, T, 9, 8, 7)

TRUMP_POINTS = {J: 20, 9: 14, A: 11, T: 10, K: 4, Q: 3, 8: 0, 7: 0}
PLAIN_POINTS = {A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0}
NT_POINTS = {A: 19, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0}
LAST_TRICK_BONUS = 10
DEAL_TOTAL = 162

_TRUMP_POWER = {rank: len(TRUMP_ORDER) - i for i, rank in enumerate(TRUMP_ORDER)}
_PLAIN_POWER = {rank: len(PLAIN_ORDER) - i for i, rank in enumerate(PLAIN_ORDER)}


class BlotRanking(Ranking):
    """The explicit trump and plain orders."""

    def plain_power(self, card: Card) -> int:
        return _PLAIN_POWER[card.rank]

    def trump_power(self, card: Card) -> int:
        return _TRUMP_POWER[card.rank]


BLOT_RANKING = BlotRanking()


def blot_deck() -> list[Card]:
    """The 32 cards 7 8 9 T J Q K A of each suit."""
    return standard_deck(min_rank=7)


def card_points(card: Card, trump: str | None) -> int:
    """Raw points of a card under a suit contract (``trump``) or NT (None)."""
    if trump is None:
        return NT_POINTS[card.rank]
    if card.suit == trump:
        return TRUMP_POINTS[card.rank]
    return PLAIN_POINTS[card.rank]

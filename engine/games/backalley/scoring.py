"""Backalley scoring and the deal sequence (bot/rulebook/backalley.md).

Normal bid ``b`` with ``t`` tricks: ``3b + (t - b)`` if ``t >= b`` else
``-3b`` (a bid of 0 scores +1 a trick and is never negative).  Backalley on
a hand of ``h``: ``+10h`` for every trick, ``-10h`` otherwise.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

JOKERS_AND_DECK = 54


def score_bid(bid: int, tricks: int) -> int:
    if tricks >= bid:
        return 3 * bid + (tricks - bid)
    return -3 * bid


def score_backalley(hand_size: int, tricks: int) -> int:
    return 10 * hand_size if tricks == hand_size else -10 * hand_size


def score_deal(
    hand_size: int, bids: Sequence[int], backalley: Collection[int], tricks: Sequence[int]
) -> tuple[int, ...]:
    """Every seat's deal score: ``score_backalley`` for the seats that bid
    backalley, ``score_bid`` for the others (rules "Scoring")."""
    return tuple(
        score_backalley(hand_size, t) if s in backalley else score_bid(b, t)
        for s, (b, t) in enumerate(zip(bids, tricks, strict=True))
    )


def peak(players: int, max_cards: int) -> int:
    """``M = min(max_cards, floor(53 / N))``: one card always stays to turn."""
    return min(max_cards, 53 // players)


def deal_sizes(players: int, max_cards: int) -> list[int]:
    """Hand sizes 1, 2, ..., M, ..., 2, 1 (the peak once, 2M - 1 deals)."""
    m = peak(players, max_cards)
    return [*range(1, m + 1), *range(m - 1, 0, -1)]

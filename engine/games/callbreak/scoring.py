"""Callbreak deal scoring (bot/rulebook/callbreak.md "Scoring"), in integer tenths.

Made (tricks >= bid): ``bid + 0.1 x (tricks - bid)``; failed: ``-bid``.
Scores are integer tenths (3.2 is 32), so sums never drift.
"""

from __future__ import annotations

from collections.abc import Sequence


def score_bid(bid: int, tricks: int) -> int:
    """One player's deal score in tenths."""
    if tricks >= bid:
        return 10 * bid + (tricks - bid)
    return -10 * bid


def score_deal(bids: Sequence[int], tricks: Sequence[int]) -> tuple[int, ...]:
    """Every player's deal score in tenths."""
    return tuple(score_bid(b, t) for b, t in zip(bids, tricks, strict=True))


def format_tenths(tenths: int) -> str:
    """32 -> '3.2', -30 -> '-3.0' (exact: no float involved)."""
    sign = "-" if tenths < 0 else ""
    whole, frac = divmod(abs(tenths), 10)
    return f"{sign}{whole}.{frac}"

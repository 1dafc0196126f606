"""The deal cap: every match of a game played to a target score ends.

Batak and Blot are played "to a target score", and nothing guarantees that a
team ever gets there: in Eşli Batak both teams can lose points in one deal
(four easy AI players drifted to about -10,500 after 200,000 moves), and in
Bazar Blot four passes redeal for nothing.  So each of them has the setting
``max_deals``: when deal number ``max_deals`` is over (scored, or passed
out) and no team has won by the target, the match ends there, the team with
the higher total wins, and equal totals make a drawn match (as Ladder's
capped match).  The default, 200, is far above what real matches take
(docs/benchmarks.md, "Match length": at most 13 deals for Batak to 50 and
20 for Blot to 301 between normal AI players, 114 and 64 at the highest
targets), so it never ends a normal match early; it only bounds one that
would never end.

The setting came after matches were recorded, so ``Variant.to_dict`` writes
it only when it differs from its default (``setting(..., added=True)``): the
records, stored variants and fingerprints of earlier matches stay the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core.spec import setting

#: the default and the range of ``max_deals``
MAX_DEALS_DEFAULT = 200
MAX_DEALS_BOUNDS = (10, 1000)
MAX_DEALS_HELP = "deals before the match ends at the higher total"


def max_deals_setting() -> Any:
    """The ``max_deals`` field of a game's ``Variant``."""
    return setting(MAX_DEALS_DEFAULT, bounds=MAX_DEALS_BOUNDS, help=MAX_DEALS_HELP, added=True)


def cap_reached(deal_number: int, max_deals: int) -> bool:
    """True when the deal numbered ``deal_number`` (1-based) is the last one."""
    return deal_number >= max_deals


def higher_total(totals: Sequence[int]) -> int | None:
    """The team with the higher total (0 or 1), None when they are equal."""
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def team_ranking(winner: int | None) -> tuple[int, int]:
    """Two teams' ranks: the winner first, a draw shared."""
    if winner is None:
        return (1, 1)
    return (1, 2) if winner == 0 else (2, 1)

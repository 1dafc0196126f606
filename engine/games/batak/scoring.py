"""Eşli Batak deal scoring and the end of the match (bot/rulebook/batak.md,
"Scoring (per deal)" and "End").

With ``T`` the declaring team's tricks and ``O = 13 - T``: declarers score
``+T`` if ``T >= bid`` else ``-bid``; defenders ``+O`` if ``O >= min`` else
``-bid`` -- the penalty *replaces* their trick points.
"""

from __future__ import annotations

from collections.abc import Sequence

TRICKS_PER_DEAL = 13


def score_deal(
    bid: int, declarer_team: int, declarer_tricks: int, defender_min_tricks: int = 2
) -> tuple[int, int]:
    """Points for (team 0, team 1) in one deal."""
    defender_tricks = TRICKS_PER_DEAL - declarer_tricks
    declarers = declarer_tricks if declarer_tricks >= bid else -bid
    defenders = defender_tricks if defender_tricks >= defender_min_tricks else -bid
    return (declarers, defenders) if declarer_team == 0 else (defenders, declarers)


def score_tricks(
    bid: int, declarer: int, tricks_won: Sequence[int], defender_min_tricks: int = 2
) -> tuple[int, int]:
    """``score_deal`` from the tricks each seat took: partners (seats s and
    s + 2) count together."""
    team = declarer % 2
    return score_deal(bid, team, tricks_won[team] + tricks_won[team + 2], defender_min_tricks)


def match_winner(totals: Sequence[int], target: int) -> int | None:
    """The winning team after a deal, or None to deal again: exactly one team
    at the target wins; both -> the higher total; equal -> play on."""
    reached = [team for team, total in enumerate(totals) if total >= target]
    if not reached:
        return None
    if len(reached) == 1:
        return reached[0]
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1

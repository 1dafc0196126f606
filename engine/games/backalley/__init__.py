"""Backalley: see ``rules.py`` and bot/rulebook/backalley.md."""

from engine.games.backalley.rules import BACKALLEY, BackalleyState, BackalleyVariant, JokerRanking
from engine.games.backalley.scoring import deal_sizes, peak, score_backalley, score_bid

__all__ = [
    "BACKALLEY",
    "BackalleyState",
    "BackalleyVariant",
    "JokerRanking",
    "deal_sizes",
    "peak",
    "score_backalley",
    "score_bid",
]

"""Bazar Blot: see ``rules.py`` and bot/rulebook/blot.md."""

from engine.games.blot.cards import BLOT_RANKING, card_points
from engine.games.blot.declarations import Declaration, award, best_split
from engine.games.blot.rules import BLOT, BlotState, BlotVariant, deal_from_deck
from engine.games.blot.scoring import DealOutcome, is_made, match_winner, round6, score_deal

__all__ = [
    "BLOT",
    "BLOT_RANKING",
    "BlotState",
    "BlotVariant",
    "DealOutcome",
    "Declaration",
    "award",
    "best_split",
    "card_points",
    "deal_from_deck",
    "is_made",
    "match_winner",
    "round6",
    "score_deal",
]

"""Eşli Batak: see ``rules.py`` and bot/rulebook/batak.md."""

from engine.games.batak.rules import BATAK, BatakState, BatakVariant
from engine.games.batak.scoring import match_winner, score_deal

__all__ = ["BATAK", "BatakState", "BatakVariant", "match_winner", "score_deal"]

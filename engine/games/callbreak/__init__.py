"""Callbreak: see ``rules.py`` and bot/rulebook/callbreak.md."""

from engine.games.callbreak.rules import CALLBREAK, CallbreakState, CallbreakVariant
from engine.games.callbreak.scoring import format_tenths, score_bid, score_deal

__all__ = [
    "CALLBREAK",
    "CallbreakState",
    "CallbreakVariant",
    "format_tenths",
    "score_bid",
    "score_deal",
]

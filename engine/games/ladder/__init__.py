"""Ladder: see ``rules.py`` and bot/rulebook/ladder.md."""

from engine.games.ladder.requirement import ANY, MAX9, Requirement, after_play
from engine.games.ladder.rules import LADDER, LadderState, LadderVariant

__all__ = ["ANY", "LADDER", "MAX9", "LadderState", "LadderVariant", "Requirement", "after_play"]

"""Engine errors: one hierarchy, machine-readable reasons, messages a player can read.

Every error carries a short ``reason`` code (stable, for front ends and tests)
and a message that quotes the offending input, in the manner of python-chess's
``IllegalMoveError``.  All of them are ``ValueError`` subclasses so that a
caller that only wants "bad input" can catch that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def quote(value: Any, limit: int = 24) -> str:
    """``repr`` of a refused input for a message, clipped so that the message
    stays short whatever the input (a 5,000-digit number, a whole paragraph)."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[:limit] + "..."


class EngineError(ValueError):
    """Base class: something the caller asked for cannot be done.

    ``params`` (optional) are the facts a front end needs to say the same
    thing in another language (``{"min": 7}``); the message stays English.
    """

    default_reason = "error"

    def __init__(
        self, message: str, reason: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or self.default_reason
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        return self.message


class InvalidAction(EngineError):
    """The text is not an action of this game at all (syntax)."""

    default_reason = "invalid_syntax"


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid right now."""

    default_reason = "illegal"


class NotYourTurn(IllegalAction):
    """The seat submitting the action is not the one whose decision it is."""

    default_reason = "not_your_turn"


class GameOver(IllegalAction):
    """The match is over: nothing more can be applied."""

    default_reason = "game_over"


class UnsupportedAction(InvalidAction, IllegalAction):
    """Well-formed notation of a verb this game never uses (``pass`` in
    Callbreak): both invalid for the game and illegal in every state."""

    default_reason = "not_in_this_game"


class InvalidVariant(EngineError):
    """A setting name or value is not allowed by the rule book."""

    default_reason = "bad_setting"


class InvalidPosition(EngineError):
    """A position or explicit deal is inconsistent; the message lists every problem."""

    default_reason = "invalid_position"

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("invalid position: " + "; ".join(self.problems))


class UnknownGame(EngineError):
    """No game is registered under that name."""

    default_reason = "unknown_game"

"""Card Table's rules engine: pure, deterministic, no I/O (DESIGN.md).

from engine import get_game, GAMES
game = get_game("callbreak")
state = game.new_match(seed=7, variant=game.variant(rounds=5))
"""

from engine import games as _games  # noqa: F401  (registers every game)
from engine.core.actions import Action, parse_action
from engine.core.cards import Card, parse_cards
from engine.core.events import Event
from engine.core.game import Game, MatchState, Phase
from engine.core.registry import GAMES, get_game
from engine.core.spec import Variant
from engine.core.view import DealRecord, Observation
from engine.errors import (
    EngineError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidVariant,
    NotYourTurn,
    UnknownGame,
    UnsupportedAction,
)

__all__ = [
    "GAMES",
    "Action",
    "Card",
    "DealRecord",
    "EngineError",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidPosition",
    "InvalidVariant",
    "MatchState",
    "NotYourTurn",
    "Observation",
    "Phase",
    "UnknownGame",
    "UnsupportedAction",
    "Variant",
    "get_game",
    "parse_action",
    "parse_cards",
]

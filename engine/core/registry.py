"""The game registry: ``GAMES`` maps a game's name (or an alias) to its ``Game``.

Kept apart from ``engine.core.spec`` (the variants), which ``Game`` itself
imports: the registry needs ``Game`` and ``Game`` needs the variants, so
each one-way import stays one-way (no import circle).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from engine.core.game import Game
from engine.errors import UnknownGame, quote


class Registry(Mapping[str, Game]):
    """Name -> Game, in registration order; iterating gives the names."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._aliases: dict[str, str] = {}

    def register(self, game: Game, aliases: tuple[str, ...] = ()) -> None:
        self._games[game.name] = game
        for alias in aliases:
            self._aliases[alias] = game.name

    def resolve(self, name: str) -> str:
        key = str(name).strip().lower()
        key = self._aliases.get(key, key)
        if key not in self._games:
            known = ", ".join(self._games)
            raise UnknownGame(
                f"unknown game {quote(name)}; choose one of: {known}",
                params={"game": quote(name), "known": known},
            )
        return key

    def __getitem__(self, name: str) -> Game:
        return self._games[self.resolve(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)


GAMES = Registry()


def get_game(name: str) -> Game:
    """The game registered under ``name`` (or an alias); ``UnknownGame`` otherwise."""
    return GAMES[name]

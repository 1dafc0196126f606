"""Variants (settings) and the game registry.

A game's ``Variant`` is a frozen dataclass whose fields are the rule book's
settings, each declared with ``setting(...)`` giving its default, its range or
choices and a one-line help.  Validation, parsing from text (slash commands,
terminal flags) and JSON round-trips are written here once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from engine.errors import InvalidVariant, UnknownGame

if TYPE_CHECKING:
    from engine.core.game import Game

V = TypeVar("V", bound="Variant")
_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}


def setting(
    default: Any,
    *,
    bounds: tuple[int, int] | None = None,
    choices: tuple[Any, ...] | None = None,
    help: str = "",
) -> Any:
    """Declare a variant field.  ``bounds`` is inclusive; a field with both
    ``bounds`` and ``choices`` accepts an int in bounds or one of the choices."""
    return field(default=default, metadata={"bounds": bounds, "choices": choices, "help": help})


@dataclass(frozen=True, slots=True)
class SettingSpec:
    name: str
    default: Any
    bounds: tuple[int, int] | None
    choices: tuple[Any, ...] | None
    help: str

    def describe_range(self) -> str:
        parts = []
        if self.bounds:
            parts.append(f"{self.bounds[0]}..{self.bounds[1]}")
        if self.choices:
            parts.extend(str(c) for c in self.choices)
        if isinstance(self.default, bool):
            parts = ["true", "false"]
        return " or ".join(parts) if parts else "any"


@dataclass(frozen=True)
class Variant:
    """Base class for each game's settings; subclasses only declare fields."""

    game_name: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for spec in self.settings():
            self._check(spec, getattr(self, spec.name))
        self.check_combination()

    def check_combination(self) -> None:
        """Hook for rules that tie several settings together."""

    @classmethod
    def settings(cls) -> list[SettingSpec]:
        return [
            SettingSpec(
                f.name,
                f.default,
                f.metadata.get("bounds"),
                f.metadata.get("choices"),
                f.metadata.get("help", ""),
            )
            for f in dataclasses.fields(cls)
        ]

    @classmethod
    def spec(cls, name: str) -> SettingSpec:
        for spec in cls.settings():
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in cls.settings())
        raise InvalidVariant(
            f"unknown setting {name!r} for {cls.game_name or cls.__name__}; known: {known}",
            "unknown_setting",
        )

    @classmethod
    def _check(cls, spec: SettingSpec, value: Any) -> None:
        if isinstance(spec.default, bool):
            if not isinstance(value, bool):
                raise InvalidVariant(f"{spec.name} must be true or false (got {value!r})")
            return
        if spec.choices is not None and value in spec.choices and not isinstance(value, bool):
            return
        if spec.bounds is not None and isinstance(value, int) and not isinstance(value, bool):
            low, high = spec.bounds
            if low <= value <= high:
                return
        if spec.bounds is None and spec.choices is None:
            cls.check_free_value(spec, value)
            return
        raise InvalidVariant(
            f"{spec.name} must be {spec.describe_range()} (got {value!r})", "out_of_range"
        )

    @classmethod
    def check_free_value(cls, spec: SettingSpec, value: Any) -> None:
        """Validate a field declared without bounds or choices (override)."""
        if type(value) is not type(spec.default):
            raise InvalidVariant(f"{spec.name} has the wrong type (got {value!r})")

    @classmethod
    def parse_value(cls, name: str, text: Any) -> Any:
        """Turn a text value (slash command, terminal flag, JSON) into the
        field's type; the result is validated when the variant is built."""
        spec = cls.spec(name)
        if not isinstance(text, str):
            return text
        raw = text.strip()
        if isinstance(spec.default, bool):
            low = raw.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise InvalidVariant(f"{name} must be true or false (got {text!r})")
        if spec.choices:
            for choice in spec.choices:
                if str(choice).lower() == raw.lower():
                    return choice
        if spec.bounds is not None or isinstance(spec.default, int):
            try:
                return int(raw)
            except ValueError:
                raise InvalidVariant(
                    f"{name} must be {spec.describe_range()} (got {text!r})", "out_of_range"
                ) from None
        if isinstance(spec.default, tuple):
            try:
                return tuple(int(p) for p in raw.replace(",", " ").split())
            except ValueError:
                raise InvalidVariant(f"{name} must be numbers like '3,5' (got {text!r})") from None
        return raw

    @classmethod
    def from_options(cls: type[V], options: Mapping[str, Any] | None = None) -> V:
        """Build from a mapping of names to values or texts; unknown names and
        bad values raise ``InvalidVariant`` with a clear message."""
        values: dict[str, Any] = {}
        for name, value in (options or {}).items():
            values[name] = cls.parse_value(name, value)
        return cls(**values)

    def replace(self: V, **options: Any) -> V:
        merged = {**self.to_dict(), **options}
        return type(self).from_options(merged)

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v)
            for f in dataclasses.fields(self)
        }


class Registry(Mapping[str, "Game"]):
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
            raise UnknownGame(f"unknown game {name!r}; choose one of: {known}")
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

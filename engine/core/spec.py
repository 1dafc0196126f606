"""Variants (settings); the game registry is ``engine.core.registry``.

A game's ``Variant`` is a frozen dataclass whose fields are the rule book's
settings, each declared with ``setting(...)`` giving its default, its range or
choices and a one-line help.  Validation, parsing from text (slash commands,
terminal flags) and JSON round-trips are written here once.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from engine.errors import InvalidVariant, quote

V = TypeVar("V", bound="Variant")
_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}
#: the longest text a setting value is read from
MAX_SETTING_TEXT = 64
_WHOLE_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")


def setting(
    default: Any,
    *,
    bounds: tuple[int, int] | None = None,
    choices: tuple[Any, ...] | None = None,
    help: str = "",
    added: bool = False,
) -> Any:
    """Declare a variant field.  ``bounds`` is inclusive; a field with both
    ``bounds`` and ``choices`` accepts an int in bounds or one of the choices.
    ``added``: a setting added after matches were recorded, which ``to_dict``
    writes only when it differs from its default, so the records (and stored
    variants) of earlier matches read exactly as before."""
    return field(
        default=default,
        metadata={"bounds": bounds, "choices": choices, "help": help, "added": added},
    )


@dataclass(frozen=True, slots=True)
class SettingSpec:
    name: str
    default: Any
    bounds: tuple[int, int] | None
    choices: tuple[Any, ...] | None
    help: str

    def describe_range(self) -> str:
        parts = self.range_parts()
        return " or ".join(parts) if parts else "any"

    def range_parts(self) -> tuple[str, ...]:
        """What the setting accepts, one alternative each (``1..13``, ``true``)."""
        parts = []
        if self.bounds:
            parts.append(f"{self.bounds[0]}..{self.bounds[1]}")
        if self.choices:
            parts.extend(str(c) for c in self.choices)
        if isinstance(self.default, bool):
            parts = ["true", "false"]
        return tuple(parts)


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
            if type(name) is str and spec.name == name:
                return spec
        known = ", ".join(s.name for s in cls.settings())
        raise InvalidVariant(
            f"unknown setting {quote(name)} for {cls.game_name or cls.__name__}; known: {known}",
            "unknown_setting",
            {"setting": quote(name), "known": known},
        )

    @classmethod
    def _check(cls, spec: SettingSpec, value: Any) -> None:
        """A value of the setting's own type in its range or choices: never a
        bool for a number (``True`` is not 1) nor a number for a yes/no."""
        if isinstance(spec.default, bool):
            if type(value) is not bool:
                raise InvalidVariant(
                    f"{spec.name} must be true or false (got {quote(value)})",
                    "out_of_range",
                    {"setting": spec.name, "range": ("true", "false"), "value": quote(value)},
                )
            return
        if spec.choices is not None and any(
            type(value) is type(choice) and value == choice for choice in spec.choices
        ):
            return
        if spec.bounds is not None and type(value) is int:
            low, high = spec.bounds
            if low <= value <= high:
                return
        if spec.bounds is None and spec.choices is None:
            cls.check_free_value(spec, value)
            return
        raise InvalidVariant(
            f"{spec.name} must be {spec.describe_range()} (got {quote(value)})",
            "out_of_range",
            {"setting": spec.name, "range": spec.range_parts(), "value": quote(value)},
        )

    @classmethod
    def check_free_value(cls, spec: SettingSpec, value: Any) -> None:
        """Validate a field declared without bounds or choices (override)."""
        if type(value) is not type(spec.default):
            raise InvalidVariant(f"{spec.name} has the wrong type (got {quote(value)})")

    @classmethod
    def parse_value(cls, name: str, text: Any) -> Any:
        """The value of setting ``name`` from a text (slash command, terminal
        flag) or a value (JSON, Python), checked against the rule book's
        range: InvalidVariant with a clear message for an unknown name, a value
        of the wrong type (a bool for a number, a number for a yes/no) or out
        of range, and for text that is not the setting's plain ASCII spelling
        (unicode digits, signs, ``1_0``, leading zeros, more than
        MAX_SETTING_TEXT characters).  A list is read as a tuple."""
        spec = cls.spec(name)
        value = cls._from_text(spec, text) if isinstance(text, str) else text
        if isinstance(spec.default, tuple) and isinstance(value, list):
            value = tuple(value)
        cls._check(spec, value)
        return value

    @classmethod
    def _from_text(cls, spec: SettingSpec, text: str) -> Any:
        wrong = InvalidVariant(
            f"{spec.name} must be {spec.describe_range()} (got {quote(text)})",
            "out_of_range",
            {"setting": spec.name, "range": spec.range_parts(), "value": quote(text)},
        )
        raw = text.strip(" \t\r\n")
        if len(text) > MAX_SETTING_TEXT or not raw.isascii() or not raw.isprintable():
            raise wrong
        if isinstance(spec.default, bool):
            low = raw.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise wrong
        if spec.choices:
            for choice in spec.choices:
                if str(choice).lower() == raw.lower():
                    return choice
        if spec.bounds is not None or isinstance(spec.default, int):
            if _WHOLE_NUMBER.fullmatch(raw):
                return int(raw)
            raise wrong
        if isinstance(spec.default, tuple):
            parts = raw.replace(",", " ").split()
            if parts and all(_WHOLE_NUMBER.fullmatch(p) for p in parts):
                return tuple(int(p) for p in parts)
            raise InvalidVariant(
                f"{spec.name} must be whole numbers like '3,5' (got {quote(text)})",
                "bad_list",
                {"setting": spec.name, "value": quote(text)},
            )
        return raw

    @classmethod
    def from_options(cls: type[V], options: Mapping[str, Any] | None = None) -> V:
        """Build from a mapping of names to values or texts; anything but a
        mapping, unknown names and bad values raise ``InvalidVariant`` with a
        clear message."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise InvalidVariant(
                "settings are a mapping of setting names to values "
                f"(got {type(options).__name__} {quote(options)})",
                "bad_variant",
            )
        values: dict[str, Any] = {}
        for name, value in options.items():
            values[name] = cls.parse_value(name, value)
        return cls(**values)

    def replace(self: V, **options: Any) -> V:
        merged = {**self.to_dict(), **options}
        return type(self).from_options(merged)

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready data (``from_options`` reads it back);
        an ``added`` setting only when it differs from its default."""
        return {
            f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v)
            for f in dataclasses.fields(self)
            if not (f.metadata.get("added") and getattr(self, f.name) == f.default)
        }

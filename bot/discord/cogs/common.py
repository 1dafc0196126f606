"""Shared pieces of the cogs: option parsing and autocomplete.

Autocomplete only suggests; the service validates whatever is sent (a
user can always type past the suggestions).  Suggestions come from the
engine's own setting specs (``Variant.settings()``: name, help, bounds,
choices), so a new setting shows up here without a line of Discord code.
Suggestions are in the person's language (``bot.i18n``); the values
themselves (setting names, ``true``, ``any_trump``) are what is typed, in
every language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.locales import choices as language_choices
from bot.i18n.settings_words import HELP, setting_help_text, setting_name, value_word
from bot.i18n.terms import game_title, setting_help, setting_range, status_word
from bot.render.messages import clip
from bot.services.models import TableInfo
from bot.services.settings import GUILD_DEFAULTS, PING_AFTER
from engine import GAMES, get_game
from engine.core.spec import SettingSpec
from engine.errors import EngineError

SERVER = "server"
#: the server settings a moderator types: every one the service keeps but
#: the moderator role (picked with ``/settings role``, never typed)
SERVER_KEYS: tuple[str, ...] = tuple(k for k in GUILD_DEFAULTS if k != "moderator_role_id")
TURN_SECONDS = SettingSpec("turn_seconds", 90, (15, 3600), (0,), HELP["turn_seconds"])
TURN_SECONDS_VALUES = (0, 30, 60, 90, 120, 180, 300, 600, 1800, 3600)
MAX_CHOICES = 25
CHOICE_MAX = 100


def choice(name: str, value: str) -> app_commands.Choice[str] | None:
    """A choice, or None when its value cannot be sent whole."""
    if len(value) > CHOICE_MAX or not value:
        return None
    return app_commands.Choice(name=clip(name, CHOICE_MAX), value=value)


def _choices(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    out: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for name, value in pairs:
        made = choice(name, value)
        if made is not None and value not in seen:
            seen.add(value)
            out.append(made)
        if len(out) >= MAX_CHOICES:
            break
    return out


def _game_name(text: Any) -> str | None:
    try:
        return get_game(str(text or "")).name
    except EngineError:
        return None


# -- games ---------------------------------------------------------------------------------------
def game_choices(current: str, *, server: bool = False) -> list[app_commands.Choice[str]]:
    low = (current or "").lower()
    pairs = [
        (game_title(name, get_game(name).title), name)
        for name in GAMES
        if low in name or low in get_game(name).title.lower() or low in game_title(name).lower()
    ]
    if server and low in SERVER:
        label = t("Server switches (threads, pings, ratings with AI, hints, language)")
        pairs.append((label, SERVER))
    return _choices(pairs)


async def game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return game_choices(current)


async def settings_game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return game_choices(current, server=True)


# -- settings keys and values ----------------------------------------------------------------------
def setting_specs(game: str | None) -> list[SettingSpec]:
    """The settings a moderator may set for a game (or the server)."""
    if game == SERVER:
        return [
            SettingSpec(
                k, GUILD_DEFAULTS[k], PING_AFTER if k == "ping_after" else None, None, HELP[k]
            )
            for k in SERVER_KEYS
        ]
    name = _game_name(game)
    if name is None:
        return []
    return [*get_game(name).Variant.settings(), TURN_SECONDS]


def describe(spec: SettingSpec) -> str:
    """What a setting accepts, in plain text (an autocomplete label)."""
    if spec.name == "turn_seconds":
        return t("0 (no timer) or 15..3600")
    if spec.name == "language":
        return ", ".join(language_choices())
    return setting_range(spec)


def help_text(spec: SettingSpec) -> str:
    """A setting's help in the current language (server switches included)."""
    return setting_help_text(spec.name) if spec.name in HELP else setting_help(spec)


def key_choices(game: str | None, current: str) -> list[app_commands.Choice[str]]:
    """Keys to type, labelled "highest bid · max_bid (8..13) — help"."""
    low = (current or "").lower()
    return _choices(
        (f"{setting_name(s.name)} · {s.name} ({describe(s)}) — {help_text(s)}", s.name)
        for s in setting_specs(game)
        if low in s.name.lower()
        or low in s.help.lower()
        or low in help_text(s).lower()
        or low in setting_name(s.name).lower()
    )


def suggested_values(spec: SettingSpec, partial: str = "") -> list[str]:
    """Values worth offering for a setting, those starting with ``partial``
    first: true/false, the choices, and numbers within the bounds."""
    if isinstance(spec.default, bool):
        values = ["true", "false"]
    elif spec.name == "language":
        values = list(language_choices())
    elif spec.name == "turn_seconds":
        values = [str(v) for v in TURN_SECONDS_VALUES]
    else:
        values = [str(c) for c in spec.choices or ()]
        if spec.bounds is not None:
            values.extend(str(n) for n in _numbers(spec, partial))
        elif isinstance(spec.default, tuple):
            values.append(",".join(str(v) for v in spec.default))
    low = (partial or "").strip().lower()
    starting = [v for v in values if v.lower().startswith(low)]
    return list(dict.fromkeys(starting or ([] if low else values)))[:MAX_CHOICES]


def _numbers(spec: SettingSpec, partial: str) -> list[int]:
    """Every value of a short range; else round values across the range
    and the round completions of what the user is typing."""
    assert spec.bounds is not None
    low, high = spec.bounds
    if high - low < MAX_CHOICES:
        return list(range(low, high + 1))
    default = spec.default if isinstance(spec.default, int) else low
    step = _nice_step((high - low) / 20)
    numbers = [default, low, high, *range(-(-low // step) * step, high + 1, step)]
    text = (partial or "").strip()
    if text.isascii() and text.isdigit() and len(text) <= 6:
        base = int(text)
        numbers.insert(0, base)
        scale = 1
        while base * scale * 10 <= high:
            scale *= 10
            numbers.extend(base * scale + d * scale // 10 for d in range(10))
    return [n for n in dict.fromkeys(numbers) if low <= n <= high]


def _nice_step(raw: float) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if step >= raw:
            return step
    return 1000


def value_choices(
    game: str | None, key: str | None, current: str
) -> list[app_commands.Choice[str]]:
    spec = next((s for s in setting_specs(game) if s.name == key), None)
    if spec is None:
        return []
    return _choices(
        (t("{value} (default)", value=label) if v == _text(spec.default) else label, v)
        for v in suggested_values(spec, current)
        for label in [_value_label(spec.name, v)]
    )


def _value_label(key: str, token: str) -> str:
    """A value as the moderator reads it, with what is typed: "yes · true"."""
    low = token.lower()
    if low in ("true", "false"):
        word = value_word(key, low == "true")
    elif token.isdigit() and key in ("turn_seconds", "ping_after"):
        word = value_word(key, int(token))
    elif token.isdigit() or "," in token:
        return token
    else:
        word = value_word(key, token)
    return token if word == token else f"{word} · {token}"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


# -- /table new options: "rounds=3 max_bid=10" ---------------------------------------------------
def option_choices(game: str | None, current: str) -> list[app_commands.Choice[str]]:
    """Completions of a ``key=value`` list: the keys not yet given (with
    their bounds and help), then, after ``key=``, that key's values."""
    specs = setting_specs(_game_name(game))
    text = current or ""
    head, _, last = text.rpartition(" ")
    head = f"{head} " if head.strip() else ""
    given = {part.partition("=")[0] for part in head.replace(",", " ").split()}
    if "=" in last:
        key, _, partial = last.partition("=")
        spec = next((s for s in specs if s.name == key), None)
        if spec is None:
            return []
        return _choices(
            (f"{head}{key}={v}  ({describe(spec)})", f"{head}{key}={v}")
            for v in suggested_values(spec, partial)
        )
    low = last.lower()
    return _choices(
        (f"{head}{s.name}=…  ({describe(s)}) {help_text(s)}", f"{head}{s.name}=")
        for s in specs
        if s.name not in given and s.name.startswith(low)
    )


# -- tables ---------------------------------------------------------------------------------------
def table_label(info: TableInfo) -> str:
    """``#12 Callbreak — 2/4 seated`` (or ``— playing``)."""
    title = game_title(info.game, get_game(info.game).title)
    seated = sum(not s.empty for s in info.seats)
    if info.status == "lobby":
        state = t("{seated}/{seats} seated", seated=seated, seats=info.num_seats)
    else:
        state = status_word(info.status)
    return f"#{info.id} {title} — {state}"


def table_choices(tables: Sequence[TableInfo], current: str) -> list[app_commands.Choice[int]]:
    low = str(current or "").strip().lower().lstrip("#")
    out = []
    for info in tables:
        label = table_label(info)
        if low and not (str(info.id).startswith(low) or low in label.lower()):
            continue
        out.append(app_commands.Choice(name=clip(label, CHOICE_MAX), value=info.id))
        if len(out) >= MAX_CHOICES:
            break
    return out

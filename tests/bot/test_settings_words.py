"""Settings are shown in words: every game's every variant field, the turn
timer and every server setting has a name (and its values words) in the
catalogues, and every text a player or moderator reads about a setting --
the lobby's settings, /settings show, the refusals, the terminal's line --
shows that name in every language; a key or a choice's token appears only
in code font, as what is typed, beside its words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord import embeds
from bot.discord.cogs.settings import server_text
from bot.i18n import LOCALES, using
from bot.i18n.errors import error_text
from bot.i18n.settings_words import (
    HELP,
    SETTING_NAMES,
    choice_word,
    setting_name,
    settings_line,
    value_word,
)
from bot.render import messages
from bot.services.actor import Actor
from bot.services.models import SeatInfo, TableInfo
from bot.services.settings import GUILD_DEFAULTS, GuildSettings
from engine import GAMES, get_game
from engine.errors import EngineError

ADMIN = Actor(1, 5, can_manage_server=True)
FIELDS = [(game, spec) for game in GAMES for spec in get_game(game).Variant.settings()]
SERVER_KEYS = list(GUILD_DEFAULTS)


def outside_code(text: str) -> str:
    """The text a reader reads as words (code spans are what is typed)."""
    return re.sub(r"`[^`]*`", "", text)


def values_of(spec: Any) -> list[Any]:
    """Every value worth showing: the default, each choice, yes and no."""
    values = [spec.default]
    if isinstance(spec.default, bool):
        values.append(not spec.default)
    values.extend(c for c in spec.choices or () if c not in values)
    return values


def lobby(game: str, variant: dict[str, Any]) -> str:
    seats = get_game(game).num_seats(get_game(game).Variant.from_options(variant))
    info = TableInfo(
        id=1,
        guild_id=5,
        channel_id=None,
        message_id=None,
        thread_id=None,
        host_id=1,
        game=game,
        variant=variant,
        status="lobby",
        seats=tuple(SeatInfo(s, None, "", None) for s in range(seats)),
        num_seats=seats,
        seq=0,
        deadline=None,
        turn_seconds=90,
    )
    embed = embeds.lobby_embed(info)
    return next(f.value for f in embed.fields if (f.value and "·" in f.value) or "\n" in f.value)


def refusal(exc_call: Any) -> str:
    with pytest.raises(EngineError) as caught:
        exc_call()
    return error_text(caught.value)


class NoStore:
    async def settings(self, guild_id: int, game: str) -> dict[str, Any]:
        return {}


def test_every_setting_and_choice_has_a_name_in_every_catalogue() -> None:
    keys = {spec.name for _, spec in FIELDS} | set(GUILD_DEFAULTS) | {"turn_seconds"}
    assert keys <= set(SETTING_NAMES), keys - set(SETTING_NAMES)
    assert {k for k in GUILD_DEFAULTS} | {"turn_seconds"} <= set(HELP)
    tokens = {c for _, spec in FIELDS for c in spec.choices or () if isinstance(c, str)}
    for code in LOCALES:
        with using(code):
            for key in keys:
                name = setting_name(key)
                assert (name and name != key) or "_" not in key, (code, key)
                if code != "en":
                    assert name != SETTING_NAMES[key], f"{code}: {key} is not translated"
            for token in tokens:
                word = choice_word(token)
                assert word != token or "_" not in token, (code, token)
                if code != "en":
                    with using("en"):
                        english = choice_word(token)
                    assert word != english, f"{code}: {token} is not translated"


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize(("game", "spec"), FIELDS, ids=lambda x: getattr(x, "name", x))
def test_game_settings_are_named_in_the_lobby_settings_and_refusals(
    code: str, game: str, spec: Any
) -> None:
    key = spec.name
    with using(code):
        name = setting_name(key)
        for value in values_of(spec):
            variant = {**get_game(game).Variant().to_dict(), key: value}
            for text in (lobby(game, variant), settings_line(variant)):
                words = outside_code(text)
                assert name in words, (code, key, text)
                assert value_word(key, value) in words, (code, key, value, text)
                if "_" in key:
                    assert key not in words, text
                if isinstance(value, str) and "_" in value:
                    assert value not in words, text
        shown = messages.settings_text(
            game, get_game(game).Variant().to_dict() | {"turn_seconds": 90}
        )
        assert name in outside_code(shown) and f"`{key}`" in shown
        assert setting_name("turn_seconds") in outside_code(shown)
        for raw in (key, "turn_seconds", "any_trump", "true", "false"):
            if "_" in raw or raw in ("true", "false"):
                assert raw not in outside_code(shown).split(), (code, raw)
        bad = refusal(lambda: get_game(game).Variant.parse_value(key, "zzz"))
        assert name in outside_code(bad), (code, key, bad)
        if "_" in key:
            assert key not in outside_code(bad), bad
        for choice in spec.choices or ():
            if isinstance(choice, str):
                assert choice_word(choice) in outside_code(bad), (code, choice, bad)


@pytest.mark.parametrize("code", LOCALES)
async def test_server_settings_are_named_in_show_and_refusals(code: str) -> None:
    settings = GuildSettings(NoStore(), 90)  # type: ignore[arg-type]
    with using(code):
        shown = outside_code(server_text(dict(GUILD_DEFAULTS)))
        for key in SERVER_KEYS:
            if key != "moderator_role_id":  # shown as the role (or "none")
                assert setting_name(key) in shown, (code, key, shown)
                assert value_word(key, GUILD_DEFAULTS[key]) in shown, (code, key)
            if "_" in key:
                assert key not in shown, (code, key, shown)
        for key in SERVER_KEYS:
            try:
                await settings.set_guild_setting(ADMIN, key, "zzz")
            except EngineError as exc:
                text = outside_code(error_text(exc))
            else:
                raise AssertionError(f"{key}=zzz accepted")
            assert setting_name(key) in text, (code, key, text)
            assert "_" not in key or key not in text, (code, key, text)
        try:
            await settings.set_guild_setting(ADMIN, "nope", "1")
        except EngineError as exc:
            text = error_text(exc)
        assert all(setting_name(k) in outside_code(text) for k in SERVER_KEYS), text
        assert all(f"`{k}`" in text for k in SERVER_KEYS), "every key, to type"

"""Settings through the offline harness, as moderators and players read them:
every server setting completes (``hints`` and ``ping_after`` too); an
unknown key is answered with every key there is; a key given twice in
``options`` is refused and nothing is made; the lobby and /settings show
name settings in words, in the reader's language."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import using
from bot.i18n.settings_words import setting_name, value_word
from bot.services.settings import GUILD_DEFAULTS, game_keys
from engine import get_game
from tests.bot.discord.harness import FakeDiscord
from tests.bot.discord.test_commands_tables import (
    autocomplete,
    choices_of,
    is_ephemeral,
    payload,
    run,
    text_of,
)

MOD, MEMBER = 21, 22
MANAGE_GUILD = str(1 << 5)


def outside_code(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


async def test_server_keys_complete_every_server_setting(fake: FakeDiscord, bot: Any) -> None:
    data = autocomplete("settings", "set", "key", "", game="server")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    keys = [c["value"] for c in choices_of(answer)]
    assert keys == [k for k in GUILD_DEFAULTS if k != "moderator_role_id"]
    assert "hints" in keys and "ping_after" in keys
    named = {c["value"]: c["name"] for c in choices_of(answer)}
    assert named["hints"].startswith(setting_name("hints"))
    data = autocomplete("settings", "set", "value", "", game="server", key="ping_after")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    assert "10" in [c["value"] for c in choices_of(answer)]


async def test_an_unknown_key_is_answered_with_every_key(fake: FakeDiscord, bot: Any) -> None:
    for game, known in (
        ("callbreak", game_keys(get_game("callbreak"))),
        ("server", tuple(GUILD_DEFAULTS)),
    ):
        body = payload(
            fake,
            2,
            fake.slash("settings", "set", game=game, key="nope", value="1"),
            MOD,
            permissions=MANAGE_GUILD,
        )
        (reply,) = await run(bot, fake, body)
        text = text_of(reply)
        assert is_ephemeral(reply) and text.startswith("⚠️"), text
        for key in known:
            assert f"`{key}`" in text and setting_name(key) in text, (game, key, text)
    # the same for /table new's options, and for /settings reset
    body = payload(fake, 2, fake.slash("table", "new", game="batak", options="rounds=3"), MEMBER)
    (reply,) = await run(bot, fake, body)
    assert "`turn_seconds`" in text_of(reply) and "`target_score`" in text_of(reply)
    assert not bot.service.tables


async def test_a_key_given_twice_is_refused_and_nothing_is_made(
    fake: FakeDiscord, bot: Any
) -> None:
    body = payload(
        fake,
        2,
        fake.slash("table", "new", game="callbreak", options="rounds=3 rounds=4"),
        MEMBER,
    )
    (reply,) = await run(bot, fake, body)
    text = text_of(reply)
    assert is_ephemeral(reply) and text.startswith("⚠️")
    assert "twice" in text and "'3'" in text and "'4'" in text, text
    assert setting_name("rounds") in text
    assert not bot.service.tables, "no table was made"


async def test_the_lobby_shows_settings_in_words(fake: FakeDiscord, bot: Any) -> None:
    body = payload(
        fake,
        2,
        fake.slash("table", "new", game="batak", options="trump_unlock=ruff_only"),
        MEMBER,
    )
    await run(bot, fake, body)
    (table_id,) = bot.service.tables
    message = fake.messages[str(bot.service.tables[table_id].message_id)]
    (field,) = [f for f in message["embeds"][0]["fields"] if f["name"] == "Settings"]
    assert "trump_unlock" not in field["value"] and "ruff_only" not in field["value"]
    assert "what breaks trump: only a ruff" in field["value"]
    assert "turn timer: 90 seconds" in field["value"]


async def test_settings_show_in_the_readers_language(fake: FakeDiscord, bot: Any) -> None:
    fake.user_locales[MOD] = "tr"
    body = payload(
        fake, 2, fake.slash("settings", "show", game="batak"), MOD, permissions=MANAGE_GUILD
    )
    (reply,) = await run(bot, fake, body)
    text = text_of(reply)
    with using("tr"):
        for key in ("target_score", "min_bid", "trump_unlock", "turn_seconds"):
            assert setting_name(key) in outside_code(text), (key, text)
            assert f"`{key}`" in text
        assert value_word("trump_unlock", "any_trump") in text
    for raw in ("target_score", "any_trump", "ruff_only", "true", "false"):
        assert raw not in outside_code(text), (raw, text)

"""The bot in its players' languages, through the offline harness.

A whole game per language, as issue 15 asks: Eşli Batak on a Turkish
server, Bazar Blot in Armenian, Callbreak in Nepali and in Hindi.  Turkish
and Hindi come from Discord itself (the server's and the players' client
language); Discord has no Armenian or Nepali, so there a moderator sets the
server's ``language`` and the players choose theirs with ``/language``.
Each game must use no message its catalogue lacks (``Lang.missing``) and
stay within Discord's limits on every message, in every language.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bot.discord.handler import joined_text
from bot.i18n import get_lang, using
from tests.bot.discord.harness import (
    FakeDiscord,
    Sent,
    assert_limits,
    click,
    settle,
    table_message,
)
from tests.bot.discord.test_commands_tables import payload, run, text_of
from tests.bot.discord.test_full_games import GUEST, HOST, play_game

MOD = 21
MANAGE_GUILD = str(1 << 5)
#: (language, game, what Discord says the server and the players speak)
GAMES = [
    ("tr", "batak", "tr"),
    ("hy", "blot", None),
    ("ne", "callbreak", None),
    ("hi", "callbreak", "hi"),
]


class Limits:
    """Every message within Discord's limits (``assert_limits``)."""

    def __init__(self) -> None:
        self.checked = 0

    def __call__(self, sent: Sent) -> None:
        if sent.method not in ("GET", "DELETE") and not sent.path.endswith("/commands"):
            assert_limits(sent)
            self.checked += 1


async def choose(bot: Any, fake: FakeDiscord, code: str) -> None:
    """No Discord locale for it: the server's setting and each player's own."""
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="server", key="language", value=code),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (reply,) = await run(bot, fake, body)
    assert "language" in text_of(reply)
    for user in (HOST, GUEST):
        (reply,) = await run(
            bot, fake, payload(fake, 2, fake.slash("language", language=code), user)
        )
        with using(code):
            assert get_lang(code).name in text_of(reply)


@pytest.mark.parametrize(("code", "game", "discord_locale"), GAMES)
async def test_a_whole_game_in_the_players_language(
    fake: FakeDiscord, bot: Any, code: str, game: str, discord_locale: str | None
) -> None:
    lang = get_lang(code)
    if discord_locale is not None:
        fake.guild_locale = discord_locale
        fake.user_locales.update({HOST: discord_locale, GUEST: discord_locale})
    else:
        await choose(bot, fake, code)
    limits = Limits()
    fake.on_send = limits
    lang.missing.clear()
    table_id = await play_game(bot, fake, game, (HOST, GUEST), Counter())
    await settle()
    assert not lang.missing, f"{code}: not in the catalogue: {sorted(lang.missing)}"
    assert limits.checked > 20
    # the channel's messages are in the server's language ...
    final = table_message(fake, bot, table_id)
    names = [f["name"] for f in final["embeds"][0]["fields"]]
    assert lang.t("Seats") in names and lang.t("Scores") in names
    assert lang.t("Rematch") in str(final["components"])
    results = [
        s.json["content"]
        for s in fake.sent
        if s.method == "POST" and isinstance(s.json, dict) and "🏆" in str(s.json.get("content"))
    ]
    assert results and lang.t("Final scores:") in results[-1]
    # ... and so are a player's own answers
    started = lang.t("The game has started: press **Show my hand** to see your cards.")
    assert any(m.get("content") == started for m in fake.messages.values())


async def test_an_english_player_on_a_turkish_server(fake: FakeDiscord, bot: Any) -> None:
    """Public messages follow the server; a reply follows the person."""
    fake.guild_locale = "tr"
    fake.user_locales[GUEST] = "en-US"
    (_created,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "new", game="callbreak"), HOST)
    )
    table_id = max(bot.service.tables)
    lobby = table_message(fake, bot, table_id)
    turkish = get_lang("tr")
    assert lobby["embeds"][0]["fields"][1]["name"] == turkish.t("Seats")
    replies = await click(bot, fake, lobby, r":join:", GUEST)
    answer = fake.messages[fake.original[replies[0].route_params["token"]]]
    assert answer["content"] == joined_text(table_id, 1)  # English


async def test_a_moderators_language_setting_is_checked(fake: FakeDiscord, bot: Any) -> None:
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="server", key="language", value="klingon"),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (reply,) = await run(bot, fake, body)
    assert "server language (`language`) must be one of" in text_of(reply)
    assert (await bot.service.get_guild_settings(800000000000000001))["language"] == "auto"
    member = payload(
        fake, 2, fake.slash("settings", "set", game="server", key="language", value="tr"), 22
    )
    (reply,) = await run(bot, fake, member)
    assert "only moderators" in text_of(reply)


async def test_language_back_to_auto_follows_discord(fake: FakeDiscord, bot: Any) -> None:
    fake.user_locales[HOST] = "hi"
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("language", language="tr"), HOST))
    assert get_lang("tr").name in text_of(reply)
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("language", language="auto"), HOST))
    with using("hi") as hindi:
        assert hindi.t("I'll speak the language of your Discord app (or the server's).") in text_of(
            reply
        )


async def test_commands_are_localised_for_discords_languages(fake: FakeDiscord, bot: Any) -> None:
    """Turkish and Hindi have Discord locales: names and descriptions are sent."""
    (sync,) = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    commands = {c["name"]: c for c in sync.json}
    table = commands["table"]
    for code in ("tr", "hi"):
        lang = get_lang(code)
        assert table["description_localizations"][code] == lang.t(
            "Card tables: create, join and play"
        )
        new = next(o for o in table["options"] if o["name"] == "new")
        assert new["description_localizations"][code] == lang.t(
            "Open a table for a game and post its lobby"
        )
    for command in sync.json:
        for name in (command.get("name_localizations") or {}).values():
            assert name == name.lower() and " " not in name and len(name) <= 32
        for text in (command.get("description_localizations") or {}).values():
            assert len(text) <= 100
    assert set(table.get("description_localizations") or {}) <= {"tr", "hi"}


async def test_every_command_name_is_listed_for_translation(fake: FakeDiscord, bot: Any) -> None:
    """``command_names`` (what pybabel extracts) holds every command, group
    and option name the bot syncs."""
    from bot.discord.command_names import command_names

    listed = set(command_names())  # English: no language is set here
    synced: set[str] = set()

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            synced.add(item["name"])
            if item.get("type", 1) in (1, 2) or "options" in item:
                walk([o for o in item.get("options", []) if isinstance(o, dict)])

    (sync,) = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    walk(sync.json)
    assert synced <= listed, sorted(synced - listed)


async def test_rules_come_from_the_readers_rule_book(fake: FakeDiscord, bot: Any) -> None:
    """A translated rule book is shown in its language; the others in English."""
    from bot import rulebook

    fake.user_locales[HOST] = "hi"
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("rules", game="callbreak"), HOST))
    embeds = FakeDiscord.body_of(reply)["embeds"]
    assert embeds[0]["title"].startswith(rulebook.title("callbreak", "hi"))
    assert rulebook.title("callbreak", "hi") != rulebook.title("callbreak")
    section = rulebook.sections("callbreak", "hi")[2].title
    body = payload(fake, 2, fake.slash("rules", game="callbreak", section=section), HOST)
    (reply,) = await run(bot, fake, body)
    (embed,) = FakeDiscord.body_of(reply)["embeds"]
    assert embed["title"].endswith(section)
    if rulebook.language_of("ladder", "hi") is None:  # no Hindi Ladder book: English
        (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("rules", game="ladder"), HOST))
        title = FakeDiscord.body_of(reply)["embeds"][0]["title"]
        assert title.startswith(rulebook.title("ladder"))

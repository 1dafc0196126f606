"""The Discord Activity from the bot's side: with WEB_PORT and the OAuth2
secret set, the bot serves the web table from its own process and its
table messages carry "Open the table", which answers with the
launch-activity response (type 12) -- only for a table the clicker may
see; without the Activity configured there is no such button.  The web
table stops with the bot."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from bot.discord.client import CardBot
from bot.settings import Settings
from tests.bot.discord.harness import (
    APP_ID,
    OTHER_GUILD,
    FakeDiscord,
    answer_text,
    click,
    components_of,
    settle,
    start_game,
    table_message,
)

HOST = 111


async def start(tmp_path: Any, **web: Any) -> CardBot:
    settings = Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        edit_interval=0.0,
        ai_workers=0,
        _env_file=None,
        **web,
    )
    bot = CardBot(settings, ai_budget_ms=20)
    await bot.login("fake-token")
    await settle()
    return bot


@pytest.fixture
async def activity_bot(fake: FakeDiscord, tmp_path: Any):
    bot = await start(tmp_path, web_port=0, discord_client_secret="secret")
    yield bot
    await settle()
    await bot.close()


def activity_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in components_of(message) if c.get("custom_id", "").startswith("ct:activity:")]


async def test_open_the_table_launches_the_activity(
    fake: FakeDiscord, activity_bot: CardBot
) -> None:
    bot = activity_bot
    table = await start_game(bot, fake, (HOST,))
    message = table_message(fake, bot, table)
    (button,) = activity_buttons(message)
    assert button["custom_id"] == f"ct:activity:{table}" and button["label"] == "Open the table"
    (reply,) = await click(bot, fake, message, r"^ct:activity:", HOST)
    assert reply.transport == "interaction" and reply.json["type"] == 12
    assert bot.launches.wanted(HOST, bot.service.tables[table].guild_id) == table


async def test_a_person_of_another_server_cannot_launch_it(
    fake: FakeDiscord, activity_bot: CardBot
) -> None:
    bot = activity_bot
    table = await start_game(bot, fake, (HOST,))
    message = table_message(fake, bot, table)
    replies = await click(bot, fake, message, r"^ct:activity:", 222, guild_id=OTHER_GUILD)
    assert [r.json["type"] for r in replies if r.transport == "interaction"] != [12]
    assert "no table" in answer_text(fake, replies)
    assert bot.launches.wanted(222, OTHER_GUILD) is None


async def test_the_web_table_runs_in_the_bot_and_stops_with_it(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    bot = await start(tmp_path, web_port=0, discord_client_secret="secret")
    assert bot.web_server is not None
    url = f"http://127.0.0.1:{bot.web_server.port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{url}/api/config") as resp:
            config = await resp.json()
        assert config["mode"] == "discord" and config["client_id"] == str(APP_ID)
        ws = await http.ws_connect(f"{url}/ws")
        await bot.close()
        closed = await ws.receive(timeout=5)
        assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1001  # going away
        with pytest.raises(aiohttp.ClientConnectionError):
            async with http.get(f"{url}/api/config"):
                pass


async def test_no_button_without_the_activity(fake: FakeDiscord, tmp_path: Any) -> None:
    for web in ({}, {"web_port": 0}):  # off, or served without the OAuth2 secret
        folder = tmp_path / str(len(web))
        folder.mkdir()
        bot = await start(folder, **web)
        try:
            table = await start_game(bot, fake, (HOST,))
            assert activity_buttons(table_message(fake, bot, table)) == []
            assert (bot.web_server is not None) == bool(web)
        finally:
            await settle()
            await bot.close()

"""/table watch: a private spectator view, from view(None) only, kept up to
date in place as the table moves; tables of other servers are refused."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import embeds, live_watch
from bot.i18n import t
from tests.bot.discord.harness import (
    EPHEMERAL,
    HOOK_ORIGINAL,
    OTHER_GUILD,
    FakeDiscord,
    decider_user,
    play_turn,
    send,
    settle,
    start_game,
    table_message,
)

HOST, GUEST, SPECTATOR = 11, 12, 99


async def watch(bot: Any, fake: FakeDiscord, table_id: int, user: int, **kw: Any) -> str:
    token = send(bot, fake, 2, fake.slash("table", "watch", table=table_id), user, **kw)
    await settle()
    return token


def shown(fake: FakeDiscord, token: str) -> dict[str, Any]:
    message = fake.messages[fake.original[token]]
    assert message.get("flags", 0) & EPHEMERAL, "a watcher's view is ephemeral"
    return message


def expected_embed(bot: Any, table_id: int) -> Any:
    """What a spectator may see: the embed of the spectator view (view(None))."""
    live = bot.service.tables[table_id]
    info = live.info()
    note = t("👁 You are watching table #{table}: this view follows the game.", table=table_id)
    return embeds.table_embed(info, live.state.view(None), note=note).to_dict()


def edits_of(fake: FakeDiscord, token: str, start: int) -> list[Any]:
    return [
        s
        for s in fake.sent[start:]
        if s.path == HOOK_ORIGINAL and s.method == "PATCH" and s.route_params["token"] == token
    ]


async def test_watch_shows_only_the_spectator_view(
    bot: Any, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []
    real_embed, real_png = embeds.table_embed, live_watch.watch_png

    def embed_spy(info: Any, view: Any, **kw: Any) -> Any:
        seen.append(view)
        return real_embed(info, view, **kw)

    def png_spy(info: Any, view: Any) -> bytes:
        seen.append(view)
        return real_png(info, view)

    monkeypatch.setattr(embeds, "table_embed", embed_spy)
    monkeypatch.setattr(live_watch, "watch_png", png_spy)
    table_id = await start_game(bot, fake, (HOST, GUEST))
    token = await watch(bot, fake, table_id, SPECTATOR)
    message = shown(fake, token)
    (embed,) = message["embeds"]
    wanted = expected_embed(bot, table_id)
    assert embed["description"] == wanted.get("description")
    assert embed.get("fields") == wanted.get("fields")
    assert embed["image"]["url"].endswith("table.png")
    assert not message.get("components"), "a watcher gets no buttons"
    assert bot.watching.watchers.current(table_id).keys() == {SPECTATOR}
    # everything the watcher was shown came from the spectator view, never a seat's
    assert seen and all(view.seat is None for view in seen)
    assert seen[-1] == bot.service.tables[table_id].state.view(None)


async def test_a_seated_player_watching_gets_the_spectator_view_too(
    bot: Any, fake: FakeDiscord
) -> None:
    table_id = await start_game(bot, fake, (HOST, GUEST))
    seated = shown(fake, await watch(bot, fake, table_id, HOST))
    outsider = shown(fake, await watch(bot, fake, table_id, SPECTATOR))
    assert seated["embeds"][0]["description"] == outsider["embeds"][0]["description"]
    assert seated["embeds"][0].get("fields") == outsider["embeds"][0].get("fields")


async def test_watch_follows_the_table_when_a_card_is_played(bot: Any, fake: FakeDiscord) -> None:
    table_id = await start_game(bot, fake, (HOST,))
    token = await watch(bot, fake, table_id, SPECTATOR)
    seq_before = bot.service.tables[table_id].info().seq
    start = len(fake.sent)
    assert decider_user(bot, table_id) == HOST
    await play_turn(bot, fake, table_id, HOST)
    await settle()
    assert bot.service.tables[table_id].info().seq > seq_before
    assert edits_of(fake, token, start), "the watcher's view was not updated"
    (embed,) = shown(fake, token)["embeds"]
    wanted = expected_embed(bot, table_id)
    assert embed["description"] == wanted.get("description")
    assert embed.get("fields") == wanted.get("fields")


async def test_watch_is_refused_for_a_table_of_another_server(bot: Any, fake: FakeDiscord) -> None:
    table_id = await start_game(bot, fake, (HOST,))
    token = await watch(bot, fake, table_id, SPECTATOR, guild_id=OTHER_GUILD)
    message = shown(fake, token)
    assert message["content"].startswith("⚠️")
    assert not message.get("embeds")
    assert not bot.watching.watchers.current(table_id)


async def test_an_expired_watcher_is_dropped(bot: Any, fake: FakeDiscord) -> None:
    table_id = await start_game(bot, fake, (HOST,))
    token = await watch(bot, fake, table_id, SPECTATOR)
    fake.expire(token)
    await play_turn(bot, fake, table_id, HOST)
    await settle()
    assert not bot.watching.watchers.current(table_id)


async def test_the_public_table_message_shows_only_the_spectator_view(
    bot: Any, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the whole channel watches: every table-message render takes the
    spectator view (the picture's own assertion covers the PNG)."""
    seen: list[Any] = []
    real_embed = embeds.table_embed

    def embed_spy(info: Any, view: Any, **kw: Any) -> Any:
        seen.append(view)
        return real_embed(info, view, **kw)

    monkeypatch.setattr(embeds, "table_embed", embed_spy)
    table_id = await start_game(bot, fake, (HOST,))
    await play_turn(bot, fake, table_id, HOST)
    await settle()
    assert seen and all(view.seat is None for view in seen)
    (embed,) = table_message(fake, bot, table_id)["embeds"]
    live = bot.service.tables[table_id]
    wanted = real_embed(live.info(), live.state.view(None)).to_dict()
    assert embed["description"] == wanted.get("description")

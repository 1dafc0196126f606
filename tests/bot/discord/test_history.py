"""/history, /table history and /replay through the offline harness: real
interaction payloads in, the captured replies out."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from bot.db.tournaments import TournamentStore
from bot.render.picture.history import rating_trend_png
from bot.services.actor import Actor
from tests.bot.discord.harness import (
    CHANNEL,
    EPHEMERAL,
    GUILD,
    OTHER_GUILD,
    FakeDiscord,
    assert_limits,
    components_of,
    send,
    settle,
    start_game,
)

HOST, GUEST = 11, 12


def me(user: int = HOST, **kw: Any) -> Actor:
    return Actor(user, GUILD, CHANNEL, f"user{user}", **kw)


async def play_to_end(bot: Any, table_id: int, users: set[int], limit: int = 5000) -> None:
    """People play their first legal move (service calls: the clicks have
    their own tests) until the table ends, or ``limit`` moves."""
    service = bot.service
    for _ in range(limit):
        await service.wait_idle(table_id)
        await settle()
        info = await service.get_table(table_id)
        if info.status != "playing":
            return
        _, view = await service.public_view(table_id)
        user = info.seats[view.decider].user_id
        assert user in users
        private = await service.private_view(table_id, me(user))
        await service.act(
            table_id, me(user), str(private.view.legal_actions[0]), expected_seq=info.seq
        )


async def finished_table(bot: Any, fake: FakeDiscord) -> int:
    await bot.service.set_guild_setting(me(can_manage_server=True), "rated_with_ai", "true")
    table_id = await start_game(bot, fake, (HOST,), options="rounds=1", fill="easy")
    await play_to_end(bot, table_id, {HOST})
    assert (await bot.service.get_table(table_id)).status == "finished"
    return table_id


async def command(
    bot: Any,
    fake: FakeDiscord,
    name: str,
    sub: str | None = None,
    *,
    user: int = HOST,
    guild_id: int = GUILD,
    **options: Any,
) -> dict[str, Any]:
    """Run a slash command; the one message that answers it (ephemeral)."""
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash(name, sub, **options), user, guild_id=guild_id)
    await settle()
    replies = fake.replies(start)
    for sent in replies:
        if sent.method != "GET":
            assert_limits(sent)
    posts = [s for s in replies if s.transport == "webhook" and s.method == "POST"]
    assert posts, [s.path for s in replies]
    answer = fake.reply_message(posts[-1])
    assert answer["flags"] & EPHEMERAL
    return answer


async def test_history_shows_finished_matches_with_their_rating_change(fake, bot):
    first = await finished_table(bot, fake)
    second = await start_game(bot, fake, (HOST,), options="rounds=1", fill="easy")
    await play_to_end(bot, second, {HOST})
    answer = await command(bot, fake, "history")
    text = answer["content"]
    lines = text.splitlines()
    assert f"#{second}" in lines[1] and f"#{first}" in lines[2], text  # newest first
    assert "seat 1" in lines[1] and "User 11" in lines[1]
    assert "rating 0.0 →" in lines[2], text  # the first rated match starts from 0.0
    (trend,) = [line for line in lines if line.startswith("Rating trend:")]
    assert trend.count("→") == 2 and trend.startswith("Rating trend: 0.0 →")
    assert [a["filename"] for a in answer["attachments"]] == ["rating.png"]
    other = await command(bot, fake, "history", game="blot")
    assert "no finished games" in other["content"] and not other["attachments"]


async def test_table_history_lists_the_deals(fake, bot):
    table_id = await finished_table(bot, fake)
    answer = await command(bot, fake, "table", "history", table=table_id)
    text = answer["content"]
    assert "Deal 1" in text and "tricks:" in text and "scores:" in text
    assert "Deal 2" not in text  # rounds=1: one deal


async def test_table_history_of_a_live_table_shows_no_cards(fake, bot):
    table_id = await start_game(bot, fake, (HOST,), options="rounds=2", fill="easy")
    await play_to_end(bot, table_id, {HOST}, limit=3)
    answer = await command(bot, fake, "table", "history", table=table_id)
    assert "No deal has finished yet." in answer["content"]


async def test_replay_is_refused_while_the_match_is_live(fake, bot):
    table_id = await start_game(bot, fake, (HOST,), options="rounds=1", fill="easy")
    answer = await command(bot, fake, "replay", table=table_id)
    assert "opens when its match is over" in answer["content"]
    assert not components_of(answer)


def _buttons(message: dict[str, Any]) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in components_of(message) if c["type"] == 2}


async def click_id(
    bot: Any,
    fake: FakeDiscord,
    message: dict[str, Any],
    custom_id: str,
    user: int = HOST,
    **kw: Any,
) -> list[Any]:
    """Click the button ``custom_id`` of ``message``; an id the message does
    not hold is put on its first button first (a forged or stale message)."""
    if custom_id not in _buttons(message).values():
        message = copy.deepcopy(message)
        components_of(message)[0]["custom_id"] = custom_id
    start = len(fake.sent)
    data = {"custom_id": custom_id, "component_type": 2}
    send(bot, fake, 3, data, user, message=message, **kw)
    await settle()
    replies = fake.replies(start)
    for sent in replies:
        assert_limits(sent)
    return replies


async def test_replay_steps_through_a_finished_match(fake, bot):
    table_id = await finished_table(bot, fake)
    answer = await command(bot, fake, "replay", table=table_id)
    assert "Hands as dealt:" in answer["content"]
    assert [a["filename"] for a in answer["attachments"]] == ["replay.png"]
    buttons = _buttons(answer)
    assert list(buttons.values()) == [f"rp:{table_id}:1:1"], buttons  # only "next trick"
    message = answer
    for trick in range(1, 14):
        replies = await click_id(bot, fake, message, f"rp:{table_id}:1:{trick}")
        message = fake.messages[message["id"]]
        assert f"trick {trick} of 13" in message["content"], message["content"]
        assert f"Trick {trick}:" in message["content"]
        assert all(s.status == 200 for s in replies)
    assert "scores:" in message["content"]
    assert list(_buttons(message).values()) == [f"rp:{table_id}:1:12"]


async def test_garbage_and_stale_replay_buttons_are_refused(fake, bot):
    table_id = await finished_table(bot, fake)
    answer = await command(bot, fake, "replay", table=table_id)
    before = dict(fake.messages[answer["id"]])
    for bad in (f"rp:{table_id}:9:0", f"rp:{table_id}:1:99", "rp:999999:1:0"):
        replies = await click_id(bot, fake, answer, bad)
        notes = [s for s in replies if s.transport == "webhook" and s.method == "POST"]
        assert len(notes) == 1, [(s.path, s.json) for s in replies]
        (note,) = notes
        assert note.json["content"].startswith("⚠️"), note.json
        assert fake.messages[answer["id"]]["content"] == before["content"]
    replies = await click_id(bot, fake, answer, "rp:abc")
    (unknown,) = replies
    assert "not one Card Table knows" in unknown.json["data"]["content"]


async def test_another_servers_table_is_refused(fake, bot):
    table_id = await finished_table(bot, fake)
    for name, sub in (("replay", None), ("table", "history")):
        answer = await command(
            bot, fake, name, sub, user=GUEST, guild_id=OTHER_GUILD, table=table_id
        )
        assert f"there is no table #{table_id} here" in answer["content"]
    answer = await command(bot, fake, "replay", table=table_id)
    replies = await click_id(
        bot, fake, answer, f"rp:{table_id}:1:1", user=GUEST, guild_id=OTHER_GUILD
    )
    (note,) = [s for s in replies if s.transport == "webhook" and s.method == "POST"]
    assert f"there is no table #{table_id} here" in note.json["content"]


@pytest.mark.parametrize("name", ["history", "replay"])
def test_commands_are_registered(bot, name):
    assert bot.tree.get_command(name) is not None
    assert bot.tree.get_command("table").get_command("history") is not None


def test_the_rating_trend_is_a_picture():
    points = [("", 0.0), ("#3", 1.5), ("#5", 0.9)]
    png = rating_trend_png(points, "User 11 — Callbreak")
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (720, 300)
    flat = rating_trend_png([("", 2.0), ("#3", 2.0)], "flat")  # no range: still drawn
    assert Image.open(io.BytesIO(flat)).size == (720, 300)


async def test_a_board_of_a_tournament_in_progress_stays_hidden(fake, bot):
    table_id = await finished_table(bot, fake)
    tournaments = TournamentStore(bot.store)
    tid = await tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        game="callbreak",
        state={},
        status="playing",
    )
    await tournaments.link(tid, table_id, 0, 0)
    for name, sub in (("replay", None), ("table", "history")):
        answer = await command(bot, fake, name, sub, table=table_id)
        assert "a board of a tournament in progress" in answer["content"]
        assert not components_of(answer) and not answer["attachments"]
    await tournaments.save(tid, state={}, status="finished")
    answer = await command(bot, fake, "replay", table=table_id)
    assert "Hands as dealt:" in answer["content"]

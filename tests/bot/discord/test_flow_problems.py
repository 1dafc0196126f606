"""Missing channel permissions: the players are told once per table (in the
channel when posting still works, else the next person who clicks), and
the game goes on through "Show my hand"."""

from __future__ import annotations

import re

from tests.bot.discord.harness import (
    MESSAGE_PATH,
    POST_PATH,
    FakeDiscord,
    answer_of,
    choices_of,
    click,
    decider_user,
    live_hand,
    send,
    settle,
    table_message,
)

HOST, GUEST, THIRD = 11, 12, 13
THREADS = "/channels/{channel_id}/messages/{message_id}/threads"


def notes_in_channel(fake: FakeDiscord) -> list[str]:
    return [
        str(s.json.get("content"))
        for s in fake.sent
        if (s.method, s.path) == ("POST", POST_PATH) and "could not" in str(s.json.get("content"))
    ]


def whispers(fake: FakeDiscord) -> list[tuple[object, str]]:
    return [
        (s.audience, str(s.json.get("content")))
        for s in fake.sent
        if (s.transport, s.method) == ("webhook", "POST") and "could not" in str(s.json)
    ]


async def new_lobby(bot, fake: FakeDiscord) -> int:
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak", options="rounds=1"), HOST)
    await settle()
    return max(bot.service.tables)


async def test_edits_forbidden_are_reported_once_in_the_channel(fake, bot):
    table_id = await new_lobby(bot, fake)
    fake.fail("PATCH", MESSAGE_PATH)
    for user in (GUEST, THIRD):
        await click(bot, fake, table_message(fake, bot, table_id), r":join:", user)
    await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", HOST)
    (note,) = notes_in_channel(fake)
    assert "edit the table message" in note and "Send Messages" in note
    assert not whispers(fake), "told once, in the channel"
    assert bot.service.tables[table_id].info().is_full


async def test_a_silent_channel_is_reported_once_to_the_next_clicker_and_play_goes_on(fake, bot):
    table_id = await new_lobby(bot, fake)
    lobby = dict(table_message(fake, bot, table_id))
    for method, path in (("PATCH", MESSAGE_PATH), ("POST", POST_PATH), ("POST", THREADS)):
        fake.fail(method, path)
    await click(bot, fake, lobby, r":join:", GUEST)
    replies = await click(bot, fake, lobby, r":start:", HOST)
    await click(bot, fake, answer_of(fake, replies), r":fill:easy", HOST)
    await settle()
    assert bot.service.tables[table_id].status == "playing"
    for _ in range(6):  # the game goes on: hands are interaction replies, not channel posts
        user = decider_user(bot, table_id)
        assert user in (HOST, GUEST)
        seq = bot.service.tables[table_id].info().seq
        hand = live_hand(fake, bot, table_id, user)
        if hand is None:  # the table message is stale: /table hand opens it
            start = len(fake.sent)
            send(bot, fake, 2, fake.slash("table", "hand", table=table_id), user)
            await settle()
            hand = answer_of(fake, fake.replies(start))
        target = choices_of(hand, seq)[0]
        values = [target["options"][0]["value"]] if target["type"] == 3 else None
        await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
        await settle()
        assert bot.service.tables[table_id].info().seq > seq
    assert all(s.status == 403 for s in fake.sent if s.path == POST_PATH)
    told = whispers(fake)
    assert len(told) == 1, told
    audience, text = told[0]
    assert audience in (HOST, GUEST) and "/table hand" in text

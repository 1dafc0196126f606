"""Answer first, then work; and the table message always ends on the latest
state.  With a slow Discord (every request takes a while), by the order of
events the fake records -- never by wall-clock thresholds."""

from __future__ import annotations

import asyncio
import re

from bot.discord import embeds
from bot.services.actor import Actor
from tests.bot.discord.harness import (
    CALLBACK,
    GUILD,
    MESSAGE_PATH,
    FakeDiscord,
    Sent,
    answer_of,
    choices_of,
    click,
    decider_user,
    play_turn,
    send,
    settle,
    start_game,
    table_message,
)

HOST, GUEST = 11, 12


def callback_of(fake: FakeDiscord, start: int) -> Sent:
    (callback,) = [s for s in fake.sent[start:] if s.path == CALLBACK]
    return callback


async def test_a_lobby_click_is_acknowledged_before_any_channel_request_completes(fake, bot):
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak"), HOST)
    await settle()
    table_id = max(bot.service.tables)
    fake.latency = 1.0
    start = len(fake.sent)
    await click(bot, fake, table_message(fake, bot, table_id), r":join:", GUEST)
    callback = callback_of(fake, start)
    edits = [s for s in fake.channel_requests(start) if s.method in ("PATCH", "POST")]
    assert edits, "the lobby message was updated"
    assert callback.started < min(e.finished or 0 for e in edits)
    assert callback.started < min(e.started for e in edits), "acknowledged before any edit"
    assert bot.service.tables[table_id].info().seat_of(GUEST) is not None


async def test_a_move_is_acknowledged_before_the_table_message_is_edited(fake, bot):
    table_id = await start_game(bot, fake, (HOST,))
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", HOST)
    hand = answer_of(fake, replies)
    seq = bot.service.tables[table_id].info().seq
    fake.latency = 1.0
    start = len(fake.sent)
    await click(bot, fake, hand, re.escape(choices_of(hand, seq)[0]["custom_id"]), HOST)
    assert bot.service.tables[table_id].info().seq > seq
    move = callback_of(fake, start)
    shown = fake.channel_requests(start)
    assert shown, "the move was shown in the channel"
    assert all(move.started < s.started for s in shown), "acknowledged before any edit"
    assert move.started < min(s.finished or 0 for s in shown)


async def test_the_last_update_always_reaches_the_table_message(fake, bot):
    """Many updates while an edit is in flight: the edits coalesce and the
    final message shows the final state."""
    send(bot, fake, 2, fake.slash("table", "new", game="backalley", options="players=8"), HOST)
    await settle()
    table_id = max(bot.service.tables)
    host = Actor(HOST, GUILD, name="Host")
    fake.rest_latency = 0.3
    start = len(fake.sent)
    for _ in range(7):  # seven updates, published while the first edit is in flight
        await bot.service.add_ai(table_id, host, "easy")
        await asyncio.sleep(0.05)
    await settle()
    info = bot.service.tables[table_id].info()
    assert info.is_full
    edits = [
        s for s in fake.channel_requests(start) if (s.method, s.path) == ("PATCH", MESSAGE_PATH)
    ]
    assert 1 <= len(edits) < 7, "edits coalesce"
    lobby = table_message(fake, bot, table_id)
    assert lobby["embeds"][0] == embeds.lobby_embed(info).to_dict()


async def test_the_final_table_message_shows_the_final_state_of_a_game(fake, bot):
    """AI moves arrive while edits are in flight; the table message ends on
    the state the service holds (same seq, same decider)."""
    table_id = await start_game(bot, fake, (HOST,))
    fake.rest_latency = 0.2
    for _ in range(4):
        if decider_user(bot, table_id) == HOST:
            await play_turn(bot, fake, table_id, HOST)
    await settle()
    info, view = await bot.service.public_view(table_id)
    message = table_message(fake, bot, table_id)
    expected = embeds.table_embed(info, view).to_dict()
    shown = dict(message["embeds"][0])
    shown.pop("image", None)
    expected.pop("image", None)
    assert shown == expected
    assert [a["filename"] for a in message["attachments"]] == ["table.png"]


async def test_an_idle_bot_is_really_idle(fake, bot):
    """Nothing in the Discord layer polls: with a game waiting for a person,
    no task of ours is left running."""
    table_id = await start_game(bot, fake, (HOST,))
    await settle()
    assert decider_user(bot, table_id) == HOST
    ours = [
        t
        for t in asyncio.all_tasks()
        if t.get_name().startswith("cardtable-") and t.get_name() != "cardtable-deadlines"
    ]
    assert not [t for t in ours if not t.done()]

"""``CardBot.shutdown``: from its first step, a click or a command is
answered "restarting, nothing was changed" and reaches no handler; the
shutdown runs once however often it is asked for."""

from __future__ import annotations

import asyncio
import re

from tests.bot.discord.harness import (
    EPHEMERAL,
    answer_of,
    choices_of,
    click,
    decider_user,
    send,
    settle,
    start_game,
    table_message,
)

HOST = 11


async def test_clicks_after_the_first_step_change_nothing(fake, bot):
    table_id = await start_game(bot, fake, (HOST,))
    await settle()
    assert decider_user(bot, table_id) == HOST
    hand = answer_of(
        fake, await click(bot, fake, table_message(fake, bot, table_id), r":hand:", HOST)
    )
    seq = bot.service.tables[table_id].info().seq
    bot.stop_taking_clicks()
    replies = await click(bot, fake, hand, re.escape(choices_of(hand, seq)[0]["custom_id"]), HOST)
    (callback,) = replies
    assert callback.json["type"] == 4  # answered at once, with a message
    body = fake.body_of(callback)
    restarting = "⏳ Card Table is restarting: nothing was changed. Try again in a minute."
    assert body["content"] == restarting and body["flags"] & EPHEMERAL
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak"), HOST)
    await settle()
    assert [fake.body_of(s)["content"] for s in fake.replies(start)] == [restarting]
    assert bot.service.tables[table_id].info().seq == seq
    assert len(bot.service.tables) == 1  # no new table either


async def test_shutdown_runs_once(fake, bot):
    await asyncio.gather(bot.shutdown(), bot.shutdown(), bot.close())
    assert bot.shutting_down and bot.is_closed() and bot.service.closing

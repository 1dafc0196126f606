"""A busy channel (issue 22): the table messages of a channel share
Discord's edit budget of that channel (5 edits per 5 s; a thread is a
channel of its own), round-robin, each table's newest state coalesced; the
picture is uploaded only when it changed.

The budget scales with ``edit_interval``: 5 edits per ``5 * edit_interval``
seconds, so a 0.1 s interval runs the real schedule 10 times faster."""

from __future__ import annotations

import asyncio
import contextvars
from typing import Any

from bot.discord import embeds
from bot.discord.presenter import EditRecord
from bot.services.actor import Actor
from bot.services.models import TableUpdate
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import (
    CHANNEL,
    GUILD,
    MESSAGE_PATH,
    FakeDiscord,
    click,
    decider_user,
    send,
    settle,
    table_message,
)

INTERVAL = 0.1
WINDOW = 5 * INTERVAL
#: a thread of the channel, where tables of its own are played (a channel of its own)
THREAD = 700000000000000077
#: set by the test around the moves: the presenter's tasks must still see it
MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark", default="lost")


async def start_in(bot: Any, fake: FakeDiscord, humans: tuple[int, ...], channel: int) -> int:
    """``/table new`` in ``channel``, the others join, the host starts."""
    send(
        bot,
        fake,
        2,
        fake.slash("table", "new", game="callbreak", options="rounds=1"),
        humans[0],
        channel_id=channel,
    )
    await settle()
    table_id = max(bot.service.tables)
    for user in humans[1:]:
        await click(
            bot, fake, table_message(fake, bot, table_id), r":join:", user, channel_id=channel
        )
    await click(
        bot, fake, table_message(fake, bot, table_id), r":start:", humans[0], channel_id=channel
    )
    assert bot.service.tables[table_id].status == "playing"
    return table_id


async def play_fast(bot: Any, tables: dict[int, int], moves: int) -> None:
    """Everyone plays the moment it is their turn, at every table at once."""
    for _ in range(moves):
        for table_id, channel in tables.items():
            user = decider_user(bot, table_id)
            if user is None:
                continue
            actor = Actor(user, GUILD, channel, name=f"p{user}")
            private = await bot.service.private_view(table_id, actor)
            action = str(private.view.legal_actions[0])
            await bot.service.act(table_id, actor, action, expected_seq=private.table.seq)
        await asyncio.sleep(0.02)


async def shows_latest(bot: Any, fake: FakeDiscord, table_id: int) -> bool:
    """The table message shows the table's current state (picture aside)."""
    info, view = await bot.service.public_view(table_id)
    expected = embeds.table_embed(info, view).to_dict()
    shown = dict(table_message(fake, bot, table_id)["embeds"][0])
    for embed in (shown, expected):
        embed.pop("image", None)
    return shown == expected


def table_edits(fake: FakeDiscord, bot: Any, channel: int, since: int = 0) -> list[Any]:
    ids = {str(live.message_id) for live in bot.service.tables.values()}
    return [
        s
        for s in fake.sent[since:]
        if s.method == "PATCH"
        and s.path == MESSAGE_PATH
        and s.route_params.get("channel_id") == str(channel)
        and s.target in ids
    ]


def most_in_a_window(times: list[float], window: float) -> int:
    # half-open windows; a millisecond of slack for the loop's own jitter
    return max((sum(1 for u in times if t <= u < t + window - 0.001) for t in times), default=0)


async def test_tables_of_a_channel_share_its_edit_budget(fake: FakeDiscord, tmp_path: Any) -> None:
    bot = await start_bot(tmp_path, edit_interval=INTERVAL)
    records: list[EditRecord] = []
    marks: list[str] = []
    fake.on_send = lambda sent: marks.append(MARK.get()) if sent.method == "PATCH" else None
    try:
        bot.presenter.edit_listeners.append(records.append)
        tables = {}
        for n, channel in enumerate((CHANNEL, CHANNEL, CHANNEL, THREAD, THREAD)):
            humans = tuple(range(100 + 10 * n, 104 + 10 * n))
            tables[await start_in(bot, fake, humans, channel)] = channel
        start = len(fake.sent)
        marks.clear()
        MARK.set("kept")
        await play_fast(bot, tables, moves=15)
        await settle()
        for channel in (CHANNEL, THREAD):
            times = [s.t_start for s in table_edits(fake, bot, channel, start)]
            assert len(times) >= 6, "the tables were not busy enough to test anything"
            assert most_in_a_window(times, WINDOW) <= 5, (channel, times)
        # the thread's edits are counted apart from its channel's
        counts = bot.presenter.channel_edits()
        for channel in (CHANNEL, THREAD):
            assert counts[channel] >= len(table_edits(fake, bot, channel, start))
        # every table's last edit shows its last state
        for table_id in tables:
            assert await shows_latest(bot, fake, table_id)
            shown = [r.seq for r in records if r.table_id == table_id and r.ok]
            assert shown[-1] == bot.service.tables[table_id].info().seq
        # the presenter's tasks ran in the context of the moves that woke them
        assert marks and set(marks) == {"kept"}
    finally:
        await settle()
        await bot.close()


async def test_a_busy_table_does_not_starve_a_quiet_one(fake: FakeDiscord, tmp_path: Any) -> None:
    """Two tables play without pause, a third makes one move: it is shown
    within a round of the queue (the edit in flight, then at most one of
    each busy table), not after the busy ones are done."""
    bot = await start_bot(tmp_path, edit_interval=INTERVAL)
    records: list[EditRecord] = []
    try:
        bot.presenter.edit_listeners.append(records.append)
        ids = [
            await start_in(bot, fake, tuple(range(200 + 10 * n, 204 + 10 * n)), CHANNEL)
            for n in range(3)
        ]
        busy = asyncio.create_task(play_fast(bot, {ids[0]: CHANNEL, ids[1]: CHANNEL}, moves=40))
        await asyncio.sleep(3 * INTERVAL)
        moved_at = asyncio.get_running_loop().time()
        await play_fast(bot, {ids[2]: CHANNEL}, moves=1)
        seq = bot.service.tables[ids[2]].info().seq
        await busy
        await settle()
        shown = min(r.started for r in records if r.table_id == ids[2] and r.seq >= seq)
        before = [r for r in records if moved_at <= r.started < shown and r.table_id != ids[2]]
        assert len(before) <= 3, [(r.table_id, r.started - moved_at) for r in before]
        assert len([r for r in records if r.started > shown]) >= 1, "the busy tables had stopped"
    finally:
        await settle()
        await bot.close()


async def test_the_picture_is_uploaded_only_when_it_changed(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    bot = await start_bot(tmp_path)
    updates: list[TableUpdate] = []

    async def keep(update: TableUpdate) -> None:
        updates.append(update)

    bot.service.subscribe(keep)
    try:
        table_id = await start_in(bot, fake, (11, 12, 13, 14), CHANNEL)
        start = len(fake.sent)
        await play_fast(bot, {table_id: CHANNEL}, moves=1)
        await settle()
        (moved,) = table_edits(fake, bot, CHANNEL, start)
        assert moved.files == ["table.png"]
        # the same state again (e.g. a deadline that moved): the text is edited,
        # the message keeps its picture
        start = len(fake.sent)
        await bot.presenter.on_update(updates[-1])
        await settle()
        (same,) = table_edits(fake, bot, CHANNEL, start)
        assert same.files == []
        assert "attachments" not in (same.json or {})
        assert same.json["embeds"][0]["image"]["url"] == "attachment://table.png"
        message = table_message(fake, bot, table_id)
        assert len(message["attachments"]) == 1
    finally:
        await settle()
        await bot.close()


async def test_a_failed_edit_is_retried_with_the_newest_state(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    bot = await start_bot(tmp_path, edit_interval=INTERVAL)
    records: list[EditRecord] = []
    try:
        bot.presenter.edit_listeners.append(records.append)
        table_id = await start_in(bot, fake, (21, 22, 23, 24), CHANNEL)
        records.clear()
        fake.fail("PATCH", MESSAGE_PATH, status=503, code=0, message="Unavailable", times=1)
        await play_fast(bot, {table_id: CHANNEL}, moves=3)
        await settle()
        assert [r.ok for r in records][:1] == [False]
        assert all(r.ok for r in records[1:])
        assert records[-1].ok and records[-1].seq == bot.service.tables[table_id].info().seq
    finally:
        await settle()
        await bot.close()


async def test_closing_flushes_every_table_s_last_state(fake: FakeDiscord, tmp_path: Any) -> None:
    """The bot stops while edits wait for the channel's budget: close()
    lands each table's last state (within the budget), then stops."""
    bot = await start_bot(tmp_path, edit_interval=INTERVAL)
    try:
        ids = [
            await start_in(bot, fake, tuple(range(300 + 10 * n, 304 + 10 * n)), CHANNEL)
            for n in range(3)
        ]
        await play_fast(bot, dict.fromkeys(ids, CHANNEL), moves=6)
        await bot.presenter.close()
        for table_id in ids:
            assert await shows_latest(bot, fake, table_id)
    finally:
        await settle()
        await bot.close()


async def test_a_move_answered_by_ai_is_shown_with_the_answers(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    """One person and three AI seats: the person's move and the AI moves
    that answer it within milliseconds are shown by one edit (the table
    settles briefly while an AI seat is to act), not by an edit of the move
    alone and another one a budget slot later."""
    bot = await start_bot(tmp_path)  # no budget while the table is set up
    records: list[EditRecord] = []
    moved: list[int] = []

    async def seen(update: TableUpdate) -> None:
        if update.kind == "action":
            moved.append(update.table.seq)

    try:
        send(bot, fake, 2, fake.slash("table", "new", game="callbreak", options="rounds=1"), 31)
        await settle()
        table_id = max(bot.service.tables)
        for _ in range(3):
            await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", 31)
        await click(bot, fake, table_message(fake, bot, table_id), r":start:", 31)
        await settle()
        assert decider_user(bot, table_id) == 31
        bot.presenter.edit_interval = 1.0  # production's budget, from a quiet channel
        bot.presenter.edit_listeners.append(records.append)
        bot.service.subscribe(seen)
        await play_fast(bot, {table_id: CHANNEL}, moves=1)
        await settle()
        assert len(moved) >= 2, "no AI seat answered the move"
        assert [r.seq for r in records] == [moved[-1]]
        assert await shows_latest(bot, fake, table_id)
    finally:
        await settle()
        await bot.close()

"""A tournament's boards stay hidden from its other tables, through the
offline harness (issue 22).  Every table of a board holds the same hands, so
nothing that names a card of a board -- a table message, its picture, a
trick, a "Deal 1 is over" summary -- may be read by a person of another
table: each board table with people plays in a private thread of the
tournament's channel whose only members are its own players, and the
channel itself gets no card.  A player of one table may neither
``/table watch`` nor ``/table status`` the other table of the board.  A
table whose board is recorded says so (not "abandoned", no later deal)."""

from __future__ import annotations

import json
from typing import Any

from bot.db.tournaments import TournamentStore
from tests.bot.discord.harness import (
    CHANNEL,
    MESSAGE_PATH,
    POST_PATH,
    PRIVATE_THREAD,
    FakeDiscord,
    Sent,
)
from tests.bot.discord.test_commands_tables import SHOWS, is_ephemeral, run, text_of
from tests.bot.discord.test_tournament_commands import (
    MANAGE_GUILD,
    MOD,
    cog,
    payload,
    play_out,
    slash,
)
from tests.bot.discord.test_tournament_commands import tbot as tbot

#: joined in this order: entrants 0..4; on both boards entrants 0-3 sit at
#: table 1 and entrant 4 at table 2 (the movement of 2 Callbreak tables)
PEOPLE = (31, 32, 33, 34, 35)
SUITS = "♠♥♦♣"


async def _open(bot: Any, fake: FakeDiscord, *, boards: int = 2) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=boards, tables=2), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    opened = (await run(bot, fake, body))[0]
    assert not is_ephemeral(opened)
    for person in PEOPLE:
        await run(bot, fake, payload(fake, 2, slash(fake, "join"), person))


def names_a_card(sent: Sent) -> bool:
    """A channel message (post or edit) that shows cards: a suit in its text
    or embeds, or a picture of the table."""
    body = FakeDiscord.body_of(sent)
    text = json.dumps([body.get("content"), body.get("embeds")], ensure_ascii=False)
    return bool(sent.files) or any(suit in text for suit in SUITS)


def card_messages(fake: FakeDiscord) -> list[Sent]:
    return [
        s
        for s in fake.channel_requests()
        if s.path in (POST_PATH, MESSAGE_PATH) and s.method in ("POST", "PATCH") and names_a_card(s)
    ]


async def _board_tables(bot: Any) -> dict[int, tuple[int, frozenset[int]]]:
    """table id -> (board, its people)"""
    links = await TournamentStore(bot.store).links([1])
    tables = {}
    for link in links:
        info = await bot.service.get_table(link.table_id)
        people = frozenset(s.user_id for s in info.seats if s.human)
        tables[link.table_id] = (link.board, people)
    return tables


async def test_no_card_of_a_board_reaches_another_table(fake: FakeDiscord, tbot: Any) -> None:
    await _open(tbot, fake)
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    await play_out(tbot)

    tables = await _board_tables(tbot)
    assert sorted(board for board, _ in tables.values()) == [0, 0, 1, 1]
    threads = {}
    for table_id, (_board, people) in tables.items():
        assert people, "every table of this tournament has people"
        threads[str((await tbot.service.get_table(table_id)).thread_id)] = table_id

    shown = card_messages(fake)
    assert shown, "the tables were shown"
    for sent in shown:
        channel = str(sent.route_params["channel_id"])
        assert channel != str(CHANNEL), "a card in the tournament's channel"
        assert fake.readers(channel) is not None, "a card where everybody reads"
        assert channel in threads, f"a card outside the board tables' threads: {channel}"
        assert fake.readers(channel) == tables[threads[channel]][1]
    for thread_id, table_id in threads.items():
        info = await tbot.service.get_table(table_id)
        # a private thread of the tournament's channel, read by the table's own players
        assert fake.threads[thread_id]["type"] == PRIVATE_THREAD
        assert fake.threads[thread_id]["parent"] == str(CHANNEL)
        assert fake.readers(thread_id) == tables[table_id][1]
        assert info.channel_id == info.thread_id
    # the people of the two tables of a board never share a thread
    for board in (0, 1):
        people = [p for b, p in tables.values() if b == board]
        assert len(people) == 2 and not people[0] & people[1]


async def test_a_finished_board_table_says_its_board_was_recorded(
    fake: FakeDiscord, tbot: Any
) -> None:
    await _open(tbot, fake, boards=1)
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    await play_out(tbot)
    for table_id in await _board_tables(tbot):
        info = await tbot.service.get_table(table_id)
        message = fake.messages[str(info.message_id)]
        text = json.dumps(message["embeds"], ensure_ascii=False)
        assert "The board is recorded" in text, text
        for wrong in ("abandoned", "Waiting for", "deal 2"):
            assert wrong not in text, (wrong, text)
        assert message["components"] == []


async def test_the_other_table_of_a_board_cannot_be_watched(fake: FakeDiscord, tbot: Any) -> None:
    await _open(tbot, fake, boards=1)
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    tour = cog(tbot).service.live[1]
    first, second = tour.tables[(0, 0)], tour.tables[(1, 0)]
    assert (await tbot.service.get_table(first)).seat_of(PEOPLE[0]) is not None
    for command in ("watch", "status"):
        replies = await run(
            tbot, fake, payload(fake, 2, fake.slash("table", command, table=second), PEOPLE[0])
        )
        assert replies and all(is_ephemeral(s) for s in replies)
        assert not any(s.files for s in replies), "no picture of the other table"
        said = " ".join(text_of(s) for s in replies)
        assert "⚠️" in said and "another table is still playing" in said, said
    # the own table is fine
    replies = await run(
        tbot, fake, payload(fake, 2, fake.slash("table", "status", table=first), PEOPLE[0])
    )
    assert any(s.files for s in replies)


async def test_without_private_threads_no_tournament_opens(fake: FakeDiscord, tbot: Any) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=1, tables=2), MOD,
        permissions=MANAGE_GUILD, app=SHOWS,
    )  # fmt: skip
    replies = await run(tbot, fake, body)
    assert [r for r in replies if is_ephemeral(r) and "Create Private Threads" in text_of(r)]
    assert cog(tbot).service.live == {}


async def test_a_table_without_its_thread_is_shown_nowhere(fake: FakeDiscord, tbot: Any) -> None:
    """Discord refuses the thread: the table's players play with /table
    hand, the channel is told why, and no card reaches it."""
    await _open(tbot, fake, boards=1)
    fake.fail("POST", "/channels/{channel_id}/threads")
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    await play_out(tbot)
    assert card_messages(fake) == []
    told = [
        FakeDiscord.body_of(s).get("content") or ""
        for s in fake.channel_requests()
        if s.method == "POST" and s.path == POST_PATH
    ]
    assert any("could not open a private thread" in text for text in told), told


async def test_not_inside_a_thread(fake: FakeDiscord, tbot: Any) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=1, tables=2), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    body["channel"] = {
        **body["channel"],
        "type": 11,
        "parent_id": str(CHANNEL),
        "owner_id": str(MOD),
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2026-11-23T00:00:00+00:00",
            "locked": False,
        },
    }
    replies = await run(tbot, fake, body)
    assert [r for r in replies if is_ephemeral(r) and "a thread cannot hold" in text_of(r)]
    assert cog(tbot).service.live == {}


async def test_a_moderator_who_plays_is_reminded_of_the_threads(
    fake: FakeDiscord, tbot: Any
) -> None:
    await _open(tbot, fake, boards=1)
    manage_threads = str(1 << 34)
    (joined,) = await run(
        tbot, fake, payload(fake, 2, slash(fake, "join"), 40, permissions=manage_threads)
    )
    assert "You joined tournament #1" in text_of(joined)
    assert "Discord lets you open the other tables' private threads" in text_of(joined)
    (plain,) = await run(tbot, fake, payload(fake, 2, slash(fake, "join"), 41))
    assert "private threads" not in text_of(plain)

"""/tournament through the offline harness (issue 16): a moderator opens a
2 tables x 4 boards Callbreak tournament, a member joins, AI fills the
rest; it runs to its final standings in the channel's standings message;
a member may not open one; garbage is refused; /tournament help,
/standings and /leaderboard answer within Discord's limits."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot.discord import client as client_module
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import MESSAGE_PATH, FakeDiscord, settle
from tests.bot.discord.test_commands_tables import SHOWS, is_ephemeral, run, text_of
from tests.bot.discord.test_commands_tables import payload as table_payload

MOD, MEMBER = 21, 22
MANAGE_GUILD = str(1 << 5)
#: what the bot needs for a tournament: a table's permissions, and private threads
BOARDS = discord.Permissions(SHOWS.value, create_private_threads=True)


def payload(fake: FakeDiscord, *args: Any, **kw: Any) -> dict[str, Any]:
    """An interaction; the bot holds what a tournament needs in the channel."""
    kw.setdefault("app", BOARDS)
    return table_payload(fake, *args, **kw)


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def tbot(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    if "bot.discord.cogs.tournaments" not in client_module.EXTENSIONS:
        monkeypatch.setattr(
            client_module, "EXTENSIONS", (*client_module.EXTENSIONS, "bot.discord.cogs.tournaments")
        )
    monkeypatch.setattr(
        "bot.services.tournaments.random.SystemRandom.randrange", lambda self, n: 4242
    )
    clock = Clock()
    client = await start_bot(tmp_path, clock=clock)
    client.test_clock = clock
    yield client
    await settle()
    await client.close()


def cog(bot: Any) -> Any:
    return bot.get_cog("TournamentCog")


def slash(fake: FakeDiscord, sub: str, **options: Any) -> dict[str, Any]:
    return fake.slash("tournament", sub, **options)


async def play_out(bot: Any) -> None:
    """Until the tournament is over: AI seats play, a person's turn runs out
    on the fake clock (the AI plays it)."""
    service = cog(bot).service
    for _ in range(400):
        await settle()
        await service.idle()
        if not service.live:
            return
        bot.test_clock.now += 1000
        await bot.service.expire_due()
    raise AssertionError("the tournament did not finish")


async def test_the_command_is_synced_with_its_subcommands(fake: FakeDiscord, tbot: Any) -> None:
    syncs = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    commands = {c["name"]: c for c in syncs[-1].json}
    subs = {o["name"] for o in commands["tournament"]["options"]}
    assert subs == {"new", "join", "start", "standings", "leaderboard", "help"}
    assert commands["tournament"]["contexts"] == [0]  # guild only


async def test_a_member_may_not_open_a_tournament(fake: FakeDiscord, tbot: Any) -> None:
    body = payload(fake, 2, slash(fake, "new", game="callbreak", boards=4, tables=2), MEMBER)
    (reply,) = await run(tbot, fake, body)
    assert is_ephemeral(reply) and text_of(reply).startswith("⚠️ only moderators (Manage Server")
    assert cog(tbot).service.live == {}


@pytest.mark.parametrize(
    ("game", "boards", "tables"), [("chess", 4, 2), ("callbreak", 0, 2), ("callbreak", 4, 99)]
)
async def test_garbage_is_refused(fake: FakeDiscord, tbot: Any, game, boards, tables) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game=game, boards=boards, tables=tables), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    (reply,) = await run(tbot, fake, body)
    assert is_ephemeral(reply) and text_of(reply).startswith("⚠️")
    assert cog(tbot).service.live == {}


async def test_one_board_is_counted_in_the_singular(fake: FakeDiscord, tbot: Any) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=1, tables=2), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    opened = (await run(tbot, fake, body))[0]
    assert "1 board at 2 tables" in text_of(opened), text_of(opened)
    assert "1 boards" not in text_of(opened)


async def test_a_tournament_runs_to_its_standings(fake: FakeDiscord, tbot: Any) -> None:
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=4, tables=2), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    replies = await run(tbot, fake, body)
    opened = replies[0]
    assert not is_ephemeral(opened)
    assert "Duplicate tournament #1" in text_of(opened) and "4 boards at 2 tables" in text_of(
        opened
    )
    standings_id = fake.reply_message(opened)["id"]

    (joined,) = await run(tbot, fake, payload(fake, 2, slash(fake, "join"), MEMBER))
    assert is_ephemeral(joined) and "You joined tournament #1" in text_of(joined)
    (again,) = await run(tbot, fake, payload(fake, 2, slash(fake, "join"), MEMBER))
    assert text_of(again).startswith("⚠️")

    refused = await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MEMBER))
    assert all(is_ephemeral(s) for s in refused)  # acknowledged, then refused
    assert any(text_of(s).startswith("⚠️ only moderators") for s in refused)
    assert cog(tbot).service.live[1].status == "lobby"
    start = len(fake.sent)
    started = await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    assert any("has started" in text_of(s) for s in started)
    assert all(is_ephemeral(s) for s in started)
    # the member's table got its table message in the channel
    posts = [s for s in fake.channel_requests(start) if s.method == "POST"]
    assert posts

    await play_out(tbot)
    edits = [
        s
        for s in fake.sent
        if s.method == "PATCH"
        and s.path == MESSAGE_PATH
        and str(s.route_params.get("message_id")) == str(standings_id)
    ]
    final = FakeDiscord.body_of(edits[-1])["content"]
    assert "Final standings" in final and final.count("% of the matchpoints") == 8
    assert len(final) <= 2000

    (shown,) = await run(tbot, fake, payload(fake, 2, slash(fake, "standings"), MEMBER))
    assert is_ephemeral(shown) and "Final standings" in text_of(shown)
    (board,) = await run(tbot, fake, payload(fake, 2, slash(fake, "leaderboard"), MEMBER))
    assert f"<@{MEMBER}>" in text_of(board) and "won of 1" in text_of(board)
    assert FakeDiscord.body_of(board).get("allowed_mentions", {}).get("parse") == []


async def test_help_explains_tournaments(fake: FakeDiscord, tbot: Any) -> None:
    (reply,) = await run(tbot, fake, payload(fake, 2, slash(fake, "help"), MEMBER))
    assert is_ephemeral(reply)
    assert "same deals" in text_of(reply) and "/tournament new" in text_of(reply)


async def test_nothing_to_show_without_a_tournament(fake: FakeDiscord, tbot: Any) -> None:
    (reply,) = await run(tbot, fake, payload(fake, 2, slash(fake, "standings"), MEMBER))
    assert text_of(reply).startswith("⚠️")
    (board,) = await run(tbot, fake, payload(fake, 2, slash(fake, "leaderboard"), MEMBER))
    assert "No tournaments finished here yet." in text_of(board)


async def test_a_tournament_survives_a_restart_of_the_bot(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot closes while round 2 is being played; a new bot on the same
    database reloads the tournament, the tables go on, and the standings
    message gets its final standings."""
    if "bot.discord.cogs.tournaments" not in client_module.EXTENSIONS:
        monkeypatch.setattr(
            client_module, "EXTENSIONS", (*client_module.EXTENSIONS, "bot.discord.cogs.tournaments")
        )
    clock = Clock()
    first = await start_bot(tmp_path, clock=clock)
    first.test_clock = clock
    try:
        body = payload(
            fake, 2, slash(fake, "new", game="callbreak", boards=4, tables=2), MOD,
            permissions=MANAGE_GUILD,
        )  # fmt: skip
        opened = (await run(first, fake, body))[0]
        standings_id = fake.reply_message(opened)["id"]
        await run(first, fake, payload(fake, 2, slash(fake, "join"), MEMBER))  # holds table 1
        await run(first, fake, payload(fake, 2, slash(fake, "start"), MOD))
        service = cog(first).service
        for _ in range(400):
            tour = service.live[1]
            if tour.round is not None and tour.round >= 1 and (1, 1) in tour.tables:
                break
            await settle()
            await service.idle()
            clock.now += 1000  # the member's turn runs out: the AI plays it
            await first.service.expire_due()
        assert service.live[1].round == 1
    finally:
        await settle()
        await first.close()

    second = await start_bot(tmp_path, clock=clock)
    second.test_clock = clock
    try:
        await play_out(second)
        edits = [
            s
            for s in fake.sent
            if s.method == "PATCH"
            and s.path == MESSAGE_PATH
            and str(s.route_params.get("message_id")) == str(standings_id)
        ]
        final = FakeDiscord.body_of(edits[-1])["content"]
        assert "Final standings" in final and final.count("% of the matchpoints") == 8
    finally:
        await settle()
        await second.close()

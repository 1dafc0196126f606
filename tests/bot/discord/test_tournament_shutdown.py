"""Stopping the bot (SIGTERM's path: ``CardBot.shutdown``) while a
tournament is recording a board (issues 22 and 24): the board's score is
kept, the board table is ended with "The board is recorded" -- not left
playing a match whose later deals belong to no board, pinging its people
-- and a restart finishes the tournament."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.db.tournaments import TournamentStore
from bot.discord import client as client_module
from bot.services.tournaments import TournamentService
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import FakeDiscord, settle
from tests.bot.discord.test_commands_tables import run
from tests.bot.discord.test_tournament_commands import (
    MANAGE_GUILD,
    MEMBER,
    MOD,
    Clock,
    cog,
    payload,
    play_out,
    slash,
)


@pytest.fixture(autouse=True)
def _tournaments(monkeypatch: pytest.MonkeyPatch) -> None:
    if "bot.discord.cogs.tournaments" not in client_module.EXTENSIONS:
        monkeypatch.setattr(
            client_module, "EXTENSIONS", (*client_module.EXTENSIONS, "bot.discord.cogs.tournaments")
        )


async def _stop_as_board_is_recorded(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, boards: int
) -> Clock:
    """Open a tournament with one person and play until the first board is
    saved at the person's table (with ``boards=1``: the tournament is
    over), its table not ended yet; then stop the bot.  The
    ending waits until the presenter closes (as when the signal comes just
    before it runs), so it can only be ended where a front end shows it."""
    original = TournamentService._end_table
    presenter_closed = asyncio.Event()
    ending: list[int] = []

    async def gated(self: TournamentService, tournament_id: int, no: int, table: int) -> None:
        ending.append(table)
        await presenter_closed.wait()
        await original(self, tournament_id, no, table)

    monkeypatch.setattr(TournamentService, "_end_table", gated)
    clock = Clock()
    first = await start_bot(tmp_path, clock=clock)
    close_presenter = first.presenter.close

    async def closing_presenter() -> None:
        presenter_closed.set()
        await close_presenter()

    first.presenter.close = closing_presenter  # type: ignore[method-assign]
    body = payload(
        fake, 2, slash(fake, "new", game="callbreak", boards=boards, tables=2), MOD,
        permissions=MANAGE_GUILD,
    )  # fmt: skip
    await run(first, fake, body)
    await run(first, fake, payload(fake, 2, slash(fake, "join"), MEMBER))
    await run(first, fake, payload(fake, 2, slash(fake, "start"), MOD))
    tour = cog(first).service.live[1]
    mine = tour.tables[(0, 0)]  # the person's table
    assert (await first.service.get_table(mine)).seat_of(MEMBER) is not None
    for _ in range(2000):
        await first.service.wait_idle(tour.tables[(0, 0)])
        await first.service.wait_idle(tour.tables[(1, 0)])
        await settle()
        if mine in ending and (boards > 1 or tour.status == "finished"):
            break
        clock.now += 1000  # the person's turn runs out: the AI plays it
        await first.service.expire_due()
    else:
        raise AssertionError("board 1 was never complete")
    await first.close()  # what SIGTERM runs
    presenter_closed.set()
    monkeypatch.setattr(TournamentService, "_end_table", original)
    return clock


async def _board_tables_end_recorded(bot: Any, fake: FakeDiscord, board: int) -> None:
    links = await TournamentStore(bot.store).links([1])
    tables = [k.table_id for k in links if k.board == board]
    assert len(tables) == 2
    for table_id in tables:
        info = await bot.service.get_table(table_id)
        if info.message_id is None:  # AI players only: shown nowhere, and
            # here (its end held back) it may have played its match out
            assert info.status in ("abandoned", "finished"), (table_id, info.status)
            continue
        assert info.status == "abandoned", (table_id, info.status)
        text = json.dumps(fake.messages[str(info.message_id)]["embeds"], ensure_ascii=False)
        assert "The board is recorded" in text, text


async def test_a_board_recorded_as_the_bot_stops_ends_its_tables(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = await _stop_as_board_is_recorded(fake, tmp_path, monkeypatch, boards=2)
    second = await start_bot(tmp_path, clock=clock)
    second.test_clock = clock
    try:
        await play_out(second)
        await settle()
        for board in (0, 1):
            await _board_tables_end_recorded(second, fake, board)
        record = await TournamentStore(second.store).get(1)
        assert record is not None and record.status == "finished"
    finally:
        await settle()
        await second.close()


async def test_the_last_board_recorded_as_the_bot_stops_ends_its_tables(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tournament is over (a restart does not reload it): its last
    tables are ended before the bot stops."""
    clock = await _stop_as_board_is_recorded(fake, tmp_path, monkeypatch, boards=1)
    second = await start_bot(tmp_path, clock=clock)
    try:
        await settle()
        record = await TournamentStore(second.store).get(1)
        assert record is not None and record.status == "finished"
        await _board_tables_end_recorded(second, fake, 0)
    finally:
        await settle()
        await second.close()

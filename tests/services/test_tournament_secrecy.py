"""A board's cards stay secret from the tournament's other tables (issue 22):
every table of a board holds the same hands, so ``/table watch`` and
``/table status`` (``TableService.public_view`` with an actor) of a board
table are refused to the players of the other tables, to the server's
spectators and to moderators who play in the tournament, until every table
has played the board; the table's own players and the moderators who direct
it may look.  A board table ends with "board recorded", not "abandoned"."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.services.actor import Actor
from bot.services.errors import ServiceError
from bot.services.models import BOARD_RECORDED, TableUpdate
from bot.services.tournaments import TournamentService
from tests.services.test_tournaments_service import CHANNEL, GUILD, MOD, Bot

#: joined in this order: entrants 0..4; on board 1, entrants 0-3 sit at table 1
#: and entrant 4 at table 2 (the movement of 2 Callbreak tables)
PEOPLE = [Actor(11 + i, GUILD, CHANNEL, f"P{i}") for i in range(5)]
ALICE, ERIN = PEOPLE[0], PEOPLE[4]
PLAYING_MOD = Actor(16, GUILD, CHANNEL, "Judge", can_manage_server=True)
SPECTATOR = Actor(30, GUILD, CHANNEL, "Carol")


@pytest.fixture
async def bot(tmp_path) -> AsyncIterator[Bot]:
    b = await Bot(f"sqlite+aiosqlite:///{tmp_path / 'tour.db'}").open()
    yield b
    await b.close()


async def _started(bot: Bot, *, boards: int = 1, joiners: list[Actor] = PEOPLE) -> dict:
    info = await bot.tours.new(MOD, game="callbreak", boards=str(boards), tables=2)
    for person in joiners:
        await bot.tours.join(person)
    await bot.tours.start(MOD)
    tour = bot.tours.live[info.id]
    return {"id": info.id, "first": tour.tables[(0, 0)], "second": tour.tables[(1, 0)]}


def _refused(exc: pytest.ExceptionInfo[ServiceError]) -> None:
    assert exc.value.reason == "board_hidden"
    assert "another table is still playing" in str(exc.value)


async def test_a_player_cannot_watch_the_other_table_of_his_board(bot: Bot) -> None:
    ids = await _started(bot)
    first, second = ids["first"], ids["second"]
    assert (await bot.tables.get_table(first)).seat_of(ALICE.user_id) is not None
    assert (await bot.tables.get_table(second)).seat_of(ERIN.user_id) is not None
    # each at their own table sees its spectator view
    info, view = await bot.tables.public_view(first, ALICE)
    assert info.private and view is not None
    await bot.tables.public_view(second, ERIN)
    # the sibling table of the same board: refused, both ways (watch and status use this)
    for who, table in ((ALICE, second), (ERIN, first), (SPECTATOR, first), (SPECTATOR, second)):
        with pytest.raises(ServiceError) as exc:
            await bot.tables.public_view(table, who)
        _refused(exc)
    # a moderator who directs the tournament (and plays no part in it) may look
    await bot.tables.public_view(second, MOD)
    # the refusal holds after a restart, before the tournaments are reloaded
    fresh = TournamentService(bot.tables)
    with pytest.raises(ServiceError) as exc:
        await fresh.check_view(await bot.tables.get_table(second), ALICE)
    _refused(exc)


async def test_a_moderator_who_plays_is_a_player(bot: Bot) -> None:
    ids = await _started(bot, joiners=[*PEOPLE, PLAYING_MOD])  # entrant 5: table 2
    assert (await bot.tables.get_table(ids["second"])).seat_of(PLAYING_MOD.user_id) is not None
    with pytest.raises(ServiceError) as exc:
        await bot.tables.public_view(ids["first"], PLAYING_MOD)
    _refused(exc)


async def test_the_board_is_public_once_every_table_has_played_it(bot: Bot) -> None:
    updates: list[TableUpdate] = []

    async def record(update: TableUpdate) -> None:
        updates.append(update)

    bot.tables.subscribe(record)
    ids = await _started(bot)
    await bot.settle(ids["id"])
    assert ids["id"] not in bot.tours.live  # the one board is over everywhere
    _info, view = await bot.tables.public_view(ids["second"], ALICE)
    assert view is not None and view.last_deal is not None
    await bot.tables.public_view(ids["first"], SPECTATOR)
    # each board table ended as "board recorded", never as an abandoned table
    ends = {u.table.id: u.kind for u in updates if u.table.status == "abandoned"}
    assert ends == {ids["first"]: BOARD_RECORDED, ids["second"]: BOARD_RECORDED}

"""Shards (``bot.db.shards``, migration ``0003_shards``), on SQLite and
PostgreSQL: every table belongs to its server's shard, a process resumes and
drives only the tables of its shards, and a move written by a process for a
table of another shard is refused by the database's foreign key, not by the
code that would normally never try."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from bot.db.models import ActionRow, TableRow, utcnow
from bot.db.repositories import Store, TableNotOwned
from bot.db.schema import upgrade_to_head_sync
from bot.db.shards import NotOurShard, Shards
from bot.services.tables import TableService
from bot.settings import Settings, parse_shard_ids
from tests.store.test_service import HOST, A, new_table

SHARD0 = (2 << 22) | 5  # (guild_id >> 22) % 2 == 0
SHARD1 = (3 << 22) | 5  # ... == 1
TWO = 2
TABLE = {"host_id": HOST, "game": "batak", "variant": "{}", "seed": 7, "status": "playing"}


def two_shards(shard: int) -> Shards:
    return Shards(TWO, frozenset({shard}))


async def shard_rows(store: Store, table_id: int) -> tuple[int, set[int]]:
    """The table's shard and the shards of its action rows."""
    async with store.sessions() as session:
        table = await session.scalar(select(TableRow.shard).where(TableRow.id == table_id))
        moves = set(
            await session.scalars(select(ActionRow.shard).where(ActionRow.table_id == table_id))
        )
    assert table is not None
    return table, moves


# -- the rule -----------------------------------------------------------------------------------
def test_a_table_belongs_to_its_servers_shard_and_dms_to_shard_0():
    shards = Shards(4, frozenset({1, 3}))
    assert [shards.shard_of(g) for g in (0, 1 << 22, 2 << 22, 7 << 22, (9 << 22) | 12345)] == [
        0,
        1,
        2,
        3,
        1,
    ]
    assert shards.shard_of(None) == 0  # DMs and the terminal: Discord sends DMs to shard 0
    assert shards.owns(1 << 22) and not shards.owns(2 << 22) and not shards.owns(None)
    assert shards.check(3) == 3
    with pytest.raises(NotOurShard):
        shards.check(2)
    assert Shards().single == 0 and shards.single is None


@pytest.mark.parametrize("count, ids", [(0, {0}), (2, set()), (2, {2})])
def test_impossible_shard_settings_are_refused(count, ids):
    with pytest.raises(ValueError):
        Shards(count, frozenset(ids))


def test_shard_ids_are_read_as_lists_and_ranges():
    assert parse_shard_ids("0,2") == [0, 2]
    assert parse_shard_ids(" 4-6, 1 ") == [1, 4, 5, 6]
    assert parse_shard_ids("") is None and parse_shard_ids(None) is None
    for bad in ("x", "3-1", "1,,2"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)
    settings = Settings(_env_file=None, shard_count=4, shard_ids="1,3")
    assert settings.shards == Shards(4, frozenset({1, 3}))
    assert Settings(_env_file=None, shard_count=3).shards == Shards(3, frozenset({0, 1, 2}))
    with pytest.raises(ValueError):
        Settings(_env_file=None, shard_count=2, shard_ids="2")


# -- the database refuses a move from another shard's process ----------------------------------
async def test_a_forged_cross_shard_move_is_refused_by_the_database(store_url):
    owner = Store(store_url, shards=two_shards(1))
    forger = Store(store_url, shards=two_shards(0))
    await owner.migrate()
    try:
        table_id = await owner.create_table(4, guild_id=SHARD1, **TABLE)
        assert (await shard_rows(owner, table_id))[0] == 1
        # the other process writes its own shard, as it always does: the
        # foreign key (table_id, shard) -> tables(id, shard) refuses it
        with pytest.raises(TableNotOwned) as refused:
            await forger.append_action(table_id, 0, "AS", 0, None, False)
        assert isinstance(refused.value.__cause__, IntegrityError)  # the database said no
        with pytest.raises(NotOurShard):  # and it cannot write shard 1 at all
            await forger.append_action(table_id, 0, "AS", 0, None, False, shard=1)
        await owner.append_action(table_id, 0, "AS", 0, None, False)
        assert [a.notation for a in await owner.actions(table_id)] == ["AS"]
        assert await shard_rows(owner, table_id) == (1, {1})
    finally:
        await forger.close()
        await owner.close()


async def test_two_processes_on_one_database_each_resume_only_their_own_tables(store_url, clock):
    """Shards 0 and 1 of 2, as two service instances on one database."""
    one = TableService(Store(store_url, shards=two_shards(0)), clock=clock, ai_budget_ms=20)
    two = TableService(Store(store_url, shards=two_shards(1)), clock=clock, ai_budget_ms=20)
    await one.store.migrate()
    for service in (one, two):
        await service.start(dispatch_deadlines=False)
    ours = [await new_table(one, humans=(HOST,), guild=SHARD0) for _ in range(2)]
    theirs = [await new_table(two, humans=(HOST,), guild=SHARD1) for _ in range(3)]
    for service, tables, guild in ((one, ours, SHARD0), (two, theirs, SHARD1)):
        for t in tables:
            await service.start_table(t.id, A(HOST, guild))
            await service.wait_idle(t.id)
    with pytest.raises(NotOurShard):  # a process cannot even open another shard's table
        await one.create_table(A(HOST, SHARD1), game="callbreak")
    for service in (one, two):
        await service.close()
        await service.store.close()

    again_one = TableService(Store(store_url, shards=two_shards(0)), clock=clock, ai_budget_ms=20)
    again_two = TableService(Store(store_url, shards=two_shards(1)), clock=clock, ai_budget_ms=20)
    try:
        for service in (again_one, again_two):
            await service.start(dispatch_deadlines=False)
        assert set(again_one.tables) == {t.id for t in ours}
        assert set(again_two.tables) == {t.id for t in theirs}
        with pytest.raises(Exception) as elsewhere:  # clicks for another shard's table
            await again_one.get_table(theirs[0].id, A(HOST, SHARD1))
        assert elsewhere.value.reason == "unknown_table"
        # a move forged past the service, straight into shard 0's store, for
        # a table of shard 1: refused by the database
        table_id = theirs[0].id
        seq = (await again_two.get_table(table_id)).seq
        with pytest.raises(TableNotOwned):
            await again_one.store.append_action(table_id, seq, "AS", 0, HOST, False)
        # its owner plays on
        private = await again_two.private_view(table_id, A(HOST, SHARD1))
        await again_two.act(table_id, A(HOST, SHARD1), str(private.view.legal_actions[0]))
        assert (await again_two.get_table(table_id)).seq == seq + 1
    finally:
        for service in (again_one, again_two):
            await service.close()
            await service.store.close()


async def test_a_new_shard_count_moves_unfinished_tables_to_their_shards(store_url, clock):
    """Tables made by a single process are all shard 0; a process started
    as shard 1 of 2 takes over its servers' unfinished tables (rows and log),
    and the old single process can no longer write them."""
    single = TableService(Store(store_url), clock=clock, ai_budget_ms=20)
    await single.store.migrate()
    await single.start(dispatch_deadlines=False)
    stays = await new_table(single, humans=(HOST,), guild=SHARD0)
    moves = await new_table(single, humans=(HOST,), guild=SHARD1)
    for t, guild in ((stays, SHARD0), (moves, SHARD1)):
        await single.start_table(t.id, A(HOST, guild))
        await single.wait_idle(t.id)
    assert (await shard_rows(single.store, moves.id))[0] == 0
    await single.close()

    shard1 = TableService(Store(store_url, shards=two_shards(1)), clock=clock, ai_budget_ms=20)
    try:
        await shard1.start(dispatch_deadlines=False)
        assert set(shard1.tables) == {moves.id}
        table, logged = await shard_rows(shard1.store, moves.id)
        assert table == 1 and logged <= {1}  # the log followed (ON UPDATE CASCADE)
        assert (await shard_rows(shard1.store, stays.id))[0] == 0
        seq = (await shard1.get_table(moves.id)).seq
        with pytest.raises(TableNotOwned):  # the old process's writes are refused now
            await single.store.append_action(moves.id, seq, "AS", 0, HOST, False)
        private = await shard1.private_view(moves.id, A(HOST, SHARD1))
        await shard1.act(moves.id, A(HOST, SHARD1), str(private.view.legal_actions[0]))
        assert (await shard1.get_table(moves.id)).seq == seq + 1
    finally:
        await shard1.close()
        await shard1.store.close()
        await single.store.close()


async def test_existing_tables_and_logs_get_shard_0_when_migrated(fresh_url, clock):
    """A database from before 0003_shards: its table and log get shard 0 and
    resume and play on exactly as before (one process, one shard)."""
    url = await fresh_url()
    await asyncio.to_thread(upgrade_to_head_sync, url, "0002")
    old = Store(url)
    try:
        async with old.engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO tables (id, guild_id, channel_id, host_id, game, variant, seed,"
                    " status, turn_seconds, created_at, updated_at) VALUES (1, :g, 5, :h,"
                    " 'callbreak', '{\"rounds\": 1}', 3, 'playing', 90, :now, :now)"
                ),
                {"g": SHARD1, "h": HOST, "now": utcnow()},
            )
            for seat in range(4):
                await conn.execute(
                    text(
                        "INSERT INTO seats (table_id, seat, user_id, name, ai, away, expiries)"
                        " VALUES (1, :s, :u, 'x', :ai, false, 0)"
                    ),
                    {"s": seat, "u": HOST if seat == 0 else None, "ai": "easy" if seat else None},
                )
    finally:
        await old.close()
    await asyncio.to_thread(upgrade_to_head_sync, url)
    store = Store(url)
    service = TableService(store, clock=clock, ai_budget_ms=20)
    try:
        assert await shard_rows(store, 1) == (0, set())
        await service.start(dispatch_deadlines=False)
        assert set(service.tables) == {1}
        await service.wait_idle(1)  # the AI seats play up to the person
        private = await service.private_view(1, A(HOST, SHARD1))
        await service.act(1, A(HOST, SHARD1), str(private.view.legal_actions[0]))
        table, logged = await shard_rows(store, 1)
        assert table == 0 and logged == {0}
    finally:
        await service.close()
        await store.close()


def test_the_bot_runs_its_shards_with_discord_py_and_owns_only_their_tables(tmp_path):
    from discord.ext import commands

    from bot.discord.client import CardBot, ShardedCardBot

    settings = Settings(
        _env_file=None,
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        shard_count=4,
        shard_ids="1,3",
        ai_workers=0,
    )
    bot = CardBot(settings)
    assert isinstance(bot, ShardedCardBot) and isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    assert bot.store.shards == Shards(4, frozenset({1, 3}))
    owns = bot.service.owns
    assert owns(1 << 22, 9) and owns(3 << 22, 9)
    assert not owns(2 << 22, 9) and not owns(None, 9)  # DMs are shard 0's
    single = CardBot(Settings(_env_file=None, database_url=settings.database_url, ai_workers=0))
    assert type(single) is CardBot and single.store.shards == Shards()

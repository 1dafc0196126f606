"""Group commit (``bot.db.group_commit``, ``bot.db.writer``), on SQLite and
PostgreSQL: writes that arrive together share one transaction, each move is
still its own row under the unique (table, seq), each write is acknowledged
only once its transaction has committed, and a write that is refused fails
alone."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import OperationalError

from bot.db.group_commit import PendingMove, PendingWrite, runs
from bot.db.models import ActionRow
from bot.db.repositories import Store, StoreUnavailable
from tests.store.test_store_edges import TABLE, new_table


async def action_count(store: Store) -> int:
    async with store.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(ActionRow)) or 0)


async def outcome(call: Any) -> str:
    try:
        await call
    except Exception as exc:
        return type(exc).__name__
    return "ok"


async def test_moves_that_arrive_together_share_one_transaction(store):
    tables = [await new_table(store) for _ in range(20)]
    before = store.commit_stats()
    await asyncio.gather(
        *(store.append_action(t, 0, "AS", 0, None, False, deadline=5.0) for t in tables)
    )
    after = store.commit_stats()
    assert after["moves"] - before["moves"] == 20
    assert after["batches"] - before["batches"] == 1  # one transaction, one commit
    assert await action_count(store) == 20  # still one row per move
    row, _ = await store.table(tables[-1])
    assert row.deadline == 5.0  # each move's table got its deadline


async def test_a_lone_move_is_written_at_once(store):
    table_id = await new_table(store)
    before = store.commit_stats()["batches"]
    await store.append_action(table_id, 0, "AS", 0, None, False)
    assert store.commit_stats()["batches"] == before + 1
    assert [a.notation for a in await store.actions(table_id)] == ["AS"]


async def test_a_duplicate_fails_alone_and_the_rest_of_its_group_commits(store):
    tables = [await new_table(store) for _ in range(6)]
    await store.append_action(tables[0], 0, "AS", 0, None, False)
    results = await asyncio.gather(
        outcome(store.append_action(tables[0], 0, "KS", 0, None, False)),  # slot taken
        *(outcome(store.append_action(t, 0, "QS", 1, None, True)) for t in tables[1:]),
        outcome(store.append_action(tables[1], 0, "JS", 1, None, True)),  # same slot, same group
    )
    assert results[0] == "DuplicateAction"
    assert results[1:6] == ["ok"] * 5
    assert results[6] == "DuplicateAction"
    assert [a.notation for a in await store.actions(tables[0])] == ["AS"]
    assert [a.notation for a in await store.actions(tables[1])] == ["QS"]
    assert await action_count(store) == 6


async def test_a_move_for_a_missing_table_fails_alone(store):
    tables = [await new_table(store) for _ in range(4)]
    results = await asyncio.gather(
        *(outcome(store.append_action(t, 0, "AS", 0, None, False)) for t in tables[:2]),
        outcome(store.append_action(10_000, 0, "AS", 0, None, False)),  # no such table
        *(outcome(store.append_action(t, 0, "AS", 0, None, False)) for t in tables[2:]),
    )
    assert results == ["ok", "ok", "TableNotOwned", "ok", "ok"]
    assert await action_count(store) == 4


async def test_other_writes_share_the_group_and_fail_alone(store):
    tables = [await new_table(store) for _ in range(3)]
    bad = {**TABLE, "host_id": None}  # NOT NULL: refused by the database
    results = await asyncio.gather(
        outcome(store.append_action(tables[0], 0, "AS", 0, None, False)),
        outcome(store.update_seat(tables[1], 1, name="Bob", user_id=7)),
        outcome(store.create_table(4, **bad)),
        outcome(store.append_action(tables[2], 0, "AS", 0, None, False)),
        outcome(store.put_setting(1, "batak", "rounds", 3)),
    )
    assert results == ["ok", "ok", "IntegrityError", "ok", "ok"]
    assert (await store.table(tables[1]))[1][1].name == "Bob"
    assert await store.settings(1, "batak") == {"rounds": 3}
    assert await action_count(store) == 2


async def test_nothing_is_acknowledged_when_the_commit_fails(store):
    """A move is acknowledged only after its transaction commits: a failing
    COMMIT fails every move of the group, and none of them is stored."""
    tables = [await new_table(store) for _ in range(5)]
    engine = store.writer.engine
    locked = OperationalError("COMMIT", {}, Exception("database is locked"))

    def refuse(_conn: Any) -> None:
        raise locked

    event.listen(engine, "commit", refuse)
    try:
        results = await asyncio.gather(
            *(outcome(store.append_action(t, 0, "AS", 0, None, False)) for t in tables)
        )
    finally:
        event.remove(engine, "commit", refuse)
    assert results == ["StoreUnavailable"] * 5
    assert await action_count(store) == 0
    await store.append_action(tables[0], 0, "AS", 0, None, False)  # and it recovers
    assert await action_count(store) == 1


async def test_a_caller_who_gives_up_before_the_group_forms_is_not_written(store):
    table_id = await new_table(store)
    async with store.writer.turn():  # the writer is busy...
        first = asyncio.ensure_future(store.update_table(table_id, deadline=1.0))
        await asyncio.sleep(0)  # ...and the first write's group waits for it
        waiting = asyncio.ensure_future(store.append_action(table_id, 0, "AS", 0, None, False))
        await asyncio.sleep(0.05)
        waiting.cancel()  # still queued for the next group
        with pytest.raises(asyncio.CancelledError):
            await waiting
    await first
    await store.writer.group.drain()
    assert await action_count(store) == 0
    assert (await store.table(table_id))[0].deadline == 1.0


async def test_a_write_queued_behind_a_stuck_writer_is_withdrawn(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'stuck.db'}", write_wait=0.1)
    await store.migrate()
    try:
        table_id = await new_table(store)
        async with store.writer.turn():
            first = asyncio.ensure_future(store.update_table(table_id, deadline=1.0))
            await asyncio.sleep(0)  # the first is taken into a group (which waits)
            with pytest.raises(StoreUnavailable) as second:
                await store.append_action(table_id, 0, "AS", 0, None, False)
            assert "earlier writes" in second.value.detail
            with pytest.raises(StoreUnavailable):
                await first
        assert await action_count(store) == 0
        await store.append_action(table_id, 0, "AS", 0, None, False)
        assert await action_count(store) == 1
    finally:
        await store.close()


def test_a_group_keeps_its_order_with_consecutive_moves_together():
    async def job(_conn: Any) -> None:
        return None

    async def build() -> list[list[str]]:
        def move(seq: int) -> PendingMove:
            return PendingMove(
                table_id=1, seq=seq, notation="AS", seat=0, actor_id=None, by_ai=False, shard=0
            )

        batch = [move(0), move(1), PendingWrite(job=job), move(2), PendingWrite(job=job)]
        return [[type(item).__name__ for item in part] for part in runs(batch)]

    assert asyncio.run(build()) == [
        ["PendingMove", "PendingMove"],
        ["PendingWrite"],
        ["PendingMove"],
        ["PendingWrite"],
    ]

"""What the health check and the metrics read of the store: ``ping`` (a
light read that fails as ``StoreUnavailable``) and the group commit's
``stalled_for`` and ``on_batch``, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.db.repositories import Store, StoreUnavailable


async def test_ping_answers(store: Store):
    await store.ping()


async def test_ping_of_an_unreachable_server_is_store_unavailable():
    store = Store("postgresql+asyncpg://nobody@127.0.0.1:1/none")  # nothing listens on port 1
    try:
        with pytest.raises(StoreUnavailable):
            await store.ping()
    finally:
        await store.close()


async def test_stalled_for_and_on_batch(store: Store):
    batches: list[tuple[float, int]] = []
    group = store.writer.group
    group.on_batch = lambda seconds, writes: batches.append((seconds, writes))
    assert group.stalled_for() == 0.0
    await store.writer.lock.acquire()  # the batch on its way cannot finish
    writes = [asyncio.create_task(store.put_user_setting(n, "ping", "dm")) for n in (1, 2, 3)]
    await asyncio.sleep(0.05)
    assert group.stalled_for() >= 0.04
    store.writer.lock.release()
    await asyncio.gather(*writes)
    assert group.stalled_for() == 0.0
    assert sum(n for _, n in batches) == 3 and all(s >= 0 for s, _ in batches)

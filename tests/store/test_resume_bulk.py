"""Resume in bulk (``bot.services.resume``), on SQLite and PostgreSQL: the
logs are read a chunk of tables per query set, replay gives the event loop
back between slices, a store that cannot be read is tried again while the
tables answer "resuming", and the deadline index finds the nearest deadline
without scanning every table."""

from __future__ import annotations

import asyncio
import gc

import pytest

from bot.db.repositories import StoreUnavailable
from bot.services import resume as resume_module
from bot.services.errors import Resuming
from bot.services.tables import TableService
from tests.store.test_service import HOST, A, new_table

TABLES = 12


async def unfinished_tables(store, clock, count: int = TABLES) -> list[int]:
    """``count`` started Callbreak tables of one person and three AI seats."""
    svc = TableService(store, clock=clock, ai_budget_ms=20, max_open_per_host=None)
    await svc.start(dispatch_deadlines=False)
    ids = []
    for _ in range(count):
        info = await new_table(svc, humans=(HOST,))
        await svc.start_table(info.id, A(HOST))
        await svc.wait_idle(info.id)
        ids.append(info.id)
    await svc.close()
    return ids


async def test_tables_are_read_in_chunks_and_replayed_in_slices(store, clock, monkeypatch):
    ids = await unfinished_tables(store, clock)
    monkeypatch.setattr(resume_module, "RESUME_FIRST_CHUNK", 2)
    monkeypatch.setattr(resume_module, "RESUME_CHUNK", 4)
    monkeypatch.setattr(resume_module, "RESUME_SLICE_SECONDS", 0.0)  # yield after each table
    reads: list[list[int]] = []
    real = store.resumable

    async def counted(table_ids):
        reads.append(sorted(table_ids))
        return await real(table_ids)

    monkeypatch.setattr(store, "resumable", counted)
    again = TableService(store, clock=clock, ai_budget_ms=20)
    seen: list[int] = []
    await again.start(dispatch_deadlines=False, wait=False)
    while again._pending:
        seen.append(len(again.tables))
        await asyncio.sleep(0)
    await again.resumed()
    assert set(again.tables) == set(ids)
    assert [len(r) for r in reads if r] == [2, 4, 4, 2]  # four reads of three queries each
    assert any(0 < n < TABLES for n in seen)  # the loop ran while tables were replayed
    await again.close()


async def test_a_store_that_cannot_be_read_is_tried_again_meanwhile_resuming(
    store, clock, monkeypatch
):
    ids = await unfinished_tables(store, clock, 3)
    monkeypatch.setattr(resume_module, "RESUME_RETRY", (0.001, 0.001))
    real = store.resumable
    failures = {"left": 2}

    async def flaky(table_ids):
        if failures["left"]:
            failures["left"] -= 1
            raise StoreUnavailable(detail="database is locked")
        return await real(table_ids)

    monkeypatch.setattr(store, "resumable", flaky)
    again = TableService(store, clock=clock, ai_budget_ms=20)
    await again.start(dispatch_deadlines=False, wait=False)
    with pytest.raises(Resuming):
        await again.get_table(ids[0], A(HOST))
    await again.resumed()
    assert failures["left"] == 0 and set(again.tables) == set(ids)
    assert (await again.get_table(ids[0], A(HOST))).status == "playing"
    await again.close()


async def test_a_bulk_resume_pauses_the_collector_and_freezes_what_it_built(
    store, clock, monkeypatch
):
    await unfinished_tables(store, clock, 3)
    monkeypatch.setattr(resume_module, "RESUME_GC_PAUSE_TABLES", 3)
    states: list[bool] = []
    real = TableService._build

    def watched(self, *args):
        states.append(gc.isenabled())
        return real(self, *args)

    monkeypatch.setattr(TableService, "_build", watched)
    gc.unfreeze()
    again = TableService(store, clock=clock, ai_budget_ms=20)
    try:
        await again.start(dispatch_deadlines=False)
        assert states == [False, False, False]  # no collection while the tables are built
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
        await again.close()


async def test_a_few_tables_leave_the_collector_alone(store, clock, monkeypatch):
    await unfinished_tables(store, clock, 2)
    gc.unfreeze()
    again = TableService(store, clock=clock, ai_budget_ms=20)
    await again.start(dispatch_deadlines=False)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    await again.close()


async def test_the_nearest_deadline_comes_from_an_index_that_forgets_old_entries(service, clock):
    tables = [await new_table(service, humans=(HOST,)) for _ in range(3)]
    lives = [service.tables[t.id] for t in tables]
    lobby_end = clock.now + service.lobby_seconds
    assert service._earliest_deadline() == pytest.approx(lobby_end)
    lives[1].deadline = clock.now + 10
    lives[2].deadline = clock.now + 5
    assert service._earliest_deadline() == clock.now + 5
    lives[2].deadline = clock.now + 50  # moved later: its old entry is outdated
    assert service._earliest_deadline() == clock.now + 10
    lives[1].deadline = None
    assert service._earliest_deadline() == clock.now + 50
    await service.abandon(tables[2].id, A(HOST))  # gone from play
    assert service._earliest_deadline() == pytest.approx(lobby_end)
    for _ in range(2000):  # outdated entries do not pile up without bound
        lives[0].deadline = clock.now + 100
    assert len(service._deadline_index) <= 4 * len(service.tables) + 256
    assert service._earliest_deadline() == clock.now + 100

"""The open-table limit holds under races and right after a restart: the
check and the table it allows are one step, and tables the store holds
that are not resumed yet count."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.errors import TooManyTables
from bot.services.policy import MAX_OPEN_PER_HOST
from bot.services.tables import TableService
from tests.store.test_service import BOB, HOST, A, new_table, play_to_end


async def _hosted(service: TableService, user: int = HOST) -> list[int]:
    return [t.id for t in await service.active_tables() if t.host_id == user]


async def test_concurrent_creates_by_one_host_make_no_more_than_the_limit(service):
    calls = [service.create_table(A(HOST), game="callbreak") for _ in range(10)]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(made) == MAX_OPEN_PER_HOST
    assert all(isinstance(o, TooManyTables) for o in refused), refused
    assert len(await _hosted(service)) == MAX_OPEN_PER_HOST
    assert service._openers == {}  # nothing held once the openings are done
    # another host, or the same host in another server, is not limited by them
    await service.create_table(A(BOB), game="callbreak")
    await service.create_table(A(HOST, 2), game="callbreak")


async def test_concurrent_rematches_make_no_more_lobbies_than_the_limit(service):
    finished = []
    for _ in range(5):
        info = await new_table(service, humans=(HOST,))
        await service.start_table(info.id, A(HOST))
        await play_to_end(service, info.id, {HOST})
        finished.append(info.id)
    assert await _hosted(service) == []
    outcomes = await asyncio.gather(
        *(service.rematch(t, A(HOST)) for t in finished), return_exceptions=True
    )
    made = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(made) == MAX_OPEN_PER_HOST
    assert all(isinstance(o, TooManyTables) for o in outcomes if o not in made)
    assert len(await _hosted(service)) == MAX_OPEN_PER_HOST


async def test_tables_not_yet_resumed_after_a_restart_count(store, clock, monkeypatch):
    first = TableService(store, clock=clock, ai_budget_ms=20)
    await first.start(dispatch_deadlines=False)
    lobbies = [(await first.create_table(A(HOST), game="callbreak")).id for _ in range(3)]
    await first.close()

    release = asyncio.Event()
    real = store.resumable

    async def slow(table_ids):
        await release.wait()  # the resume has not read them yet
        return await real(table_ids)

    monkeypatch.setattr(store, "resumable", slow)
    again = TableService(store, clock=clock, ai_budget_ms=20)
    await again.start(dispatch_deadlines=False, wait=False)
    try:
        assert set(again._pending) == set(lobbies) and again.tables == {}
        with pytest.raises(TooManyTables) as refused:
            await again.create_table(A(HOST), game="callbreak")
        assert all(f"#{t}" in str(refused.value) for t in lobbies)
        await again.create_table(A(BOB), game="callbreak")  # somebody else may
        release.set()
        await again.resumed()
        assert sorted(await _hosted(again)) == lobbies
        with pytest.raises(TooManyTables):
            await again.create_table(A(HOST), game="callbreak")
    finally:
        release.set()
        await again.close()

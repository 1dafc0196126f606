"""Start-up without polling (issue 22): the table service's public
awaitables ``started()`` and ``resumed()`` resolve when it starts and when
its tables are resumed, give their waiters the error when it cannot start,
and the terminal's table loop waits on published updates, never on a
timer."""

from __future__ import annotations

import asyncio
import io

import pytest

from bot.cli.terminal_console import Console
from bot.cli.terminal_table import TerminalTable
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.resume import ServiceNotStarted
from bot.services.tables import TableService


async def _waiting(awaitable) -> asyncio.Task:
    task = asyncio.ensure_future(awaitable)
    for _ in range(5):
        await asyncio.sleep(0)
    return task


async def test_started_and_resumed_resolve_when_the_service_starts(store: Store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    started = await _waiting(svc.started())
    resumed = await _waiting(svc.resumed())
    assert not started.done() and not resumed.done(), "nothing has started yet"
    try:
        await svc.start(dispatch_deadlines=False, wait=False)
        await asyncio.wait_for(started, 5)
        await asyncio.wait_for(resumed, 5)
        await asyncio.wait_for(svc.started(), 1)  # later callers pass at once
    finally:
        await svc.close()


async def test_a_service_that_fails_to_start_gives_its_waiters_the_error(store: Store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)

    async def broken(*_args, **_kw):
        raise RuntimeError("the database is down")

    svc.store.table_heads = broken  # type: ignore[method-assign]
    started = await _waiting(svc.started())
    resumed = await _waiting(svc.resumed())
    with pytest.raises(RuntimeError, match="database is down"):
        await svc.start(dispatch_deadlines=False)
    for waiter in (started, resumed):
        with pytest.raises(RuntimeError, match="database is down"):
            await asyncio.wait_for(waiter, 5)
    await svc.close()


async def test_closing_a_service_that_never_started_releases_its_waiters(store: Store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    waiter = await _waiting(svc.resumed())
    await svc.close()
    with pytest.raises(ServiceNotStarted):
        await asyncio.wait_for(waiter, 5)


async def test_the_terminal_waits_for_ai_moves_without_polling(store: Store, clock, monkeypatch):
    svc = TableService(store, clock=clock, ai_budget_ms=20, max_open_per_host=None)
    await svc.start(dispatch_deadlines=False)
    me = Actor.local()
    try:
        # the person only watches: every seat is an AI
        info = await svc.create_table(me, game="callbreak", options={"rounds": "1"}, host_seat=None)
        info = await svc.start_table(info.id, me, fill_ai="easy")

        class NoTimer:
            """The terminal's ``asyncio``, with every timer refused."""

            def __getattr__(self, name: str) -> object:
                return getattr(asyncio, name)

            @staticmethod
            async def sleep(delay: float, *args: object) -> None:
                raise AssertionError(f"the terminal polled (asyncio.sleep({delay}))")

        monkeypatch.setattr("bot.cli.terminal.asyncio", NoTimer())

        class Impatient:
            """The service, except that ``wait_idle`` does not wait for the
            AI: the terminal sees AI seats still to move, and must wait for
            their moves to be published."""

            def __getattr__(self, name: str) -> object:
                return getattr(svc, name)

            async def wait_idle(self, table_id: int) -> None:
                return None

        out = io.StringIO()
        console = Console(stdin=io.StringIO(""), stdout=out)
        table = TerminalTable(Impatient(), console, info.id, None)  # type: ignore[arg-type]
        assert await asyncio.wait_for(table.run(), 60) == 0
        assert "Final result" in out.getvalue()
        assert "Not rated: ratings are kept per Discord server." in out.getvalue()
    finally:
        await svc.close()

"""Start-up through the production path (``login`` runs ``setup_hook``):
the tournaments cog waits on the table service's public ``resumed()``
awaitable -- it neither polls nor reads the service's private state -- and
a table service that fails to start leaves no cog waiting for ever."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from bot.db.repositories import Store
from bot.discord.client import CardBot
from bot.services.tables import TableService
from tests.bot.discord.conftest import make_settings
from tests.bot.discord.harness import settle


def refuse_the_cogs_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    """``asyncio.sleep`` called from the tournaments cog fails: waiting for
    another component must be on its awaitable, not on a clock.  (Patched
    in ``asyncio`` itself: ``load_extension`` executes the cog's module
    afresh, so the cog's own reference cannot be patched beforehand.)"""
    real_sleep = asyncio.sleep

    async def sleep(delay: float, *args: Any) -> Any:
        if sys._getframe(1).f_globals.get("__name__") == "bot.discord.cogs.tournaments":
            raise AssertionError(f"the tournaments cog polled (asyncio.sleep({delay}))")
        return await real_sleep(delay, *args)

    monkeypatch.setattr(asyncio, "sleep", sleep)


async def test_the_tournaments_cog_proceeds_once_the_tables_are_resumed(
    fake, tmp_path, monkeypatch
):
    refuse_the_cogs_timers(monkeypatch)
    start = TableService.start

    async def slow_start(self: TableService, **kw: Any) -> None:
        """A start that takes a moment (migrations, a big database): the
        cog is loaded, and waiting, before the service has started."""
        for _ in range(3):
            await asyncio.sleep(0)
        await start(self, **kw)

    monkeypatch.setattr(TableService, "start", slow_start)
    bot = CardBot(make_settings(tmp_path), ai_budget_ms=20)
    try:
        await bot.login("fake-token")
        cog = bot.get_cog("TournamentCog")
        assert cog is not None and cog._resume is not None
        await asyncio.wait_for(bot.service.resumed(), 5)
        await asyncio.wait_for(asyncio.shield(cog._resume), 5)
        assert cog._resume.exception() is None  # proceeded: tournaments resumed
    finally:
        await settle()
        await bot.close()


async def test_a_table_service_that_fails_to_start_leaves_no_cog_waiting(
    fake, tmp_path, monkeypatch, no_error_logs
):
    async def broken(self: Store, *args: Any, **kw: Any) -> Any:
        raise RuntimeError("the database is down")

    monkeypatch.setattr(Store, "table_heads", broken)
    bot = CardBot(make_settings(tmp_path), ai_budget_ms=20)
    cog = None
    try:
        with pytest.raises(RuntimeError, match="database is down"):
            await bot.login("fake-token")
        cog = bot.get_cog("TournamentCog")
        assert cog is not None and cog._resume is not None
        await asyncio.wait_for(asyncio.shield(cog._resume), 5)  # ended, not waiting
        messages = [r.getMessage() for r in no_error_logs.records]
        assert "the table service did not start: tournaments are not resumed" in messages
        no_error_logs.records[:] = [
            r for r in no_error_logs.records if "did not start" not in r.getMessage()
        ]
    finally:
        if cog is not None and cog._resume is not None and not cog._resume.done():
            cog._resume.cancel()  # a cog left waiting: the test has failed already
        await settle()
        await bot.close()

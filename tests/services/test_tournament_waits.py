"""The tournaments service waits for a table that is still being replayed
after a restart on the table service's public ``resumed()`` awaitable --
never on a timer (issue 22: nothing in bot/ polls) -- and the board a
table ended early is forgotten through the core's own method."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.services.duplicate import Tournament
from bot.services.errors import Resuming
from bot.services.tournaments import TournamentService


class Replaying:
    """A table service whose table #7 is replayed once ``resumed`` is
    released; until then asking for it answers ``Resuming``."""

    store = None

    def __init__(self) -> None:
        self.done = asyncio.Event()

    async def get_table(self, table_id: int) -> Any:
        if not self.done.is_set():
            raise Resuming("table #{table} is resuming after a restart, one moment", table=7)
        return ("table", table_id)

    async def resumed(self) -> None:
        await self.done.wait()


async def test_a_resuming_table_is_waited_for_on_the_table_services_awaitable(monkeypatch):
    import bot.services.tournament_runner as runner
    import bot.services.tournaments as module

    class NoTimer:
        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        @staticmethod
        async def sleep(delay: float, *args: Any) -> None:
            raise AssertionError(f"the tournaments service polled (asyncio.sleep({delay}))")

    monkeypatch.setattr(module, "asyncio", NoTimer())
    monkeypatch.setattr(runner, "asyncio", NoTimer())
    monkeypatch.setattr(module, "TournamentStore", lambda store: None)
    tables = Replaying()
    service = TournamentService(tables)  # type: ignore[arg-type]
    asking = asyncio.ensure_future(service._table_info(7))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not asking.done(), "it waits while the table is replayed"
    tables.done.set()
    assert await asyncio.wait_for(asking, 5) == ("table", 7)


def test_a_board_is_dealt_again_from_its_first_card():
    d = Tournament.new("callbreak", tables=2, boards=1, seed=3)
    state = d.state(0, 0)
    d.record(0, 0, str(state.legal_actions()[0]))
    assert d.plays[(0, 0)]
    d.restart(0, 0)
    assert (0, 0) not in d.plays and not d.state(0, 0).log

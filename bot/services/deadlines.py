"""One task that sleeps until the earliest deadline of any table.

It never polls: with no deadline it waits on an event, otherwise it sleeps
exactly until the nearest one, and ``poke()`` wakes it whenever a table's
deadline changes (a nearer one may have appeared).  A bot with no timer
running is therefore truly idle, which simulators that wait for the bot to
settle depend on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class DeadlineScheduler:
    def __init__(
        self,
        *,
        clock: Callable[[], float],
        next_deadline: Callable[[], float | None],
        fire: Callable[[], Awaitable[object]],
    ) -> None:
        self.clock = clock
        self.next_deadline = next_deadline
        self.fire = fire
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="cardtable-deadlines")

    def poke(self) -> None:
        """A deadline changed: look again (cheap; safe to call often)."""
        self._wake.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _sleep_until(self, when: float | None) -> None:
        """Until ``when`` (None: forever) or a poke, whichever comes first."""
        delay = None if when is None else when - self.clock()
        if delay is not None and delay <= 0:
            return
        # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a
        # cancellation that meets a poke, and close() then waits for ever
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(delay):
                await self._wake.wait()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            when = self.next_deadline()
            if when is None or when > self.clock():
                await self._sleep_until(when)
                continue
            try:
                await self.fire()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("deadline dispatcher failed; retrying in %.0f s", RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)

"""Post-game analysis jobs: ``engine.ai.analysis`` run for a finished match.

The analysis replays one seat's decisions with the honest search (each
decision sees only that seat's view then) and is bounded by a total time
budget (``engine/ai/analysis.py``).  Here the service decides who may ask
(from the ``Actor``: only tables of the caller's server, only a FINISHED
match -- a live or abandoned table is refused, so it never touches a live
table's hidden information) and runs it off the event loop in a worker
thread, at most ``max_jobs`` at a time (the others wait their turn), with
a progress callback.  A thread rather than the AI worker pool: the pool's
workers answer one quick decision each and would be blocked for a minute;
one analysis thread at a time costs the loop little (docs/benchmarks.md:
a Callbreak deal takes 5 s, a whole match up to ``budget``).

Rulings: anyone at the table's server may analyse any seat of a finished
match (after the match every hand may be shown, as in a replay); the
default seat is the caller's own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from bot.services.actor import Actor
from bot.services.errors import NotSeated, WrongStatus
from bot.services.models import TableInfo
from engine.ai.analysis import Analysis, Clock, analyse_match

#: the whole analysis of one match, in seconds of ``clock``
ANALYSIS_BUDGET = 60.0
#: sampled worlds per decision
ANALYSIS_WORLDS = 16
#: analyses running at once (each holds a core for up to ``budget``)
MAX_JOBS = 1

Progress = Callable[[int, int], None]


class AnalysisJobs:
    def __init__(
        self,
        service: Any,
        *,
        budget: float = ANALYSIS_BUDGET,
        worlds: int = ANALYSIS_WORLDS,
        max_jobs: int = MAX_JOBS,
        clock: Clock = time.monotonic,
    ) -> None:
        self.service = service
        self.budget = budget
        self.worlds = worlds
        self.clock = clock
        self._slots = asyncio.Semaphore(max_jobs)

    async def check(self, table_id: int, actor: Actor, user_id: int | None = None) -> TableInfo:
        """The table and the seat to analyse, or a refusal (nothing runs)."""
        info: TableInfo = await self.service.get_table(table_id, actor)  # same server only
        if info.status != "finished":
            raise WrongStatus(
                "table #{table} can be analysed once its match is finished",
                "match_not_over",
                table=table_id,
            )
        if info.seat_of(actor.user_id if user_id is None else user_id) is None:
            raise NotSeated("that player did not play at table #{table}", table=table_id)
        return info

    async def run(
        self,
        table_id: int,
        actor: Actor,
        user_id: int | None = None,
        *,
        progress: Progress | None = None,
    ) -> tuple[TableInfo, int, Analysis]:
        """(table, seat, analysis) of one player's decisions in a finished
        match; ``progress(done, total)`` is called from the worker thread."""
        info = await self.check(table_id, actor, user_id)
        seat = info.seat_of(actor.user_id if user_id is None else user_id)
        assert seat is not None
        loaded = await self.service.store.table(table_id)
        rows = await self.service.store.actions(table_id)
        seed = int(loaded[0].seed)
        actions = [row.notation for row in sorted(rows, key=lambda r: r.seq)]
        async with self._slots:
            analysis = await asyncio.to_thread(
                analyse_match,
                info.game,
                seed=seed,
                variant=info.variant,
                actions=actions,
                seat=seat,
                worlds=self.worlds,
                budget=self.budget,
                clock=self.clock,
                progress=progress,
            )
        return info, seat, analysis

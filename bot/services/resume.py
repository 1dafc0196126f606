"""Resume after a restart: every unfinished table of this process, rebuilt by
replaying its log, while people are already being served.

A mixin of ``TableService`` (``tables.py``).  ``start`` finds the tables
this process owns -- by front end (``owns``) and by shard
(``store.shards``; tables made under another shard count are claimed,
``Store.claim``) -- in one light query and returns; then

* a reader task reads their rows and logs, a chunk of tables per three
  queries (a small first chunk, so the first tables are live at once), one
  chunk after another as fast as the store gives them;
* the resumer replays them on the event loop in slices of
  ``RESUME_SLICE_SECONDS`` with the loop given back in between, so clicks
  and AI moves of live tables go on meanwhile (FINDINGS.md measured stalls
  of ~100 ms p99 when a thousand tables were replayed in one go);
* a table somebody asks for before it is replayed answers ``Resuming``
  ("one moment", ``TableService._live``) and is replayed next, as soon as
  its rows are read;
* replays share the parsed actions of each game (a log is a few dozen
  distinct texts), so parsing is done once per text, not once per move.

Resuming writes nothing but a match found over (it is finished, once): the
grace a running timer gets for the downtime is given again by any later
restart, so it lives in memory.  One damaged table is reported and left
out; a store that cannot be read is tried again, the tables answering
"resuming" meanwhile.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections.abc import Sequence
from typing import Any

from bot.db.repositories import StoreUnavailable
from bot.services.errors import ServiceError
from bot.services.live import ACTIVE, LiveTable
from bot.services.models import SeatInfo
from bot.services.policy import (
    RESUME_CHUNK,
    RESUME_FIRST_CHUNK,
    RESUME_GC_PAUSE_TABLES,
    RESUME_GRACE_SECONDS,
    RESUME_RETRY,
    RESUME_SLICE_SECONDS,
)
from engine import Action, get_game

log = logging.getLogger(__name__)

#: parsed actions kept per game (a game's whole vocabulary is far smaller)
PARSED_MAX = 20_000


class ServiceNotStarted(RuntimeError):
    """The table service was closed, or its start cancelled, before it
    started: what ``started()`` raises to its waiters (other components at
    start-up; no player reads it, so it is not translated)."""


class ResumeMixin:
    """Start-up and replay of the TableService."""

    async def start(self, *, dispatch_deadlines: bool = True, wait: bool = True) -> None:
        """Resume every unfinished table this process owns by replaying its
        log: finish a match that was over when the process died, give every
        running timer a grace period for the downtime, and let AI seats go
        on.  With ``wait=False`` this returns as soon as the tables are
        known, and they are replayed while people are served (see the
        module).  ``started()`` resolves when the tables are known (or
        raises what made this fail)."""
        try:
            await self.thinker.start()
            heads = [h for h in await self.store.table_heads(ACTIVE) if self.owns(h[1], h[2])]
            shards = self.store.shards
            moved = {h[0]: shards.shard_of(h[1]) for h in heads if shards.shard_of(h[1]) != h[3]}
            if moved:
                claimed = await self.store.claim(moved)
                log.info("claimed %d unfinished tables for %s", claimed, shards)
        except BaseException as exc:
            self._not_started(exc)
            raise
        self._pending = dict.fromkeys(h[0] for h in heads)
        self._found_at_start = len(self._pending)
        self._urgent.clear()
        self._resuming = asyncio.create_task(self._resume_all(), name="cardtable-resume")
        if not self._started_future().done():
            self._started_future().set_result(None)
        if dispatch_deadlines:
            self.deadlines.start()
        if wait:
            await self._resuming

    def _started_future(self) -> asyncio.Future[None]:
        """Made on first use, on the running loop (the service may be
        built before the loop runs)."""
        if self._started is None:
            self._started = asyncio.get_running_loop().create_future()
        return self._started

    def _not_started(self, exc: BaseException) -> None:
        """Whoever waits on ``started()`` gets the error instead of waiting
        for ever (a cancelled start, or ``close`` before any start, becomes
        a ``ServiceNotStarted``)."""
        future = self._started_future()
        if future.done():
            return
        if not isinstance(exc, Exception):
            exc = ServiceNotStarted("the table service did not start (cancelled)")
        future.set_exception(exc)
        future.exception()  # retrieved: with nobody waiting, asyncio need not log it

    async def started(self) -> None:
        """Until ``start`` has found this process's tables: from then on
        every table answers (a table still being replayed says so).
        Raises what made ``start`` fail, or ``ServiceNotStarted`` when the
        service was closed first, so no waiter waits for ever."""
        await asyncio.shield(self._started_future())

    async def resumed(self) -> None:
        """Until every table found at start is resumed (after ``started``;
        raises what made the start or the resume fail)."""
        await self.started()
        if self._resuming is not None:
            await asyncio.shield(self._resuming)

    def resume_progress(self) -> tuple[int, int]:
        """(tables found at start, tables of them not resumed yet): how far
        the bulk resume has come (metrics, operators)."""
        return self._found_at_start, len(self._pending)

    async def _resume_all(self) -> None:
        order = list(self._pending)
        chunks = [order[:RESUME_FIRST_CHUNK]] + [
            order[i : i + RESUME_CHUNK] for i in range(RESUME_FIRST_CHUNK, len(order), RESUME_CHUNK)
        ]
        loaded: dict[int, Any] = {}
        arrived = asyncio.Event()
        reader = asyncio.create_task(self._read_all(chunks, loaded, arrived))
        began = time.perf_counter()
        collecting = gc.isenabled() and len(order) >= RESUME_GC_PAUSE_TABLES
        if collecting:
            gc.disable()  # see _settle_memory
        try:
            while self._pending:
                table_id = self._next_ready(loaded)
                if table_id is None:
                    if reader.done():  # no rows came for these: each is loaded alone
                        table_id = next(iter(self._pending))
                        loaded[table_id] = None
                    else:
                        arrived.clear()
                        await arrived.wait()
                        began = time.perf_counter()
                        continue
                await self._resume_entry(table_id, loaded.pop(table_id))
                if time.perf_counter() - began >= RESUME_SLICE_SECONDS:
                    await asyncio.sleep(0)  # the loop is given back between slices
                    began = time.perf_counter()
        finally:
            reader.cancel()
            if collecting:
                self._settle_memory()

    @staticmethod
    def _settle_memory() -> None:
        """A bulk resume builds a few hundred thousand long-lived objects; the
        cyclic garbage collector walked all of them again and again while
        they were made (full collections of 90-260 ms each, measured with
        a thousand tables: the worst event-loop stalls of the resume).  So
        it is paused while they are built, and then they are moved to the
        permanent generation (``gc.freeze``) instead of being walked by
        every later full collection; reference counting still frees each
        match as moves replace it.  Replays make no reference cycles, so
        nothing is lost meanwhile."""
        gc.freeze()
        gc.enable()

    def _next_ready(self, loaded: dict[int, Any]) -> int | None:
        """The next table to replay whose rows are read: one somebody asked
        for first, else the next in order; None while the rows are coming."""
        for table_id in list(self._urgent):
            if table_id not in self._pending:
                self._urgent.remove(table_id)
            elif table_id in loaded:
                self._urgent.remove(table_id)
                return table_id
        for table_id in self._pending:  # the oldest still pending, in start order
            return table_id if table_id in loaded else None
        return None

    async def _read_all(
        self, chunks: list[list[int]], loaded: dict[int, Any], arrived: asyncio.Event
    ) -> None:
        """Read the chunks in order, but first, each time, the tables
        somebody asked for whose rows are not read yet."""
        queue = list(reversed(chunks))
        try:
            while queue:
                asked = [t for t in self._urgent if t in self._pending and t not in loaded]
                chunk = asked[:RESUME_CHUNK] if asked else queue.pop()
                wanted = [t for t in chunk if t in self._pending and t not in loaded]
                rows = {entry[0].id: entry for entry in await self._read_tables(wanted)}
                for table_id in wanted:
                    if table_id in self._pending:
                        # None: not read (no longer ours, or damaged rows): loaded alone
                        loaded[table_id] = rows.get(table_id)
                arrived.set()
                await asyncio.sleep(0)
        finally:
            arrived.set()  # done (or failed): the resumer loads what is left alone

    async def _read_tables(self, table_ids: Sequence[int]) -> list[Any]:
        """The rows of the tables still pending, retried while the store is
        unavailable (they answer "resuming" meanwhile)."""
        delay = RESUME_RETRY[0]
        while True:
            wanted = [t for t in table_ids if t in self._pending]
            try:
                return await self.store.resumable(wanted)
            except StoreUnavailable as exc:
                if not exc.retryable:
                    return []  # damaged: each table is then loaded alone, and named
                log.warning("resume: store unavailable (%s); retrying", exc)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RESUME_RETRY[1])

    async def _resume_entry(self, table_id: int, entry: Any) -> None:
        """Rebuild one table from its rows (or, without them, from the
        store: a damaged table is then named) and put it in play."""
        if table_id not in self._pending:
            return
        try:
            if entry is not None and entry[1]:
                live = self._build(*entry)
            else:
                live = await self._load(table_id)
                if not self.owns(live.guild_id, live.channel_id) or not live.active:
                    self._pending.pop(table_id, None)
                    return
        except StoreUnavailable as exc:
            if not exc.retryable:
                self._give_up(table_id, exc)
                return
            log.warning("resume: table %s not read (%s); retrying", table_id, exc)
            await asyncio.sleep(RESUME_RETRY[0])
            self._urgent.append(table_id)
            return
        except Exception as exc:  # one damaged table must not stop the others
            self._give_up(table_id, exc)
            return
        if table_id not in self._pending:
            return  # resumed meanwhile
        self._pending.pop(table_id, None)
        self.tables[table_id] = live
        self._deadline_changed(live)
        await self._resume(live)

    def _give_up(self, table_id: int, exc: BaseException) -> None:
        self._pending.pop(table_id, None)
        self.broken[table_id] = str(exc)
        log.error("table %s cannot be resumed: %s", table_id, exc)

    async def _resume(self, live: LiveTable) -> None:
        state = live.state
        if live.status == "playing" and state is not None and state.is_over:
            await self._finish(live, ())
            return
        now = self.clock()
        if live.status == "lobby" and live.deadline is None:
            live.deadline = now + self.lobby_seconds
        elif live.deadline is not None and live.deadline < now + RESUME_GRACE_SECONDS:
            live.deadline = now + RESUME_GRACE_SECONDS
        self.deadlines.poke()
        await self._publish(live, "resumed", ())
        if live.status == "playing":
            self._schedule(live)

    # -- rebuilding one table ------------------------------------------------------------
    def _build(
        self, row: Any, seat_rows: list[Any], moves: list[tuple[int, str, int]]
    ) -> LiveTable:
        """A live table from its rows, its match rebuilt by replaying the log
        (the engine checks every move again: a damaged log is refused)."""
        live = LiveTable(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            thread_id=row.thread_id,
            host_id=row.host_id,
            game=row.game,
            variant=json.loads(row.variant),
            seed=row.seed,
            status=row.status,
            turn_seconds=row.turn_seconds,
            deadline=row.deadline,
            seats=[SeatInfo(s.seat, s.user_id, s.name, s.ai, s.away) for s in seat_rows],
            expiries={s.seat: s.expiries for s in seat_rows},
            # the shard this process writes for it: computed, never read back
            shard=self.store.shards.shard_of(row.guild_id),
            on_deadline=self._deadline_changed,
        )
        self._deadline_changed(live)
        if row.status in ("playing", "finished"):
            if [seq for seq, _, _ in moves] != list(range(len(moves))):
                raise ServiceError(
                    "the action log of table #{table} has gaps", "corrupt_log", table=row.id
                )
            game = get_game(row.game)
            live.state = game.replay(
                self._parsed(row.game, [notation for _, notation, _ in moves]),
                seed=row.seed,
                variant=live.variant,
            )
            live.actors = [seat for _, _, seat in moves]
            if len(live.seats) != live.state.num_seats:
                raise ServiceError(
                    "table #{table} has {rows} seat rows for a {seats}-seat game",
                    "corrupt_seats",
                    table=row.id,
                    rows=len(live.seats),
                    seats=live.state.num_seats,
                )
        return live

    def _parsed(self, game_name: str, notations: list[str]) -> list[Action | str]:
        """The log's actions, parsed once per distinct text of a game (Actions
        are immutable).  A text the game cannot read stays text, so the
        replay refuses it with the engine's own message."""
        cache = self._parse_cache.setdefault(game_name, {})
        if len(cache) > PARSED_MAX:
            cache.clear()
        game = get_game(game_name)
        out: list[Action | str] = []
        for text in notations:
            action = cache.get(text)
            if action is None:
                try:
                    action = cache[text] = game.parse_action(text)
                except Exception:
                    out.append(text)
                    continue
            out.append(action)
        return out

"""The store's one writer: every write of this process, committed in groups.

``Writer.submit`` queues a write (a move, or any other write as a job) for
the group commit (``bot.db.group_commit``) and returns once the transaction
holding it has committed.  A batch is written by ``write_batch``, plain
synchronous SQLAlchemy Core, run

* on SQLite in the writer's own thread, on its one connection (the
  standard ``sqlite3`` driver): the whole transaction is one hand-over to
  that thread.  Through aiosqlite every statement was a hand-over (a queue
  put, a thread wake-up, a callback into the loop), and on a busy machine
  those, not SQLite, took the time;
* on PostgreSQL through ``AsyncConnection.run_sync`` (asyncpg underneath).

Inside the transaction, consecutive moves are one multi-row ``INSERT ... ON
CONFLICT DO NOTHING RETURNING``: a move whose (table, seq) slot is taken is
simply not returned and fails alone with ``DuplicateAction``.  Other writes
run one by one; whenever a batch holds more than one part, each part runs in
a savepoint, so that a write that fails (a foreign key, say) fails alone and
the rest of the batch commits.  Every future is settled after the commit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.errors import (
    DuplicateAction,
    StoreUnavailable,
    TableNotOwned,
    is_foreign_key_error,
    is_unavailable,
    translate,
)
from bot.db.group_commit import GroupCommit, Pending, PendingMove, PendingWrite, runs
from bot.db.models import ActionRow, SeatRow, TableRow, utcnow

Outcome = tuple[Pending, BaseException | None, Any]
log = logging.getLogger(__name__)
#: the least time between two checkpoints of a SQLite log
CHECKPOINT_SECONDS = 1.0


class Writer:
    def __init__(
        self,
        *,
        where: str,
        write_wait: float,
        sqlite_engine: Engine | None = None,
        async_engine: AsyncEngine | None = None,
        checkpoint: Callable[[], Any] | None = None,
    ) -> None:
        """Exactly one of ``sqlite_engine`` (a synchronous engine, used from
        the writer thread) and ``async_engine`` (PostgreSQL).  ``checkpoint``
        (SQLite): copies the write-ahead log into the database, run in a
        worker thread at most every ``CHECKPOINT_SECONDS`` after writes."""
        if (sqlite_engine is None) == (async_engine is None):
            raise ValueError("a Writer takes a SQLite engine or an async engine")
        self.where = where
        self.write_wait = write_wait
        self.sqlite_engine = sqlite_engine
        self.async_engine = async_engine
        self._thread = (
            ThreadPoolExecutor(1, thread_name_prefix="cardtable-writer") if sqlite_engine else None
        )
        #: one batch at a time (held by tests to play a stuck writer)
        self.lock = asyncio.Lock()
        self.checkpoint = checkpoint
        self._checkpointing: asyncio.Task[Any] | None = None
        self._checkpointed = 0.0
        self.group = GroupCommit(self._write_batch, max_wait=write_wait, too_late=self._too_late)

    @property
    def engine(self) -> Engine:
        """The synchronous engine writes go through (events, tests)."""
        if self.sqlite_engine is not None:
            return self.sqlite_engine
        assert self.async_engine is not None
        return self.async_engine.sync_engine

    async def submit(self, item: Pending) -> Any:
        """Queue a write and wait for its commit (its result).  A write still
        queued after ``write_wait`` (the writes before it are stuck) is
        withdrawn: ``StoreUnavailable``, nothing written.  A caller that is
        cancelled withdraws its write if it is still queued; once a batch
        has taken it, it is written anyway."""
        return await self.group.submit(item)

    def _too_late(self) -> StoreUnavailable:
        return StoreUnavailable(
            detail=f"{self.where}: waited {self.write_wait:g} s for earlier writes"
        )

    async def job(self, job: Callable[[Connection], Any]) -> Any:
        """Run ``job(connection)`` in the next group transaction and return
        its result once committed."""
        return await self.submit(PendingWrite(job=job))

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """The writer's turn (a batch in progress holds it)."""
        try:
            async with asyncio.timeout(self.write_wait):
                await self.lock.acquire()
        except TimeoutError as exc:
            raise StoreUnavailable(
                detail=f"{self.where}: waited {self.write_wait:g} s for earlier writes"
            ) from exc
        try:
            yield
        finally:
            self.lock.release()

    async def _write_batch(self, batch: list[Pending]) -> None:
        try:
            async with self.turn():
                outcomes = await self._transaction(batch)
        except Exception as exc:
            if len(batch) > 1 and isinstance(exc, IntegrityError):
                for item in batch:  # one statement of moves refused: tell them apart
                    await self._write_batch([item])
                return
            for item in batch:
                item.settle(self._error(exc, item))
            return
        for item, error, result in outcomes:
            item.settle(error, result)
        self._maybe_checkpoint()

    def _maybe_checkpoint(self) -> None:
        """Checkpoint the log off the writer's connection, now and then."""
        if self.checkpoint is None:
            return
        if self._checkpointing is not None and not self._checkpointing.done():
            return
        loop = asyncio.get_running_loop()
        if loop.time() - self._checkpointed < CHECKPOINT_SECONDS:
            return
        self._checkpointed = loop.time()
        self._checkpointing = asyncio.ensure_future(asyncio.to_thread(self._run_checkpoint))

    def _run_checkpoint(self) -> None:
        assert self.checkpoint is not None
        try:
            self.checkpoint()
        except Exception as exc:  # busy or gone: the next one will do
            log.info("%s: checkpoint skipped (%s)", self.where, exc)

    async def _transaction(self, batch: list[Pending]) -> list[Outcome]:
        if self.sqlite_engine is not None:
            if self._thread is None:
                self._thread = ThreadPoolExecutor(1, thread_name_prefix="cardtable-writer")
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, self._in_thread, batch)
        assert self.async_engine is not None
        async with self.async_engine.begin() as conn:
            return await conn.run_sync(write_batch, batch)

    def _in_thread(self, batch: list[Pending]) -> list[Outcome]:
        assert self.sqlite_engine is not None
        with self.sqlite_engine.begin() as conn:
            return write_batch(conn, batch)

    def _error(self, exc: Exception, item: Pending) -> Exception:
        if isinstance(exc, IntegrityError) and isinstance(item, PendingMove):
            return move_refused(exc, item)
        if is_unavailable(exc):
            error = translate(exc, self.where)
            error.__cause__ = exc
            return error
        return exc

    def stats(self) -> dict[str, float]:
        return self.group.stats()

    async def close(self) -> None:
        """Write what is queued, then let the connection and thread go (a
        second close does nothing; a write after it gets a new thread)."""
        await self.group.drain()
        if self._checkpointing is not None:
            await self._checkpointing
        if self.sqlite_engine is not None and self._thread is not None:
            thread, self._thread = self._thread, None
            await asyncio.get_running_loop().run_in_executor(thread, self.sqlite_engine.dispose)
            thread.shutdown(wait=True)


# -- one transaction (synchronous: the writer thread, or run_sync) ----------------------------
def write_batch(conn: Connection, batch: list[Pending]) -> list[Outcome]:
    """Write ``batch`` in the open transaction of ``conn``; what happened to
    each write.  Raises only what spoils the whole transaction."""
    parts = runs(batch)
    shared = len(parts) > 1
    outcomes: list[Outcome] = []
    for part in parts:
        if isinstance(part[0], PendingMove):
            moves = [m for m in part if isinstance(m, PendingMove)]
            outcomes += moves_in(conn, moves, savepoint=shared)
        else:
            outcomes.append(job_in(conn, part[0], savepoint=shared))
    return outcomes


def job_in(conn: Connection, item: Pending, *, savepoint: bool) -> Outcome:
    assert isinstance(item, PendingWrite)
    if not savepoint:
        return item, None, item.job(conn)
    try:
        with conn.begin_nested():
            result = item.job(conn)
    except Exception as exc:
        if is_unavailable(exc):
            raise  # the connection or the transaction is lost: the batch fails
        return item, exc, None
    return item, None, result


def moves_in(conn: Connection, moves: list[PendingMove], *, savepoint: bool) -> list[Outcome]:
    """Insert ``moves`` with one statement.  A foreign-key refusal fails the
    whole statement: then each move is tried in a savepoint of its own
    (without a savepoint the transaction is spoilt, and the writer writes
    the moves one per transaction instead)."""
    try:
        if savepoint:
            with conn.begin_nested():
                written = insert_moves(conn, moves)
        else:
            written = insert_moves(conn, moves)
    except IntegrityError:
        if not savepoint:
            raise
        out: list[Outcome] = []
        for move in moves:
            try:
                with conn.begin_nested():
                    landed = insert_moves(conn, [move])
            except IntegrityError as exc:
                out.append((move, move_refused(exc, move), None))
            else:
                out.append((move, None if move in landed else duplicate(move), None))
        return out
    return [(m, None if m in written else duplicate(m), None) for m in moves]


def insert_moves(conn: Connection, moves: list[PendingMove]) -> list[PendingMove]:
    """The INSERT (one statement, many rows), then the tables' deadlines and
    seat fields of the moves that landed; those moves.  Of two moves for one
    (table, seq) slot in the same group only the first can land."""
    now = utcnow()
    firsts: dict[tuple[int, int], PendingMove] = {}
    for m in moves:
        firsts.setdefault(m.key, m)  # the first move of each slot; the others are duplicates
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = (
        dialect.insert(ActionRow)
        .on_conflict_do_nothing(index_elements=["table_id", "seq"])
        .returning(ActionRow.table_id, ActionRow.seq)
    )
    rows = conn.execute(
        statement,
        [
            {
                "table_id": m.table_id,
                "shard": m.shard,
                "seq": m.seq,
                "notation": m.notation,
                "seat": m.seat,
                "actor_id": m.actor_id,
                "by_ai": m.by_ai,
                "created_at": now,
            }
            for m in firsts.values()
        ],
    )
    written = {(t, q) for t, q in rows}
    landed = [m for m in firsts.values() if m.key in written]
    if landed:
        conn.execute(
            update(TableRow)
            .where(TableRow.id == bindparam("t_id"))
            .values(deadline=bindparam("t_deadline"), updated_at=bindparam("t_now")),
            [{"t_id": m.table_id, "t_deadline": m.deadline, "t_now": now} for m in landed],
        )
    for m in landed:
        if m.seat_fields:
            target = m.seat if m.fields_seat is None else m.fields_seat
            conn.execute(
                update(SeatRow)
                .where(SeatRow.table_id == m.table_id, SeatRow.seat == target)
                .values(**m.seat_fields)
            )
    return landed


def move_refused(exc: IntegrityError, move: PendingMove) -> Exception:
    """A move's own refusal: its table is another shard's (or gone), or its
    slot is taken."""
    error: Exception
    if is_foreign_key_error(exc):
        error = TableNotOwned(
            f"table {move.table_id} is not a table of shard {move.shard} "
            "(another process owns it, or it no longer exists)"
        )
    else:
        error = DuplicateAction(f"table {move.table_id} cannot take action {move.seq}")
    error.__cause__ = exc
    return error


def duplicate(move: PendingMove) -> DuplicateAction:
    return DuplicateAction(f"table {move.table_id} already has an action number {move.seq}")

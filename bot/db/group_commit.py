"""Group commit: the writes that arrive together are committed together.

One transaction per write cost the store a transaction, a round of driver
calls and (with ``synchronous=FULL``) an fsync per move, and capped the bot
near 230 moves/s however many tables played (FINDINGS.md, "The store").
Here every move still gets its own row and every write is still
acknowledged only once it is committed, but the writes submitted while one
transaction is being written wait for the *next* transaction and go into
it together:

* nobody waits for a batch to fill: an idle store writes a lone move at
  once, and a busy one writes whatever queued up meanwhile (at most
  ``max_batch`` writes), so batches grow exactly when the store is the
  bottleneck;
* every write has its own future, and the ``write`` callback settles each
  one: a move refused by the (table, seq) constraint, or any other write
  that fails, fails alone (``Store`` runs each in a savepoint) and the rest
  of its batch is committed;
* a caller that stops waiting (cancelled) before its batch is formed is
  not written; once the batch is on its way it is written anyway, and the
  caller has to read the table again (``TableService`` marks it so).

One ``GroupCommit`` runs one batch at a time: on SQLite that is the one
writer connection anyway; on PostgreSQL it turns many small transactions
into few larger ones (and PostgreSQL's own commit fsyncs into one per batch).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

#: the most writes in one transaction (a batch of moves stays far below the
#: bound-parameter limits of SQLite, 32,766, and asyncpg, 32,767)
MAX_BATCH = 256


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


@dataclass(eq=False)
class Pending:
    """One write waiting for its transaction."""

    done: asyncio.Future[Any] = field(default_factory=_future, kw_only=True)
    #: in a batch on its way to the database (too late to withdraw)
    taken: bool = field(default=False, kw_only=True)
    #: when it was queued (the loop's clock)
    queued_at: float = field(default=0.0, kw_only=True)

    def settle(self, error: BaseException | None = None, result: Any = None) -> None:
        """Committed (``error`` None, with ``result``) or refused; a caller
        that gave up is left alone."""
        if self.done.done():
            return
        if error is None:
            self.done.set_result(result)
        else:
            self.done.set_exception(error)


@dataclass(eq=False)
class PendingMove(Pending):
    """One move (``Store.append_action``): consecutive moves of a batch are
    inserted with one statement."""

    table_id: int
    seq: int
    notation: str
    seat: int
    actor_id: int | None
    by_ai: bool
    shard: int
    deadline: float | None = None
    seat_fields: dict[str, Any] | None = None
    fields_seat: int | None = None

    @property
    def key(self) -> tuple[int, int]:
        return self.table_id, self.seq


@dataclass(eq=False)
class PendingWrite(Pending):
    """Any other write: ``job(connection)`` runs inside the batch's
    transaction and its return value is the caller's result."""

    job: Callable[[Any], Awaitable[Any]]


class GroupCommit:
    def __init__(
        self,
        write: Callable[[list[Pending]], Awaitable[None]],
        *,
        max_batch: int = MAX_BATCH,
        max_wait: float | None = None,
        too_late: Callable[[], BaseException] | None = None,
    ) -> None:
        """``write(batch)`` writes the batch in one transaction and settles
        every write's future once it has committed (or failed).  A write
        still queued ``max_wait`` seconds after it came (the batch before it
        is stuck) is withdrawn with the error ``too_late()`` makes: one timer
        per batch, not one per write."""
        if max_batch < 1:
            raise ValueError(f"max_batch must be 1 or more, not {max_batch}")
        self.write = write
        self.max_batch = max_batch
        self.max_wait = max_wait
        self.too_late = too_late or (lambda: TimeoutError("waited too long for earlier writes"))
        self._timer: asyncio.TimerHandle | None = None
        self._queue: deque[Pending] = deque()
        self._task: asyncio.Task[None] | None = None
        #: how long the latest batches took to write and commit (seconds)
        self.durations: deque[float] = deque(maxlen=10_000)
        self.batches = 0
        self.writes = 0
        self.moves = 0
        self.largest = 0
        #: told of every batch written: (seconds, writes in it) -- ``bot.discord.metrics``
        self.on_batch: Callable[[float, int], None] | None = None
        #: when the batch now on its way began (the loop's clock), else None
        self.writing_since: float | None = None

    async def submit(self, item: Pending) -> Any:
        """Until ``item`` is committed (its result) or refused (raised).  A
        caller that is cancelled withdraws ``item`` if no batch has taken it."""
        item.queued_at = asyncio.get_running_loop().time()
        self._queue.append(item)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="cardtable-group-commit")
        return await item.done

    def _next_batch(self) -> list[Pending]:
        batch: list[Pending] = []
        while self._queue and len(batch) < self.max_batch:
            item = self._queue.popleft()
            if not item.done.done():  # its caller gave up: not written
                item.taken = True
                batch.append(item)
        return batch

    async def _run(self) -> None:
        while self._queue:
            batch = self._next_batch()
            if not batch:
                continue
            self._watch()
            began = self.writing_since = asyncio.get_running_loop().time()
            try:
                await self.write(batch)
            except BaseException as exc:  # write() settles everything; this is a backstop
                for item in batch:
                    item.settle(exc if isinstance(exc, Exception) else RuntimeError(repr(exc)))
                if not isinstance(exc, Exception):
                    raise
            finally:
                self.writing_since = None
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            took = asyncio.get_running_loop().time() - began
            self.durations.append(took)
            if self.on_batch is not None:
                self.on_batch(took, len(batch))
            self.batches += 1
            self.writes += len(batch)
            self.moves += sum(isinstance(item, PendingMove) for item in batch)
            self.largest = max(self.largest, len(batch))

    def _watch(self) -> None:
        """Arm the timer that withdraws writes queued too long behind the
        batch now on its way (due when the oldest queued write, or one that
        comes later, has waited ``max_wait``)."""
        if self.max_wait is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        due = self._queue[0].queued_at + self.max_wait if self._queue else None
        delay = self.max_wait if due is None else max(0.0, due - loop.time())
        self._timer = loop.call_later(delay, self._withdraw_late)

    def _withdraw_late(self) -> None:
        self._timer = None
        now = asyncio.get_running_loop().time()
        assert self.max_wait is not None
        while self._queue and now - self._queue[0].queued_at >= self.max_wait:
            self._queue.popleft().settle(self.too_late())
        if self._queue:
            self._watch()

    def stalled_for(self) -> float:
        """How long the oldest unfinished work has been waiting: the batch
        on its way, or the oldest write queued behind it (0.0 when idle).
        A health check calls the writer stuck when this grows."""
        now = asyncio.get_running_loop().time()
        waits = [0.0]
        if self.writing_since is not None:
            waits.append(now - self.writing_since)
        if self._queue:
            waits.append(now - self._queue[0].queued_at)
        return max(waits)

    async def drain(self) -> None:
        """Until every write submitted so far is done (shutting down)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})

    def stats(self) -> dict[str, float]:
        times = sorted(self.durations)

        def ms(q: float) -> float:
            if not times:
                return 0.0
            return round(1000 * times[min(len(times) - 1, int(q * len(times)))], 1)

        return {
            "transaction_ms_p50": ms(0.5),
            "transaction_ms_p99": ms(0.99),
            "batches": self.batches,
            "writes": self.writes,
            "moves": self.moves,
            "writes_per_batch": round(self.writes / self.batches, 2) if self.batches else 0.0,
            "largest_batch": self.largest,
        }


def runs(batch: list[Pending]) -> list[list[Pending]]:
    """The batch in order, consecutive moves together, each other write alone."""
    out: list[list[Pending]] = []
    for item in batch:
        if isinstance(item, PendingMove) and out and isinstance(out[-1][0], PendingMove):
            out[-1].append(item)
        else:
            out.append([item])
    return out

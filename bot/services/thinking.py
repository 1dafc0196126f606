"""AI thinking off the event loop: a pool of worker processes the service awaits.

Why processes: ``asyncio.to_thread(agent.act, ...)`` ran the search in the
bot's own process, where it competes with the event loop and the database
driver for the GIL (FINDINGS.md, "AI in threads": one write went from 6 ms to
791 ms with six busy search threads).  A worker process has its own GIL; the
bot only pickles a ``Decision`` (the seat's Observation, the legal actions,
two names, a seed and a budget: 0.8-2 KB typically, 2.4 KB at most, except
13 KB for Blot's 646 opening bids) and unpickles one Action (about 100 B).
The pickling happens in the executor's feeder thread, off the loop.

- ``await Thinker.decide(decision)`` returns an action in ``decision.legal``,
  always: an agent's failure never reaches the caller.
- Cheap agents (``random``, ``heuristic``: 0.01-0.6 ms a decision on average,
  docs/benchmarks.md "AI worker pool") are answered on the event loop; a
  worker would only add latency and queueing behind searches.
- Other decisions wait in one queue per table and are dispatched round-robin
  across tables, at most ``workers`` at a time, so one table with many
  pending decisions cannot starve the others (the executor's own FIFO never
  holds more than it can run).
- Fallbacks, each with one log line: a decision that waited in the queue
  longer than ``max_queue_wait_ms``, an agent that raised or answered an
  illegal action in a worker, a worker that died under it (the OS killed it:
  the pool is recreated), a worker still busy ``2 * budget_ms +
  overrun_grace_ms`` after the pool was up (it is killed and the pool
  recreated) are answered in-process by the ``fallback`` agent, and if even
  that fails, by a random legal action drawn from the decision's seed.  A
  worker found dead while idle is replaced before the next decision is sent
  (no fallback).  After three pool failures in a row the pool rests for a
  minute (decisions fall back meanwhile) instead of respawning in a loop.
- ``inline=True`` or ``workers=0``: no processes, ``asyncio.to_thread`` as
  before (tests, the terminal); the same fallbacks.
- Workers are spawned, not forked (the bot has threads and a running loop),
  import ``engine.ai`` once, ignore SIGINT (the parent shuts them down) and
  run at a lower priority, so the bot's own process keeps the CPU it needs.
  Spawning re-imports a script's ``__main__``: a script that starts a pool
  needs the ``if __name__ == "__main__":`` guard (``python -m bot`` is fine).
- ``close()`` cancels what is queued or running (the waiting ``decide`` calls
  raise ``CancelledError``: nothing half-decided is committed at shutdown),
  kills the workers and returns within a second or two.

Settings: the bot reads ``AI_WORKERS`` (default ``os.cpu_count() - 1``, at
least 1; 0 = inline) and ``AI_QUEUE_WAIT_MS`` (default 1500) and passes them
to the constructor; this module reads no environment.

Determinism: a worker builds ``get_agent(agent, game=, seed=, budget_ms=)``
and calls ``act(view, list(legal))``, exactly what the service did in a
thread, so every worker gives the answer the bot's process would -- except
where an agent's result depends on the clock: the search stops at its time
budget, and a busier worker may sample fewer worlds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from bot.services.ai_worker import Decision, _init_worker, _ping, _think
from bot.services.observer import NO_OBSERVER, ServiceObserver
from engine.ai import get_agent
from engine.core.actions import Action

log = logging.getLogger(__name__)

#: agents answered on the event loop (measured well under a millisecond)
CHEAP_AGENTS = frozenset({"random", "heuristic"})
#: pool failures in a row before the pool rests, and for how long (seconds)
FAILURES_BEFORE_REST = 3
REST_SECONDS = 60.0
#: the longest a worker's start-up is kept out of a decision's time limit
START_TIMEOUT = 60.0
_SAMPLES = 1024


def default_workers() -> int:
    """``os.cpu_count() - 1``, at least 1: one core stays with the bot."""
    return max(1, (os.cpu_count() or 2) - 1)


class ThinkerClosed(RuntimeError):
    """``decide`` was called after ``close``."""


def _workers_of(pool: ProcessPoolExecutor | None) -> dict[int, BaseProcess]:
    """The pool's worker processes by pid (``ProcessPoolExecutor`` keeps them
    in ``_processes``; there is no public accessor before Python 3.14)."""
    return dict(getattr(pool, "_processes", None) or {})


def _stop_pool(pool: ProcessPoolExecutor, timeout: float) -> None:
    """Shut ``pool`` down now: cancel its queue, terminate its workers (a busy
    one would otherwise finish its search first) and join its manager thread."""
    processes = list(_workers_of(pool).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    if manager is not None:
        manager.join(timeout)


# -- in the bot ----------------------------------------------------------------------------------
@dataclass(eq=False)
class _Job:
    decision: Decision
    answer: asyncio.Future[Action]
    queued_at: float
    timer: asyncio.TimerHandle | None = None


def _percentile(samples: Sequence[float], q: float) -> float | None:
    if not samples:
        return None
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


class Thinker:
    """AI decisions for every table, computed in worker processes."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        max_queue_wait_ms: int = 1500,
        fallback: str = "heuristic",
        inline: bool = False,
        cheap_agents: frozenset[str] = CHEAP_AGENTS,
        preload: Sequence[str] = (),
        niceness: int = 5,
        overrun_grace_ms: int = 5000,
    ) -> None:
        """``workers``: processes (None: ``default_workers()``; 0: inline).
        ``cheap_agents``: answered on the event loop.  ``preload``: modules
        every worker imports (agents registered outside ``engine.ai``).
        ``niceness``: added to the workers' nice value.  A worker still busy
        ``2 * budget_ms + overrun_grace_ms`` after it started is killed."""
        workers = default_workers() if workers is None else workers
        if workers < 0:
            raise ValueError(f"workers must be 0 (inline) or more, not {workers}")
        self.inline = inline or workers == 0
        self.workers = 0 if self.inline else workers
        self.max_queue_wait_ms = max_queue_wait_ms
        self.fallback = fallback
        self.cheap_agents = cheap_agents
        self.preload = tuple(preload)
        self.niceness = niceness
        self.overrun_grace_ms = overrun_grace_ms
        self._pool: ProcessPoolExecutor | None = None
        self._queues: dict[int, deque[_Job]] = {}
        self._ring: deque[int] = deque()  # tables with queued jobs, next to serve first
        self._running: set[asyncio.Task[None]] = set()
        self._retiring: set[asyncio.Future[None]] = set()
        self._ready: asyncio.Future[list[Any]] | None = None  # the pool's workers started
        self._closed = False
        self._failures_in_a_row = 0
        self._resting_until = 0.0
        self._waits: deque[float] = deque(maxlen=_SAMPLES)
        self._counts = dict.fromkeys(
            ("decisions", "on_loop", "computed", "fallback_failures", "restarts"), 0
        )
        self._fallbacks: dict[str, int] = {}
        #: told how long each decision took (``bot.discord.metrics``)
        self.observer: ServiceObserver = NO_OBSERVER

    # -- lifecycle -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Spawn the workers and wait until each has imported the engine, so
        the first decision does not pay for it.  A pool that cannot start is
        logged; decisions then fall back until it can."""
        if self.inline or self._closed:
            return
        if self._ensure_pool() is None or self._ready is None:
            return
        await asyncio.wait({self._ready})
        failures = [r for r in self._ready.result() if isinstance(r, BaseException)]
        if failures:
            log.error(
                "AI worker pool failed to start (%s); AI decisions will fall back", failures[0]
            )

    async def close(self) -> None:
        """Cancel queued and running decisions (their ``decide`` raises
        ``CancelledError``), kill the workers, return promptly."""
        if self._closed:
            return
        self._closed = True
        for queue in self._queues.values():
            for job in queue:
                if job.timer is not None:
                    job.timer.cancel()
                job.answer.cancel()
        self._queues.clear()
        self._ring.clear()
        running = list(self._running)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        if self._pool is not None:
            self._retire(self._pool)
            self._pool = None
        if self._retiring:
            await asyncio.wait(self._retiring, timeout=5)

    def worker_pids(self) -> list[int]:
        """The live workers' process ids (for operators and tests)."""
        return [pid for pid, process in _workers_of(self._pool).items() if process.is_alive()]

    @property
    def stats(self) -> dict[str, Any]:
        """Counters since start: ``decisions`` asked, ``on_loop`` (cheap
        agents), ``computed`` (by a worker or thread, legal, in time),
        ``fallbacks`` and their ``fallback_reasons``, queue wait percentiles
        over the last 1024 dispatched decisions, ``worker_restarts``."""
        waits = list(self._waits)
        return {
            "mode": "inline" if self.inline else "pool",
            "workers": self.workers,
            **{k: v for k, v in self._counts.items() if k != "restarts"},
            "fallbacks": sum(self._fallbacks.values()),
            "fallback_reasons": dict(self._fallbacks),
            "queue_wait_ms_p50": _percentile(waits, 0.50),
            "queue_wait_ms_p99": _percentile(waits, 0.99),
            "worker_restarts": self._counts["restarts"],
            "queued": sum(len(q) for q in self._queues.values()),
            "in_flight": len(self._running),
        }

    # -- deciding ------------------------------------------------------------------------------
    async def decide(self, decision: Decision) -> Action:
        """An action in ``decision.legal``; never raises for an agent's failure."""
        if self._closed:
            raise ThinkerClosed("the AI thinker is closed")
        began = time.perf_counter()
        action = await self._decide(decision)
        self.observer.decision_done(decision.agent, time.perf_counter() - began)
        return action

    async def _decide(self, decision: Decision) -> Action:
        self._counts["decisions"] += 1
        if decision.agent in self.cheap_agents:
            self._counts["on_loop"] += 1
            return self._answer_here(decision, decision.agent)
        if self.inline:
            return await self._think_in_thread(decision)
        loop = asyncio.get_running_loop()
        job = _Job(decision, loop.create_future(), loop.time())
        queue = self._queues.get(decision.table_id)
        if queue is None:
            queue = self._queues[decision.table_id] = deque()
            self._ring.append(decision.table_id)
        queue.append(job)
        job.timer = loop.call_later(self.max_queue_wait_ms / 1000, self._expire, job)
        self._pump()
        return await job.answer

    async def _think_in_thread(self, decision: Decision) -> Action:
        try:
            action = await asyncio.to_thread(_think, decision)
        except Exception as exc:
            return self._agent_failed(decision, exc)
        return self._checked(decision, action)

    def _pump(self) -> None:
        """Start queued jobs, one table at a time in turn, while a worker is free."""
        while not self._closed and self._ring and len(self._running) < self.workers:
            table_id = self._ring.popleft()
            queue = self._queues[table_id]
            job = queue.popleft()
            if queue:
                self._ring.append(table_id)
            else:
                del self._queues[table_id]
            if job.timer is not None:
                job.timer.cancel()
            if job.answer.done():  # the caller stopped waiting
                continue
            self._waits.append((job.answer.get_loop().time() - job.queued_at) * 1000)
            task = asyncio.create_task(self._run(job), name=f"cardtable-ai-{table_id}")
            self._running.add(task)

    def _expire(self, job: _Job) -> None:
        """The job waited ``max_queue_wait_ms``: answer it here and now."""
        table_id = job.decision.table_id
        queue = self._queues.get(table_id)
        if queue is None or job not in queue:
            return
        queue.remove(job)
        if not queue:
            del self._queues[table_id]
            self._ring.remove(table_id)
        if job.answer.done():
            return
        waited = (job.answer.get_loop().time() - job.queued_at) * 1000
        self._waits.append(waited)
        action = self._fall_back(job.decision, "queue_wait", f"AI queue wait {waited:.0f} ms")
        job.answer.set_result(action)

    async def _run(self, job: _Job) -> None:
        decision = job.decision
        try:
            action = await self._compute(decision)
            if not job.answer.done():
                job.answer.set_result(action)
        except asyncio.CancelledError:
            job.answer.cancel()
            raise
        finally:
            self._running.discard(asyncio.current_task())
            self._pump()

    def _submit(self, decision: Decision) -> tuple[ProcessPoolExecutor, Future[Action]] | None:
        """Hand ``decision`` to the pool.  A pool found broken before the
        decision started (a worker died while idle) is replaced and the
        decision submitted again, once.  None while the pool rests."""
        for _ in range(2):
            pool = self._ensure_pool()
            if pool is None:
                return None
            try:
                if not all(p.is_alive() for p in _workers_of(pool).values()):
                    raise BrokenProcessPool("a worker died while idle")
                return pool, pool.submit(_think, decision)
            except BrokenProcessPool as exc:
                if self._restart(pool):
                    log.warning("AI worker pool was broken (%s); restarted", exc)
        return None

    async def _compute(self, decision: Decision) -> Action:
        submission = self._submit(decision)
        if submission is None:
            log.debug("table %s: AI worker pool resting, fell back", decision.table_id)
            self._fallbacks["pool_resting"] = self._fallbacks.get("pool_resting", 0) + 1
            return self._answer_here(decision, self.fallback)
        pool, submitted = submission
        future = asyncio.wrap_future(submitted)
        try:
            if self._ready is not None and not self._ready.done():
                # a worker's start-up (spawn, imports) is not the agent's time
                await asyncio.wait({self._ready}, timeout=START_TIMEOUT)
            limit = (2 * decision.budget_ms + self.overrun_grace_ms) / 1000
            done, _ = await asyncio.wait({future}, timeout=limit)
            if not done:
                future.cancel()
                restarted = self._restart(pool)
                busy = f"AI worker still busy {limit * 1000:.0f} ms after a {decision.budget_ms} ms"
                return self._fall_back(decision, "overrun", f"{busy} budget", restarted)
            action = future.result()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BrokenProcessPool as exc:
            restarted = self._restart(pool)
            return self._fall_back(decision, "worker_died", f"AI worker died ({exc})", restarted)
        except Exception as exc:
            return self._agent_failed(decision, exc)
        self._failures_in_a_row = 0
        return self._checked(decision, action)

    # -- the pool ------------------------------------------------------------------------------
    def _ensure_pool(self) -> ProcessPoolExecutor | None:
        """The pool, created (and its workers started at once) when there is
        none; None while it rests after failing again and again."""
        if self._pool is None and not self._closed:
            loop = asyncio.get_running_loop()
            if loop.time() >= self._resting_until:
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_init_worker,
                    initargs=(self.preload, self.niceness),
                )
                pings = [self._pool.submit(_ping) for _ in range(self.workers)]
                self._ready = asyncio.gather(
                    *(asyncio.wrap_future(p) for p in pings), return_exceptions=True
                )
        return self._pool

    def _restart(self, pool: ProcessPoolExecutor) -> bool:
        """Replace a broken (or stuck) ``pool``; False when that was done
        already (every decision it was running fails at once)."""
        if pool is not self._pool:
            return False
        self._pool = None
        self._retire(pool)
        self._counts["restarts"] += 1
        self._failures_in_a_row += 1
        if self._failures_in_a_row >= FAILURES_BEFORE_REST:
            self._resting_until = asyncio.get_running_loop().time() + REST_SECONDS
            log.error(
                "AI worker pool failed %d times in a row; AI decisions fall back for %d s",
                self._failures_in_a_row,
                REST_SECONDS,
            )
        else:
            self._ensure_pool()
        return True

    def _retire(self, pool: ProcessPoolExecutor) -> None:
        stopping = asyncio.get_running_loop().run_in_executor(None, _stop_pool, pool, 2.0)
        self._retiring.add(stopping)
        stopping.add_done_callback(self._retiring.discard)

    # -- answers in this process ---------------------------------------------------------------
    def _checked(self, decision: Decision, action: Action) -> Action:
        if action in decision.legal:
            self._counts["computed"] += 1
            return action
        what = f"AI agent {decision.agent!r} answered {action!r}, not a legal action"
        return self._fall_back(decision, "illegal", what)

    def _agent_failed(self, decision: Decision, exc: BaseException) -> Action:
        what = f"AI agent {decision.agent!r} failed ({type(exc).__name__}: {exc})"
        return self._fall_back(decision, "agent_error", what)

    def _fall_back(
        self, decision: Decision, reason: str, what: str, restarted: bool = False
    ) -> Action:
        """One log line, ``"table 12: <what>, fell back to heuristic"``, and
        the fallback's answer."""
        restart = "; worker pool restarted" if restarted else ""
        log.warning(
            "table %s: %s, fell back to %s%s", decision.table_id, what, self.fallback, restart
        )
        self._fallbacks[reason] = self._fallbacks.get(reason, 0) + 1
        return self._answer_here(decision, self.fallback)

    def _answer_here(self, decision: Decision, agent_name: str) -> Action:
        """``agent_name``'s answer computed right here (a cheap agent), else
        the fallback's, else a random legal action drawn from the seed."""
        names = [agent_name] if agent_name == self.fallback else [agent_name, self.fallback]
        for i, name in enumerate(names):
            try:
                agent = get_agent(
                    name, game=decision.game, seed=decision.seed, budget_ms=decision.budget_ms
                )
                action = agent.act(decision.view, list(decision.legal))
                if action in decision.legal:
                    return action
                problem = f"answered {action!r}, not a legal action"
            except Exception as exc:
                problem = f"failed ({type(exc).__name__}: {exc})"
            if name == self.fallback:
                self._counts["fallback_failures"] += 1
            else:
                self._fallbacks["agent_error"] = self._fallbacks.get("agent_error", 0) + 1
            after = names[i + 1] if i + 1 < len(names) else "a random legal action"
            log.warning(
                "table %s: AI agent %r %s, fell back to %s",
                decision.table_id,
                name,
                problem,
                after,
            )
        return random.Random(decision.seed).choice(decision.legal)

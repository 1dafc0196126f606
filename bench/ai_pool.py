"""AI thinking in worker processes (bot/services/thinking.py) against threads
(``asyncio.to_thread(agent.act, ...)``, what the service did before): search
decisions per second and queue wait, and what each costs the event loop and a
database write made meanwhile.

N tables ask for "search" decisions (Callbreak card plays, ``--budget-ms``
each) back to back.  Meanwhile one coroutine sleeps 10 ms in a loop and
records the overshoot (event-loop lag), another commits one row to a SQLite
file in a thread every 100 ms (as aiosqlite does) and a third times a small
CPU task on the loop every 100 ms.  "idle" is the same without AI.  A
search stops at its wall-clock budget, so "search cpu" (CPU ms actually spent
per search) tells how much searching a decision got.

python bench/ai_pool.py [--tables 10] [--seconds 20] [--budget-ms 200]
                        [--modes idle,thread,pool] [--workers 1,2] [--niceness 5]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import pickle
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.services.ai_worker import Decision
from bot.services.thinking import Thinker, default_workers
from engine import GAMES, get_game
from engine.ai import get_agent
from engine.core.actions import Action
from engine.core.view import Observation

Position = tuple[Observation, list[Action]]


def card_plays(count: int) -> list[Position]:
    """Callbreak card plays with a real choice, from heuristic games."""
    positions: list[Position] = []
    seed = 0
    while len(positions) < count:
        state = get_game("callbreak").new_match(seed=seed)
        agents = [get_agent("heuristic", game="callbreak", seed=seed + s) for s in range(4)]
        while not state.is_over and len(positions) < count:
            seat = state.decider
            assert seat is not None
            view, legal = state.view(seat), state.legal_actions()
            if view.phase == "play" and len(legal) > 1:
                positions.append((view, legal))
            state.apply(agents[seat].act(view, legal))
        seed += 1
    return positions


def workers_cpu_ms(thinker: Thinker) -> float:
    """CPU time used so far by the pool's live workers (Linux /proc)."""
    total = 0
    for pid in thinker.worker_pids():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total * 1000 / os.sysconf("SC_CLK_TCK")


def pct(samples: Sequence[float], q: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Probe:
    """Loop lag, SQLite commit latency and a CPU task timed on the loop."""

    def __init__(self, db_path: str) -> None:
        self.lag: list[float] = []
        self.db: list[float] = []
        self.cpu: list[float] = []
        self.conn = sqlite3.connect(db_path, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, text TEXT)")

    def _write(self) -> None:
        self.conn.execute("INSERT INTO moves (text) VALUES (?)", ("play AS",))
        self.conn.commit()

    async def run(self, stop: asyncio.Event) -> None:
        await asyncio.gather(self._lag(stop), self._db(stop), self._cpu(stop))

    async def _lag(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.010)
            self.lag.append((time.perf_counter() - start - 0.010) * 1000)

    async def _db(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.to_thread(self._write)
            self.db.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.1)

    async def _cpu(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            start = time.perf_counter()
            sum(i * i for i in range(20_000))
            self.cpu.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.1)


async def run_mode(
    mode: str, workers: int, args: argparse.Namespace, positions: list[Position]
) -> dict[str, Any]:
    thinker: Thinker | None = None
    pool_cpu = 0.0
    waits: list[float] = []
    latencies: list[float] = []
    counts = {"searched": 0, "fell_back": 0}
    if mode == "pool":
        thinker = Thinker(workers, max_queue_wait_ms=args.queue_wait_ms, niceness=args.niceness)
        await thinker.start()
        pool_cpu = -workers_cpu_ms(thinker)

    thread_cpu: list[float] = []

    def timed_act(queued_at: float, decision: Decision) -> Action:
        waits.append((time.perf_counter() - queued_at) * 1000)
        cpu = time.thread_time()
        agent = get_agent("search", game="callbreak", seed=decision.seed, budget_ms=args.budget_ms)
        action = agent.act(decision.view, list(decision.legal))
        thread_cpu.append((time.thread_time() - cpu) * 1000)
        return action

    async def table(table_id: int, stop: asyncio.Event) -> None:
        k = table_id
        while not stop.is_set():
            view, legal = positions[k % len(positions)]
            decision = Decision(table_id, "callbreak", "search", view, legal, k, args.budget_ms)
            start = time.perf_counter()
            if thinker is not None:
                action = await thinker.decide(decision)
            else:
                action = await asyncio.to_thread(timed_act, start, decision)
            assert action in legal
            latencies.append((time.perf_counter() - start) * 1000)
            k += args.tables

    with tempfile.TemporaryDirectory() as tmp:
        probe = Probe(os.path.join(tmp, "bench.db"))
        stop = asyncio.Event()
        tables = [] if mode == "idle" else [table(t, stop) for t in range(args.tables)]
        seconds = min(5, args.seconds) if mode == "idle" else args.seconds
        asyncio.get_running_loop().call_later(seconds, stop.set)
        began = time.perf_counter()
        await asyncio.gather(probe.run(stop), *tables)
        elapsed = time.perf_counter() - began
        probe.conn.close()
    if thinker is not None:
        pool_cpu += workers_cpu_ms(thinker)
        stats = thinker.stats
        counts = {"searched": stats["computed"], "fell_back": stats["fallbacks"]}
        waits = [stats["queue_wait_ms_p50"] or 0.0, stats["queue_wait_ms_p99"] or 0.0]
        await thinker.close()
    else:
        counts["searched"] = len(latencies)
    label = f"pool ({workers} worker{'s' * (workers > 1)})" if mode == "pool" else mode
    return {
        "mode": label,
        "searched/s": counts["searched"] / elapsed,
        "fallbacks/s": counts["fell_back"] / elapsed,
        "decide p50": statistics.median(latencies) if latencies else float("nan"),
        "decide p99": pct(latencies, 0.99),
        "search cpu": (
            pool_cpu / max(1, counts["searched"])
            if thinker is not None
            else statistics.fmean(thread_cpu or [float("nan")])
        ),
        "wait p50": waits[0] if thinker is not None else pct(waits, 0.5),
        "wait p99": waits[1] if thinker is not None else pct(waits, 0.99),
        "lag p50": pct(probe.lag, 0.5),
        "lag p99": pct(probe.lag, 0.99),
        "db p50": pct(probe.db, 0.5),
        "db p99": pct(probe.db, 0.99),
        "cpu p50": pct(probe.cpu, 0.5),
        "cpu p99": pct(probe.cpu, 0.99),
    }


def per_game_costs(matches: int = 3) -> None:
    """Every game, every decision of ``matches`` heuristic matches: the
    pickled Decision, and the heuristic's time (the fallback, run on the loop)."""
    print("| game | decisions | pickle median | p99 | max | heuristic mean ms | max ms |")
    print("|---|---|---|---|---|---|---|")
    for name in GAMES:
        sizes, times = [], []
        for seed in range(matches):
            state = get_game(name).new_match(seed=seed)
            agents = [
                get_agent("heuristic", game=name, seed=seed * 10 + s)
                for s in range(state.num_seats)
            ]
            while not state.is_over and len(sizes) < 3000 * (seed + 1):
                seat = state.decider
                assert seat is not None
                view, legal = state.view(seat), state.legal_actions()
                decision = Decision(1, name, "search", view, legal, 123_456_789, 200)
                sizes.append(len(pickle.dumps(decision, protocol=pickle.HIGHEST_PROTOCOL)))
                start = time.perf_counter()
                action = agents[seat].act(view, legal)
                times.append((time.perf_counter() - start) * 1000)
                state.apply(action)
        print(
            f"| {name} | {len(sizes)} | {statistics.median(sizes):.0f} B | {pct(sizes, 0.99):.0f} B"
            f" | {max(sizes)} B | {statistics.fmean(times):.3f} | {max(times):.2f} |"
        )


def message_sizes(positions: list[Position]) -> str:
    sizes, costs = [], []
    for view, legal in positions:
        decision = Decision(1, "callbreak", "search", view, legal, 1, 200)
        start = time.perf_counter()
        data = pickle.dumps(decision, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
        costs.append((time.perf_counter() - start) * 1e6)
        sizes.append(len(data))
    return (
        f"Decision pickle: median {statistics.median(sizes):.0f} B, max {max(sizes)} B; "
        f"dumps+loads median {statistics.median(costs):.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--budget-ms", type=int, default=200)
    parser.add_argument("--queue-wait-ms", type=int, default=1500)
    parser.add_argument("--modes", default="idle,thread,pool")
    parser.add_argument("--niceness", type=int, default=5, help="added to the workers' nice")
    parser.add_argument(
        "--workers", default=str(default_workers()), help="pool sizes to try, e.g. 1,2"
    )
    args = parser.parse_args()
    logging.getLogger("bot.services.thinking").setLevel(logging.ERROR)  # fallbacks are counted
    positions = card_plays(200)
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.tables} tables; "
        f"search budget {args.budget_ms} ms; workers' niceness +{args.niceness}"
    )
    per_game_costs()
    print(message_sizes(positions))
    runs: list[tuple[str, int]] = []
    for mode in args.modes.split(","):
        sizes = [int(w) for w in args.workers.split(",")] if mode == "pool" else [0]
        runs.extend((mode, w) for w in sizes)
    columns = [
        "mode",
        "searched/s",
        "fallbacks/s",
        "decide p50",
        "decide p99",
        "search cpu",
        "wait p50",
        "wait p99",
        "lag p50",
        "lag p99",
        "db p50",
        "db p99",
        "cpu p50",
        "cpu p99",
    ]
    fmt: Callable[[Any], str] = lambda v: v if isinstance(v, str) else f"{v:.1f}"  # noqa: E731
    print("| " + " | ".join(columns) + " |  (times in ms)")
    print("|" + "---|" * len(columns))
    for mode, workers in runs:
        row = asyncio.run(run_mode(mode, workers, args, positions))
        print("| " + " | ".join(fmt(row[c]) for c in columns) + " |", flush=True)


if __name__ == "__main__":
    main()

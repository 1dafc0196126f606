"""Load through the TableService: N tables, each with one person acting at a
person's pace and AI seats answering, for a fixed time.

python bench/load.py [--tables 50] [--seconds 600] [--pace 5] [--ai hard]
                     [--game callbreak] [--workers N] [--db URL] [--json]

Every move is persisted before it is acknowledged, exactly as in the bot.
Printed: moves/s, the person's act() p50/p99, event-loop lag p99 (a 10 ms
ticker's overshoot), AI decisions/s and fallbacks from the worker pool, and
**stalled tables**: a table whose AI had to move but made no move for 30 s.
A table that finishes is replaced by a new one, so the load stays constant.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.services.thinking import Thinker

STALL_SECONDS = 30.0
OPTIONS = {"callbreak": {"rounds": "13"}, "batak": {"target_score": "500"}}


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Load:
    def __init__(self, service: TableService, args: argparse.Namespace) -> None:
        self.service = service
        self.args = args
        self.act_ms: list[float] = []
        self.lag_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.moves_at_start = 0
        self.last_move: dict[int, float] = {}
        self.stalled: set[int] = set()
        self.finished = 0

    async def new_table(self, person: Actor) -> int:
        info = await self.service.create_table(
            person, game=self.args.game, options=OPTIONS.get(self.args.game, {})
        )
        await self.service.start_table(info.id, person, fill_ai=self.args.ai)
        self.last_move[info.id] = time.monotonic()
        return info.id

    async def person(self, index: int, stop: float) -> None:
        rng = random.Random(index)
        me = Actor(10_000 + index, 1, 1, f"Person {index}")
        table_id = await self.new_table(me)
        await asyncio.sleep(rng.uniform(0, self.args.pace))
        while time.monotonic() < stop:
            info = await self.service.get_table(table_id)
            if info.status != "playing":
                self.finished += 1
                table_id = await self.new_table(me)
                continue
            try:
                private = await self.service.private_view(table_id, me)
            except Exception as exc:
                self.errors[type(exc).__name__] = self.errors.get(type(exc).__name__, 0) + 1
                await asyncio.sleep(1)
                continue
            legal = private.view.legal_actions
            if legal:
                start = time.perf_counter()
                try:
                    await self.service.act(
                        table_id, me, str(rng.choice(legal)), expected_seq=private.table.seq
                    )
                    self.act_ms.append((time.perf_counter() - start) * 1000)
                except Exception as exc:
                    name = type(exc).__name__
                    self.errors[name] = self.errors.get(name, 0) + 1
            await asyncio.sleep(self.args.pace * rng.uniform(0.8, 1.2))

    async def ticker(self, stop: float) -> None:
        while time.monotonic() < stop:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag_ms.append(max(0.0, (time.perf_counter() - start) * 1000 - 10))

    async def watch(self, stop: float) -> None:
        """Stall detector: an AI to act and no move for STALL_SECONDS."""
        seqs: dict[int, int] = {}
        while time.monotonic() < stop:
            await asyncio.sleep(2)
            now = time.monotonic()
            for live in list(self.service.tables.values()):
                state = live.state
                if live.status != "playing" or state is None or state.decider is None:
                    continue
                seq = len(state.log)
                if seqs.get(live.id) != seq:
                    seqs[live.id] = seq
                    self.last_move[live.id] = now
                    continue
                if live.robot_for(state.decider) and now - self.last_move[live.id] > STALL_SECONDS:
                    self.stalled.add(live.id)

    async def run(self) -> dict[str, object]:
        stop = time.monotonic() + self.args.seconds
        started = time.monotonic()
        moves_before = await self.count_moves()
        bar = asyncio.create_task(self.progress(stop))
        await asyncio.gather(
            self.ticker(stop),
            self.watch(stop),
            *(self.person(i, stop) for i in range(self.args.tables)),
        )
        bar.cancel()
        elapsed = time.monotonic() - started
        moves = await self.count_moves() - moves_before
        stats = self.service.thinker.stats
        return {
            "tables": self.args.tables,
            "seconds": round(elapsed, 1),
            "ai": self.args.ai,
            "game": self.args.game,
            "moves_per_s": round(moves / elapsed, 1),
            "act_ms_p50": round(pct(self.act_ms, 0.5), 1),
            "act_ms_p99": round(pct(self.act_ms, 0.99), 1),
            "loop_lag_ms_p99": round(pct(self.lag_ms, 0.99), 1),
            "ai_decisions_per_s": round(stats["decisions"] / elapsed, 1),
            "ai_fallbacks": stats["fallbacks"],
            "ai_fallback_reasons": stats["fallback_reasons"],
            "queue_wait_ms_p99": stats["queue_wait_ms_p99"],
            "stalled_tables": len(self.stalled),
            "finished_tables": self.finished,
            "person_moves": len(self.act_ms),
            "refusals": self.errors,
        }

    async def count_moves(self) -> int:
        return sum(len(t.state.log) for t in self.service.tables.values() if t.state) + sum(
            len(t.state.log) for t in self.service.recent.values() if t.state
        )

    async def progress(self, stop: float) -> None:
        total = self.args.seconds
        while True:
            left = max(0.0, stop - time.monotonic())
            done = int(30 * (1 - left / total))
            p99 = pct(self.act_ms[-2000:], 0.99)
            print(
                f"\r[{'#' * done}{'.' * (30 - done)}] {int(total - left)}s  "
                f"act p99 {p99:.0f} ms  stalled {len(self.stalled)}",
                end="",
                file=sys.stderr,
                flush=True,
            )
            await asyncio.sleep(1)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a person's moves")
    parser.add_argument("--ai", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--workers", type=int, default=None, help="AI processes (0: threads)")
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite+aiosqlite:///{tmp}/load.db"
        store = Store(url)
        await store.migrate()
        service = TableService(
            store,
            turn_seconds_default=0,
            ai_budget_ms=args.budget_ms,
            thinker=Thinker(args.workers),
            max_open_per_host=None,
        )
        await service.start(dispatch_deadlines=False)
        result = await Load(service, args).run()
        await service.close()
        await store.close()
    print(file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<22} {value}")


if __name__ == "__main__":
    asyncio.run(main())

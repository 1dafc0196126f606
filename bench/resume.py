"""Resume after a restart: how soon people are served, and when every table
is live again.

python bench/resume.py [--tables 1000] [--moves 140] [--game callbreak]
                       [--db URL] [--probe-ms 10] [--profile FILE] [--json]

First a database is filled with ``--tables`` unfinished tables of one
person and three AI seats, each ``--moves`` moves into its match (random
legal moves, stopped where the person is to play), in a child process.
Then, in a fresh process, a ``TableService`` starts on it with
``wait=False`` (as the Discord bot does) while every ``--probe-ms`` another
person clicks their table: a table not replayed yet answers "resuming, one
moment" (and goes to the front of the queue) and the person clicks again
250 ms later; a live one takes the move.

Printed (seconds from the start of ``start()``): when the first click was
answered, when the first move was made, when every table was live (and the
CPU time the process got until then); how many clicks were answered
"resuming", the p99 time to answer a click, and how long a person waited
from their first click to their move made (p50, p99); event-loop lag p99
and max while resuming (a 5 ms ticker's overshoot); memory per live table
(RSS growth / tables).  Targets (issue 14): first interaction served within
1 s, all live within 5 s.

``--db postgresql+asyncpg://...`` runs on PostgreSQL; the database is
emptied first, so give it one of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402
from sqlalchemy.engine import Connection  # noqa: E402

from bench.load import pct, reset_postgres, rss_bytes  # noqa: E402
from bot.db.models import ActionRow, SeatRow, TableRow, utcnow  # noqa: E402
from bot.db.repositories import Store  # noqa: E402
from bot.services.actor import Actor  # noqa: E402
from bot.services.errors import Resuming  # noqa: E402
from bot.services.tables import TableService  # noqa: E402
from engine import get_game  # noqa: E402

OPTIONS = {"callbreak": {"rounds": 13}, "batak": {"target_score": 500}}
PERSON = 10_000
TICK = 0.005
#: a person told "resuming, one moment" clicks again this much later
RETRY = 0.25


def person_of(index: int) -> Actor:
    guild = (index << 22) | 1
    return Actor(PERSON + index, guild, guild + 1, f"Person {index}")


def one_table(index: int, game_name: str, moves: int) -> tuple[dict[str, Any], list[Any]]:
    """A table row and its log: random legal moves until at least ``moves``
    are made and the person (seat 0) is to play."""
    game = get_game(game_name)
    variant = game.variant(**OPTIONS.get(game_name, {}))
    seed = 1_000 + index
    state = game.new_match(seed=seed, variant=variant)
    rng = random.Random(index)
    log: list[tuple[int, str, int]] = []
    while not state.is_over and (len(log) < moves or state.decider != 0):
        seat = state.to_act
        action = rng.choice(state.legal_actions())
        state.apply(action)
        log.append((len(log), str(action), seat if seat is not None else 0))
    person = person_of(index)
    row = {
        "guild_id": person.guild_id,
        "channel_id": person.channel_id,
        "host_id": person.user_id,
        "game": game.name,
        "variant": json.dumps(variant.to_dict()),
        "seed": seed,
        "status": "playing",
        "turn_seconds": 90,
        "deadline": time.time() + 90,
    }
    return row, log


async def build(url: str, tables: int, game: str, moves: int) -> None:
    if not url.startswith("sqlite"):
        await reset_postgres(url)
    store = Store(url)
    await store.migrate()
    made = 0
    for first in range(0, tables, 100):
        batch = [one_table(i, game, moves) for i in range(first, min(tables, first + 100))]

        def job(conn: Connection, batch: list[Any] = batch, first: int = first) -> None:
            now = utcnow()
            for offset, (row, log) in enumerate(batch):
                index = first + offset
                table_id = conn.execute(
                    insert(TableRow)
                    .values(created_at=now, updated_at=now, **row)
                    .returning(TableRow.id)
                ).scalar_one()
                seats = [
                    {"table_id": table_id, "seat": 0, "user_id": PERSON + index, "name": "P"}
                ] + [
                    {"table_id": table_id, "seat": s, "user_id": None, "name": "AI", "ai": "normal"}
                    for s in range(1, 4)
                ]
                conn.execute(insert(SeatRow), seats)
                conn.execute(
                    insert(ActionRow),
                    [
                        {
                            "table_id": table_id,
                            "seq": seq,
                            "notation": notation,
                            "seat": seat,
                            "actor_id": PERSON + index if seat == 0 else None,
                            "by_ai": seat != 0,
                            "created_at": now,
                        }
                        for seq, notation, seat in log
                    ],
                )

        await store._write(job)
        made += len(batch)
        print(f"\rbuilt {made}/{tables} tables", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    await store.close()


class Resume:
    def __init__(self, service: TableService, tables: int, probe: float) -> None:
        self.service = service
        self.tables = tables
        self.probe = probe
        self.lag_ms: list[float] = []
        self.answer_ms: list[float] = []
        self.resuming = 0
        self.first_answer: float | None = None
        self.first_served: float | None = None
        #: from a person's first click to their move made (retrying "resuming")
        self.waited_ms: list[float] = []
        self.done = False

    async def ticker(self) -> None:
        while not self.done:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            self.lag_ms.append(max(0.0, (time.perf_counter() - start - TICK) * 1000))

    async def clicks(self, began: float) -> None:
        """A person every ``probe`` seconds clicks a random table (each table
        once) and, told "resuming, one moment", clicks again ``RETRY``
        later, until their move is made."""
        rng = random.Random(7)
        order = list(range(self.tables))
        rng.shuffle(order)
        people = []
        for index in order:
            if self.done:
                break
            people.append(asyncio.create_task(self.person(index, began)))
            await asyncio.sleep(self.probe)
        for task in people:
            task.cancel()
        await asyncio.gather(*people, return_exceptions=True)

    async def person(self, index: int, began: float) -> None:
        table_id, person = index + 1, person_of(index)
        first = time.perf_counter()
        while True:
            start = time.perf_counter()
            try:
                private = await self.service.private_view(table_id, person)
                if private.view.legal_actions:
                    action = str(private.view.legal_actions[0])
                    await self.service.act(table_id, person, action, expected_seq=private.table.seq)
                done = time.perf_counter()
                self.answer_ms.append((done - start) * 1000)
                self.waited_ms.append((done - first) * 1000)
                if self.first_served is None:
                    self.first_served = done - began
                if self.first_answer is None:
                    self.first_answer = done - began
                return
            except Resuming:
                self.resuming += 1
                now = time.perf_counter()
                self.answer_ms.append((now - start) * 1000)
                if self.first_answer is None:
                    self.first_answer = now - began
            await asyncio.sleep(RETRY)

    async def progress(self, began: float) -> None:
        while not self.done:
            live = len(self.service.tables)
            print(
                f"\r{time.perf_counter() - began:5.1f} s  live {live}/{self.tables}  "
                f"resuming answers {self.resuming}",
                end="",
                file=sys.stderr,
                flush=True,
            )
            await asyncio.sleep(0.25)

    async def run(self) -> dict[str, Any]:
        rss_before = rss_bytes()
        ticker = asyncio.create_task(self.ticker())
        await asyncio.sleep(0.05)
        self.lag_ms.clear()
        began = time.perf_counter()
        cpu = time.process_time()
        await self.service.start(dispatch_deadlines=True, wait=False)
        accepting = time.perf_counter() - began
        helpers = [
            asyncio.create_task(self.clicks(began)),
            asyncio.create_task(self.progress(began)),
        ]
        await self.service.resumed()
        all_live = time.perf_counter() - began
        cpu = time.process_time() - cpu
        self.done = True
        await asyncio.gather(ticker, *helpers)
        print(file=sys.stderr)
        return {
            "tables": self.tables,
            "tables_live": len(self.service.tables),
            "broken": len(self.service.broken),
            "accepting_s": round(accepting, 3),
            "first_answer_s": round(self.first_answer or 0.0, 3),
            "first_move_served_s": round(self.first_served or 0.0, 3),
            "all_live_s": round(all_live, 3),
            # CPU this process got meanwhile: all_live_s far above it means
            # the machine was busy with other work
            "cpu_s_until_all_live": round(cpu, 2),
            "resuming_answers": self.resuming,
            "click_answer_ms_p99": round(pct(self.answer_ms, 0.99), 1),
            "people_served": len(self.waited_ms),
            "wait_until_served_ms_p50": round(pct(self.waited_ms, 0.5), 1),
            "wait_until_served_ms_p99": round(pct(self.waited_ms, 0.99), 1),
            "loop_lag_ms_p99": round(pct(self.lag_ms, 0.99), 1),
            "loop_lag_ms_max": round(max(self.lag_ms, default=0.0), 1),
            "memory_kb_per_table": round((rss_bytes() - rss_before) / self.tables / 1024, 1),
        }


async def resume(args: argparse.Namespace, url: str) -> dict[str, Any]:
    store = Store(url)
    await store.migrate()
    service = TableService(store, ai_budget_ms=50, max_open_per_host=None)
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    result = await Resume(service, args.tables, args.probe_ms / 1000).run()
    if profiler:
        profiler.disable()
        profiler.dump_stats(args.profile)
        pstats.Stats(args.profile, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    moves = sum(len(t.state.log) for t in service.tables.values() if t.state)
    result["moves_replayed"] = moves
    await service.close()
    await store.close()
    return result


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=140)
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--probe-ms", type=float, default=10.0, help="a click this often")
    parser.add_argument("--profile", default=None, help="cProfile the resume into this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--phase", choices=("all", "build", "resume"), default="all")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite+aiosqlite:///{tmp}/resume.db"
        if args.phase == "build":
            asyncio.run(build(url, args.tables, args.game, args.moves))
            return
        if args.phase == "all":  # fill it in another process: the resume starts clean
            command = [sys.executable, __file__, "--phase", "build", "--db", url]
            command += ["--tables", str(args.tables), "--moves", str(args.moves)]
            subprocess.run([*command, "--game", args.game], check=True)
        result = asyncio.run(resume(args, url))
    result["database"] = "sqlite" if url.startswith("sqlite") else "postgresql"
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<24} {value}")


if __name__ == "__main__":
    main()

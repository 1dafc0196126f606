"""Load through the TableService: N tables, each with one person acting at a
person's pace and AI seats answering, for a fixed time.

python bench/load.py [--tables 500] [--seconds 180] [--warmup 20] [--pace 5]
                     [--ai normal] [--game callbreak] [--workers 0]
                     [--db URL] [--synchronous FULL|NORMAL] [--processes 1]
                     [--no-timers] [--profile FILE] [--json]

Every move is persisted before it is acknowledged, exactly as in the bot
(group commit: the moves that arrive together share one transaction).  The
tables are made during the warm-up, which is not measured.  Printed for the
measured window: moves/s (all seats), the person's act() p50/p99, event-loop
lag p99 (a 10 ms ticker's overshoot), moves per transaction, memory per live
table (the process's RSS growth over the warm-up, divided by the tables),
database bytes per move (the action log with its indexes, and the whole
database), AI decisions/s and fallbacks, and **stalled tables** (an AI had
to move and made no move for 30 s).  A finished table is replaced by a new
one, so the load stays constant.

``--db postgresql+asyncpg://...`` runs on PostgreSQL (the database is
emptied first: give it one of its own).  ``--processes K`` runs K processes
against that one database, as K shards (README "Running several
processes"): process k plays the tables of servers on shard k; act() and
moves/s are over all of them, loop lag is the worst process's.  The resume
time of 1,000 tables is ``bench/resume.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
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

from sqlalchemy import text  # noqa: E402

from bot.db.repositories import Store  # noqa: E402
from bot.db.shards import Shards  # noqa: E402
from bot.services.actor import Actor  # noqa: E402
from bot.services.tables import TableService  # noqa: E402
from bot.services.thinking import Thinker  # noqa: E402

STALL_SECONDS = 30.0
OPTIONS = {"callbreak": {"rounds": "13"}, "batak": {"target_score": "500"}}
TICK = 0.01


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def postgres_cpu_seconds() -> float | None:
    """CPU time used so far by the PostgreSQL server processes on this
    machine (/proc), or None when there are none to see."""
    ticks, seen = 0, False
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :]
        if name == "postgres":
            fields = rest.split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
            seen = True
    return ticks / os.sysconf("SC_CLK_TCK") if seen else None


def rss_bytes() -> int:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


#: where the event loop's time goes, by the file a function lives in
PROFILE_PARTS = (
    ("engine/ai/", "AI seats (heuristic agents)"),
    ("/engine/", "engine rules (apply, clone, legal moves, views)"),
    ("/bot/services/", "table service"),
    ("/bot/db/", "store (group commit)"),
    ("sqlalchemy", "SQLAlchemy"),
    ("asyncio", "asyncio (tasks, futures, the loop)"),
    ("selectors", "asyncio (tasks, futures, the loop)"),
)


def profile_summary(path: str) -> dict[str, float]:
    """Share of the profiled thread's time per part (``PROFILE_PARTS``);
    "waiting" is the loop idle in epoll, "other" what is left."""
    totals: dict[str, float] = {}
    for (file, _line, name), (_cc, _nc, own, _cum, _callers) in pstats.Stats(path).stats.items():  # type: ignore[attr-defined]
        if "poll" in name and file == "~":
            part = "waiting (idle)"
        else:
            part = next((label for key, label in PROFILE_PARTS if key in file), "other")
        totals[part] = totals.get(part, 0.0) + own
    whole = sum(totals.values()) or 1.0
    return {k: round(100 * v / whole, 1) for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}


def guild_of(index: int, shard: int, count: int) -> int:
    """A server id on ``shard`` of ``count`` (``bot.db.shards``), one per person."""
    return ((index * count + shard) << 22) | 1


async def reset_postgres(url: str) -> None:
    store = Store(url)
    try:
        async with store.engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    finally:
        await store.close()


async def database_bytes(store: Store) -> dict[str, float]:
    """Bytes of the action log (rows and indexes) and of the whole database
    per stored move."""
    async with store.engine.connect() as conn:
        moves = (await conn.execute(text("SELECT count(*) FROM actions"))).scalar() or 0
        if store.engine.dialect.name == "sqlite":
            log_bytes = (
                await conn.execute(
                    text(
                        "SELECT sum(pgsize) FROM dbstat WHERE name = 'actions' OR name IN "
                        "(SELECT name FROM sqlite_master WHERE tbl_name = 'actions')"
                    )
                )
            ).scalar()
            pages = (await conn.execute(text("PRAGMA page_count"))).scalar() or 0
            size = (await conn.execute(text("PRAGMA page_size"))).scalar() or 0
            whole = pages * size
        else:
            log_bytes = (
                await conn.execute(text("SELECT pg_total_relation_size('actions')"))
            ).scalar()
            whole = (
                await conn.execute(text("SELECT pg_database_size(current_database())"))
            ).scalar()
    return {
        "moves_stored": moves,
        "log_bytes_per_move": round((log_bytes or 0) / moves, 1) if moves else 0.0,
        "db_bytes_per_move": round((whole or 0) / moves, 1) if moves else 0.0,
    }


class Load:
    def __init__(self, service: TableService, args: argparse.Namespace) -> None:
        self.service = service
        self.args = args
        self.act_ms: list[float] = []
        self.lag_ms: list[float] = []
        self.errors: dict[str, int] = {}
        self.last_move: dict[int, float] = {}
        self.stalled: set[int] = set()
        self.finished = 0
        self.measuring = False
        self.profiler: cProfile.Profile | None = None

    def refused(self, exc: BaseException) -> None:
        name = getattr(exc, "reason", None) or type(exc).__name__
        self.errors[name] = self.errors.get(name, 0) + 1

    async def new_table(self, person: Actor) -> int:
        info = await self.service.create_table(
            person, game=self.args.game, options=OPTIONS.get(self.args.game, {})
        )
        await self.service.start_table(info.id, person, fill_ai=self.args.ai)
        self.last_move[info.id] = time.monotonic()
        return info.id

    async def person(self, index: int, stop: float) -> None:
        rng = random.Random(index)
        count, shard = self.args.shard_count, self.args.shard_id
        guild = guild_of(index, shard, count)
        me = Actor(10_000 + index, guild, guild + 1, f"Person {index}")
        await asyncio.sleep(rng.uniform(0, self.args.warmup / 2))  # the tables come in a ramp
        table_id = await self.new_table(me)
        while time.monotonic() < stop:
            await asyncio.sleep(self.args.pace * rng.uniform(0.8, 1.2))
            try:
                private = await self.service.private_view(table_id, me)
                if private.table.status != "playing":
                    self.finished += 1
                    table_id = await self.new_table(me)
                    continue
            except Exception as exc:
                self.refused(exc)
                continue
            legal = private.view.legal_actions
            if not legal:
                continue
            start = time.perf_counter()
            try:
                await self.service.act(
                    table_id, me, str(rng.choice(legal)), expected_seq=private.table.seq
                )
            except Exception as exc:
                self.refused(exc)
                continue
            if self.measuring:
                self.act_ms.append((time.perf_counter() - start) * 1000)

    async def ticker(self, stop: float) -> None:
        while time.monotonic() < stop:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            if self.measuring:
                self.lag_ms.append(max(0.0, (time.perf_counter() - start - TICK) * 1000))

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
                waited = now - self.last_move.get(live.id, now)
                if live.robot_for(state.decider) and waited > STALL_SECONDS:
                    self.stalled.add(live.id)

    async def run(self) -> dict[str, Any]:
        args = self.args
        begin = time.monotonic()
        stop = begin + args.warmup + args.seconds
        rss_before = rss_bytes()
        bar = asyncio.create_task(self.progress(begin, stop))
        measure = asyncio.create_task(self.window(begin + args.warmup))
        await asyncio.gather(
            self.ticker(stop),
            self.watch(stop),
            *(self.person(i, stop) for i in range(args.tables)),
        )
        elapsed = time.monotonic() - self.started
        cpu = time.process_time() - self.cpu_started
        server_cpu = postgres_cpu_seconds()
        moves = self.service.store.commit_stats()["moves"] - self.moves_before
        batches = self.service.store.commit_stats()["batches"] - self.batches_before
        bar.cancel()
        measure.cancel()
        thinking = self.service.thinker.stats
        return {
            "tables": args.tables,
            "shard": f"{args.shard_id} of {args.shard_count}",
            "seconds": round(elapsed, 1),
            "ai": args.ai,
            "game": args.game,
            "moves_per_s": round(moves / elapsed, 1),
            # the share of one core this process used (its CPU time / wall time)
            "cpu_share": round(cpu / elapsed, 2),
            # the same for a PostgreSQL server on this machine (None: SQLite)
            "db_server_cpu_share": (
                round((server_cpu - self.server_cpu_started) / elapsed, 2)
                if server_cpu is not None
                and self.server_cpu_started is not None
                and not self.args.sqlite
                else None
            ),
            "act_ms_p50": round(pct(self.act_ms, 0.5), 1),
            "act_ms_p99": round(pct(self.act_ms, 0.99), 1),
            "loop_lag_ms_p99": round(pct(self.lag_ms, 0.99), 1),
            "loop_lag_ms_max": round(max(self.lag_ms, default=0.0), 1),
            "moves_per_transaction": round(moves / batches, 2) if batches else 0.0,
            "transaction_ms_p50": self.service.store.commit_stats()["transaction_ms_p50"],
            "transaction_ms_p99": self.service.store.commit_stats()["transaction_ms_p99"],
            "memory_kb_per_table": round((self.rss_live - rss_before) / args.tables / 1024, 1),
            "ai_decisions_per_s": round(thinking["decisions"] / elapsed, 1),
            "ai_fallbacks": thinking["fallbacks"],
            "stalled_tables": len(self.stalled),
            "finished_tables": self.finished,
            "person_moves": len(self.act_ms),
            "refusals": self.errors,
        }

    async def window(self, at: float) -> None:
        """Start measuring once the warm-up is over."""
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        self.rss_live = rss_bytes()
        self.started = time.monotonic()
        self.cpu_started = time.process_time()
        self.server_cpu_started = postgres_cpu_seconds()
        stats = self.service.store.commit_stats()
        self.moves_before, self.batches_before = stats["moves"], stats["batches"]
        self.measuring = True
        if self.profiler:
            self.profiler.enable()  # the measured window only

    async def progress(self, begin: float, stop: float) -> None:
        if self.args.quiet:
            return
        total = stop - begin
        while True:
            now = time.monotonic()
            done = int(30 * min(1.0, (now - begin) / total))
            phase = "measuring" if self.measuring else "warming up"
            print(
                f"\r[{'#' * done}{'.' * (30 - done)}] {int(now - begin)}/{int(total)} s "
                f"{phase}  tables {len(self.service.tables)}  "
                f"act p99 {pct(self.act_ms[-2000:], 0.99):.0f} ms  "
                f"lag p99 {pct(self.lag_ms[-3000:], 0.99):.0f} ms  stalled {len(self.stalled)} ",
                end="",
                file=sys.stderr,
                flush=True,
            )
            await asyncio.sleep(1)


async def one_process(args: argparse.Namespace, url: str) -> dict[str, Any]:
    args.sqlite = url.startswith("sqlite")
    store = Store(
        url,
        synchronous=args.synchronous,
        shards=Shards(args.shard_count, frozenset({args.shard_id})),
    )
    await store.migrate()
    service = TableService(
        store,
        turn_seconds_default=90 if args.timers else 0,
        ai_budget_ms=args.budget_ms,
        thinker=Thinker(args.workers),
        max_open_per_host=None,
    )
    await service.start(dispatch_deadlines=args.timers)
    load = Load(service, args)
    load.profiler = cProfile.Profile() if args.profile else None
    result = await load.run()
    if load.profiler:
        load.profiler.disable()
        load.profiler.dump_stats(args.profile)
        result["profile"] = profile_summary(args.profile)
    await service.close()
    result.update(await database_bytes(store))
    await store.close()
    if args.child:
        result["act_samples"] = load.act_ms
    return result


def several_processes(args: argparse.Namespace, url: str) -> dict[str, Any]:
    """K children, one per shard, against one database; merged figures."""
    count = args.processes
    children = []
    for shard in range(count):
        command = [
            sys.executable,
            __file__,
            "--child",
            "--quiet",
            "--db",
            url,
            "--tables",
            str(args.tables // count + (1 if shard < args.tables % count else 0)),
            "--shard-id",
            str(shard),
            "--shard-count",
            str(count),
        ]
        for name in ("seconds", "warmup", "pace", "ai", "game", "workers", "budget_ms"):
            value = getattr(args, name)
            if value is not None:
                command += [f"--{name.replace('_', '-')}", str(value)]
        command += ["--synchronous", args.synchronous] + ([] if args.timers else ["--no-timers"])
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    results = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode:
            raise SystemExit(f"a shard process failed (exit {child.returncode})")
        results.append(json.loads(out.strip().splitlines()[-1]))
    samples = [s for r in results for s in r.pop("act_samples")]
    merged = dict(results[0])
    merged.update(
        tables=sum(r["tables"] for r in results),
        shard=f"{count} processes",
        moves_per_s=round(sum(r["moves_per_s"] for r in results), 1),
        cpu_share=round(sum(r["cpu_share"] for r in results), 2),
        # every child sees the same server: its share is the server's whole
        db_server_cpu_share=results[0]["db_server_cpu_share"],
        act_ms_p50=round(pct(samples, 0.5), 1),
        act_ms_p99=round(pct(samples, 0.99), 1),
        loop_lag_ms_p99=max(r["loop_lag_ms_p99"] for r in results),
        loop_lag_ms_max=max(r["loop_lag_ms_max"] for r in results),
        loop_lag_ms_p99_per_process=[r["loop_lag_ms_p99"] for r in results],
        memory_kb_per_table=round(
            sum(r["memory_kb_per_table"] * r["tables"] for r in results)
            / max(1, sum(r["tables"] for r in results)),
            1,
        ),
        ai_decisions_per_s=round(sum(r["ai_decisions_per_s"] for r in results), 1),
        stalled_tables=sum(r["stalled_tables"] for r in results),
        finished_tables=sum(r["finished_tables"] for r in results),
        person_moves=len(samples),
        moves_per_transaction=round(
            sum(r["moves_per_transaction"] for r in results) / len(results), 2
        ),
        transaction_ms_p50=max(r["transaction_ms_p50"] for r in results),
        transaction_ms_p99=max(r["transaction_ms_p99"] for r in results),
    )
    return merged


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=180, help="measured time")
    parser.add_argument("--warmup", type=float, default=20, help="tables are made meanwhile")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a person's moves")
    parser.add_argument("--ai", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--workers", type=int, default=0, help="AI processes (0: in-process)")
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite)")
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"))
    parser.add_argument("--processes", type=int, default=1, help="shard processes (one DB)")
    parser.add_argument(
        "--no-timers", dest="timers", action="store_false", help="no turn timers (default: 90 s)"
    )
    parser.add_argument("--profile", default=None, help="cProfile the run into this file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--shard-id", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--shard-count", type=int, default=1, help=argparse.SUPPRESS)
    return parser.parse_args()


async def prepare(url: str) -> None:
    if not url.startswith("sqlite"):
        await reset_postgres(url)
    store = Store(url)
    await store.migrate()
    await store.close()


def main() -> None:
    args = arguments()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite+aiosqlite:///{tmp}/load.db"
        if args.child:
            result = asyncio.run(one_process(args, url))
            print(json.dumps(result))
            return
        asyncio.run(prepare(url))
        if args.processes > 1:
            result = several_processes(args, url)
        else:
            result = asyncio.run(one_process(args, url))
    result["database"] = "sqlite" if url.startswith("sqlite") else "postgresql"
    result["synchronous"] = args.synchronous if url.startswith("sqlite") else "-"
    print(file=sys.stderr)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<28} {value}")


if __name__ == "__main__":
    main()

"""The web table under load: 200 WebSocket clients on one server process.

python bench/web_load.py [--tables 50] [--seconds 30] [--think 0.5] [--game callbreak]
                         [--synchronous FULL] [--profile FILE]

The server (a child process: the real ``bot.web`` app on 127.0.0.1 over
TCP, its own ``TableService`` on a temporary SQLite file) holds
``--tables`` tables of four people each, no AI; this process runs the four
clients of every table (``--tables`` x 4 WebSockets), each a person who
plays a random legal move ``--think`` s on average (uniform 0..2x,
seeded) after the state that makes it their turn arrives.  They play for
``--seconds``; then the server reports its event-loop lag.

Printed:
* a move's round trip: from the client sending ``act`` to the same client
  receiving the ``state`` with the new ``seq`` (p50, p99, max);
* every other seat's update: from the send to each other seat of the
  table receiving a ``state`` at or past that ``seq``;
* the server's own time for each move in ``TableService.act`` (the lock,
  the engine's check, the commit: ``ServiceObserver.act_done``);
* the server's fan-out: from the service publishing the move to each state
  frame of it handed to its socket (the web layer's own share);
* the server's event-loop lag: a 10 ms sleep's overshoot, sampled all run
  long (p50, p99, max), and the server's CPU time;
* the clients' own loop lag (their delays are inside the figures above).

Targets (issue 28): round trip p99 < 50 ms, other seats p99 < 100 ms,
loop lag p99 < 25 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

GUILD, CHANNEL = 5000, 6000
SECRET = "bench"


# -- the server (child process) ----------------------------------------------------------------
async def _serve(conn: Any, tables: int, game: str, folder: str, sync: str) -> None:
    from aiohttp import web

    from bot.db.repositories import Store
    from bot.services.actor import Actor
    from bot.services.observer import ServiceObserver
    from bot.services.tables import TableService
    from bot.web.app import WebConfig, WebServer, make_app
    from bot.web.auth import Sessions

    store = Store(f"sqlite+aiosqlite:///{folder}/web_load.db", synchronous=sync)
    await store.migrate()
    service = TableService(store, turn_seconds_default=0, max_open_per_host=None)
    acts: list[float] = []

    class Observer(ServiceObserver):
        def act_done(self, game: str, seconds: float) -> None:
            acts.append(seconds)

    service.observer = Observer()
    # the web layer's own share: from the service publishing a move (this
    # subscriber runs just before the web table's) to each state frame of
    # that table and seq handed to its socket
    published: dict[tuple[int, int], float] = {}
    fanout: list[float] = []

    async def note(update: Any) -> None:
        published[(update.table.id, update.table.seq)] = time.perf_counter()

    service.subscribe(note)
    head = re.compile(r'\{"type":"state","table":(\d+),"seq":(\d+)')
    send_str = web.WebSocketResponse.send_str

    async def timed_send(self: Any, data: str, compress: Any = None) -> None:
        found = head.match(data)
        if found is not None:
            began = published.get((int(found[1]), int(found[2])))
            if began is not None:
                fanout.append(time.perf_counter() - began)
        await send_str(self, data, compress)

    web.WebSocketResponse.send_str = timed_send  # type: ignore[method-assign]
    await service.start(dispatch_deadlines=False)
    sessions = Sessions(SECRET)
    seats: list[tuple[int, int, str]] = []  # (table, seat, session)
    for t in range(tables):
        people = [Actor(10_000 + 4 * t + s, GUILD, CHANNEL, f"P{t}.{s}") for s in range(4)]
        info = await service.create_table(people[0], game=game)
        for person in people[1:]:
            await service.join(info.id, person)
        await service.start_table(info.id, people[0])
        seats += [(info.id, s, sessions.new(people[s])) for s in range(4)]
    server = WebServer(make_app(service, WebConfig("discord"), sessions=sessions), "127.0.0.1", 0)
    await server.start()
    lags: list[float] = []
    stop = asyncio.Event()

    async def watch_loop() -> None:
        while not stop.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - began - 0.01)

    loop = asyncio.get_running_loop()
    loop.add_reader(conn.fileno(), stop.set)
    watcher = asyncio.create_task(watch_loop())
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    published.clear()  # the tables' starts: read at hello, not pushed
    conn.send({"port": server.port, "seats": seats})
    await stop.wait()
    conn.recv()
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    watcher.cancel()
    await server.stop()
    await service.close()
    await store.close()
    cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    conn.send({"lags": lags, "cpu": cpu, "acts": acts, "fanout": fanout})


def serve(
    conn: Any, tables: int, game: str, folder: str, sync: str, profile: str | None = None
) -> None:
    run = "asyncio.run(_serve(conn, tables, game, folder, sync))"
    if profile is None:
        exec(run)
        return
    import cProfile

    profiler = cProfile.Profile(time.process_time)  # CPU time: the machine is shared
    profiler.runctx(run, globals(), locals())
    profiler.dump_stats(profile)


# -- the clients (this process) ----------------------------------------------------------------
class Clock:
    """Times of moves sent, and what each client measured."""

    def __init__(self) -> None:
        self.sent: dict[tuple[int, int], tuple[float, int]] = {}  # (table, new seq) -> (t, seat)
        self.round_trips: list[float] = []
        self.others: list[float] = []
        self.moves = 0
        self.errors: dict[str, int] = {}


async def client(
    url: str,
    table: int,
    seat: int,
    session: str,
    clock: Clock,
    rng: random.Random,
    think: float,
    until: float,
) -> None:
    import aiohttp

    async with aiohttp.ClientSession() as http, http.ws_connect(url, max_msg_size=0) as ws:
        asyncio.get_running_loop().call_at(
            asyncio.get_running_loop().time() + until + 1 - time.perf_counter(),
            lambda: asyncio.ensure_future(ws.close()),
        )
        await ws.send_str(json.dumps({"type": "hello", "session": session, "table": table}))
        last = -1
        newest: dict[str, Any] | None = None
        mover: asyncio.Task[None] | None = None

        async def move(frame: dict[str, Any]) -> None:
            await asyncio.sleep(rng.uniform(0, 2 * think))
            if newest is not frame or time.perf_counter() > until:
                return
            action = rng.choice(frame["view"]["legal"])
            clock.sent[(table, frame["seq"] + 1)] = (time.perf_counter(), seat)
            clock.moves += 1
            await ws.send_str(
                json.dumps({"type": "act", "table": table, "seq": frame["seq"], "action": action})
            )

        async for msg in ws:
            now = time.perf_counter()
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["type"] == "error":
                clock.errors[frame["code"]] = clock.errors.get(frame["code"], 0) + 1
                continue
            if frame["type"] != "state":
                continue
            seq = frame["seq"]
            if last >= 0:
                for k in range(last + 1, seq + 1):
                    found = clock.sent.get((table, k))
                    if found is not None:
                        sent, by = found
                        (clock.round_trips if by == seat else clock.others).append(now - sent)
            last = max(last, seq)
            newest = frame
            if frame["status"] == "playing" and frame["view"]["legal"] and now < until:
                mover = asyncio.create_task(move(frame))
        if mover is not None:
            mover.cancel()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def line(name: str, values: list[float]) -> str:
    return (
        f"{name:<28} n={len(values):>6}  p50={pct(values, 0.5):7.1f} ms  "
        f"p99={pct(values, 0.99):7.1f} ms  max={pct(values, 1.0):7.1f} ms"
    )


async def run_clients(port: int, seats: list[tuple[int, int, str]], args: Any) -> Clock:
    clock = Clock()
    url = f"http://127.0.0.1:{port}/ws"
    until = time.perf_counter() + args.seconds
    lags: list[float] = []

    async def watch_loop() -> None:
        while time.perf_counter() < until:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - began - 0.01)

    rng = random.Random(args.seed)
    tasks = [
        client(url, t, s, session, clock, random.Random(rng.random()), args.think, until)
        for t, s, session in seats
    ]
    watcher = asyncio.create_task(watch_loop())
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*tasks), args.seconds + 30)
    await watcher
    clock.client_lags = lags  # type: ignore[attr-defined]
    return clock


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean thinking time (s)")
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--synchronous", default="FULL", help="SQLite: FULL (the default) or NORMAL"
    )
    parser.add_argument("--profile", default=None, help="write the server's cProfile stats here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ours, theirs = multiprocessing.Pipe()
        server = multiprocessing.Process(
            target=serve,
            args=(theirs, args.tables, args.game, folder, args.synchronous, args.profile),
            daemon=True,
        )
        server.start()
        while not ours.poll(1):
            if not server.is_alive():
                print("the server process failed to start", file=sys.stderr)
                return 1
        ready = ours.recv()
        print(
            f"{args.tables} tables x 4 = {len(ready['seats'])} clients, {args.game}, "
            f"think {args.think} s, {args.seconds} s, SQLite {args.synchronous}; "
            f"server pid {server.pid}",
            flush=True,
        )
        began = time.perf_counter()
        clock = asyncio.run(run_clients(ready["port"], ready["seats"], args))
        elapsed = time.perf_counter() - began
        ours.send("stop")
        stats = ours.recv()
        server.join(10)
    print(f"moves sent: {clock.moves} ({clock.moves / args.seconds:.0f}/s); errors: {clock.errors}")
    print(line("move round trip", clock.round_trips))
    print(line("other seats' update", clock.others))
    print(line("server: TableService.act", stats["acts"]))
    print(line("server: publish -> each frame", stats["fanout"]))
    print(line("server event-loop lag", stats["lags"]))
    print(line("clients' event-loop lag", clock.client_lags))  # type: ignore[attr-defined]
    print(f"server CPU: {stats['cpu']:.1f} s over {elapsed:.1f} s ({stats['cpu'] / elapsed:.0%})")
    print(f"load: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

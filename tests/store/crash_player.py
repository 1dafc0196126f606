"""A table played through the service against a SQLite file, for the crash
tests: prints ``READY <moves stored at start>`` once resumed, ``ACK <seq>`` after every
acknowledged move and ``DONE <scores>`` at the end.  The tests kill it with
SIGKILL at random moments, or it kills itself at an injected point:

    python -m tests.store.crash_player DB [GAME] [--die-after-persist N] [--die-before-results]

``--die-after-persist N``: after the N-th move is committed to the store and
before the service applies it (the window between persist and apply).
``--die-before-results``: after the last move, before the results are
recorded (the finish boundary).  The kill points are made here by wrapping
the store's methods: the product has no test hooks.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from typing import Any

from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.models import TableUpdate
from bot.services.tables import TableService

HOST = Actor(7, None, None, "Host")
#: short matches of every game, AI seats that play sensibly
OPTIONS: dict[str, dict[str, str]] = {
    "callbreak": {"rounds": "5"},
    "batak": {"target_score": "10"},
    "blot": {"target_score": "151"},
    "backalley": {"players": "4", "max_cards": "7"},
    "ladder": {"target_wins": "3"},
}


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def inject(store: Store, args: argparse.Namespace) -> None:
    if args.die_after_persist is not None:
        append = store.append_action
        count = {"n": 0}

        async def append_then_die(*a: Any, **kw: Any) -> None:
            await append(*a, **kw)
            count["n"] += 1
            if count["n"] >= args.die_after_persist:
                die()

        store.append_action = append_then_die  # type: ignore[method-assign]
    if args.die_before_results:

        async def results_die(*a: Any, **kw: Any) -> None:
            die()

        store.record_results = results_die  # type: ignore[method-assign]


async def main(args: argparse.Namespace) -> None:
    store = Store(f"sqlite+aiosqlite:///{args.db}")
    await store.migrate()
    inject(store, args)
    service = TableService(store, turn_seconds_default=0, ai_budget_ms=10)

    async def ack(update: TableUpdate) -> None:
        if update.kind in ("action", "deal_end", "finished") and update.table.seq:
            print(f"ACK {update.table.seq}", flush=True)

    service.subscribe(ack)
    existing = await store.tables_with_status(["lobby", "playing", "finished"])
    # the moves stored when this process starts (an AI seat may move at once
    # after the resume, before READY could be printed)
    stored = len(await store.actions(existing[0])) if existing else 0
    await service.start(dispatch_deadlines=False)
    if existing:
        table_id = existing[0]
    else:
        info = await service.create_table(
            HOST, game=args.game, options=OPTIONS[args.game], seed=12345
        )
        for _ in range(info.num_seats - 1):
            await service.add_ai(info.id, HOST, "normal")
        await service.start_table(info.id, HOST)
        table_id = info.id
    print(f"READY {stored}", flush=True)
    while True:
        await service.wait_idle(table_id)
        info = await service.get_table(table_id)
        if info.status == "finished":
            _, view = await service.public_view(table_id)
            assert view is not None
            print("DONE " + " ".join(str(s) for s in view.scores), flush=True)
            break
        private = await service.private_view(table_id, HOST)
        await asyncio.sleep(0.005)
        await service.act(table_id, HOST, str(private.view.legal_actions[0]), expected_seq=info.seq)
    await service.close()
    await store.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("game", nargs="?", default="callbreak", choices=sorted(OPTIONS))
    parser.add_argument("--die-after-persist", type=int, default=None)
    parser.add_argument("--die-before-results", action="store_true")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))

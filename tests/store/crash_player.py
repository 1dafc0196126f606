"""A table played through the service against a SQLite file, for the crash
test: prints ``READY <seq>`` once resumed, ``ACK <seq>`` after every
acknowledged move and ``DONE <scores>`` at the end.  The test kills it with
SIGKILL at random moments and starts it again."""

from __future__ import annotations

import asyncio
import sys

from bot.db.repositories import Store
from bot.services.models import TableUpdate
from bot.services.tables import TableService

HOST = 7


async def main(db_path: str) -> None:
    store = Store(f"sqlite+aiosqlite:///{db_path}")
    await store.migrate()
    service = TableService(store, turn_seconds_default=0, ai_budget_ms=10)

    async def ack(update: TableUpdate) -> None:
        if update.kind in ("action", "deal_end", "finished") and update.table.seq:
            print(f"ACK {update.table.seq}", flush=True)

    service.subscribe(ack)
    await service.start(dispatch_deadlines=False)
    tables = await service.active_tables()
    if tables:
        table_id = tables[0].id
    else:
        info = await service.create_table(
            guild_id=None,
            channel_id=None,
            host_id=HOST,
            host_name="Host",
            game="callbreak",
            options={"rounds": "5"},
            seed=12345,
        )
        for _ in range(3):
            await service.add_ai(info.id, HOST, "easy")
        await service.start_table(info.id, HOST)
        table_id = info.id
    print(f"READY {(await service.get_table(table_id)).seq}", flush=True)
    while True:
        await service.wait_idle(table_id)
        info = await service.get_table(table_id)
        if info.status == "finished":
            state = service.tables[table_id].state
            assert state is not None
            print("DONE " + " ".join(str(s) for s in state.scores), flush=True)
            break
        private = await service.private_view(table_id, HOST)
        await asyncio.sleep(0.01)
        await service.act(table_id, HOST, str(private.view.legal_actions[0]), expected_seq=info.seq)
    await service.close()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))

"""The store at its edges, on SQLite and PostgreSQL: duplicate moves, seat
fields, a locked or unreachable database, damaged files, a broken table, one
writer at a time on SQLite, and ``retrying``."""

from __future__ import annotations

import asyncio
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from bot.db.errors import BUSY_MESSAGE
from bot.db.repositories import DuplicateAction, Store, StoreDamaged, StoreUnavailable
from bot.db.retry import backoff_delay, retrying
from bot.db.wal import wal_damage

TABLE = {"host_id": 1, "game": "batak", "variant": "{}", "seed": 7, "status": "playing"}


async def new_table(store: Store, seats: int = 4) -> int:
    return await store.create_table(seats, **TABLE)


async def seat_rows(store: Store, table_id: int) -> dict[int, tuple[bool, int]]:
    loaded = await store.table(table_id)
    assert loaded is not None
    return {s.seat: (s.away, s.expiries) for s in loaded[1]}


# -- duplicate moves ----------------------------------------------------------------------
async def test_a_second_write_for_the_same_slot_is_a_duplicate_and_lands_nothing(store):
    table_id = await new_table(store)
    await store.append_action(table_id, 0, "AS", 1, 11, False, deadline=100.0)
    await store.update_seat(table_id, 2, away=True, expiries=3)
    with pytest.raises(DuplicateAction):
        await store.append_action(
            table_id,
            0,
            "KS",
            2,
            12,
            False,
            deadline=999.0,
            seat_fields={"away": False, "expiries": 0},
            fields_seat=2,
        )
    assert [(a.seq, a.notation) for a in await store.actions(table_id)] == [(0, "AS")]
    row, _ = await store.table(table_id)
    assert row.deadline == 100.0
    assert (await seat_rows(store, table_id))[2] == (True, 3)
    # the store is fine afterwards
    await store.append_action(table_id, 1, "KS", 2, 12, False)
    assert len(await store.actions(table_id)) == 2


async def test_simultaneous_duplicates_from_two_processes_exactly_one_lands(store):
    """Two Store objects (as two processes would have), the same slot at the
    same moment: one move, one DuplicateAction, never a raw IntegrityError."""
    other = Store(store.url)
    try:
        table_id = await new_table(store)
        for seq in range(5):
            outcomes = await asyncio.gather(
                store.append_action(table_id, seq, "AS", 0, 1, False, deadline=float(seq)),
                other.append_action(table_id, seq, "KS", 0, 2, False, deadline=-1.0),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["DuplicateAction", "NoneType"]
        actions = await store.actions(table_id)
        assert [a.seq for a in actions] == list(range(5))
        row, _ = await store.table(table_id)
        winner = actions[-1].notation
        assert row.deadline == (4.0 if winner == "AS" else -1.0)
    finally:
        await other.close()


# -- seat fields --------------------------------------------------------------------------
async def test_seat_fields_go_to_the_seat_that_decided(store):
    """Batak: the declarer (seat 0) plays the dummy's card (seat 2); the
    declarer is back, so the declarer's row is reset, not the dummy's."""
    table_id = await new_table(store)
    await store.update_seat(table_id, 0, away=True, expiries=2)
    await store.update_seat(table_id, 2, away=True, expiries=5)
    await store.append_action(
        table_id,
        0,
        "AS",
        2,
        101,
        False,
        seat_fields={"away": False, "expiries": 0},
        fields_seat=0,
    )
    seats = await seat_rows(store, table_id)
    assert seats[0] == (False, 0) and seats[2] == (True, 5)
    assert (await store.actions(table_id))[0].seat == 2
    # without fields_seat the fields go to the action's seat
    await store.append_action(table_id, 1, "KS", 2, 101, False, seat_fields={"expiries": 9})
    assert (await seat_rows(store, table_id))[2] == (True, 9)


# -- a locked or unreachable database ------------------------------------------------------------
CALLS: dict[str, Callable[[Store, int], Awaitable[Any]]] = {
    "create_table": lambda s, t: s.create_table(4, **TABLE),
    "table": lambda s, t: s.table(t),
    "tables_with_status": lambda s, t: s.tables_with_status(["playing"]),
    "update_table": lambda s, t: s.update_table(t, deadline=5.0),
    "update_seat": lambda s, t: s.update_seat(t, 1, name="x"),
    "append_action": lambda s, t: s.append_action(t, 0, "AS", 0, None, False),
    "actions": lambda s, t: s.actions(t),
    "settings": lambda s, t: s.settings(1, "batak"),
    "put_setting": lambda s, t: s.put_setting(1, "batak", "k", 1),
    "delete_settings": lambda s, t: s.delete_settings(1, "batak"),
    "user_settings": lambda s, t: s.user_settings(5),
    "put_user_setting": lambda s, t: s.put_user_setting(5, "ping", "dm"),
    "record_results": lambda s, t: s.record_results(t, [], [], None, "batak"),
    "rating_rows": lambda s, t: s.rating_rows(1),
    "table_heads": lambda s, t: s.table_heads(["playing"]),
    "claim": lambda s, t: s.claim({t: 0}),
    "resumable": lambda s, t: s.resumable([t]),
}


def sync_engines(store: Store) -> set[Any]:
    """The store's engines: reads; writes and bulk reads, which on SQLite
    have their own."""
    engines = {store.engine.sync_engine, store.writer.engine}
    return engines | ({store.bulk_engine} if store.bulk_engine is not None else set())


@pytest.mark.parametrize("method", sorted(CALLS))
async def test_every_method_reports_a_locked_database_as_store_unavailable(store, method):
    table_id = await new_table(store)
    locked = store.engine.dialect.loaded_dbapi.OperationalError("database is locked")

    def fail(*_args: Any) -> None:
        raise locked

    for engine in sync_engines(store):
        event.listen(engine, "before_cursor_execute", fail)
    try:
        with pytest.raises(StoreUnavailable) as caught:
            await CALLS[method](store, table_id)
    finally:
        for engine in sync_engines(store):
            event.remove(engine, "before_cursor_execute", fail)
    assert type(caught.value) is StoreUnavailable and caught.value.retryable
    assert str(caught.value) == BUSY_MESSAGE == "the table is busy, try again in a moment"
    assert isinstance(caught.value.__cause__, OperationalError)
    assert "database is locked" in caught.value.detail
    await CALLS[method](store, table_id)  # recovered: the same call works


async def test_a_transient_failure_then_retrying_succeeds(store, monkeypatch):
    """The connection's execute (the writer's Core connection) raises
    "database is locked" twice, then works: each failure is a
    StoreUnavailable and ``retrying`` gets the move in."""
    table_id = await new_table(store)
    real = Connection.execute
    failures = {"left": 2}

    def flaky(self: Connection, *args: Any, **kwargs: Any) -> Any:
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("INSERT ...", {}, Exception("database is locked"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Connection, "execute", flaky)
    with pytest.raises(StoreUnavailable):
        await store.append_action(table_id, 0, "AS", 0, None, False)
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    await retrying(lambda: store.append_action(table_id, 0, "AS", 0, None, False), sleep=pause)
    assert len(pauses) == 1 and failures["left"] == 0
    assert [a.notation for a in await store.actions(table_id)] == ["AS"]


async def test_a_real_lock_held_by_another_process_on_sqlite(tmp_path):
    """Another connection holds SQLite's write lock: with a short busy
    timeout the write is StoreUnavailable (quickly, no hang), reads go on
    (WAL), and once the lock is gone ``retrying`` succeeds."""
    path = tmp_path / "locked.db"
    store = Store(f"sqlite+aiosqlite:///{path}", busy_timeout=0.2)
    await store.migrate()
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        holder.execute("BEGIN IMMEDIATE")
        holder.execute(
            "INSERT INTO guild_settings (guild_id, game, key, value) VALUES (9, '', 'a', '1')"
        )
        started = time.monotonic()
        with pytest.raises(StoreUnavailable) as caught:
            await store.put_setting(1, "", "k", 1)
        assert time.monotonic() - started < 3
        assert "locked" in caught.value.detail and caught.value.retryable
        assert await store.settings(9, "") == {}  # reads go on, without the uncommitted row
        asyncio.get_running_loop().call_later(0.3, holder.execute, "COMMIT")
        await retrying(lambda: store.put_setting(1, "", "k", 1), attempts=20, total=10)
        assert await store.settings(1, "") == {"k": 1}
        assert await store.settings(9, "") == {"a": 1}
    finally:
        holder.close()
        await store.close()


async def test_an_unreachable_postgresql_is_store_unavailable():
    store = Store("postgresql+asyncpg://postgres@127.0.0.1:1/test")
    try:
        for call in (store.migrate(), store.tables_with_status(["playing"])):
            with pytest.raises(StoreUnavailable) as caught:
                await asyncio.wait_for(call, 30)
            assert type(caught.value) is StoreUnavailable and caught.value.__cause__ is not None
            assert "127.0.0.1" in caught.value.detail
    finally:
        await store.close()


async def test_a_sqlite_file_that_cannot_be_opened_is_store_unavailable(tmp_path):
    path = tmp_path / "no such directory" / "x.db"
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            await store.migrate()
        assert type(caught.value) is StoreUnavailable and str(path) in caught.value.detail
    finally:
        await store.close()


# -- SQLite: settings and one writer at a time -------------------------------------------------
@pytest.mark.parametrize(("synchronous", "level"), [(None, 2), ("FULL", 2), ("NORMAL", 1)])
async def test_sqlite_connections_are_set_up_deliberately(tmp_path, synchronous, level):
    """WAL, foreign keys, the busy timeout, and ``synchronous``: FULL unless
    NORMAL is asked for, on the read connections and the writer alike."""
    options = {} if synchronous is None else {"synchronous": synchronous}
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}", busy_timeout=1.5, **options)
    await store.migrate()
    names = ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
    expected = {
        "journal_mode": "wal",
        "synchronous": level,  # 2 FULL, 1 NORMAL
        "foreign_keys": 1,
        "busy_timeout": 1500,
    }
    try:
        async with store.engine.connect() as conn:
            read = {name: (await conn.execute(text(f"PRAGMA {name}"))).scalar() for name in names}
        assert read == expected
        with store.writer.engine.connect() as sync_conn:  # the writer's own connection
            written = {name: sync_conn.exec_driver_sql(f"PRAGMA {name}").scalar() for name in names}
        assert written == expected
        assert store.writer.engine.pool.size() == 1  # one writer connection
        with store.writer.engine.connect() as sync_conn:  # it never checkpoints itself
            assert sync_conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    finally:
        await store.close()


async def test_the_log_is_checkpointed_off_the_writers_connection(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    await store.migrate()
    try:
        table_id = await new_table(store)
        for seq in range(50):
            await store.append_action(table_id, seq, "AS", seq % 4, None, True)
        busy, logged, copied = await asyncio.to_thread(store.checkpoint)
        assert busy == 0 and logged > 0 and copied == logged  # the store copied the log
        assert len(await store.actions(table_id)) == 50
    finally:
        await store.close()


async def test_many_concurrent_writes_on_sqlite_never_meet_a_lock(tmp_path):
    """Writes from one process queue in the store, not in SQLite's busy
    handler: with a 10 ms busy timeout, 300 concurrent writes all land."""
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'w.db'}", busy_timeout=0.01)
    await store.migrate()
    try:
        tables = [await new_table(store) for _ in range(10)]

        async def play(table_id: int) -> None:
            for seq in range(20):
                await store.append_action(table_id, seq, "AS", seq % 4, None, True)
                if seq % 2:
                    await store.update_seat(table_id, seq % 4, expiries=seq)

        await asyncio.gather(*(play(t) for t in tables))
        for table_id in tables:
            assert len(await store.actions(table_id)) == 20
    finally:
        await store.close()


async def test_reads_go_on_while_a_write_waits_and_a_stuck_writer_times_out(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'r.db'}", write_wait=0.2)
    await store.migrate()
    try:
        table_id = await new_table(store)
        async with store.writer.turn():  # a write of ours in progress...
            # ...holding SQLite's write lock with an open transaction
            other = sqlite3.connect(tmp_path / "r.db", isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            other.execute("UPDATE tables SET deadline = 1")
            # a read is not held up by the write in progress (it would hang)
            assert await asyncio.wait_for(store.tables_with_status(["playing"]), 2) == [table_id]
            with pytest.raises(StoreUnavailable) as caught:
                await store.update_table(table_id, deadline=2.0)
            assert "earlier writes" in caught.value.detail
            other.execute("COMMIT")
            other.close()
        await store.update_table(table_id, deadline=3.0)
        row, _ = await store.table(table_id)
        assert row.deadline == 3.0
    finally:
        await store.close()


# -- damaged files -----------------------------------------------------------------------------
async def filled_sqlite(path: Path, tables: int = 60) -> None:
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    for _ in range(tables):
        table_id = await new_table(store)
        for seq in range(8):
            await store.append_action(table_id, seq, "AS", seq % 4, None, True)
    await store.close()
    assert not Path(f"{path}-wal").exists()  # checkpointed on close


@pytest.fixture(scope="module")
def filled_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store file with 60 tables of 8 moves (made once; copy it)."""
    path = tmp_path_factory.mktemp("filled") / "filled.db"
    asyncio.run(filled_sqlite(path))
    return path


async def saved_tables(path: Path) -> int:
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.migrate()
        return len(await store.tables_with_status(["playing"]))
    finally:
        await store.close()


def truncate_to(fraction: float) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with path.open("r+b") as f:
            f.truncate(max(1, int(path.stat().st_size * fraction)))

    return damage


def overwrite_middle(path: Path) -> None:
    with path.open("r+b") as f:
        f.seek(path.stat().st_size // 2)
        f.write(bytes(range(256)) * 32)


def replace_with(content: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(content)


DAMAGES = {
    "truncated to half": truncate_to(0.5),
    "truncated to 50 bytes": truncate_to(50 / 200_000),
    "one page short": lambda p: truncate_to(1 - 4096 / p.stat().st_size)(p),
    "pages overwritten": overwrite_middle,
    "random bytes": replace_with(random.Random(5).randbytes(40_000)),
    "a text file": replace_with(b"these are not the tables you are looking for\n" * 200),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
async def test_a_damaged_database_file_is_one_clear_error_at_start(tmp_path, filled_file, damage):
    path = tmp_path / "cards.db"
    shutil.copy(filled_file, path)
    assert await saved_tables(path) == 60
    DAMAGES[damage](path)
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        with pytest.raises(StoreDamaged) as caught:
            await asyncio.wait_for(store.migrate(), 30)
    finally:
        await store.close()
    message = str(caught.value)
    assert message.startswith(f"the database file {path} is damaged: restore a backup")
    assert caught.value.retryable is False


async def test_a_garbage_file_is_damaged_on_first_use_too(tmp_path):
    path = tmp_path / "garbage.db"
    path.write_bytes(random.Random(1).randbytes(10_000))
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        for call in (store.tables_with_status(["playing"]), store.table(1)):
            with pytest.raises(StoreDamaged, match=str(path)):
                await asyncio.wait_for(call, 30)
    finally:
        await store.close()


# -- the write-ahead log ---------------------------------------------------------------------------
WAL_COMMITS = 20


async def wal_snapshot(tmp_path: Path) -> Path:
    """A database whose last WAL_COMMITS transactions are only in its WAL
    (copied while the writer was open, as after a crash); a fresh copy of
    the snapshot for every call."""
    source = tmp_path / "source.db"
    if not source.exists():
        store = Store(f"sqlite+aiosqlite:///{source}")
        await store.migrate()
        await store.close()
        writer = sqlite3.connect(source, isolation_level=None)
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("PRAGMA wal_autocheckpoint=0")
        for i in range(1, WAL_COMMITS + 1):
            writer.execute(
                "INSERT INTO guild_settings (guild_id, game, key, value) VALUES (1, '', ?, ?)",
                (f"k{i:02}", str(i)),
            )
        shutil.copy(source, tmp_path / "snapshot.db")
        shutil.copy(f"{source}-wal", tmp_path / "snapshot.db-wal")
        writer.close()
    n = len(list(tmp_path.glob("copy*.db")))
    copy = tmp_path / f"copy{n}.db"
    shutil.copy(tmp_path / "snapshot.db", copy)
    shutil.copy(tmp_path / "snapshot.db-wal", f"{copy}-wal")
    return copy


async def saved_keys(path: Path) -> list[str]:
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.migrate()
        return sorted(await store.settings(1, ""))
    finally:
        await store.close()


async def test_an_intact_wal_and_a_torn_last_write_open_normally(tmp_path):
    whole = await wal_snapshot(tmp_path)
    assert await saved_keys(whole) == [f"k{i:02}" for i in range(1, WAL_COMMITS + 1)]
    torn = await wal_snapshot(tmp_path)
    wal = Path(f"{torn}-wal")
    with wal.open("r+b") as f:  # a crash in the middle of writing the last frame
        f.truncate(wal.stat().st_size - 1000)
    assert await saved_keys(torn) == [f"k{i:02}" for i in range(1, WAL_COMMITS)]


def damage_header(wal: Path) -> None:
    with wal.open("r+b") as f:
        f.write(b"\x00" * 32)


def damage_a_middle_frame(wal: Path) -> None:
    """Overwrite page bytes of a frame with committed transactions after it."""
    page = int.from_bytes(wal.read_bytes()[8:12], "big")
    frames = (wal.stat().st_size - 32) // (24 + page)
    with wal.open("r+b") as f:
        f.seek(32 + (frames // 2) * (24 + page) + 24 + 100)
        f.write(b"\xff" * 64)


@pytest.mark.parametrize("damage", [damage_header, damage_a_middle_frame])
async def test_a_damaged_wal_is_one_clear_error_naming_it(tmp_path, damage):
    path = await wal_snapshot(tmp_path)
    damage(Path(f"{path}-wal"))
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        with pytest.raises(StoreDamaged) as caught:
            await store.migrate()
    finally:
        await store.close()
    message = str(caught.value)
    assert message.startswith(f"the database file {path} is damaged")
    assert f"{path}-wal" in message and "restore a backup" in message
    assert Path(f"{path}-wal").stat().st_size > 0  # left as it was, for the operator


# -- a broken table ----------------------------------------------------------------------------------
@pytest.mark.parametrize("missing", [[1], [0, 1, 2], [3], [0, 1, 2, 3]])
async def test_missing_seat_rows_make_that_table_damaged(store, missing):
    broken = await new_table(store)
    fine = await new_table(store)
    async with store.sessions() as session:
        for seat in missing:
            await session.execute(
                text("DELETE FROM seats WHERE table_id = :t AND seat = :s"),
                {"t": broken, "s": seat},
            )
        await session.commit()
    if missing == [3]:  # seats 0-2 remain: contiguous, so only the service can tell
        assert len((await store.table(broken))[1]) == 3
        return
    with pytest.raises(StoreDamaged) as caught:
        await store.table(broken)
    assert caught.value.table_id == broken and f"table #{broken} is damaged" in str(caught.value)
    assert isinstance(caught.value, StoreUnavailable) and not caught.value.retryable
    assert len((await store.table(fine))[1]) == 4
    assert await store.table(10_000) is None


# -- retrying ----------------------------------------------------------------------------------------
class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def failing(times: int, error: Exception) -> tuple[Callable[[], Awaitable[str]], list[int]]:
    calls: list[int] = []

    async def operation() -> str:
        calls.append(1)
        if len(calls) <= times:
            raise error
        return "done"

    return operation, calls


async def test_retrying_backs_off_exponentially_with_jitter_then_succeeds():
    fake = FakeTime()
    operation, calls = failing(3, StoreUnavailable(detail="database is locked"))
    result = await retrying(
        operation, attempts=5, first_delay=0.1, max_delay=10, sleep=fake.sleep, clock=fake.clock
    )
    assert result == "done" and len(calls) == 4
    for n, pause in enumerate(fake.pauses):
        assert 0.1 * 2**n / 2 <= pause <= 0.1 * 2**n


async def test_retrying_is_bounded_by_attempts_and_total_time():
    fake = FakeTime()
    error = StoreUnavailable(detail="database is locked")
    operation, calls = failing(100, error)
    with pytest.raises(StoreUnavailable) as caught:
        await retrying(operation, attempts=3, sleep=fake.sleep, clock=fake.clock)
    assert caught.value is error and len(calls) == 3
    fake = FakeTime()
    operation, calls = failing(100, error)
    with pytest.raises(StoreUnavailable):
        await retrying(
            operation,
            attempts=1000,
            first_delay=0.1,
            max_delay=1,
            total=5,
            sleep=fake.sleep,
            clock=fake.clock,
        )
    assert fake.now <= 5 and 5 < len(calls) < 20


@pytest.mark.parametrize(
    "error",
    [DuplicateAction("taken"), StoreDamaged("the database file x is damaged"), KeyError("bug")],
)
async def test_retrying_raises_at_once_what_is_not_transient(error):
    fake = FakeTime()
    operation, calls = failing(1, error)
    with pytest.raises(type(error)):
        await retrying(operation, sleep=fake.sleep, clock=fake.clock)
    assert len(calls) == 1 and fake.pauses == []


def test_backoff_is_capped():
    rng = random.Random(3)
    assert all(0.5 <= backoff_delay(n, 0.05, 1.0, rng) <= 1.0 for n in range(6, 40))


# Writes transactions of all sizes to a SQLite file in WAL mode, with a tiny
# page cache (big transactions spill frames before they commit) and frequent
# checkpoints (the log restarts often, leaving older frames behind).
WAL_WRITER = r"""
import random, sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA journal_mode=WAL")
con.execute("PRAGMA synchronous=NORMAL")
con.execute("PRAGMA cache_size=8")
con.execute("PRAGMA wal_autocheckpoint=20")
con.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, blob BLOB)")
rng = random.Random(int(sys.argv[2]))
print("ready", flush=True)
while True:
    con.execute("BEGIN")
    for _ in range(rng.choice([1, 1, 2, 40])):
        con.execute("INSERT INTO t (blob) VALUES (?)", (rng.randbytes(rng.choice([10, 3000])),))
    con.execute("COMMIT")
"""


def test_logs_left_by_killed_writers_are_never_called_damaged(tmp_path):
    """SIGKILL a busy writer at random moments, again and again: whatever
    log it leaves (torn frames, spilled uncommitted frames, frames of older
    generations) is what a crash leaves, and is never reported as damage."""
    path = tmp_path / "killed.db"
    rng = random.Random(11)
    for run in range(12):
        proc = subprocess.Popen(
            [sys.executable, "-c", WAL_WRITER, str(path), str(run)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert wal_damage(path) is None, f"run {run}"
        check = sqlite3.connect(path)
        assert check.execute("PRAGMA quick_check").fetchone() == ("ok",)
        check.close()


def test_a_log_that_changes_while_read_is_not_judged(tmp_path, monkeypatch):
    """A log another process is writing (a checkpoint may restart it while
    it is read) is left to SQLite, even if it looks damaged."""
    wal = tmp_path / "live.db-wal"
    wal.write_bytes(b"\x00" * 5000)
    assert wal_damage(tmp_path / "live.db") is not None
    ticks = iter(range(100))
    monkeypatch.setattr("bot.db.wal._state", lambda _wal: (5000, next(ticks)))
    assert wal_damage(tmp_path / "live.db") is None

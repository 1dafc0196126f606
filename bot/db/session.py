"""Engines: how the store talks to SQLite and PostgreSQL.

PostgreSQL (``postgresql+asyncpg://...``) is used as SQLAlchemy sets it up:
the default connection pool, transactions as the server runs them.

SQLite (the default, ``sqlite+aiosqlite:///file.db``) is set up deliberately,
on every new connection:

* ``journal_mode=WAL``: readers never block the writer and the writer never
  blocks readers.
* ``synchronous=FULL`` by default (``SQLITE_SYNCHRONOUS``; ``NORMAL`` on
  request).  Durability, stated plainly:

  - ``FULL``: a move acknowledged to a player is on the disk.  It survives a
    crash or kill of the bot's process *and* a power loss or an
    operating-system crash.  The price is one fsync per commit; the store
    commits moves in groups (``bot.db.group_commit``), so that is one fsync
    per group, not per move (3 ms on this machine's disk).
  - ``NORMAL``: a commit that returned survives a crash or kill of the
    process (it is in the WAL file, which the operating system writes out on
    its own), but after a power loss or an OS crash the last transactions
    before it may be rolled back; the database is never left damaged.
* One writer: the store's writes go through their own engine
  (``writer_engine``: the sqlite3 driver, one connection, used from one
  writer thread, ``bot.db.writer``), whose transactions begin with ``BEGIN
  IMMEDIATE``; reads use a pool of other (aiosqlite) connections and never
  wait for it.
* ``foreign_keys=ON`` for the store; OFF for migrations (see below).
* ``busy_timeout=5000``: another *process* holding the write lock is waited
  for up to 5 s before "database is locked" (reported as
  ``StoreUnavailable``).  Within this process writes never contend: the
  store writes one group of writes at a time on its one writer connection,
  while reads use the other pooled connections.
* SQLAlchemy, not the sqlite3 module, emits BEGIN (the documented recipe for
  "transactional DDL" with pysqlite/aiosqlite: ``isolation_level = None`` on
  the DBAPI connection plus a ``begin`` event).  The sqlite3 module would
  otherwise run DDL outside any transaction, which is how a killed first
  migration used to leave half a schema behind.  Reads begin a deferred
  transaction (one consistent snapshot); engines passed through ``writer``
  (the store's writes, migrations) begin with ``BEGIN IMMEDIATE``, so a write
  transaction takes the write lock up front, waits for it under the busy
  timeout, and can never fail half-way because another process wrote first.

Migration engines (``for_migrations=True``) use no pool and keep foreign keys
off: ``PRAGMA foreign_keys`` cannot change inside a transaction, and with it
on, the table rebuilds of Alembic's batch mode (create new, copy, DROP old,
rename) would run ON DELETE CASCADE against the child tables when the old
table is dropped.  The migration environment runs ``PRAGMA
foreign_key_check`` before each migration commits instead.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import NullPool

BUSY_TIMEOUT_MS = 5000
BEGIN_OPTION = "cardtable_sqlite_begin"
SYNCHRONOUS_MODES = ("FULL", "NORMAL")
DEFAULT_SYNCHRONOUS = "FULL"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(
    url: str,
    *,
    for_migrations: bool = False,
    busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
    synchronous: str = DEFAULT_SYNCHRONOUS,
) -> AsyncEngine:
    """An engine for ``url``; on SQLite with the settings described above
    (``busy_timeout`` in seconds)."""
    options: dict[str, Any] = {}
    if for_migrations:
        options["poolclass"] = NullPool
    engine = create_async_engine(url, **options)
    if is_sqlite(url):
        _set_up_sqlite(
            engine.sync_engine,
            foreign_keys=not for_migrations,
            busy_timeout_ms=round(busy_timeout * 1000),
            synchronous=checked_synchronous(synchronous),
        )
        if for_migrations:
            engine = engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})
    return engine


def writer_engine(
    url: str,
    *,
    busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
    synchronous: str = DEFAULT_SYNCHRONOUS,
) -> Engine:
    """The engine for a store's writes on SQLite: the standard sqlite3
    driver, used from one writer thread (``bot.db.writer``), one connection
    (a second one would only wait for the write lock), transactions that
    begin with ``BEGIN IMMEDIATE``.  A whole group of writes is then one
    call into that thread, where aiosqlite would make one per statement.
    It never checkpoints the log itself (``wal_autocheckpoint=0``): a
    checkpoint copies pages into the database file and syncs it, and the
    commit that happened to run it took tens of milliseconds; the store
    checkpoints from another connection instead (``Store.checkpoint``)."""
    sync_url = make_url(url).set(drivername="sqlite")
    engine = create_engine(
        sync_url, pool_size=1, max_overflow=0, connect_args={"check_same_thread": False}
    )
    _set_up_sqlite(
        engine,
        foreign_keys=True,
        busy_timeout_ms=round(busy_timeout * 1000),
        synchronous=checked_synchronous(synchronous),
        autocheckpoint=False,
    )
    return engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})


def bulk_reader_engine(url: str, *, busy_timeout: float = BUSY_TIMEOUT_MS / 1000) -> Engine:
    """An engine for big reads on SQLite (resuming a thousand tables), used
    from a worker thread: the rows are made into Python objects there, not
    on the event loop (aiosqlite hands them over raw and SQLAlchemy builds
    the rows on the loop: a 30,000-row read stalled it for 100 ms and more)."""
    sync_url = make_url(url).set(drivername="sqlite")
    engine = create_engine(
        sync_url, pool_size=1, max_overflow=0, connect_args={"check_same_thread": False}
    )
    _set_up_sqlite(
        engine,
        foreign_keys=True,
        busy_timeout_ms=round(busy_timeout * 1000),
        synchronous=DEFAULT_SYNCHRONOUS,
    )
    return engine


def checked_synchronous(mode: str) -> str:
    value = str(mode).strip().upper()
    if value not in SYNCHRONOUS_MODES:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be one of {', '.join(SYNCHRONOUS_MODES)}")
    return value


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The same engine (same pool) whose transactions begin as writers:
    ``BEGIN IMMEDIATE`` on SQLite, nothing different on PostgreSQL."""
    return engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})


#: pause between two tries of ``journal_mode=WAL`` on a file another process converts
WAL_RETRY_SECONDS = 0.02


def enter_wal_mode(cursor: Any, busy_timeout_ms: int) -> None:
    """``PRAGMA journal_mode=WAL``, tried again while another process holds
    the lock, up to the busy timeout.

    Why: two processes opening one *new* file at once (two shards starting
    together) both convert it to WAL; each needs the exclusive lock while
    the other holds a shared one, and SQLite answers one of them "database
    is locked" at once, without the busy handler (its deadlock rule).  The
    other process's conversion takes milliseconds, so trying again is
    enough; a file already in WAL mode never gets here twice."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError (sqlite3 or aiosqlite's)
            if "locked" not in str(exc).lower() or time.monotonic() >= deadline:
                raise
        time.sleep(WAL_RETRY_SECONDS)


def _set_up_sqlite(
    engine: Engine,
    *,
    foreign_keys: bool,
    busy_timeout_ms: int,
    synchronous: str,
    autocheckpoint: bool = True,
) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # SQLAlchemy emits BEGIN (below), not the sqlite3 module.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
            enter_wal_mode(cursor, busy_timeout_ms)
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
            if not autocheckpoint:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(BEGIN_OPTION, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)

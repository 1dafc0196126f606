"""Engines: how the store talks to SQLite and PostgreSQL.

PostgreSQL (``postgresql+asyncpg://...``) is used as SQLAlchemy sets it up:
the default connection pool, transactions as the server runs them.

SQLite (the default, ``sqlite+aiosqlite:///file.db``) is set up deliberately,
on every new connection:

* ``journal_mode=WAL``: readers never block the writer and the writer never
  blocks readers.
* ``synchronous=NORMAL``.  Durability, stated plainly: a commit that returned
  survives a crash or kill of the bot's process (it is in the WAL file, which
  the operating system writes out on its own); after a power loss or an
  operating-system crash the last transactions before the loss may be rolled
  back, but the database is never left damaged.  ``FULL`` would also survive
  a power loss at the price of an fsync per move; a card table can replay a
  lost move, so we take ``NORMAL``.
* ``foreign_keys=ON`` for the store; OFF for migrations (see below).
* ``busy_timeout=5000``: another *process* holding the write lock is waited
  for up to 5 s before "database is locked" (reported as
  ``StoreUnavailable``).  Within this process writes never contend: the
  ``Store`` lets one write transaction run at a time (an ``asyncio.Lock``),
  while reads use the other pooled connections.
* SQLAlchemy, not the sqlite3 module, emits BEGIN (the documented recipe for
  "transactional DDL" with pysqlite/aiosqlite: ``isolation_level = None`` on
  the DBAPI connection plus a ``begin`` event).  The sqlite3 module would
  otherwise run DDL outside any transaction, which is how a killed first
  migration used to leave half a schema behind.  Reads begin a deferred
  transaction (one consistent snapshot); engines made with ``writer=True``
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

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import NullPool

BUSY_TIMEOUT_MS = 5000
BEGIN_OPTION = "cardtable_sqlite_begin"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(
    url: str, *, for_migrations: bool = False, busy_timeout: float = BUSY_TIMEOUT_MS / 1000
) -> AsyncEngine:
    """An engine for ``url``; on SQLite with the settings described above
    (``busy_timeout`` in seconds)."""
    options: dict[str, Any] = {}
    if for_migrations:
        options["poolclass"] = NullPool
    engine = create_async_engine(url, **options)
    if is_sqlite(url):
        _set_up_sqlite(
            engine, foreign_keys=not for_migrations, busy_timeout_ms=round(busy_timeout * 1000)
        )
        if for_migrations:
            engine = engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})
    return engine


def writer(engine: AsyncEngine) -> AsyncEngine:
    """The same engine (same pool) whose transactions begin as writers:
    ``BEGIN IMMEDIATE`` on SQLite, nothing different on PostgreSQL."""
    return engine.execution_options(**{BEGIN_OPTION: "IMMEDIATE"})


def _set_up_sqlite(engine: AsyncEngine, *, foreign_keys: bool, busy_timeout_ms: int) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # SQLAlchemy emits BEGIN (below), not the sqlite3 module.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(connection: Connection) -> None:
        mode = connection.get_execution_options().get(BEGIN_OPTION, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)

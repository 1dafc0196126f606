"""``doctor``'s look inside the database: the checks the bot's start runs,
run so that they change nothing.

``doctor --quick`` runs before every start (systemd) and every minute while
the bot runs (the container health check), so it must never be what repairs
-- or destroys -- a database.  It fails exactly when the bot's start would,
with the bot's own sentence and the reason:

* SQLite: the write-ahead log is checked first, before SQLite could replay
  it (``bot.db.schema.check_sqlite_wal``); the file is then opened read-only
  without creating, changing or removing any file (``bot.db.readonly``) and
  gets the start's checks (``bot.db.schema.check_database``: ``PRAGMA
  quick_check``, a half-made schema holding rows, a schema from a newer Card
  Table).  A killed run's missing log (``bot.db.lost_log``) is the warning the
  start logs: the bot starts anyway, so doctor passes, with ``WARN``.
* PostgreSQL: the same checks (without ``quick_check``) in a read-only
  transaction.
"""

from __future__ import annotations

import asyncio
import sqlite3

from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.pool import StaticPool

from bot.cli.ops import Revisions, one_line

DB_TIMEOUT = 10.0
Found = tuple[str | None, int]  # the schema version, the number of tables (games)
Verdict = tuple[bool, str, bool]  # the check passes; what it says; it needs a look (WARN)


def database_contents(url: str, shown: str, known: Revisions) -> Verdict:
    """(passes, one line, a warning) for the database at ``url`` (shown as
    ``shown``), whose file or server is known to exist."""
    from bot.db.errors import StoreUnavailable, describe_database, is_damage
    from bot.db.lost_log import lost_log
    from bot.db.schema import check_sqlite_wal, sqlite_file

    where = describe_database(url)
    path = sqlite_file(url)
    try:
        if path is not None:
            check_sqlite_wal(url)
            found = read_sqlite_file(path, where)
        else:
            found = asyncio.run(asyncio.wait_for(_read_server(url, where), DB_TIMEOUT))
    except StoreUnavailable as exc:
        if exc.retryable:  # locked or unreachable
            return False, _cannot(shown, exc.detail), False
        return False, _why(exc.message, exc.detail, where), False
    except Exception as exc:
        if path is not None and is_damage(exc):
            from bot.db.errors import damage_message

            return False, _why(damage_message(where), str(exc), where), False
        return False, _cannot(shown, one_line(exc, 160) or type(exc).__name__), False
    said = version_check(shown, *found, known)
    lost = lost_log(path) if path is not None else None
    if lost:  # the start logs it and carries on: doctor passes, with a WARN
        return True, f"{said}; but {lost}", True
    return True, said, False


def _cannot(shown: str, reason: str) -> str:
    return f"cannot connect to {shown} ({reason}): check DATABASE_URL and that the server runs"


def _why(message: str, detail: str, where: str) -> str:
    reason = detail.removeprefix(f"{where}: ").strip()
    return message if not reason or reason == message else f"{message} (why: {reason})"


def read_sqlite_file(path: str, where: str) -> Found:
    """The start's checks on a read-only connection (``bot.db.readonly``)."""
    from bot.db.readonly import read_sqlite

    return read_sqlite(path, lambda conn: _inspect_sqlite(conn, where))


def _inspect_sqlite(conn: sqlite3.Connection, where: str) -> Found:
    engine = create_engine("sqlite://", creator=lambda: conn, poolclass=StaticPool)
    try:
        with engine.connect() as sync:
            return inspect_database(sync, where)
    finally:
        engine.dispose(close=False)  # the connection is read_sqlite's to close


async def _read_server(url: str, where: str) -> Found:
    from bot.db.session import make_engine

    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execution_options(postgresql_readonly=True)
            return await conn.run_sync(inspect_database, where)
    finally:
        await engine.dispose()


def inspect_database(sync: Connection, where: str) -> Found:
    """``bot.db.schema.check_database`` (raises what the start raises), and
    how many tables (games) the database holds."""
    from alembic.script import ScriptDirectory

    from bot.db.schema import alembic_config, check_database

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    version = check_database(sync, script, where)
    games = 0
    if "tables" in inspect(sync).get_table_names():
        games = int(sync.execute(text("SELECT count(*) FROM tables")).scalar_one())
    return version, games


def version_check(shown: str, version: str | None, tables: int, known: Revisions) -> str:
    """What doctor says of a database the start accepts."""
    if version is None:
        return f"{shown}: empty (the schema is made at first start)"
    if known.compare(version) == "current":
        count = f"{tables} table" if tables == 1 else f"{tables} tables"  # '1 table'
        return f"{shown}: schema {version} (current), {count}"
    return (
        f"{shown}: schema {version}, the code is at {known.head}: migrated at the next start "
        "(back it up first: python -m bot backup FILE)",
    )

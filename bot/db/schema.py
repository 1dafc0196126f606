"""Bringing the schema to the newest migration, safely.

``upgrade_to_head`` runs Alembic programmatically (from the repo or an
installed package alike).  ``migrations/env.py`` takes the migration lock,
calls ``prepare_database`` and then runs the migrations in transactions (see
``migration_options``), so a migration killed half-way leaves the database
as it was before it: the next start simply runs it again.  That holds on
PostgreSQL natively and on SQLite because ``bot.db.session`` makes
SQLAlchemy emit BEGIN itself (transactional DDL).

Several processes may start on one new database at once (the shards of one
bot).  Their migrations are serialised, and the later process waits, then
finds the schema current and carries on:

* PostgreSQL: a session advisory lock (``MIGRATION_LOCK``) is held around
  the whole run (checks, repair, every migration), each migration in its own
  transaction;
* SQLite: every migration of one start runs in ONE transaction begun with
  ``BEGIN IMMEDIATE``: SQLite's write lock, which the other process waits
  for (``MIGRATION_WAIT_SECONDS``), and Alembic reads the current version
  inside it.  A kill anywhere leaves the file as it was before that start.

``prepare_database`` is the belt and braces, for databases touched before
migrations were transactional, and the checks ``doctor`` shares
(``check_database``, which changes nothing):

* on SQLite it runs ``PRAGMA quick_check`` and raises ``StoreDamaged``
  naming the file when the file is damaged (truncated, overwritten...);
* a *half-made initial schema* -- some tables of the first migration exist
  but ``alembic_version`` holds no row -- is repaired: if every table of the
  first migration is there with its columns, indexes and unique constraints,
  the database is stamped with the first revision; otherwise the partial
  tables are dropped if they are all empty, and left alone (``StoreDamaged``)
  if any of them holds rows.  Either way one log line says what was done.
  Only the first migration can be half-made in that way: every later one has
  always run after this module made migrations transactional;
* a schema version this code does not know (a newer Card Table wrote the
  database) is ``StoreTooNew``, one line, before Alembic is asked.

Before any connection opens a SQLite file, ``check_sqlite_wal`` refuses a
damaged write-ahead log and ``warn_lost_log`` says when the log of a killed
run is missing (``bot.db.lost_log``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, create_engine, func, inspect, select, table, text
from sqlalchemy.engine import Connection, make_url

from bot.db.errors import (
    StoreDamaged,
    StoreTooNew,
    damage_message,
    describe_database,
    too_new_message,
)
from bot.db.lost_log import lost_log
from bot.db.wal import wal_damage

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
VERSION_TABLE = "alembic_version"
#: PostgreSQL advisory lock key held while one process migrates ("CTMIGR")
MIGRATION_LOCK = 0x43544D494752
#: how long a SQLite migration waits for another process's migrations
MIGRATION_WAIT_SECONDS = 300.0


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def upgrade_to_head_sync(url: str, target: str = "head") -> None:
    check_sqlite_wal(url)
    warn_lost_log(url)
    command.upgrade(alembic_config(url), target)


def sqlite_file(url: str) -> str | None:
    """The file of a SQLite URL, or None (another database, or in memory)."""
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    return None if name.startswith("file:") else name


def check_sqlite_wal(url: str) -> None:
    """``StoreDamaged`` when the write-ahead log next to a SQLite file is
    damaged (``bot.db.wal``); run before any connection replays it."""
    path = sqlite_file(url)
    reason = wal_damage(path) if path else None
    if reason:
        where = describe_database(url)
        raise StoreDamaged(
            f"{where} is damaged (its write-ahead log {path}-wal cannot be read back whole): "
            f"restore a backup, or move {path}-wal aside to keep only what was saved before it",
            detail=f"{where}: {reason}",
        )


def warn_lost_log(url: str) -> None:
    """One warning when the write-ahead log of a killed run is missing
    (``bot.db.lost_log``); run before any connection opens the file."""
    path = sqlite_file(url)
    reason = lost_log(path) if path else None
    if reason:
        log.warning("%s: %s", describe_database(url), reason)


async def upgrade_to_head(url: str) -> None:
    """Bring the schema to the newest migration (run in a worker thread:
    Alembic's async env starts its own event loop there)."""
    await asyncio.to_thread(upgrade_to_head_sync, url)


# -- what env.py runs ----------------------------------------------------------------
def migration_options(connection: Connection) -> dict[str, Any]:
    """``context.configure`` options: one transaction per migration, with
    DDL inside it on SQLite too; on SQLite, batch mode for ALTERs and a
    foreign-key check before each migration commits (migrations run with
    foreign keys off, see ``bot.db.session``)."""
    sqlite = connection.dialect.name == "sqlite"
    return {
        "transaction_per_migration": True,
        "transactional_ddl": True,
        "render_as_batch": sqlite,
        "compare_type": True,
        "on_version_apply": [check_foreign_keys] if sqlite else [],
    }


def check_foreign_keys(*, ctx: MigrationContext, step: Any, **_kw: Any) -> None:
    """Refuse to commit a migration that leaves rows pointing nowhere."""
    assert ctx.connection is not None
    problems = ctx.connection.exec_driver_sql("PRAGMA foreign_key_check").all()
    if problems:
        raise RuntimeError(
            f"migration {step.up_revision_id or step} leaves broken foreign keys: "
            f"{[tuple(p) for p in problems[:5]]}"
        )


def prepare_database(connection: Connection, script: ScriptDirectory, url: str) -> None:
    """Check the file, repair a half-made initial schema and refuse a
    schema from a newer Card Table, then commit, so that Alembic starts
    outside any transaction."""
    where = describe_database(url)
    if connection.dialect.name == "sqlite":
        check_sqlite_file(connection, where)
    repair_half_made_schema(connection, script, where)
    check_known_version(current_version(connection), script, where)
    connection.commit()


def check_database(connection: Connection, script: ScriptDirectory, where: str) -> str | None:
    """The checks of ``prepare_database`` that change nothing, raising what
    the bot's start would raise (``StoreDamaged``, ``StoreTooNew``); the
    schema version.  ``doctor`` runs them on a read-only connection."""
    if connection.dialect.name == "sqlite":
        check_sqlite_file(connection, where)
    plan = half_made(connection, script)
    if plan is not None and plan.holding:
        raise plan.refusal(where)
    version = current_version(connection)
    check_known_version(version, script, where)
    return version


def current_version(connection: Connection) -> str | None:
    """The migration the database is at; None when it has none."""
    if VERSION_TABLE not in inspect(connection).get_table_names():
        return None
    value = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if value is None else str(value)


def migrations_script() -> ScriptDirectory:
    """The migrations this code knows."""
    return ScriptDirectory.from_config(alembic_config("sqlite://"))


def check_known_version(version: str | None, script: ScriptDirectory, where: str) -> None:
    """``StoreTooNew`` for a schema version no migration here knows."""
    if version is None:
        return
    known = {r.revision for r in script.walk_revisions()}
    if version not in known:
        head = script.get_current_head() or "?"
        raise StoreTooNew(too_new_message(where, version, head), version=version)


# -- serialising migrations ----------------------------------------------------------
@contextmanager
def migration_lock(connection: Connection, url: str) -> Iterator[None]:
    """PostgreSQL: hold the advisory lock ``MIGRATION_LOCK`` for the run
    (waiting, with one log line, while another process migrates).  SQLite
    takes its own write lock in ``run_migrations`` instead."""
    if connection.dialect.name != "postgresql":
        yield
        return
    lock = text("SELECT pg_try_advisory_lock(:key)").bindparams(key=MIGRATION_LOCK)
    if not connection.execute(lock).scalar():
        log.info("%s: another process is migrating it; waiting", describe_database(url))
        connection.execute(text("SELECT pg_advisory_lock(:key)").bindparams(key=MIGRATION_LOCK))
    connection.commit()
    yield  # on failure the connection is closed, not reused: that releases the lock
    connection.execute(text("SELECT pg_advisory_unlock(:key)").bindparams(key=MIGRATION_LOCK))
    connection.commit()


def run_migrations(connection: Connection, context: Any, configure: Callable[[], None]) -> None:
    """Configure Alembic's context (``configure``) and run the migrations on
    ``connection``: on SQLite all of them in one ``BEGIN IMMEDIATE``
    transaction begun here, before Alembic is configured, so that Alembic
    treats it as the caller's, reads the current version inside it, under
    the write lock, and commits nothing itself; elsewhere one transaction
    per migration (``migration_options``)."""
    if connection.dialect.name != "sqlite":
        configure()
        with context.begin_transaction():
            context.run_migrations()
        return
    with connection.begin():
        configure()
        context.run_migrations()


def check_sqlite_file(connection: Connection, where: str) -> None:
    """``PRAGMA quick_check`` reads every page of the file (milliseconds for
    a bot's database) and finds truncation and overwritten pages that a
    first query might not touch."""
    rows = [r[0] for r in connection.exec_driver_sql("PRAGMA quick_check").all()]
    if rows != ["ok"]:
        raise StoreDamaged(damage_message(where), detail=f"{where}: quick_check: {rows[:5]}")


# -- the half-made first migration ---------------------------------------------------
@dataclass(frozen=True)
class TableShape:
    columns: frozenset[str]
    indexes: frozenset[str]
    uniques: frozenset[str]


def _shape(connection: Connection, name: str) -> TableShape:
    inspector = inspect(connection)
    return TableShape(
        columns=frozenset(c["name"] for c in inspector.get_columns(name)),
        indexes=frozenset(
            str(i["name"])
            for i in inspector.get_indexes(name)
            if not i.get("duplicates_constraint")  # PostgreSQL lists those too
        ),
        uniques=frozenset(str(u["name"]) for u in inspector.get_unique_constraints(name)),
    )


def initial_schema(script: ScriptDirectory) -> tuple[str, dict[str, TableShape]]:
    """The first revision and the tables it creates, found by running it
    against an in-memory SQLite database."""
    base = script.get_base()
    revision = script.get_revision(base) if base else None
    if revision is None:
        raise RuntimeError("the migrations have no single first revision")
    engine = create_engine("sqlite://")
    try:
        with engine.begin() as conn:
            with Operations.context(MigrationContext.configure(conn)):
                revision.module.upgrade()
            names = sorted(set(inspect(conn).get_table_names()) - {VERSION_TABLE})
            return revision.revision, {name: _shape(conn, name) for name in names}
    finally:
        engine.dispose()


def _has_version(connection: Connection, present: set[str]) -> bool:
    if VERSION_TABLE not in present:
        return False
    count = connection.scalar(select(func.count()).select_from(table(VERSION_TABLE)))
    return bool(count)


@dataclass(frozen=True)
class HalfMade:
    """A half-made first migration found, and what to do about it."""

    first: str
    found: frozenset[str]
    complete: bool
    counts: dict[str, int]

    @property
    def holding(self) -> list[str]:
        return sorted(name for name, count in self.counts.items() if count)

    def refusal(self, where: str) -> StoreDamaged:
        return StoreDamaged(
            f"{where} has a half-made schema (tables {', '.join(sorted(self.found))} but no "
            f"migration version) and the tables {', '.join(self.holding)} hold rows: "
            "restore a backup; nothing was changed",
            detail=f"{where}: half-made schema, row counts {self.counts}",
        )


def half_made(connection: Connection, script: ScriptDirectory) -> HalfMade | None:
    """What the half-made-schema repair would find (reads only)."""
    present = set(inspect(connection).get_table_names())
    if not present - {VERSION_TABLE} or _has_version(connection, present):
        return None  # a new database, or one that knows its version
    first, reference = initial_schema(script)
    found = present & set(reference)
    if not found:
        return None  # a new, empty database
    if found == set(reference) and all(_shape(connection, n) == reference[n] for n in found):
        return HalfMade(first, frozenset(found), True, {})
    counts = {
        name: int(connection.scalar(select(func.count()).select_from(table(name))) or 0)
        for name in sorted(found)
    }
    return HalfMade(first, frozenset(found), False, counts)


def repair_half_made_schema(connection: Connection, script: ScriptDirectory, where: str) -> None:
    plan = half_made(connection, script)
    if plan is None:
        return
    if plan.complete:
        MigrationContext.configure(connection).stamp(script, plan.first)
        log.warning(
            "%s had the complete schema of migration %s but no version row "
            "(a start killed at its very end): stamped it as %s",
            where,
            plan.first,
            plan.first,
        )
        return
    if plan.holding:
        raise plan.refusal(where)
    present = set(inspect(connection).get_table_names())
    metadata = MetaData()
    metadata.reflect(bind=connection, only=sorted(plan.found))
    metadata.drop_all(bind=connection)
    if VERSION_TABLE in present:
        connection.execute(text(f"DROP TABLE {VERSION_TABLE}"))
    log.warning(
        "%s had a half-made schema from an interrupted first migration (empty tables "
        "%s, no version row): dropped them; migration %s runs again now",
        where,
        ", ".join(sorted(plan.found)),
        plan.first,
    )

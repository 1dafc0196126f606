"""Bringing the schema to the newest migration, safely.

``upgrade_to_head`` runs Alembic programmatically (from the repo or an
installed package alike).  ``migrations/env.py`` calls ``prepare_database``
first and then runs every migration in its own transaction (see
``migration_options``), so a migration killed half-way leaves the database
exactly as it was before that migration: the next start simply runs it again.
That holds on PostgreSQL natively and on SQLite because ``bot.db.session``
makes SQLAlchemy emit BEGIN itself (transactional DDL).

``prepare_database`` is the belt and braces, for databases touched before
migrations were transactional:

* on SQLite it runs ``PRAGMA quick_check`` and raises ``StoreDamaged``
  naming the file when the file is damaged (truncated, overwritten...);
* a *half-made initial schema* -- some tables of the first migration exist
  but ``alembic_version`` holds no row -- is repaired: if every table of the
  first migration is there with its columns, indexes and unique constraints,
  the database is stamped with the first revision; otherwise the partial
  tables are dropped if they are all empty, and left alone (``StoreDamaged``)
  if any of them holds rows.  Either way one log line says what was done.
  Only the first migration can be half-made in that way: every later one has
  always run after this module made migrations transactional.
"""

from __future__ import annotations

import asyncio
import logging
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

from bot.db.errors import StoreDamaged, damage_message, describe_database
from bot.db.wal import wal_damage

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
VERSION_TABLE = "alembic_version"


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def upgrade_to_head_sync(url: str, target: str = "head") -> None:
    check_sqlite_wal(url)
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
    """Check the file and repair a half-made initial schema, then commit,
    so that Alembic starts outside any transaction."""
    where = describe_database(url)
    if connection.dialect.name == "sqlite":
        check_sqlite_file(connection, where)
    repair_half_made_schema(connection, script, where)
    connection.commit()


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


def repair_half_made_schema(connection: Connection, script: ScriptDirectory, where: str) -> None:
    present = set(inspect(connection).get_table_names())
    if not present - {VERSION_TABLE} or _has_version(connection, present):
        return  # a new database, or one that knows its version
    first, reference = initial_schema(script)
    found = present & set(reference)
    if not found:
        return  # a new, empty database
    if found == set(reference) and all(_shape(connection, n) == reference[n] for n in found):
        MigrationContext.configure(connection).stamp(script, first)
        log.warning(
            "%s had the complete schema of migration %s but no version row "
            "(a start killed at its very end): stamped it as %s",
            where,
            first,
            first,
        )
        return
    counts = {
        name: connection.scalar(select(func.count()).select_from(table(name)))
        for name in sorted(found)
    }
    holding = sorted(name for name, count in counts.items() if count)
    if holding:
        raise StoreDamaged(
            f"{where} has a half-made schema (tables {', '.join(sorted(found))} but no "
            f"migration version) and the tables {', '.join(holding)} hold rows: "
            "restore a backup; nothing was changed",
            detail=f"{where}: half-made schema, row counts {counts}",
        )
    metadata = MetaData()
    metadata.reflect(bind=connection, only=sorted(found))
    metadata.drop_all(bind=connection)
    if VERSION_TABLE in present:
        connection.execute(text(f"DROP TABLE {VERSION_TABLE}"))
    log.warning(
        "%s had a half-made schema from an interrupted first migration (empty tables "
        "%s, no version row): dropped them; migration %s runs again now",
        where,
        ", ".join(sorted(found)),
        first,
    )

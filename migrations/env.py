"""Alembic environment (async): the URL comes from the config built by
``bot.db.schema.alembic_config``.

Migrations run in transactions, DDL included, on SQLite as on PostgreSQL
(the SQLite engine lets SQLAlchemy emit BEGIN, see ``bot.db.session``): a
process killed in the middle of a migration leaves the database as it was
before it.  Two processes migrating one database at once are serialised
(``bot.db.schema.migration_lock`` and ``run_migrations``): the second waits
and then finds nothing to do.  Before migrating, ``prepare_database`` checks
a SQLite file for damage, repairs a half-made first migration left by older
versions and refuses a schema from a newer Card Table.
"""

from __future__ import annotations

import asyncio
from typing import Any

from alembic import context
from alembic.script import ScriptDirectory

from bot.db.models import Base
from bot.db.schema import (
    MIGRATION_WAIT_SECONDS,
    migration_lock,
    migration_options,
    prepare_database,
    run_migrations,
)
from bot.db.session import make_engine

config = context.config
target_metadata = Base.metadata


def _migrate(connection: Any) -> None:
    url = config.get_main_option("sqlalchemy.url") or ""

    def configure() -> None:
        context.configure(
            connection=connection, target_metadata=target_metadata, **migration_options(connection)
        )

    with migration_lock(connection, url):
        prepare_database(connection, ScriptDirectory.from_config(config), url)
        run_migrations(connection, context, configure)


async def _run_async() -> None:
    engine = make_engine(
        config.get_main_option("sqlalchemy.url") or "",
        for_migrations=True,
        busy_timeout=MIGRATION_WAIT_SECONDS,
    )
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_migrate)
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(_run_async())

"""Engines and migrations.

SQLite (the default) runs in WAL mode with foreign keys on; PostgreSQL via
asyncpg works unchanged from a ``postgresql+asyncpg://`` URL.  Alembic owns
the schema: ``upgrade_to_head`` runs it programmatically, from the repo or
an installed package alike.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def make_engine(url: str) -> AsyncEngine:
    engine = create_async_engine(url, future=True)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def upgrade_to_head_sync(url: str) -> None:
    command.upgrade(alembic_config(url), "head")


async def upgrade_to_head(url: str) -> None:
    """Bring the schema to the newest migration (run in a worker thread:
    Alembic's async env starts its own event loop there)."""
    await asyncio.to_thread(upgrade_to_head_sync, url)

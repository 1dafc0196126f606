"""Two processes migrating one new database at once (the shards of one bot
started together): both succeed, the later one waits and finds the schema
current.  On PostgreSQL each round uses a new database with a random name,
made and dropped here; on SQLite a new file."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from bot.db.schema import alembic_config

ROOT = Path(__file__).resolve().parents[2]
PG_URL = os.environ.get("CARDTABLE_TEST_POSTGRES_URL")
ROUNDS = 5

# Imports everything, says so, waits for "go" on stdin and migrates: both
# processes reach Alembic within a millisecond or two of each other.
MIGRATOR = r"""
import sys
from bot.db.schema import upgrade_to_head_sync
print("ready", flush=True)
sys.stdin.readline()
upgrade_to_head_sync(sys.argv[1])
print("migrated", flush=True)
"""


def head() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    assert head
    return head


def migrate_together(url: str) -> list[subprocess.CompletedProcess[str]]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", MIGRATOR, url],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


def sqlite_state(path: Path) -> tuple[list[str], set[str]]:
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            versions = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
            return versions, set(inspect(conn).get_table_names())
    finally:
        engine.dispose()


async def admin_connection(database: str = "postgres") -> asyncpg.Connection:
    assert PG_URL
    dsn = make_url(PG_URL).set(drivername="postgresql", database=database)
    return await asyncpg.connect(dsn.render_as_string(hide_password=False))


async def postgres_state(name: str) -> tuple[list[str], set[str]]:
    conn = await admin_connection(name)
    try:
        versions = [r[0] for r in await conn.fetch("SELECT version_num FROM alembic_version")]
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return versions, {r[0] for r in rows}
    finally:
        await conn.close()


def assert_both_migrated(
    results: list[subprocess.CompletedProcess[str]], state: tuple[list[str], set[str]]
) -> None:
    for result in results:
        assert result.returncode == 0, result.stderr[-2000:]
        assert result.stdout.strip() == "migrated", result.stderr[-2000:]
    versions, tables = state
    assert versions == [head()]
    assert {"tables", "seats", "actions"} <= tables


@pytest.fixture
def fresh_postgres() -> Iterator[list[str]]:
    """A list to put the names of new databases in; they are dropped after."""
    if not PG_URL:
        pytest.skip("PostgreSQL not configured (set CARDTABLE_TEST_POSTGRES_URL)")
    names: list[str] = []
    yield names

    async def drop() -> None:
        admin = await admin_connection()
        try:
            for name in names:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    asyncio.run(drop())


async def create_database(name: str) -> None:
    admin = await admin_connection()
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()


@pytest.mark.postgres
def test_two_processes_migrating_one_new_postgres_database_both_succeed(fresh_postgres):
    assert PG_URL
    for _ in range(ROUNDS):
        name = f"ct_migrate_{secrets.token_hex(6)}"
        fresh_postgres.append(name)
        asyncio.run(create_database(name))
        url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
        results = migrate_together(url)
        assert_both_migrated(results, asyncio.run(postgres_state(name)))


def test_two_processes_migrating_one_new_sqlite_file_both_succeed(tmp_path):
    for round_ in range(ROUNDS):
        path = tmp_path / f"new{round_}.db"
        results = migrate_together(f"sqlite+aiosqlite:///{path}")
        assert_both_migrated(results, sqlite_state(path))

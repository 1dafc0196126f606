"""Migrations survive a kill, on SQLite and PostgreSQL.

Every migration runs in one transaction: a process killed (SIGKILL) or failing
at any point of a migration leaves the database exactly as it was before that
migration, and the next start runs it again to a schema equal to the models.
The tests walk every revision in ``migrations/versions``, so migrations added
later are covered without touching this file.  Databases half-made by the
old, non-transactional migrations are repaired on the next start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.repositories import Store, StoreDamaged
from bot.db.schema import alembic_config, upgrade_to_head_sync

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ScriptDirectory.from_config(alembic_config("sqlite://"))
REVISIONS = [script.revision for script in reversed(list(SCRIPT.walk_revisions()))]
HEAD = SCRIPT.get_current_head()
FIRST = REVISIONS[0]
COMMIT = "<commit>"
MUTATING = re.compile(r"\s*(CREATE|DROP|ALTER|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)

# Run in a subprocess: upgrade to a revision and SIGKILL ourselves at one
# event (a statement just executed, or a COMMIT about to be sent), counted
# exactly as ``recorded_events`` counts them.
KILLER = r"""
import os, signal, sys
from sqlalchemy import event
from sqlalchemy.engine import Engine
from bot.db.schema import upgrade_to_head_sync

url, target, point = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = []

def reached(what):
    seen.append(what)
    if len(seen) - 1 == point:
        print(what, file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

event.listen(Engine, "after_cursor_execute", lambda c, cur, statement, *a: reached(statement))
event.listen(Engine, "commit", lambda c: reached("<commit>"))
upgrade_to_head_sync(url, target)
print("not killed", file=sys.stderr)
"""


class Injected(Exception):
    """The failure a test plants in the middle of a migration."""


@contextmanager
def watching(callback: Callable[[str], None]) -> Iterator[None]:
    """Call ``callback`` for every statement executed (its SQL) and every
    COMMIT about to be sent (``COMMIT``), on every engine in this process."""

    def executed(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        callback(statement)

    def committing(_conn: Any) -> None:
        callback(COMMIT)

    event.listen(Engine, "after_cursor_execute", executed)
    event.listen(Engine, "commit", committing)
    try:
        yield
    finally:
        event.remove(Engine, "after_cursor_execute", executed)
        event.remove(Engine, "commit", committing)


def recorded_events(url: str, target: str) -> list[str]:
    events: list[str] = []
    with watching(events.append):
        upgrade_to_head_sync(url, target)
    return events


def failing_upgrade(url: str, target: str, point: int) -> None:
    seen: list[str] = []

    def reached(what: str) -> None:
        seen.append(what)
        if len(seen) - 1 == point:
            raise Injected(what)

    with watching(reached):
        upgrade_to_head_sync(url, target)


def kill_points(events: list[str]) -> tuple[list[int], int]:
    """The indexes of the migration's writing statements, and of the COMMIT
    that ends the migration."""
    writes = [i for i, e in enumerate(events) if e != COMMIT and MUTATING.match(e)]
    assert writes, "a migration that writes nothing"
    commit = next(i for i in range(writes[-1], len(events)) if events[i] == COMMIT)
    return writes, commit


async def snapshot(url: str) -> tuple[list[str], list[str]]:
    """The tables and the recorded versions of the database at ``url``."""
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            names = sorted(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
            versions: list[str] = []
            if "alembic_version" in names:
                versions = sorted(
                    (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars()
                )
            return names, versions
    finally:
        await store.close()


async def at_revision(fresh_url: Callable[[], Any], revision: str | None) -> str:
    url = await fresh_url()
    if revision is not None:
        await asyncio.to_thread(upgrade_to_head_sync, url, revision)
    return url


def previous(revision: str) -> str | None:
    down = SCRIPT.get_revision(revision).down_revision
    assert not isinstance(down, tuple | list), "merge migrations: extend these tests"
    return down


async def assert_at_head(url: str, schema_differences: Callable[[str], Any]) -> None:
    store = Store(url)
    try:
        await store.migrate()
    finally:
        await store.close()
    assert (await snapshot(url))[1] == [HEAD]
    assert await schema_differences(url) == []


@pytest.mark.parametrize("revision", REVISIONS)
async def test_a_migration_killed_mid_way_is_run_again_whole(
    revision, fresh_url, schema_differences
):
    down = previous(revision)
    url = await at_revision(fresh_url, down)
    before = await snapshot(url)
    events = await asyncio.to_thread(recorded_events, url, revision)
    writes, commit = kill_points(events)
    # one statement in the middle (for the first migration: after the 7th
    # DDL statement, FINDINGS' case), the last one, and the COMMIT; the
    # failure test below goes through every statement in-process
    points = sorted({writes[min(7, len(writes) - 1)], writes[-1], commit})
    for point in points:
        url = await at_revision(fresh_url, down)
        result = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-c", KILLER, url, revision, str(point)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert result.returncode == -signal.SIGKILL, result.stderr
        assert result.stderr.strip() == events[point].strip(), "the kill hit another statement"
        assert await snapshot(url) == before, f"killed at {events[point]!r}"
        await assert_at_head(url, schema_differences)


@pytest.mark.parametrize("revision", REVISIONS)
async def test_a_migration_failing_at_any_statement_changes_nothing(
    revision, fresh_url, schema_differences
):
    down = previous(revision)
    url = await at_revision(fresh_url, down)
    before = await snapshot(url)
    writes, commit = kill_points(await asyncio.to_thread(recorded_events, url, revision))
    for point in [*writes, commit]:
        url = await at_revision(fresh_url, down)
        with pytest.raises(Injected):
            await asyncio.to_thread(failing_upgrade, url, revision, point)
        assert await snapshot(url) == before
    await assert_at_head(url, schema_differences)


# -- databases half-made by the old, non-transactional migrations ------------------------
def _legacy_first_migration(sync_conn: Any, stop_after: int | None) -> None:
    """What the old env did: the version table, then the first migration's
    statements committed one by one, killed after ``stop_after`` of them."""
    ran: list[str] = []

    def executed(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if MUTATING.match(statement):
            ran.append(statement)
            if stop_after is not None and len(ran) == stop_after:
                raise Injected(statement)

    sync_conn.exec_driver_sql(
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
        "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
    )
    context = MigrationContext.configure(sync_conn)
    event.listen(sync_conn, "after_cursor_execute", executed)
    try:
        with Operations.context(context):
            SCRIPT.get_revision(FIRST).module.upgrade()
    except Injected:
        pass
    finally:
        event.remove(sync_conn, "after_cursor_execute", executed)


async def legacy_half_made(url: str, stop_after: int | None) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_legacy_first_migration, stop_after)
    finally:
        await engine.dispose()


async def test_the_findings_case_old_kill_after_7_statements_is_repaired(
    fresh_url, schema_differences, caplog
):
    url = await fresh_url()
    await legacy_half_made(url, stop_after=7)
    tables, versions = await snapshot(url)
    assert "guild_settings" in tables and versions == []
    with caplog.at_level(logging.WARNING, logger="bot.db.schema"):
        await assert_at_head(url, schema_differences)
    assert any(
        "half-made schema" in r.getMessage() and "dropped" in r.getMessage() for r in caplog.records
    )


async def test_a_complete_first_migration_without_version_is_stamped(
    fresh_url, schema_differences, caplog
):
    url = await fresh_url()
    await legacy_half_made(url, stop_after=None)
    assert (await snapshot(url))[1] == []
    with caplog.at_level(logging.WARNING, logger="bot.db.schema"):
        await assert_at_head(url, schema_differences)
    assert any(f"stamped it as {FIRST}" in r.getMessage() for r in caplog.records)


async def test_a_half_made_schema_holding_rows_is_left_alone(fresh_url):
    url = await fresh_url()
    await legacy_half_made(url, stop_after=7)
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO guild_settings (id, guild_id, game, key, value) "
                    "VALUES (1, 5, '', 'x', '1')"
                )
            )
    finally:
        await engine.dispose()
    before = await snapshot(url)
    store = Store(url)
    try:
        with pytest.raises(StoreDamaged) as caught:
            await store.migrate()
    finally:
        await store.close()
    assert "half-made schema" in str(caught.value) and "guild_settings" in str(caught.value)
    assert caught.value.retryable is False
    assert await snapshot(url) == before

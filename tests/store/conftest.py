"""Store fixtures: every store test runs on SQLite and, when
CARDTABLE_TEST_POSTGRES_URL is set (``.ci/run`` sets it), on PostgreSQL.
With CARDTABLE_REQUIRE_POSTGRES=1 an unreachable server fails the run
instead of skipping."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from bot.db.models import Base
from bot.db.repositories import Store
from bot.services.tables import TableService

PG_URL = os.environ.get("CARDTABLE_TEST_POSTGRES_URL")
REQUIRE_PG = os.environ.get("CARDTABLE_REQUIRE_POSTGRES") == "1"
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


async def _reset_postgres(url: str) -> None:
    store = Store(url)
    try:
        async with store.engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    finally:
        await store.close()


@pytest.fixture(params=BACKENDS)
async def store_url(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        return
    if not PG_URL:
        if REQUIRE_PG:
            pytest.fail("CARDTABLE_REQUIRE_POSTGRES=1 but CARDTABLE_TEST_POSTGRES_URL is not set")
        pytest.skip("PostgreSQL not configured (set CARDTABLE_TEST_POSTGRES_URL)")
    try:
        await asyncio.wait_for(_reset_postgres(PG_URL), 20)
    except Exception as exc:
        if REQUIRE_PG:
            pytest.fail(f"PostgreSQL required but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    yield PG_URL


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[Store]:
    store = Store(store_url)
    await store.migrate()
    yield store
    await store.close()


@pytest.fixture
def fresh_url(store_url: str, tmp_path) -> Callable[[], Awaitable[str]]:
    """Another empty database of the same backend: a new SQLite file each
    call, or the PostgreSQL test database reset again."""
    counter = itertools.count(1)

    async def fresh() -> str:
        if store_url.startswith("sqlite"):
            return f"sqlite+aiosqlite:///{tmp_path / f'fresh{next(counter)}.db'}"
        await _reset_postgres(store_url)
        return store_url

    return fresh


async def _schema_differences(url: str) -> list[object]:
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            return await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
    finally:
        await store.close()


@pytest.fixture
def schema_differences() -> Callable[[str], Awaitable[list[object]]]:
    """What Alembic's autogenerate finds between the database at a URL and
    the models (as ``test_models_and_migrations_agree``); [] when equal."""
    return _schema_differences


@pytest.fixture(autouse=True)
def deterministic_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables get seeds 1, 2, 3... so every run deals the same cards."""
    counter = itertools.count(1)
    monkeypatch.setattr("bot.services.tables.new_seed", lambda: next(counter))


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = TableService(store, clock=clock, turn_seconds_default=90, ai_budget_ms=50)
    await svc.start(dispatch_deadlines=False)
    yield svc
    await svc.close()

"""Fixtures of the web table's tests."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

from bot.services.tables import TableService
from tests.web.harness import Web, serving, table_service


@pytest.fixture(autouse=True)
def deterministic_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    counter = itertools.count(1)
    monkeypatch.setattr("bot.services.tables.new_seed", lambda: next(counter))


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[TableService]:
    async with table_service(str(tmp_path / "web.db")) as svc:
        yield svc


@pytest.fixture
async def web(service: TableService) -> AsyncIterator[Web]:
    async with serving(service) as served:
        yield served


@pytest.fixture
async def local_web(service: TableService) -> AsyncIterator[Web]:
    """Local mode; players answer at once, so no flood limit to speak of."""
    async with serving(service, mode="local", frames_per_second=10_000) as served:
        yield served

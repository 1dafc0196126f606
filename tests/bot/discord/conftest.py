"""Fixtures: a CardBot logged in the production way (``login``, never
``connect``) against the fake Discord, with a temporary database."""

from __future__ import annotations

import itertools
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.discord.client import CardBot
from bot.settings import Settings
from tests.bot.discord.harness import FakeDiscord, settle


class ErrorRecorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith(("discord", "bot")):
            self.records.append(record)


@pytest.fixture(autouse=True)
def no_error_logs(request: pytest.FixtureRequest) -> Iterator[ErrorRecorder]:
    """Errors handled by discord.py are only logged: fail the test on them."""
    recorder = ErrorRecorder()
    logging.getLogger().addHandler(recorder)
    yield recorder
    logging.getLogger().removeHandler(recorder)
    if "expect_errors" not in request.keywords:
        assert not recorder.records, [r.getMessage() for r in recorder.records]


@pytest.fixture(autouse=True)
def deterministic_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables get seeds 1, 2, 3... so every run deals the same cards."""
    counter = itertools.count(1)
    monkeypatch.setattr("bot.services.tables.new_seed", lambda: next(counter))


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeDiscord:
    discord_fake = FakeDiscord()
    discord_fake.install(monkeypatch)
    return discord_fake


def make_settings(tmp_path: Any, edit_interval: float = 0.0) -> Settings:
    return Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        edit_interval=edit_interval,
        ai_workers=0,  # AI in-process: the worker pool has its own tests
        _env_file=None,
    )


async def start_bot(tmp_path: Any, *, edit_interval: float = 0.0, **kw: Any) -> CardBot:
    """Log in as production does; ``kw`` reaches ``CardBot`` (clocks...)."""
    bot = CardBot(make_settings(tmp_path, edit_interval), ai_budget_ms=20, **kw)
    await bot.login("fake-token")
    await settle()
    return bot


@pytest.fixture
async def bot(fake: FakeDiscord, tmp_path: Any) -> AsyncIterator[CardBot]:
    client = await start_bot(tmp_path)
    yield client
    await settle()
    await client.close()

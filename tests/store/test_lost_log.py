"""A killed run whose write-ahead log then went missing is told at the next
start (``bot.db.lost_log``): from ``-shm`` (how many pages were not yet
copied into the file) or, with ``-shm`` gone too, from the store's marker in
the file's header.  A clean close, or a kill with the log left in place,
says nothing."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.db.lost_log import CLOSED, OPEN, lost_log, main_header, shm_counts
from bot.db.repositories import Store
from tests.store.killed import killed_run as killed

WRITES = 30


def killed_run(path: Path) -> None:
    killed(path, WRITES)


async def start(path: Path) -> int:
    """Start a store on ``path`` as the bot does; the settings it holds."""
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.migrate()
        return len(await store.settings(1, ""))
    finally:
        await store.close()


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_killed_run_with_its_log_in_place_loses_nothing_and_warns_nothing(tmp_path, caplog):
    path = tmp_path / "cards.db"
    await asyncio.to_thread(killed_run, path)
    assert main_header(path) == (True, OPEN)
    with caplog.at_level(logging.WARNING):
        assert await start(path) == WRITES
    assert warnings(caplog) == []
    assert main_header(path) == (True, CLOSED)  # closed cleanly this time
    assert not Path(f"{path}-wal").exists()


async def test_a_deleted_log_after_a_kill_is_told_at_start_with_how_much(tmp_path, caplog):
    path = tmp_path / "cards.db"
    await asyncio.to_thread(killed_run, path)
    counts = shm_counts(path)
    assert counts is not None and counts[0] > counts[1]  # pages not yet in the file
    Path(f"{path}-wal").unlink()
    with caplog.at_level(logging.WARNING):
        kept = await start(path)
    assert kept < WRITES  # the loss is real...
    [warning] = warnings(caplog)  # ...and told, once
    assert f"{path}-wal is missing" in warning
    assert f"{counts[0] - counts[1]} pages of committed changes" in warning
    assert "restore a backup" in warning
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await start(path)
    assert warnings(caplog) == []  # said at the start after the loss, not forever


async def test_a_deleted_log_and_index_after_a_kill_is_told_from_the_marker(tmp_path, caplog):
    path = tmp_path / "cards.db"
    await asyncio.to_thread(killed_run, path)
    Path(f"{path}-wal").unlink()
    Path(f"{path}-shm").unlink()
    with caplog.at_level(logging.WARNING):
        assert await start(path) < WRITES
    [warning] = warnings(caplog)
    assert "the last run did not close" in warning and f"{path}-wal is missing" in warning


async def test_a_clean_close_leaves_no_marker_and_no_warning(tmp_path, caplog):
    path = tmp_path / "cards.db"
    with caplog.at_level(logging.WARNING):
        assert await start(path) == 0
        assert await start(path) == 0
    assert warnings(caplog) == []
    assert main_header(path) == (True, CLOSED)
    assert lost_log(path) is None


def test_no_file_or_not_a_database_is_not_a_lost_log(tmp_path):
    assert lost_log(tmp_path / "none.db") is None
    (tmp_path / "text.db").write_text("hello" * 100)
    assert lost_log(tmp_path / "text.db") is None
    (tmp_path / "text.db-shm").write_bytes(b"\x01" * 200)
    assert shm_counts(tmp_path / "text.db") is None

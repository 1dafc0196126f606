"""Two processes opening one new SQLite file at once both convert it to WAL;
SQLite refuses one of them "database is locked" at once (no busy handler:
its deadlock rule), which made one of two shards starting together fail.
The store tries the conversion again within the busy timeout."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.db.session import enter_wal_mode

ROOT = Path(__file__).resolve().parents[2]

OPENER = r"""
import sys
from sqlalchemy import text
from bot.db.session import writer_engine
print("ready", flush=True)
sys.stdin.readline()
engine = writer_engine("sqlite+aiosqlite:///" + sys.argv[1])
with engine.connect() as conn:
    print(conn.exec_driver_sql("PRAGMA journal_mode").scalar(), flush=True)
engine.dispose()
"""


class FlakyCursor:
    """Refuses the first ``refusals`` statements with ``error``."""

    def __init__(self, refusals: int, error: str = "database is locked") -> None:
        self.refusals = refusals
        self.error = error
        self.statements: list[str] = []

    def execute(self, statement: str) -> None:
        self.statements.append(statement)
        if self.refusals:
            self.refusals -= 1
            raise sqlite3.OperationalError(self.error)


def test_a_locked_conversion_is_tried_again_until_it_succeeds():
    cursor = FlakyCursor(refusals=3)
    enter_wal_mode(cursor, busy_timeout_ms=5000)
    assert cursor.statements == ["PRAGMA journal_mode=WAL"] * 4


def test_another_error_is_not_tried_again():
    cursor = FlakyCursor(refusals=1, error="disk I/O error")
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        enter_wal_mode(cursor, busy_timeout_ms=5000)
    assert len(cursor.statements) == 1


def test_a_lock_held_past_the_busy_timeout_is_reported():
    cursor = FlakyCursor(refusals=10**6)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        enter_wal_mode(cursor, busy_timeout_ms=50)


def test_two_processes_opening_one_new_file_at_once_both_succeed(tmp_path):
    for round_ in range(10):
        path = tmp_path / f"new{round_}.db"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", OPENER, str(path)],
                cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for proc in procs:  # both have imported everything before either opens the file
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err[-1500:]
            assert out.strip() == "wal"

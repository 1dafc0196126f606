"""Reading a SQLite database without changing a byte of it, or a file name.

``doctor`` (run before every start and as the container's health check)
must never be what destroys the evidence of a damaged database.  An
ordinary connection is not safe for that: the last connection to close
checkpoints the write-ahead log into the file and deletes ``-wal`` and
``-shm`` (after replaying a damaged log only up to its first bad frame, the
rest is gone).  Even ``?mode=ro`` is not enough: it still creates ``-wal``
and ``-shm`` when they are missing and writes its read marks into ``-shm``.
So ``read_sqlite`` opens the file according to what is on the disk:

* no ``-wal``: the main file is the whole database; it is opened with
  ``immutable=1`` (no locks, no ``-wal`` or ``-shm`` made);
* ``-wal`` and ``-shm``: ``mode=ro&readonly_shm=1`` (SQLite reads the log
  into its own memory and writes nothing; a bot using the file at the same
  time is not disturbed, and cannot be: a read-only connection never
  checkpoints);
* ``-wal`` without ``-shm`` (a process was killed and ``-shm`` was removed,
  or the files were copied): no process is using it, so the file and its
  log are copied into a temporary folder and the copy is read.

A file whose ``-wal`` appears or disappears while it is read (the bot
started or stopped meanwhile) is read again.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

T = TypeVar("T")
ATTEMPTS = 3


def _uri(path: Path, query: str) -> str:
    return f"file:{quote(str(path.resolve()))}?{query}"


def _state(path: Path) -> tuple[bool, bool]:
    return Path(f"{path}-wal").exists(), Path(f"{path}-shm").exists()


def read_sqlite(path: str | os.PathLike[str], job: Callable[[sqlite3.Connection], T]) -> T:
    """``job(connection)`` on a read-only connection to the database at
    ``path``, opened so that no file is created, changed or removed (see
    the module's docstring).  SQLite's errors are raised as they come."""
    file = Path(path)
    for attempt in range(ATTEMPTS):
        state = _state(file)
        try:
            result = _read(file, state, job)
        except sqlite3.OperationalError:
            if _state(file) == state or attempt == ATTEMPTS - 1:
                raise
            continue  # -wal or -shm came or went while we opened it: again
        if _state(file) == state:
            return result
    return result


def _read(file: Path, state: tuple[bool, bool], job: Callable[[sqlite3.Connection], T]) -> T:
    has_wal, has_shm = state
    if not has_wal:
        return _with(_uri(file, "immutable=1"), job)
    if has_shm:
        return _with(_uri(file, "mode=ro&readonly_shm=1"), job)
    with tempfile.TemporaryDirectory(prefix="cardtable-check-") as folder:
        copy = Path(folder) / file.name
        shutil.copyfile(file, copy)
        shutil.copyfile(f"{file}-wal", f"{copy}-wal")
        return _with(_uri(copy, "mode=ro"), job)


def _with(uri: str, job: Callable[[sqlite3.Connection], T]) -> T:
    conn = sqlite3.connect(uri, uri=True, timeout=5, isolation_level=None)
    try:
        return job(conn)
    finally:
        conn.close()

"""Noticing that the write-ahead log of a killed run has gone missing.

On SQLite every commit goes into ``FILE-wal`` first; the store copies the
log into the database file by a checkpoint (PASSIVE, from another
connection, at most once a second while moves are written: ``bot.db.writer``)
and a clean close copies the rest and deletes the log.  After a kill the log
holds every move since the last checkpoint.  If it is then deleted (or only
the database file is copied elsewhere), SQLite opens the older file without
a word.  What can still be told, before SQLite opens the file:

* ``FILE-shm`` (SQLite's index of the log) survives a kill.  Its header
  says how many pages the log held (``mxFrame``) and how many of them had
  been copied into the file (``nBackfill``): more logged than copied, and
  no log, means committed moves are lost, and how many pages of them.
* When ``-shm`` is gone too, the file's own header still says whether the
  store closed it: the store sets SQLite's ``user_version`` to ``OPEN`` at
  start (checkpointed into the file at once) and back to ``CLOSED`` at a
  clean close.  ``OPEN`` and no log means the last run did not close and its
  log is missing -- unless another program replayed and removed the log
  since (the ``sqlite3`` shell does), which cannot be told apart.

What cannot be told: how many moves were lost when ``-shm`` is gone, which
tables they belonged to, or anything at all about a database file copied
without its log from a run of an older Card Table (no marker).  With several
processes on one file, the first to close cleanly clears the marker while
the others still run.  Nothing is
refused: the moves are gone either way, and the damaged-log advice
(``bot.db.schema.check_sqlite_wal``) is itself to move the log aside; the
start says so in one warning instead.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import struct
from pathlib import Path

log = logging.getLogger(__name__)

#: SQLite's ``user_version`` while a store has the file open / after it closed it
OPEN = 0x43540001  # "CT" and 1
CLOSED = 0
SQLITE_MAGIC = b"SQLite format 3\x00"
SHM_HEADER = 48  # one copy of the wal-index header; two copies, then the checkpoint info
WAL_INDEX_VERSION = 3007000


def main_header(path: Path) -> tuple[bool, int] | None:
    """(is a WAL database, user_version) from the file's first 100 bytes,
    or None when it is not a SQLite file (``quick_check`` says the rest)."""
    try:
        with path.open("rb") as f:
            head = f.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return None
    return head[18] == 2, struct.unpack(">I", head[60:64])[0]


def _checksum(data: bytes) -> tuple[int, int]:
    words = struct.unpack(f"={len(data) // 4}I", data)
    s0 = s1 = 0
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def shm_counts(path: Path) -> tuple[int, int] | None:
    """(pages in the log, pages of it copied into the file) from ``-shm``'s
    header (native byte order, two identical copies, a checksum), or None
    when there is no intact ``-shm``."""
    try:
        with Path(f"{path}-shm").open("rb") as f:
            head = f.read(2 * SHM_HEADER + 4)
    except OSError:
        return None
    if len(head) < 2 * SHM_HEADER + 4 or head[:SHM_HEADER] != head[SHM_HEADER : 2 * SHM_HEADER]:
        return None
    version, _unused, _change, is_init, _big, _page, logged = struct.unpack("=3IBBHI", head[:20])
    stored = struct.unpack("=2I", head[40:48])
    if version != WAL_INDEX_VERSION or not is_init or _checksum(head[:40]) != stored:
        return None
    (copied,) = struct.unpack("=I", head[2 * SHM_HEADER : 2 * SHM_HEADER + 4])
    return logged, min(copied, logged)


def lost_log(path: str | os.PathLike[str]) -> str | None:
    """Why the database at ``path`` is missing the log of a killed run (one
    sentence for the operator), or None when nothing says so."""
    file = Path(path)
    if Path(f"{file}-wal").exists():
        return None
    header = main_header(file)
    if header is None or not header[0]:
        return None
    counts = shm_counts(file)
    if counts is not None:
        logged, copied = counts
        if logged <= copied:
            return None  # all of it had been copied into the file: nothing lost
        return (
            f"{file}-wal is missing, but {file}-shm shows that it held {logged - copied} "
            f"pages of committed changes not yet copied into {file}: every move since the "
            "last checkpoint of the last run is lost (put the log back before starting if "
            "you still have it, or restore a backup)"
        )
    if header[1] == OPEN:
        return (
            f"the last run did not close {file} (it was killed or crashed) and its "
            f"write-ahead log {file}-wal is missing: the moves since its last checkpoint are "
            "lost, unless another program opened the file since (that replays and removes "
            "the log); restore a backup if moves are missing"
        )
    return None


def mark(path: str | os.PathLike[str], value: int, *, busy_timeout: float = 5.0) -> None:
    """Set the file's ``user_version`` to ``value`` and checkpoint, so that
    the marker is in the database file itself, not only in its log."""
    conn = sqlite3.connect(os.fspath(path), timeout=busy_timeout, isolation_level=None)
    try:
        conn.execute(f"PRAGMA user_version = {int(value)}")
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    finally:
        conn.close()

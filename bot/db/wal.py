"""Telling a damaged SQLite write-ahead log from one torn by a crash.

SQLite never reports a damaged WAL: on opening, it replays the log's frames
up to the last intact commit and silently ignores the rest, which is right
for a write torn by a crash and wrong for a log damaged afterwards, whose
later, committed moves would vanish without a word.  ``check_wal`` reads the
log before SQLite opens it and finds two kinds of damage:

* an unreadable header (wrong magic number, version or checksum) in front of
  frames: SQLite would drop the whole log;
* a committed transaction after the point where SQLite's replay stops: a
  frame of the same log generation (same salts) that is a commit record and
  whose checksum, continued from its predecessor's stored checksum, is
  intact.  A crash cannot leave that behind -- the frames after a torn write
  belong to a transaction that never committed -- so the log was damaged
  (or a power loss tore writes out of order, which ``synchronous=NORMAL``
  allows; the same advice then applies).

The format (https://sqlite.org/fileformat2.html#walformat): a 32-byte
header, then frames of a 24-byte header and one page.  Checksums run over
32-bit words, little-endian for magic 0x377f0682 and big-endian for
0x377f0683, and are stored big-endian.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

MAGIC_LITTLE = 0x377F0682
MAGIC_BIG = 0x377F0683
VERSION = 3007000
HEADER = 32
FRAME_HEADER = 24
MASK = 0xFFFFFFFF


def _checksum(data: bytes, s0: int, s1: int, order: str) -> tuple[int, int]:
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & MASK
        s1 = (s1 + words[i + 1] + s0) & MASK
    return s0, s1


def wal_damage(db_path: str | os.PathLike[str]) -> str | None:
    """What is wrong with the WAL of the database at ``db_path``, or None
    when there is no log or SQLite's replay will keep every committed
    transaction in it.  A log that changes while it is read belongs to
    another process that is using the database right now; it is not judged
    (a checkpoint restarting it mid-read could look like damage)."""
    wal = Path(f"{os.fspath(db_path)}-wal")
    for _ in range(3):
        before = _state(wal)
        if before is None:
            return None
        try:
            reason = _scan(wal, before[0])
        except FileNotFoundError:  # checkpointed and removed meanwhile
            return None
        if reason is None or _state(wal) == before:
            return reason
    return None


def _state(wal: Path) -> tuple[int, int] | None:
    try:
        stat = wal.stat()
    except FileNotFoundError:
        return None
    return stat.st_size, stat.st_mtime_ns


def _scan(wal: Path, size: int) -> str | None:
    if size == 0:
        return None
    with wal.open("rb") as f:
        header = f.read(HEADER)
        if len(header) < HEADER:
            return f"{wal} is shorter than a log header ({size} bytes)"
        magic, version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack(">8I", header)
        if magic not in (MAGIC_LITTLE, MAGIC_BIG) or version != VERSION:
            return f"{wal} does not start with a write-ahead-log header"
        if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
            return f"{wal} has an impossible page size {page_size}"
        order = "<" if magic == MAGIC_LITTLE else ">"
        if _checksum(header[:24], 0, 0, order) != (c1, c2):
            return f"{wal} has a damaged header (checksum)"
        previous = (c1, c2)  # the checksum the next frame continues from
        intact = True  # still on SQLite's replay path
        replayed = 0
        index = 0
        while True:
            frame = f.read(FRAME_HEADER + page_size)
            if len(frame) < FRAME_HEADER + page_size:
                return None  # a torn last frame: a crash in mid-write
            index += 1
            _page, commit, f_salt1, f_salt2, f_c1, f_c2 = struct.unpack(">6I", frame[:FRAME_HEADER])
            ours = (f_salt1, f_salt2) == (salt1, salt2)
            valid = ours and _checksum(frame[:8] + frame[FRAME_HEADER:], *previous, order) == (
                f_c1,
                f_c2,
            )
            if intact:
                if valid:
                    replayed = index if commit else replayed
                else:
                    intact = False
            elif valid and commit:
                return (
                    f"{wal}: frame {index} is a committed transaction that SQLite would skip "
                    f"(its replay stops after frame {replayed})"
                )
            previous = (f_c1, f_c2)

"""``doctor --quick`` looks inside the database without changing it, and
fails exactly when the bot's start fails, with the start's own sentence.

For each state of a SQLite database (healthy, killed with its log, killed
with its log damaged, a garbage B-tree page, a newer schema, a killed run's
log deleted...): every file next to the database keeps its name and bytes
through ``doctor``; then the bot's start (``Store.migrate``) runs on the
same files, and doctor's verdict and sentence must match its outcome."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.db.repositories import Store, StoreDamaged, StoreUnavailable
from tests.bot.test_ops_doctor import FAKE_TOKEN
from tests.store.killed import killed_run

WRITES = 40


def files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def doctor_line(path: Path, monkeypatch, capsys) -> str:
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    main(["doctor", "--quick", "--db-url", f"sqlite+aiosqlite:///{path}"])
    [line] = [x for x in capsys.readouterr().out.splitlines() if " database:" in x]
    return line


async def bot_start(path: Path) -> StoreUnavailable | None:
    store = Store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.migrate()
    except StoreUnavailable as exc:
        return exc
    finally:
        await store.close()
    return None


# -- the states ------------------------------------------------------------------------------
def clean(path: Path) -> None:
    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{path}")
        await store.migrate()
        for i in range(WRITES):
            await store.put_setting(1, "", f"k{i:03}", "x" * 300)
        await store.close()

    asyncio.run(go())
    assert not Path(f"{path}-wal").exists()


def killed(path: Path) -> None:
    killed_run(path, WRITES)


def killed_without_shm(path: Path) -> None:
    killed(path)
    Path(f"{path}-shm").unlink()


def killed_then_wal_damaged(path: Path) -> None:
    """Bytes of a frame in the middle of the log overwritten, committed
    transactions after it: the issue's case (SQLite would replay up to it
    and, on closing, delete the log with the rest)."""
    killed(path)
    wal = Path(f"{path}-wal")
    page = int.from_bytes(wal.read_bytes()[8:12], "big")
    frames = (wal.stat().st_size - 32) // (24 + page)
    with wal.open("r+b") as f:
        f.seek(32 + (frames // 3) * (24 + page) + 24 + 100)
        f.write(b"\xff" * 64)


def garbage_page(path: Path) -> None:
    """A B-tree page in the middle of the file overwritten with garbage."""
    clean(path)
    conn = sqlite3.connect(path)
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, game, key, value) VALUES (2, '', ?, ?)",
        [(f"g{i:04}", '"' + "y" * 200 + '"') for i in range(400)],
    )
    conn.commit()
    conn.close()
    page = 4096
    pages = path.stat().st_size // page
    with path.open("r+b") as f:
        f.seek((pages // 2) * page)
        f.write(bytes(range(256)) * (page // 256))


def newer_schema(path: Path) -> None:
    clean(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    conn.close()


def killed_then_wal_deleted(path: Path) -> None:
    killed(path)
    Path(f"{path}-wal").unlink()


STATES: dict[str, tuple[Callable[[Path], None], str]] = {
    # name: (how it is made, what doctor must say)
    "clean": (clean, "OK"),
    "killed, log in place": (killed, "OK"),
    "killed, -shm gone": (killed_without_shm, "OK"),
    "killed, log damaged": (killed_then_wal_damaged, "FAIL"),
    "garbage B-tree page": (garbage_page, "FAIL"),
    "newer schema": (newer_schema, "FAIL"),
    "killed, log deleted": (killed_then_wal_deleted, "WARN"),
}


@pytest.mark.parametrize("state", list(STATES))
async def test_doctor_changes_nothing_and_agrees_with_the_start(
    state, tmp_path, monkeypatch, capsys
):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cards.db"
    make, verdict = STATES[state]
    await asyncio.to_thread(make, path)
    before = files(folder)

    line = await asyncio.to_thread(doctor_line, path, monkeypatch, capsys)
    assert files(folder) == before, "doctor changed, made or removed a file"
    line2 = await asyncio.to_thread(doctor_line, path, monkeypatch, capsys)
    assert line2 == line and files(folder) == before  # and so does a second run

    refused = await bot_start(path)
    assert line.split()[0] == verdict, line
    assert (refused is None) == (verdict != "FAIL"), (line, refused)
    if refused is not None:
        assert str(refused) in line  # the start's own sentence...
        if isinstance(refused, StoreDamaged):
            assert "(why: " in line  # ...and the technical reason


async def test_the_newer_schema_line_names_both_versions_and_what_to_do(
    tmp_path, monkeypatch, capsys
):
    path = tmp_path / "cards.db"
    await asyncio.to_thread(newer_schema, path)
    line = await asyncio.to_thread(doctor_line, path, monkeypatch, capsys)
    assert "'9999_from_the_future'" in line and "newer than this Card Table 0." in line
    assert "upgrade Card Table, or restore a backup made with 0." in line


async def test_a_deleted_log_is_a_warning_in_doctor_as_at_start(tmp_path, monkeypatch, capsys):
    path = tmp_path / "cards.db"
    await asyncio.to_thread(killed_then_wal_deleted, path)
    line = await asyncio.to_thread(doctor_line, path, monkeypatch, capsys)
    assert line.startswith("WARN database:") and "; but " in line and "-wal is missing" in line


async def test_doctor_reads_a_live_database_without_disturbing_it(tmp_path, monkeypatch, capsys):
    """The container health check runs while the bot writes: doctor sees
    every committed write and the bot goes on writing."""
    path = tmp_path / "live.db"
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    try:
        for round_ in range(3):
            for i in range(20):
                await store.put_setting(1, "", f"r{round_}k{i}", i)
            line = await asyncio.to_thread(doctor_line, path, monkeypatch, capsys)
            assert line.startswith("OK") and "(current)" in line, line
        assert len(await store.settings(1, "")) == 60
    finally:
        await store.close()
    assert not Path(f"{path}-wal").exists()


def test_a_backup_of_a_killed_database_leaves_its_log_alone(tmp_path, capsys):
    """``backup`` reads as doctor does: it copies what the log holds and
    leaves the log (the evidence) in place."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cards.db"
    killed(path)
    before = files(folder)
    assert main(["backup", str(tmp_path / "copy.db"), "--db-url", f"sqlite:///{path}"]) == 0
    assert files(folder) == before
    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("SELECT count(*) FROM guild_settings").fetchone() == (WRITES,)
    assert copy.execute("PRAGMA user_version").fetchone() == (0,)  # not "open": a whole file
    copy.close()


def test_a_backup_of_a_database_with_a_damaged_log_is_refused(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cards.db"
    killed_then_wal_damaged(path)
    before = files(folder)
    assert main(["backup", str(tmp_path / "copy.db"), "--db-url", f"sqlite:///{path}"]) == 2
    assert "write-ahead log" in capsys.readouterr().err
    assert files(folder) == before and not (tmp_path / "copy.db").exists()


def test_copies_for_the_missing_shm_case_are_temporary(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cards.db"
    killed_without_shm(path)
    shutil.copy(path, tmp_path / "spare.db")
    from bot.db.readonly import read_sqlite

    count = read_sqlite(path, lambda c: c.execute("SELECT count(*) FROM guild_settings").fetchone())
    assert count == (WRITES,) and sorted(p.name for p in folder.iterdir()) == [
        "cards.db",
        "cards.db-wal",
    ]


def test_migrate_data_from_a_database_with_a_damaged_log_is_refused(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "cards.db"
    killed_then_wal_damaged(path)
    before = files(folder)
    target = f"sqlite+aiosqlite:///{tmp_path / 'to.db'}"
    argv = ["migrate-data", "--from", f"sqlite+aiosqlite:///{path}", "--to", target]
    assert main(argv) == 2
    assert "write-ahead log" in capsys.readouterr().err
    assert files(folder) == before and not (tmp_path / "to.db").exists()

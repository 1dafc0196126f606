"""``python -m bot backup`` and ``restore``: an online SQLite copy taken while
the service runs restores into a store that resumes the table at the same
move; every refusal is one line with exit code 2 and changes nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService


def url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def run(argv: list[str], monkeypatch, tmp_path) -> int:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def one_line_refusal(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


async def play_until_human(store_url: str) -> tuple[int, int]:
    """A Callbreak table with three easy AI seats, played until it waits
    for the local player; the table id and its move number."""
    store = Store(store_url)
    await store.migrate()
    service = TableService(store)
    await service.start(dispatch_deadlines=False)
    try:
        me = Actor.local()
        # seed 1: seat 2 bids first, so the AI seats move before the local player
        info = await service.create_table(me, game="callbreak", options={"rounds": "1"}, seed=1)
        for _ in range(3):
            await service.add_ai(info.id, me, "easy")
        await service.start_table(info.id, me)
        await service.wait_idle(info.id)
        seq = (await service.get_table(info.id)).seq
        return info.id, seq
    finally:
        await service.close()
        await store.close()


async def resumed_seq(store_url: str, table_id: int) -> tuple[int, str]:
    store = Store(store_url)
    await store.migrate()
    service = TableService(store)
    await service.start(dispatch_deadlines=False)
    try:
        info = await service.get_table(table_id)
        return info.seq, info.status
    finally:
        await service.close()
        await store.close()


async def test_backup_while_open_restores_the_table_at_the_same_move(tmp_path, monkeypatch, capsys):
    live = tmp_path / "live.db"
    table_id, seq = await play_until_human(url(live))
    assert seq > 0

    # back up while a service holds the database open (WAL, pooled connections)
    store = Store(url(live))
    await store.migrate()
    service = TableService(store)
    await service.start(dispatch_deadlines=False)
    try:
        assert (await service.get_table(table_id)).seq == seq
        # the newest commit (in the write-ahead log while the pool stays open)
        await store.put_setting(42, "", "written_last", True)
        backup = tmp_path / "backup.db"
        assert run(["backup", str(backup), "--db-url", url(live)], monkeypatch, tmp_path) == 0
        out = capsys.readouterr().out
        assert "Backed up" in out and "schema" in out and "actions" in out
    finally:
        await service.close()
        await store.close()

    assert not Path(f"{backup}.partial").exists()
    with sqlite3.connect(backup) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("select count(*) from actions").fetchone()[0] == seq
        assert conn.execute("select key from guild_settings").fetchall() == [("written_last",)]

    restored = tmp_path / "restored.db"
    assert run(["restore", str(backup), "--db-url", url(restored)], monkeypatch, tmp_path) == 0
    assert "Restored" in capsys.readouterr().out
    assert await resumed_seq(url(restored), table_id) == (seq, "playing")


def make_db(path: Path) -> None:
    """A Card Table database at the newest schema, with no rows."""
    import asyncio

    async def go() -> None:
        store = Store(url(path))
        await store.migrate()
        await store.close()

    asyncio.run(go())


def test_backup_refuses_an_existing_file_without_force(tmp_path, monkeypatch, capsys):
    db, out = tmp_path / "a.db", tmp_path / "out.db"
    make_db(db)
    out.write_bytes(b"keep me")
    assert run(["backup", str(out), "--db-url", url(db)], monkeypatch, tmp_path) == 2
    assert "--force" in one_line_refusal(capsys)
    assert out.read_bytes() == b"keep me"
    assert run(["backup", str(out), "--db-url", url(db), "--force"], monkeypatch, tmp_path) == 0
    assert out.read_bytes().startswith(b"SQLite format 3")


def test_backup_refuses_a_missing_or_foreign_database(tmp_path, monkeypatch, capsys):
    argv = ["backup", str(tmp_path / "out.db"), "--db-url", url(tmp_path / "none.db")]
    assert run(argv, monkeypatch, tmp_path) == 2
    assert "no database" in one_line_refusal(capsys)
    assert not (tmp_path / "none.db").exists()

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table notes (x)")
    argv = ["backup", str(tmp_path / "out.db"), "--db-url", url(other)]
    assert run(argv, monkeypatch, tmp_path) == 2
    assert "not a Card Table database" in one_line_refusal(capsys)
    assert not (tmp_path / "out.db").exists()


def test_backup_of_postgres_prints_pg_dump_without_the_password(tmp_path, monkeypatch, capsys):
    pg = "postgresql+asyncpg://cards:s3cret-pw@db.example:5433/cardtable"
    assert run(["backup", "dump.pgc", "--db-url", pg], monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    assert "pg_dump --format=custom --file=dump.pgc --host db.example --port 5433" in out
    assert "--username cards cardtable" in out
    assert "s3cret" not in out
    assert not (tmp_path / "dump.pgc").exists()


def test_backup_reads_the_configured_database_url(tmp_path, monkeypatch, capsys):
    db = tmp_path / "conf.db"
    make_db(db)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url(db))
    assert main(["backup", str(tmp_path / "b.db")]) == 0
    assert str(db) in capsys.readouterr().out


def test_restore_refuses_without_force_and_checks_the_backup(tmp_path, monkeypatch, capsys):
    db, backup = tmp_path / "live.db", tmp_path / "backup.db"
    make_db(db)
    make_db(backup)
    before = db.read_bytes()
    assert run(["restore", str(backup), "--db-url", url(db)], monkeypatch, tmp_path) == 2
    assert "--force" in one_line_refusal(capsys)
    assert db.read_bytes() == before

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    assert run(["restore", str(junk), "--db-url", url(db), "--force"], monkeypatch, tmp_path) == 2
    assert "not a SQLite database" in one_line_refusal(capsys)

    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("create table alembic_version (version_num varchar(32))")
        conn.execute("insert into alembic_version values ('9999_future')")
    argv = ["restore", str(foreign), "--db-url", url(db), "--force"]
    assert run(argv, monkeypatch, tmp_path) == 2
    assert "9999_future" in one_line_refusal(capsys)

    missing = ["restore", str(tmp_path / "nope.db"), "--db-url", url(db)]
    assert run(missing, monkeypatch, tmp_path) == 2
    assert "no backup file" in one_line_refusal(capsys)
    assert db.read_bytes() == before

    assert run(["restore", str(backup), "--db-url", url(db), "--force"], monkeypatch, tmp_path) == 0


def test_restore_refuses_a_database_in_use(tmp_path, monkeypatch, capsys):
    db, backup = tmp_path / "live.db", tmp_path / "backup.db"
    make_db(db)
    make_db(backup)
    holder = sqlite3.connect(db)  # as the running bot's pooled connection
    try:
        holder.execute("PRAGMA journal_mode=WAL")
        holder.execute("select count(*) from tables").fetchone()
        argv = ["restore", str(backup), "--db-url", url(db), "--force"]
        assert run(argv, monkeypatch, tmp_path) == 2
        assert "in use" in one_line_refusal(capsys)
    finally:
        holder.close()


def test_restore_refuses_postgres(tmp_path, monkeypatch, capsys):
    backup = tmp_path / "backup.db"
    make_db(backup)
    pg = "postgresql+asyncpg://cards:pw@localhost/cardtable"
    assert run(["restore", str(backup), "--db-url", pg], monkeypatch, tmp_path) == 2
    assert "pg_restore" in one_line_refusal(capsys)


def test_help_lists_the_operations(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in ("backup", "restore", "migrate-data", "doctor"):
        assert name in out


def test_backup_makes_a_missing_folder_as_the_hosting_guide_writes_it(
    tmp_path, monkeypatch, capsys
):
    # docs/hosting.md: python -m bot backup backups/cardtable-$(date +%F).db
    db = tmp_path / "cardtable.db"
    make_db(db)
    target = Path("backups") / "cardtable-2026-01-02.db"
    assert run(["backup", str(target), "--db-url", url(db)], monkeypatch, tmp_path) == 0
    assert "made the folder backups" in capsys.readouterr().out
    assert (tmp_path / target).read_bytes().startswith(b"SQLite format 3")
    # a file where the folder should be is still refused, and nothing is made
    (tmp_path / "taken").write_text("a file")
    argv = ["backup", "taken/out.db", "--db-url", url(db)]
    assert run(argv, monkeypatch, tmp_path) == 2
    assert "not a folder" in one_line_refusal(capsys)

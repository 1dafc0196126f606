"""``python -m bot migrate-data``: every row with its id, SQLite -> SQLite,
SQLite -> PostgreSQL and PostgreSQL -> SQLite; the copied store resumes the
table at the same move; refusals are one line and change nothing.

The PostgreSQL cases make and drop their OWN databases (``ct_backup_<hex>``)
on the server of CARDTABLE_TEST_POSTGRES_URL, so they never meet the other
store tests' database."""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.__main__ import main
from bot.cli.ops import TABLES
from bot.db.repositories import Store
from tests.bot.test_ops_backup import play_until_human, resumed_seq, url

PG_URL = os.environ.get("CARDTABLE_TEST_POSTGRES_URL")


def run(argv: list[str], monkeypatch, tmp_path) -> int:
    monkeypatch.chdir(tmp_path)
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


async def fill(store_url: str) -> tuple[int, int]:
    """A table in play plus a row in every other table of the store."""
    table_id, seq = await play_until_human(store_url)
    store = Store(store_url)
    try:
        await store.put_setting(7, "callbreak", "rounds", 3)
        await store.put_user_setting(99, "pings", "dm")
        done = await store.create_table(
            2, host_id=5, game="callbreak", variant="{}", seed=1, status="playing", guild_id=7
        )
        await store.append_action(done, 1, "b3", 0, 5, False)
        await store.record_results(
            done,
            [
                {"seat": 0, "user_id": 5, "rank": 1, "points": 10, "won": True},
                {"seat": 1, "user_id": 6, "rank": 2, "points": 3, "won": False},
            ],
            [{"user_id": 5, "name": "Five", "mu": 26.0, "sigma": 8.0, "played": 1, "won": 1}],
            7,
            "callbreak",
        )
    finally:
        await store.close()
    return table_id, seq


async def dump(store_url: str) -> dict[str, list[tuple]]:
    """Every row of every store table, by id, times as UTC strings."""
    store = Store(store_url)
    out: dict[str, list[tuple]] = {}
    try:
        async with store.engine.connect() as conn:
            for name in TABLES:
                rows = (await conn.execute(text(f"SELECT * FROM {name} ORDER BY id"))).all()
                out[name] = [tuple(_plain(v) for v in row) for row in rows]
    finally:
        await store.close()
    return out


def _plain(value):
    from datetime import UTC, datetime

    if isinstance(value, datetime):
        aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return aware.isoformat()
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == " ":
        return datetime.fromisoformat(value).replace(tzinfo=UTC).isoformat()  # SQLite text
    if isinstance(value, bool):
        return int(value)
    return value


@pytest.fixture
async def pg_database() -> AsyncIterator[Callable[[], str]]:
    """Make fresh PostgreSQL databases of our own; dropped afterwards."""
    if not PG_URL:
        pytest.skip("PostgreSQL not configured (set CARDTABLE_TEST_POSTGRES_URL)")
    import asyncpg

    base = make_url(PG_URL)
    admin_dsn = base.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    try:
        admin = await asyncio.wait_for(asyncpg.connect(admin_dsn), 10)
    except Exception as exc:
        pytest.skip(f"PostgreSQL unreachable: {exc}")
    made: list[str] = []

    def make() -> str:
        name = f"ct_backup_{secrets.token_hex(6)}"
        made.append(name)
        return base.set(database=name).render_as_string(hide_password=False)

    try:
        yield make
    finally:
        for name in made:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def create_database(pg_url: str) -> None:
    import asyncpg

    parsed = make_url(pg_url)
    admin = await asyncpg.connect(
        parsed.set(drivername="postgresql", database="postgres").render_as_string(
            hide_password=False
        )
    )
    try:
        await admin.execute(f'CREATE DATABASE "{parsed.database}"')
    finally:
        await admin.close()


async def check_copy(source: str, target: str, table_id: int, seq: int) -> None:
    assert await dump(target) == await dump(source)
    assert await resumed_seq(target, table_id) == (seq, "playing")


def migrate(source: str, target: str, monkeypatch, tmp_path, *extra: str) -> int:
    argv = ["migrate-data", "--from", source, "--to", target, "--batch", "2", *extra]
    return run(argv, monkeypatch, tmp_path)


async def test_sqlite_to_sqlite_copies_every_row_with_its_id(tmp_path, monkeypatch, capsys):
    source, target = url(tmp_path / "a.db"), url(tmp_path / "b.db")
    table_id, seq = await fill(source)
    assert await asyncio.to_thread(migrate, source, target, monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    for name in TABLES:
        assert f"{name} " in out
    assert f"actions {seq + 1}" in out
    await check_copy(source, target, table_id, seq)


async def test_sqlite_to_postgres_and_back(tmp_path, monkeypatch, capsys, pg_database):
    source = url(tmp_path / "a.db")
    table_id, seq = await fill(source)
    pg = pg_database()
    await create_database(pg)
    assert await asyncio.to_thread(migrate, source, pg, monkeypatch, tmp_path) == 0
    assert "Copied" in capsys.readouterr().out
    await check_copy(source, pg, table_id, seq)

    # the sequences are past the copied ids: new rows get new ids
    store = Store(pg)
    try:
        new_id = await store.create_table(
            2, host_id=1, game="callbreak", variant="{}", seed=3, status="lobby"
        )
        await store.put_setting(8, "", "x", 1)
    finally:
        await store.close()
    assert new_id == max(row[0] for row in (await dump(source))["tables"]) + 1

    back = url(tmp_path / "back.db")
    assert await asyncio.to_thread(migrate, pg, back, monkeypatch, tmp_path) == 0
    assert await dump(back) == await dump(pg)
    assert await resumed_seq(back, table_id) == (seq, "playing")


async def test_refuses_a_target_with_rows_unless_forced(tmp_path, monkeypatch, capsys):
    source, target = url(tmp_path / "a.db"), url(tmp_path / "b.db")
    table_id, seq = await fill(source)
    store = Store(target)
    await store.migrate()
    await store.put_setting(1, "", "mine", 1)
    await store.close()
    assert await asyncio.to_thread(migrate, source, target, monkeypatch, tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err and "guild_settings 1" in err
    assert (await dump(target))["guild_settings"][0][3] == "mine"
    assert await asyncio.to_thread(migrate, source, target, monkeypatch, tmp_path, "--force") == 0
    await check_copy(source, target, table_id, seq)


async def test_refuses_a_source_at_another_schema(tmp_path, monkeypatch, capsys):
    older = tmp_path / "old.db"
    store = Store(url(older))
    await store.migrate()
    await store.close()
    target = tmp_path / "t.db"
    for version, said in (("0001", "older"), ("7777", "newer than this Card Table")):
        with sqlite3.connect(older) as conn:
            conn.execute("update alembic_version set version_num = ?", (version,))
        code = await asyncio.to_thread(migrate, url(older), url(target), monkeypatch, tmp_path)
        assert code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
        assert not target.exists()


@pytest.mark.parametrize(
    ("source", "target", "said"),
    [
        ("sqlite+aiosqlite:///{tmp}/none.db", "sqlite+aiosqlite:///{tmp}/t.db", "no database"),
        ("sqlite+aiosqlite:///{tmp}/a.db", "sqlite+aiosqlite:///{tmp}/a.db", "same database"),
        ("nonsense", "sqlite+aiosqlite:///{tmp}/t.db", "not a database URL"),
        ("mysql://x@h/db", "sqlite+aiosqlite:///{tmp}/t.db", "only SQLite and PostgreSQL"),
        ("sqlite+aiosqlite:///{tmp}/a.db", "sqlite+aiosqlite:///{tmp}/no/dir/t.db", "folder"),
    ],
)
def test_refusals_are_one_line(tmp_path, monkeypatch, capsys, source, target, said):
    (tmp_path / "a.db").write_bytes(b"")
    argv = [
        "migrate-data",
        "--from",
        source.format(tmp=tmp_path),
        "--to",
        target.format(tmp=tmp_path),
    ]
    assert run(argv, monkeypatch, tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
    assert not Path(tmp_path / "t.db").exists()


def test_refuses_an_unreachable_postgres_target_without_the_password(tmp_path, monkeypatch, capsys):
    source = tmp_path / "a.db"
    asyncio.run(fill(url(source)))
    target = "postgresql+asyncpg://u:hunter2@127.0.0.1:1/none"
    assert migrate(url(source), target, monkeypatch, tmp_path) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot open --to" in err and "hunter2" not in err

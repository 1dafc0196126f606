"""A database written by a newer Card Table (a schema version no migration
here knows) gets the same one line everywhere -- the bot's start, the
terminal, doctor, backup, restore, migrate-data, replay: which schema the
file is at, which version this program is, what to do -- and is not
touched."""

from __future__ import annotations

import asyncio
import hashlib
import io
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.db.errors import StoreTooNew, program_version
from bot.db.repositories import Store
from bot.discord.client import CardBot
from tests.bot.test_ops_doctor import FAKE_TOKEN

NEWER = "0099_from_a_newer_card_table"


@pytest.fixture
def newer(tmp_path, monkeypatch) -> Path:
    """A newer Card Table's database, named as a server owner would (a
    short path: the terminal and the bot's start clip a line at 200
    characters)."""
    monkeypatch.chdir(tmp_path)
    path = Path("newer.db")

    async def make() -> None:
        store = Store(f"sqlite+aiosqlite:///{path}")
        await store.migrate()
        await store.close()

    asyncio.run(make())
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (NEWER,))
    conn.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def said(capsys) -> list[str]:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return [line for line in (out + err).splitlines() if line.strip()]


def assert_the_line(line: str, path: Path) -> None:
    assert str(path) in line
    assert repr(NEWER) in line  # which schema the file is at
    assert f"newer than this Card Table {program_version()} (schema " in line  # this version
    assert line.endswith(f"upgrade Card Table, or restore a backup made with {program_version()}")
    assert "No such revision" not in line and "CommandError" not in line


def run(argv: list[str], monkeypatch, tmp_path, **env: str) -> int:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    for key in ("DISCORD_TOKEN", "DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


async def test_the_store_raises_one_domain_error(newer):
    store = Store(f"sqlite+aiosqlite:///{newer}")
    try:
        with pytest.raises(StoreTooNew) as caught:
            await store.migrate()
    finally:
        await store.close()
    assert caught.value.retryable is False and caught.value.version == NEWER
    assert_the_line(str(caught.value), newer)


def test_the_bot_start_says_it_in_one_line(newer, monkeypatch, tmp_path, capsys):
    async def login(self, token):
        await self.setup_hook()

    monkeypatch.setattr(CardBot, "login", login)
    before = digest(newer)
    code = run(
        ["run"],
        monkeypatch,
        tmp_path,
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_URL=f"sqlite+aiosqlite:///{newer}",
    )
    assert code == 1
    [line] = said(capsys)
    assert_the_line(line, newer)
    assert digest(newer) == before


def test_the_terminal_says_it_in_one_line(newer, monkeypatch, tmp_path, capsys):
    code = run(["play", "callbreak", "--db", str(newer)], monkeypatch, tmp_path)
    assert code == 2
    [line] = said(capsys)
    assert_the_line(line, newer)


def test_doctor_says_it(newer, monkeypatch, tmp_path, capsys):
    code = run(
        ["doctor", "--quick", "--db-url", f"sqlite+aiosqlite:///{newer}"], monkeypatch, tmp_path
    )
    assert code == 1
    [line] = [x for x in said(capsys) if " database:" in x]
    assert line.startswith("FAIL")
    assert_the_line(line, newer)


@pytest.mark.parametrize("command", ["backup", "restore", "migrate-data"])
def test_the_data_commands_say_it_in_one_line(command, newer, monkeypatch, tmp_path, capsys):
    url = f"sqlite+aiosqlite:///{newer}"
    other = tmp_path / "other.db"
    argv = {
        "backup": ["backup", str(other), "--db-url", url],
        "restore": ["restore", str(newer), "--db-url", f"sqlite+aiosqlite:///{other}"],
        "migrate-data": ["migrate-data", "--from", url, "--to", f"sqlite+aiosqlite:///{other}"],
    }[command]
    before = digest(newer)
    assert run(argv, monkeypatch, tmp_path) == 2
    [line] = said(capsys)
    assert line.startswith(f"python -m bot {command}: ")
    assert_the_line(line, newer)
    assert digest(newer) == before and not other.exists()


def test_replay_says_it_in_one_line(newer, monkeypatch, tmp_path, capsys):
    code = run(["replay", "1", "--db", str(newer), "--lang", "en"], monkeypatch, tmp_path)
    assert code == 2
    [line] = said(capsys)
    assert line.startswith("python -m bot replay: ")
    assert_the_line(line, newer)

"""Which database each command opens, and what it says when it is not
there (issue 24): the terminal keeps its own file and never follows
DATABASE_URL; every hint repeats the options that find the game again;
commands that read a database refuse a missing file in one line (exit 2)
and create nothing; a token that cannot be one and a database URL with the
wrong driver are told before any connection."""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.discord.client import CardBot
from bot.settings import Settings
from tests.bot.test_cli_input import read_until

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""}
QUICK = ["--set", "rounds=1", "--ai", "random"]
#: an operator's .env: the bot's real database is a PostgreSQL server (nothing listens there)
OPERATOR_ENV = "DATABASE_URL=postgresql+asyncpg://cardtable:secret@127.0.0.1:9/cardtable\n"


def run_main(argv, monkeypatch, tmp_path, stdin="q\n") -> int:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def one_error_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# -- the terminal's own database -------------------------------------------------------
def test_the_terminal_never_plays_in_the_bots_database(monkeypatch, tmp_path, capsys):
    (tmp_path / ".env").write_text(OPERATOR_ENV)
    assert run_main(["play", "callbreak", *QUICK], monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    assert "Game left unfinished. Resume with: python -m bot play --resume 1\n" in out
    assert (tmp_path / "cardtable-terminal.db").is_file()
    assert not (tmp_path / "cardtable.db").exists()
    # and with DATABASE_URL in the environment too
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--resume"]) == 0
    assert "Resuming table #1 (Callbreak)" in capsys.readouterr().out
    assert not (tmp_path / "bot.db").exists()


def test_every_hint_repeats_db_and_lang(monkeypatch, tmp_path, capsys):
    db = tmp_path / "my games" / "t.db"
    db.parent.mkdir()
    argv = ["play", "callbreak", *QUICK, "--db", str(db), "--lang", "en"]
    assert run_main(argv, monkeypatch, tmp_path, stdin="?\nq\n") == 0
    out = capsys.readouterr().out
    command = shlex.join(["python", "-m", "bot", "play", "--resume", "1", "--db", str(db)])
    assert f"Game left unfinished. Resume with: {command} --lang en\n" in out
    assert f"resume later\nwith '{shlex.join(shlex.split(command)[:5])}" in out  # '?' help
    # the hint works as printed: the same game, from the same file
    resume = shlex.split(command)[3:]
    assert run_main(resume, monkeypatch, tmp_path) == 0
    assert "Resuming table #1 (Callbreak)" in capsys.readouterr().out


def test_a_new_game_says_how_to_resume_the_unfinished_ones(monkeypatch, tmp_path, capsys):
    argv = ["play", "callbreak", *QUICK, "--db", "t.db"]
    assert run_main(argv, monkeypatch, tmp_path) == 0
    assert "You have" not in capsys.readouterr().out
    assert run_main(argv, monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    line = (
        "You have 1 unfinished game here: python -m bot play --resume 1 --db t.db goes on with it."
    )
    assert out.splitlines()[0] == line, out
    assert run_main(argv, monkeypatch, tmp_path) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert (
        first
        == "You have 2 unfinished games here: python -m bot play --resume --db t.db lists them."
    )


def test_python_m_bot_without_a_token_mentions_the_unfinished_game(tmp_path):
    def bare() -> str:
        done = subprocess.run(
            [sys.executable, "-m", "bot"],
            input="q\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            env={**ENV, "LANG": "C"},
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    bare()
    assert "You have 1 unfinished game here: python -m bot play --resume 1 goes on" in bare()


def test_sigterm_at_the_prompt_stops_cleanly_with_the_whole_hint(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "callbreak", "--seed", "8", "--db", "t.db"],
        stdin=subprocess.PIPE,  # kept open: the program waits at the prompt
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=ENV,
    )
    try:
        before = read_until(proc, b"Your move: ", timeout=60)
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=15)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    text = (before + out).decode()
    assert proc.returncode == 0, err
    assert took < 5
    assert not err.strip(), err
    assert "Interrupted: resume with python -m bot play --resume 1 --db t.db\n" in text
    again = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--resume", "1", "--db", "t.db"],
        input=b"q\n",
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        env=ENV,
    )
    assert again.returncode == 0, again.stderr
    assert b"Resuming table #1 (Callbreak) at move" in again.stdout


# -- reading a database that is not there -------------------------------------------------
def test_replay_of_a_missing_file_is_one_line_and_creates_nothing(monkeypatch, tmp_path, capsys):
    assert run_main(["replay", "2", "--db", "nonexist.db"], monkeypatch, tmp_path) == 2
    line = one_error_line(capsys)
    assert line == "python -m bot replay: there is no database nonexist.db (--db): check the path"
    assert not (tmp_path / "nonexist.db").exists()
    # the configured database too
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///gone.db")
    assert main(["replay", "2"]) == 2
    assert "there is no database gone.db (DATABASE_URL)" in one_error_line(capsys)
    assert not (tmp_path / "gone.db").exists()
    (tmp_path / "empty.db").write_bytes(b"")
    assert main(["replay", "2", "--db", "empty.db"]) == 2
    assert "empty.db (--db) is not a Card Table database" in one_error_line(capsys)


def test_resume_from_a_missing_file_is_one_line_and_creates_nothing(monkeypatch, tmp_path, capsys):
    assert run_main(["play", "--resume", "--db", "nonexist.db"], monkeypatch, tmp_path) == 2
    line = one_error_line(capsys)
    assert line == (
        "python -m bot play: there is no database nonexist.db: nothing to resume (check --db)"
    )
    assert not (tmp_path / "nonexist.db").exists()
    assert run_main(["play", "--resume", "3"], monkeypatch, tmp_path) == 2
    assert "there is no database cardtable-terminal.db" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


# -- the bot's settings, before any connection -------------------------------------------------
@pytest.fixture
def no_network(monkeypatch):
    async def login(self, token):
        raise AssertionError("the bot went to the network")

    monkeypatch.setattr(CardBot, "login", login)


@pytest.mark.parametrize("argv", [["run"], []])
def test_a_token_that_cannot_be_one_is_told_before_the_network(
    argv, no_network, monkeypatch, tmp_path, capsys
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert line.startswith("DISCORD_TOKEN (3 characters) does not look like a bot token")
    assert not (tmp_path / "bot.db").exists()


def test_a_postgresql_url_gets_its_async_driver():
    settings = Settings(database_url="postgresql://u:p@db:5432/cardtable", _env_file=None)
    assert settings.database_url == "postgresql+asyncpg://u:p@db:5432/cardtable"
    heroku = Settings(database_url="postgres://u@db/cardtable", _env_file=None)
    assert heroku.database_url == "postgresql+asyncpg://u@db/cardtable"
    plain = Settings(database_url="sqlite:///x.db", _env_file=None)
    assert plain.database_url == "sqlite+aiosqlite:///x.db"


def test_another_driver_is_refused_naming_the_right_form(no_network, monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg2://u:p@db:5432/cardtable")
    assert main(["run"]) == 2
    line = one_error_line(capsys)
    assert "DATABASE_URL" in line and "postgresql+asyncpg://" in line
    assert "psycopg" in line and "No module" not in line

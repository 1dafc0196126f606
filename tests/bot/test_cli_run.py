"""``python -m bot run`` when Discord cannot be reached or refuses the
token: one clear line and a non-zero exit code, no tracebacks.  No network:
the login is replaced by one that fails the way discord.py and aiohttp do."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.__main__ import main
from bot.discord.client import CardBot

ROOT = Path(__file__).resolve().parents[2]
#: shaped like a bot token, so ``run`` passes it on to Discord (which refuses it here)
TOKEN = base64.urlsafe_b64encode(b"900000000000000002").decode().rstrip("=") + ".GaBcDe." + "x" * 38
BAD_TOKEN = "Discord refused the token: check DISCORD_TOKEN in .env"


def connector_error() -> aiohttp.ClientConnectorError:
    key = SimpleNamespace(host="discord.com", port=443, ssl=True)
    return aiohttp.ClientConnectorError(key, OSError(-3, "Temporary failure in name resolution"))  # type: ignore[arg-type]


def http_401() -> discord.HTTPException:
    response = SimpleNamespace(status=401, reason="Unauthorized")
    return discord.HTTPException(response, {"message": "401: Unauthorized", "code": 0})  # type: ignore[arg-type]


@pytest.fixture
def bot_env(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")


def printed_lines(capsys) -> list[str]:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return [line for line in (out + err).splitlines() if line.strip()]


def test_a_refused_token_is_one_line(bot_env, monkeypatch, capsys):
    async def refuse(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.") from http_401()

    monkeypatch.setattr(CardBot, "start", refuse)
    assert main(["run"]) == 1
    assert printed_lines(capsys) == [BAD_TOKEN]


def test_no_network_is_one_line(bot_env, monkeypatch, capsys):
    async def unreachable(self, token):
        raise connector_error()

    monkeypatch.setattr(CardBot, "login", unreachable)
    assert main(["run"]) == 1
    (line,) = printed_lines(capsys)
    assert line.startswith("cannot reach Discord: Cannot connect to host discord.com:443")


def test_a_timeout_is_one_line(bot_env, monkeypatch, capsys):
    async def slow(self, token):
        raise TimeoutError

    monkeypatch.setattr(CardBot, "login", slow)
    assert main(["run"]) == 1
    assert printed_lines(capsys) == ["cannot reach Discord: TimeoutError"]


def test_a_database_that_cannot_be_used_is_one_line(bot_env, monkeypatch, capsys):
    from bot.db.repositories import Store, StoreUnavailable

    async def locked(self):
        raise StoreUnavailable("the database file bot.db is locked by another program")

    async def login(self, token):
        await self.setup_hook()

    monkeypatch.setattr(Store, "migrate", locked)
    monkeypatch.setattr(CardBot, "login", login)
    assert main(["run"]) == 1
    assert printed_lines(capsys) == ["the database file bot.db is locked by another program"]


def test_a_bug_keeps_its_traceback(bot_env, monkeypatch):
    async def broken(self, token):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(CardBot, "login", broken)
    with pytest.raises(ZeroDivisionError):
        main(["run"])


SCRIPT = """
import sys
import discord.http
from tests.bot.test_cli_run import connector_error, http_401

FAILURE = sys.argv.pop(1)

async def static_login(self, token):
    if FAILURE == "token":
        raise discord.LoginFailure("Improper token has been passed.") from http_401()
    raise connector_error()

discord.http.HTTPClient.static_login = static_login
from bot.__main__ import cli
sys.exit(cli())
"""


@pytest.mark.parametrize(
    ("failure", "line"),
    [("token", BAD_TOKEN), ("network", "cannot reach Discord: Cannot connect to host")],
)
def test_the_whole_program_prints_the_line_once(failure, line, tmp_path):
    # the real launcher, discord.py's real login path and our logging set-up
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, failure, "run"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
            "LOG_LEVEL": "INFO",
        },
    )
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert output.count(line) == 1, output
    lines = [x for x in output.splitlines() if x.strip()]
    # at most discord.py's own "logging in" line besides ours
    assert len(lines) <= 2, output
    assert lines[-1].startswith(line)

"""``python -m bot doctor``: one line per check, exit 0 only when all pass,
the token never printed; no network (a fake token, temporary databases)."""

from __future__ import annotations

import asyncio
import base64
import sqlite3

import pytest

from bot.__main__ import main
from bot.cli.ops_doctor import check_ai_workers, check_fonts, check_log_format, check_token
from bot.db.repositories import Store

FAKE_TOKEN = (
    base64.urlsafe_b64encode(b"112233445566778899").decode().rstrip("=")
    + ".GhIjKl."
    + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9"
)


def doctor(monkeypatch, tmp_path, capsys, *argv: str, **env: str) -> tuple[int, list[str]]:
    monkeypatch.chdir(tmp_path)
    # the same lines inside a container (CI) and out: the volume check has its own tests
    monkeypatch.setattr("bot.cli.ops_doctor.in_container", lambda: False)
    for key in ("DISCORD_TOKEN", "DATABASE_URL", "AI_WORKERS", "LOG_FORMAT"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    code = main(["doctor", *argv])
    return code, capsys.readouterr().out.splitlines()


def made_db(path) -> str:
    db_url = f"sqlite+aiosqlite:///{path}"

    async def go() -> None:
        store = Store(db_url)
        await store.migrate()
        await store.close()

    asyncio.run(go())
    return db_url


def test_all_pass_with_a_good_setup(tmp_path, monkeypatch, capsys):
    db_url = made_db(tmp_path / "ok.db")
    code, lines = doctor(
        monkeypatch, tmp_path, capsys, DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL=db_url, AI_WORKERS="1"
    )
    assert code == 0, lines
    assert [line.split()[1] for line in lines] == ["token:", "database:", "fonts:", "AI", "logs:"]
    assert all(line.startswith("OK") for line in lines)
    assert "(current)" in lines[1] and "112233445566778899" in lines[0]
    assert not any(FAKE_TOKEN in line or FAKE_TOKEN.split(".")[2] in line for line in lines)


def test_quick_checks_token_and_database_only(tmp_path, monkeypatch, capsys):
    db_url = made_db(tmp_path / "ok.db")
    code, lines = doctor(
        monkeypatch, tmp_path, capsys, "--quick", DISCORD_TOKEN=FAKE_TOKEN, DATABASE_URL=db_url
    )
    assert code == 0 and len(lines) == 2


def test_a_bad_token_fails_without_being_printed(tmp_path, monkeypatch, capsys):
    bad = "not-a-token-at-all-but-secret"
    code, lines = doctor(monkeypatch, tmp_path, capsys, DISCORD_TOKEN=bad)
    assert code == 1
    assert lines[0].startswith("FAIL token:") and bad not in "\n".join(lines)


@pytest.mark.parametrize(
    ("token", "said"),
    [
        ("", "not set"),
        ("Bot " + FAKE_TOKEN, "'Bot '"),
        (f'"{FAKE_TOKEN}"', "quotes"),
        ("abc.def.ghi", "does not look like"),
        ("A" * 24 + ".GhIjKl." + "b" * 30, "does not name a bot user"),
    ],
)
def test_token_shapes(token, said):
    check = check_token(token)
    assert not check.ok and said in check.text
    assert not token or token not in check.line()


def test_database_problems(tmp_path, monkeypatch, capsys):
    newer = tmp_path / "newer.db"
    made_db(newer)
    with sqlite3.connect(newer) as conn:
        conn.execute("update alembic_version set version_num = '9999'")
    code, lines = doctor(
        monkeypatch,
        tmp_path,
        capsys,
        "--quick",
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_URL=f"sqlite+aiosqlite:///{newer}",
    )
    assert code == 1 and lines[1].startswith("FAIL database:") and "newer" in lines[1]

    older = tmp_path / "older.db"
    made_db(older)
    with sqlite3.connect(older) as conn:
        conn.execute("update alembic_version set version_num = '0001'")
    code, lines = doctor(
        monkeypatch, tmp_path, capsys, "--quick", "--db-url", f"sqlite+aiosqlite:///{older}"
    )
    assert lines[1].startswith("OK") and "migrated at the next start" in lines[1]

    code, lines = doctor(
        monkeypatch,
        tmp_path,
        capsys,
        "--quick",
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_URL="postgresql+asyncpg://u:hunter2@127.0.0.1:1/none",
    )
    assert code == 1 and "cannot connect" in lines[1] and "hunter2" not in lines[1]

    code, lines = doctor(
        monkeypatch,
        tmp_path,
        capsys,
        "--quick",
        DISCORD_TOKEN=FAKE_TOKEN,
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/later.db",
    )
    assert code == 0 and "not created yet" in lines[1]
    assert not (tmp_path / "later.db").exists()


def test_invalid_settings_are_one_line(tmp_path, monkeypatch, capsys):
    code, lines = doctor(monkeypatch, tmp_path, capsys, AI_WORKERS="lots")
    assert code == 1 and len(lines) == 1 and "AI_WORKERS" in lines[0]


def test_fonts_ai_workers_and_log_format():
    assert check_fonts().ok
    failing = check_fonts(loader=lambda path, size: (_ for _ in ()).throw(OSError("bad")))
    assert not failing.ok and "Pillow cannot load" in failing.text
    assert check_ai_workers(None, available=4).text.endswith("3 worker processes (4 cores)")
    assert check_ai_workers(0, available=4).ok
    assert check_ai_workers(3, available=4).ok
    too_many = check_ai_workers(16, available=4)
    assert not too_many.ok and "AI_WORKERS to 3" in too_many.text
    assert check_log_format("JSON").ok and not check_log_format("xml").ok

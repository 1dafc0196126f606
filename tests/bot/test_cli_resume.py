"""``python -m bot play --resume [N]``: which game it goes on with, and a
distinct one-line answer for every case where there is none."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService

ROOT = Path(__file__).resolve().parents[2]
QUICK = ["--set", "rounds=1", "--ai", "random"]


class TtyStringIO(io.StringIO):
    """Typed lines from a person at a terminal."""

    def isatty(self) -> bool:
        return True


def run_main(args, monkeypatch, tmp_path, stdin="q\n") -> int:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setattr(
        sys, "stdin", stdin if isinstance(stdin, io.StringIO) else io.StringIO(stdin)
    )
    try:
        return main(args)
    except SystemExit as exc:
        return int(exc.code or 0)


def start_game(db: Path, monkeypatch, tmp_path, *extra: str) -> None:
    """A terminal game left unfinished at its first prompt."""
    assert run_main(["play", "callbreak", *extra, "--db", str(db)], monkeypatch, tmp_path) == 0


def finish_game(db: Path, monkeypatch, tmp_path) -> None:
    args = ["play", "callbreak", "--watch", "--seed", "3", *QUICK, "--db", str(db)]
    assert run_main(args, monkeypatch, tmp_path) == 0


def sql(db: Path, query: str, *params):
    with sqlite3.connect(db) as conn:
        rows = conn.execute(query, params).fetchall()
        conn.commit()
        return rows


def with_service(db: Path, work) -> object:
    async def go():
        store = Store(f"sqlite+aiosqlite:///{db}")
        await store.migrate()
        service = TableService(store, turn_seconds_default=0, max_open_per_host=None)
        try:
            return await work(service)
        finally:
            await service.close()
            await store.close()

    return asyncio.run(go())


def one_error_line(capsys) -> tuple[str, str]:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    return out, lines[0]


def test_no_unfinished_game(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    finish_game(db, monkeypatch, tmp_path)  # a database with no unfinished game
    capsys.readouterr()
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path) == 2
    _, line = one_error_line(capsys)
    assert line.endswith(f"there is no unfinished terminal game in {db}")


def test_the_only_unfinished_game_is_resumed(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    finish_game(db, monkeypatch, tmp_path)  # table 1, finished: not a candidate
    start_game(db, monkeypatch, tmp_path)  # table 2
    capsys.readouterr()
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    assert "Resuming table #2 (Callbreak) at move" in out
    assert "Your move: " in out


def test_several_unfinished_games_are_listed_and_a_number_is_asked_for(
    monkeypatch, tmp_path, capsys
):
    db = tmp_path / "t.db"
    start_game(db, monkeypatch, tmp_path)
    start_game(db, monkeypatch, tmp_path, "--seat", "2")
    capsys.readouterr()
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path) == 2
    out, line = one_error_line(capsys)
    assert "Unfinished terminal games:" in out
    rows = [r for r in out.splitlines() if r.startswith("  #")]
    assert len(rows) == 2
    for number, row in zip((1, 2), rows, strict=True):
        assert re.fullmatch(
            rf"  #{number}  Callbreak, deal 1, last played \d{{4}}-\d\d-\d\d \d\d:\d\d", row
        ), row
    assert line.endswith("several unfinished games: choose one with --resume N")

    # at a terminal the player is asked which (garbage first)
    stdin = TtyStringIO("7\nzz\n#2\nq\n")
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path, stdin) == 0
    out = capsys.readouterr().out
    assert "Resume which table? Type one of: 1, 2" in out
    assert "Resuming table #2 (Callbreak)" in out


def test_resume_n_of_a_finished_table_tells_its_result(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    finish_game(db, monkeypatch, tmp_path)
    capsys.readouterr()
    assert run_main(["play", "--resume", "1", "--db", str(db)], monkeypatch, tmp_path) == 2
    _, line = one_error_line(capsys)
    assert re.search(r"table 1 is finished: its result was 1\. \S", line), line
    assert "2. " in line


def test_resume_n_of_an_unknown_table_names_the_database(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    start_game(db, monkeypatch, tmp_path)
    capsys.readouterr()
    assert run_main(["play", "--resume", "9", "--db", str(db)], monkeypatch, tmp_path) == 2
    _, line = one_error_line(capsys)
    assert line.endswith(f"there is no table 9 in {db}")


def test_resume_n_of_a_discord_table_is_refused(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"

    async def discord_table(service):
        await service.start(dispatch_deadlines=False)
        return await service.create_table(Actor(101, 7, 5, name="ann"), game="callbreak")

    info = with_service(db, discord_table)
    assert run_main(["play", "--resume", str(info.id), "--db", str(db)], monkeypatch, tmp_path) == 2
    _, line = one_error_line(capsys)
    assert line.endswith(f"table {info.id} is not a terminal game (it belongs to Discord)")
    # and it is no candidate of a bare --resume either
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path) == 2
    assert "there is no unfinished terminal game" in one_error_line(capsys)[1]


def test_a_game_stopped_in_its_lobby_is_started_on_resume(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"

    async def lobby(service):
        await service.start(dispatch_deadlines=False)
        return await service.create_table(Actor.local(), game="callbreak", seed=5, host_seat=1)

    info = with_service(db, lobby)
    assert info.status == "lobby"
    assert run_main(["play", "--resume", "--db", str(db)], monkeypatch, tmp_path) == 0
    out = capsys.readouterr().out
    assert f"Resuming table #{info.id} (Callbreak)" in out
    assert "Your move: " in out
    assert sql(db, "select status from tables") == [("playing",)]


@pytest.mark.parametrize("resume", [["--resume"], ["--resume", "1"]])
def test_a_match_over_without_its_results_is_finished_and_shown(
    resume, tmp_path, monkeypatch, capsys
):
    # the process died between the last move and the results: the last move
    # is stored, the results are not, the table still says 'playing'
    db = tmp_path / "t.db"
    finish_game(db, monkeypatch, tmp_path)
    assert sql(db, "select count(*) from results where table_id = 1")[0][0] == 4
    sql(db, "delete from results where table_id = 1")
    sql(db, "update tables set status = 'playing' where id = 1")
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", *resume, "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,  # before the fix: it spun forever
        env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Table #1 (Callbreak) was over when it stopped" in result.stdout
    assert "=== Final result ===" in result.stdout
    assert "Traceback" not in result.stderr
    assert sql(db, "select status from tables where id = 1") == [("finished",)]
    assert sql(db, "select count(*) from results where table_id = 1")[0][0] == 4

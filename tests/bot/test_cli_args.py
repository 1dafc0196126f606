"""The command line of ``python -m bot play`` at its edges: every bad flag is
refused in one clear line with exit code 2, before any table is stored."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.cli.terminal_console import one_line

ROOT = Path(__file__).resolve().parents[2]
MAX_LINE = 250  # an error line, with the program name around the message


def run_main(args, monkeypatch, tmp_path, stdin="q\n") -> int:
    """``main`` in this process with a fake stdin; the exit code."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        return main(args)
    except SystemExit as exc:  # argparse
        return int(exc.code or 0)


def table_count(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        names = {r[0] for r in conn.execute("select name from sqlite_master")}
        if "tables" not in names:
            return 0
        return conn.execute("select count(*) from tables").fetchone()[0]


def refusal(capsys) -> str:
    """The one line a refusal printed (stdout must stay empty)."""
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert len(lines[0]) <= MAX_LINE, lines[0]
    assert not out.strip(), out
    return lines[0]


@pytest.mark.parametrize(
    "seed",
    ["9223372036854775808", "-1", "9" * 5000, "-" + "9" * 5000, "abc", "1e5", "", "0x10"],
)
def test_a_seed_outside_0_to_2_63_is_refused_in_one_line(seed, monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    code = run_main(["play", "callbreak", "--seed", seed, "--db", str(db)], monkeypatch, tmp_path)
    assert code == 2
    line = refusal(capsys)
    assert "seed must be" in line
    assert table_count(db) == 0


def test_the_largest_seed_is_accepted(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    args = ["play", "callbreak", "--seed", str(2**63 - 1), "--db", str(db)]
    code = run_main(args, monkeypatch, tmp_path)
    assert code == 0, capsys.readouterr().err
    assert "Resume with: python -m bot play --resume 1" in capsys.readouterr().out
    assert table_count(db) == 1


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["callbreak", "--seat", "7"], "--seat must be 0..3 for Callbreak"),
        (["callbreak", "--seat", "4"], "--seat must be 0..3 for Callbreak"),
        (["backalley", "--players", "3", "--seat", "3"], "--seat must be 0..2 for Backalley"),
        (["callbreak", "--seat", "-1"], "seat (0 = the first) must be 0 or more"),
        (["callbreak", "--seat", "9" * 400], "seat (0 = the first) must be 0 or more"),
    ],
)
def test_a_seat_out_of_range_is_refused_before_any_table_is_stored(
    args, expected, monkeypatch, tmp_path, capsys
):
    db = tmp_path / "t.db"
    # one game already stored: the refusal must add no lobby row next to it
    assert run_main(["play", "callbreak", "--db", str(db)], monkeypatch, tmp_path) == 0
    assert table_count(db) == 1
    capsys.readouterr()
    assert run_main(["play", *args, "--db", str(db)], monkeypatch, tmp_path) == 2
    assert expected in refusal(capsys)
    assert table_count(db) == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("select status from tables").fetchall() == [("playing",)]


def test_watching_needs_no_seat(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    args = ["play", "callbreak", "--watch", "--seat", "7", "--set", "rounds=1", "--ai", "random"]
    assert run_main([*args, "--db", str(db)], monkeypatch, tmp_path) == 0
    assert "Final result" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["callbreak", "--ai", "bogus"],
            "argument --ai: choose random, heuristic or search (got 'bogus')",
        ),
        (
            ["callbreak", "--ai", "x" * 3000],
            "argument --ai: choose random, heuristic or search (got 'xxx",
        ),
        (["backalley", "--players", "9"], "--players must be 2..8 for Backalley (got 9)"),
        (["backalley", "--players", "1"], "--players must be 2..8 for Backalley (got 1)"),
        (["backalley", "--players", "three"], "number of players must be a whole number"),
        (
            ["callbreak", "--players", "4"],
            "--players is only for Backalley: Callbreak always has 4 players",
        ),
        (
            ["batak", "--players", "3"],
            "--players is only for Backalley: Eşli Batak always has 4 players",
        ),
        (
            ["callbreak", "--set", "bogus=1"],
            "There is no setting 'bogus' here; known: number of deals (`rounds`) and highest bid (`max_bid`)",
        ),
        (["callbreak", "--set", "rounds=99"], "number of deals (`rounds`) must be 1..13 (got 99)"),
        (
            ["callbreak", "--set", "rounds=abc"],
            "number of deals (`rounds`) must be 1..13 (got 'abc')",
        ),
        (["callbreak", "--set", "rounds"], "--set expects KEY=VALUE (got 'rounds')"),
        (["callbreak", "--set", "=3"], "--set expects KEY=VALUE"),
        (
            ["callbreak", "--set", "rounds=3", "--set", "rounds=4"],
            "--set: rounds is given twice ('3' and '4'): give each setting once",
        ),
        (["callbreak", "--set", "turn_seconds=30"], "There is no setting 'turn_seconds'"),
        (
            ["blot", "--set", "partner_exemption=maybe"],
            "(`partner_exemption`) must be yes (`true`) or no (`false`)",
        ),
        (
            ["poker"],
            "unknown game 'poker'; choose one of: batak, callbreak, blot, backalley, ladder",
        ),
        (["callbreak", "--resume", "3"], "--resume goes on with a stored game: drop a game"),
        (["--resume", "--seed", "4"], "--resume goes on with a stored game: drop --seed"),
        (["--resume", "0"], "table number must be 1 or more"),
        (["--resume", "x"], "table number must be a whole number"),
    ],
)
def test_bad_flags_are_refused_in_one_line_and_nothing_is_created(
    args, expected, monkeypatch, tmp_path, capsys
):
    db = tmp_path / "t.db"
    assert run_main(["play", *args, "--db", str(db)], monkeypatch, tmp_path) == 2
    assert expected in refusal(capsys)
    assert not db.exists()


def test_huge_setting_values_are_clipped_to_one_short_line(monkeypatch, tmp_path, capsys):
    db = tmp_path / "t.db"
    args = ["play", "callbreak", "--set", "k" * 5000 + "=" + "\n" * 3 + "v" * 5000]
    assert run_main([*args, "--db", str(db)], monkeypatch, tmp_path) == 2
    assert "There is no setting" in refusal(capsys)  # one line, clipped (``refusal``)
    assert not db.exists()


def test_one_line_flattens_and_clips():
    text = one_line("first\nsecond\r\n\x1b[31m" + "x" * 500)
    assert "\n" not in text and "\x1b" not in text
    assert text.startswith("first second [31m")
    assert len(text) == 200 and text.endswith("…")
    assert one_line("  short  message ") == "short message"


def test_a_database_that_cannot_be_opened_is_one_line(monkeypatch, tmp_path, capsys):
    db = tmp_path / "no" / "such" / "dir" / "t.db"
    assert run_main(["play", "callbreak", "--db", str(db)], monkeypatch, tmp_path) == 2
    assert refusal(capsys).endswith(
        f"cannot open the database {db}: there is no folder {db.parent}"
    )


def test_a_database_that_is_a_folder_is_one_line(tmp_path):
    (tmp_path / "t.db").mkdir()
    for _ in range(3):  # the driver's failure used to race with the loop's end
        result = subprocess.run(
            [sys.executable, "-m", "bot", "play", "callbreak", "--db", "t.db"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
            stdin=subprocess.DEVNULL,
        )
        assert result.returncode == 2
        assert (
            result.stderr == "python -m bot play: cannot open the database t.db: it is not a file\n"
        )

"""``python -m bot rules <game>`` prints the game's rule book; an unknown or
missing game is refused in one clear line with exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot import rulebook
from bot.__main__ import main
from engine import GAMES

ROOT = Path(__file__).resolve().parents[2]


def run_main(args, monkeypatch, tmp_path, capsys) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)  # works from anywhere, not only the repository
    monkeypatch.setenv("DISCORD_TOKEN", "")
    try:
        code = main(args)
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", list(GAMES))
def test_prints_the_whole_rule_book(game, monkeypatch, tmp_path, capsys):
    code, out, err = run_main(["rules", game], monkeypatch, tmp_path, capsys)
    assert code == 0 and err == ""
    assert out == rulebook.text(game)
    assert "## Settings" in out and "| setting | default | range | meaning |" in out
    assert not (tmp_path / "cardtable.db").exists(), "printing rules stores nothing"


def test_aliases_and_case_are_accepted(monkeypatch, tmp_path, capsys):
    code, out, _ = run_main(["rules", "  CallBreak "], monkeypatch, tmp_path, capsys)
    assert code == 0 and out.startswith("# Callbreak\n")


@pytest.mark.parametrize("game", ["chess", "", "blot\nrm -rf /", "x" * 500])
def test_an_unknown_game_is_one_clear_line_and_exit_2(game, monkeypatch, tmp_path, capsys):
    code, out, err = run_main(["rules", game], monkeypatch, tmp_path, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("python -m bot rules: unknown game")
    assert "choose one of: batak, callbreak, blot, backalley, ladder" in err
    assert len(err) < 400


def test_a_missing_game_is_one_line_and_exit_2(monkeypatch, tmp_path, capsys):
    code, out, err = run_main(["rules"], monkeypatch, tmp_path, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "required: game" in err


def test_as_a_program(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bot", "rules", "ladder"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Ladder\n") and "`max_turns`" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "bot", "rules", "poker"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "python -m bot rules: unknown game 'poker'; choose one of: "
        "batak, callbreak, blot, backalley, ladder"
    ]

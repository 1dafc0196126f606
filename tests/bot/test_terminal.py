"""The terminal table driven through a pipe, garbage input included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import GAMES

ROOT = Path(__file__).resolve().parents[2]
GARBAGE = [
    "",
    "zz",
    "play",
    "bid",
    "bid -1",
    "bid 999999999999",
    "play XX",
    "💥",
    "play AS AS AS",
    "trump Q",
    "hidden x",
    "\x00",
]


def run_cli(
    args: list[str], stdin: str, timeout: int = 120, tmp_path: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=tmp_path or ROOT,
        timeout=timeout,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""},
    )


def test_callbreak_game_to_the_end_through_a_pipe_with_garbage(tmp_path):
    # We cannot know each legal move in advance, so every prompt gets the
    # garbage, '?', then every bid and card in turn: the garbage and the
    # illegal ones are refused with a reason, the first legal one is taken.
    cards = [f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA"]
    per_prompt = "\n".join([*GARBAGE, "?", "bid 0", "1", *cards]) + "\n"
    result = run_cli(
        ["play", "callbreak", "--seed", "5", "--set", "rounds=1"],
        per_prompt * 40,
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Not allowed:" not in out  # one sentence, no prefix (issue 27)
    assert "is not a move of Callbreak" in out
    assert "You cannot play " in out or "is not in your hand." in out
    assert "Final result" in out
    assert "Deal 1 is over." in out


def test_eof_in_the_middle_ends_politely(tmp_path):
    result = run_cli(["play", "callbreak", "--seed", "1"], "zz\n", tmp_path=tmp_path)
    assert result.returncode == 0
    assert "unfinished" in result.stdout
    assert "Traceback" not in result.stderr


def test_bad_setting_is_a_clear_error(tmp_path):
    result = run_cli(["play", "callbreak", "--set", "rounds=99"], "", tmp_path=tmp_path)
    assert result.returncode == 2
    assert (
        result.stderr == "python -m bot play: number of deals (`rounds`) must be 1..13 (got 99).\n"
    )
    assert not (tmp_path / "cardtable.db").exists()  # refused before anything is stored


def test_unknown_game_is_a_clear_error(tmp_path):
    result = run_cli(["play", "poker"], "", tmp_path=tmp_path)
    assert result.returncode == 2
    assert "unknown game 'poker'" in result.stderr
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("name", list(GAMES))
def test_watch_mode_plays_every_game_to_the_end(name, tmp_path):
    small = {
        "callbreak": ["--set", "rounds=1"],
        "batak": ["--set", "target_score=10"],
        "blot": ["--set", "target_score=51"],
        "backalley": ["--set", "max_cards=2", "--players", "3"],
        "ladder": [],
    }.get(name, [])
    result = run_cli(["play", name, "--seed", "2", "--watch", *small], "", tmp_path=tmp_path)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "Final result" in result.stdout


def test_shorthand_cards_and_numbers_are_read_by_the_terminal():
    from bot.cli.terminal_console import resolve_input
    from engine import get_game

    state = get_game("callbreak").new_match(seed=1)
    assert str(resolve_input("3", state.legal_actions(), "callbreak")) == "bid 3"
    assert str(resolve_input("10h", [], "callbreak")) == "play TH"
    assert str(resolve_input(" as ", [], "callbreak")) == "play AS"

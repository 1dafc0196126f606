"""What is typed at the terminal's prompt, at its edges: bytes that are not
UTF-8, control characters, huge lines, blank lines -- each refused in one
line and asked again -- and Ctrl-C, which ends the game at once."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""}
MAX_ERROR_LINE = 220


def run_bytes(args: list[str], stdin: bytes, cwd: Path, timeout: int = 120):
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        timeout=timeout,
        env=ENV,
    )


def error_lines(out: str) -> list[str]:
    """The refusals: "Not understood: ..." for a line that is no text, and
    the one-sentence refusal printed right after the prompt for a move the
    game does not take (never the narration of the player's own move)."""
    lines = []
    for line in out.splitlines():
        rest = line.removeprefix("Your move: ")
        refused = line.startswith("Your move: ") and rest and not rest.startswith("You ")
        if "Not understood:" in line or refused:
            lines.append(rest)
    return lines


def test_garbage_lines_are_refused_in_one_line_and_asked_again(tmp_path):
    garbage = [
        b"\xff\xfe\xfd",  # not UTF-8
        b"bid \xc3",  # a cut multi-byte character
        b"\x1b[A",  # an arrow key
        b"\x00",
        b"bid\x072",
        b"   \t  ",
        b"",
        b"x" * 10_000,  # a very long line
        b"1" * 150,  # long, but a line: the engine refuses it, clipped
        "💥".encode(),
        b"\r",
    ]
    stdin = b"\n".join(garbage) + b"\nq\n"
    result = run_bytes(["play", "callbreak", "--seed", "4", "--db", "t.db"], stdin, tmp_path)
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stdout + result.stderr
    errors = error_lines(out)
    assert len(errors) == len(garbage), errors
    assert out.count("Your move: ") == len(garbage) + 1
    assert all(len(line) <= MAX_ERROR_LINE for line in errors), errors
    assert "Not understood: that line is not UTF-8 text" in out
    assert "Not understood: that line has control characters" in out
    assert "Not understood: that line is too long (200 characters at most)" in out
    assert "Not understood: type a move, ? for help or q to quit" in out
    assert "Resume with: python -m bot play --resume 1" in out


def test_a_huge_last_line_without_newline_is_refused_then_the_input_ends(tmp_path):
    stdin = b"x" * 3_000_000  # one line of 3 MB and no newline: never kept whole
    result = run_bytes(["play", "callbreak", "--seed", "4", "--db", "t.db"], stdin, tmp_path)
    out = result.stdout.decode("utf-8")
    assert result.returncode == 0
    assert b"Traceback" not in result.stdout + result.stderr
    assert "Not understood: that line is too long" in out
    assert "Game left unfinished" in out


def test_input_from_a_regular_file_is_read_too(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"\xff\nzz\nq\n")
    with moves.open("rb") as stdin:
        result = subprocess.run(
            [sys.executable, "-m", "bot", "play", "callbreak", "--db", "t.db"],
            stdin=stdin,
            capture_output=True,
            cwd=tmp_path,
            timeout=120,
            env=ENV,
        )
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert "Not understood: that line is not UTF-8 text" in out
    assert "'zz' is not a move of Callbreak: type a card, or one of 'bid' or 'play'" in out
    assert "Game left unfinished" in out


def read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float) -> bytes:
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in time: {seen[-500:]!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, f"the program ended: {seen[-500:]!r}"
            seen += chunk
    return seen


def test_ctrl_c_at_the_prompt_ends_the_game_at_once_and_it_resumes(tmp_path):
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
        time.sleep(0.2)
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    text = (before + out).decode()
    assert proc.returncode == 130, err
    assert took < 10
    assert "Interrupted: resume with python -m bot play --resume 1" in text
    assert b"Traceback" not in err, err
    assert not err.strip(), err
    again = run_bytes(["play", "--resume", "--db", "t.db"], b"q\n", tmp_path)
    assert again.returncode == 0, again.stderr
    assert "Resuming table #1 (Callbreak)" in again.stdout.decode()

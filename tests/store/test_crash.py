"""Crash test: a table is played through the service against SQLite and the
process is killed with SIGKILL at random moments, many times over.  Every
restart resumes at the last acknowledged move (at most one further move,
persisted but not yet acknowledged when the kill landed), and the finished
game equals a fresh replay of the logged moves."""

from __future__ import annotations

import asyncio
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from sqlalchemy import func, select

from bot.db.models import ResultRow
from bot.db.repositories import Store
from engine import get_game

ROOT = Path(__file__).resolve().parents[2]


def launch(db: Path, *extra: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_player", str(db), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put("EOF")

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


def read_until(lines: queue.Queue[str], prefix: str, timeout: float = 60) -> tuple[str, list[str]]:
    seen = []
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = lines.get(timeout=max(0.01, end - time.monotonic()))
        seen.append(line)
        if line.startswith(prefix) or line == "EOF":
            return line, seen
    raise AssertionError(f"no {prefix} line within {timeout}s")


def test_sigkill_at_random_moments_resumes_exactly(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(2024)
    acked = 0
    kills = 0
    done = None
    resumes: list[int] = []
    for _ in range(60):
        proc, lines = launch(db)
        ready, _ = read_until(lines, "READY")
        assert ready.startswith("READY"), ready + (proc.stderr.read() if proc.stderr else "")
        resumed = int(ready.split()[1])
        assert acked <= resumed <= acked + 1, (acked, resumed)
        acked = resumed
        resumes.append(resumed)
        if kills < 15:
            time.sleep(rng.uniform(0.0, 0.12))
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            kills += 1
            for line in drain_all(lines):  # everything it printed before it died
                if line.startswith("ACK"):
                    acked = max(acked, int(line.split()[1]))
                if line.startswith("DONE"):
                    done = line
            if done:
                break
            continue
        line, _ = read_until(lines, "DONE", timeout=120)
        proc.wait(30)
        done = line
        break
    # up to 15 kills: a fast machine may finish the match in fewer
    assert kills >= 10 and done is not None and done.startswith("DONE")
    assert acked > 30, "the kills must land in the middle of the game"
    scores = [int(v) for v in done.split()[1:]]
    assert len(set(resumes)) >= 8, f"restarts did not spread over the game: {resumes}"

    seed, moves = logged(db)
    replayed = get_game("callbreak").replay(moves, seed=seed, variant={"rounds": 5})
    assert replayed.is_over and replayed.scores == scores


async def _logged(db: Path) -> tuple[int, list[str], int]:
    store = Store(f"sqlite+aiosqlite:///{db}")
    loaded = await store.table(1)
    assert loaded is not None
    moves = [a.notation for a in await store.actions(1)]
    async with store.sessions() as session:
        results = await session.scalar(select(func.count()).select_from(ResultRow))
    await store.close()
    return loaded[0].seed, moves, int(results or 0)


def logged(db: Path) -> tuple[int, list[str]]:
    seed, moves, _ = asyncio.run(_logged(db))
    return seed, moves


def finish(db: Path) -> tuple[int, str]:
    """Start the player again and let it play to the end."""
    proc, lines = launch(db)
    ready, seen = read_until(lines, "READY")
    assert ready.startswith("READY"), seen
    done, _ = read_until(lines, "DONE", timeout=120)
    proc.wait(30)
    return int(ready.split()[1]), done


def test_a_kill_between_persist_and_apply_keeps_the_move(tmp_path):
    db = tmp_path / "persist.db"
    proc, lines = launch(db, "callbreak", "--die-after-persist", "6")
    proc.wait(60)
    assert proc.returncode == -signal.SIGKILL
    acked = [int(line.split()[1]) for line in drain_all(lines) if line.startswith("ACK")]
    assert max(acked, default=0) == 5  # the 6th was stored, never acknowledged
    resumed, done = finish(db)
    assert resumed == 6  # stored before the kill: kept, and not made twice
    seed, moves = logged(db)
    replayed = get_game("callbreak").replay(moves, seed=seed, variant={"rounds": 5})
    assert replayed.scores == [int(v) for v in done.split()[1:]]


def test_a_kill_before_the_results_is_finished_on_restart_once(tmp_path):
    db = tmp_path / "finish.db"
    proc, lines = launch(db, "callbreak", "--die-before-results")
    proc.wait(120)
    assert proc.returncode == -signal.SIGKILL
    assert not any(line.startswith("DONE") for line in drain_all(lines))
    _, moves, results = asyncio.run(_logged(db))
    assert results == 0 and moves
    for _ in range(2):  # finished once, then left alone
        resumed, done = finish(db)
        assert resumed == len(moves) and done.startswith("DONE")
        assert asyncio.run(_logged(db))[2] == 4


def drain_all(lines: queue.Queue[str]) -> list[str]:
    """Everything the process printed, up to its end."""
    out = []
    while True:
        line = lines.get(timeout=30)
        if line == "EOF":
            return out
        out.append(line)

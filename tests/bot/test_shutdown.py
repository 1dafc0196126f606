"""SIGTERM (``docker stop``, systemd) and SIGINT (Ctrl-C) stop the bot
cleanly: it exits 0 within seconds, and every move a player was told about
is in the database when it starts again.

The bot runs in a subprocess (``tests/bot/shutdown_bot.py``) through the
real ``python -m bot run`` path with the harness's offline Discord; only
the gateway connection is a stand-in that plays a table as a person."""

from __future__ import annotations

import asyncio
import base64
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.db.repositories import Store
from bot.services.tables import TableService

ROOT = Path(__file__).resolve().parents[2]
#: shaped like a bot token (``doctor`` and ``run`` check the shape)
TOKEN = base64.urlsafe_b64encode(b"900000000000000002").decode().rstrip("=") + ".GaBcDe." + "x" * 38
ACKS_BEFORE_STOP = 3


def launch(tmp_path: Path) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.shutdown_bot"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
            "AI_WORKERS": "1",  # hard seats think in the worker pool, which must close
            "AI_BUDGET_MS": "10",
            "EDIT_INTERVAL": "0",
            "LOG_LEVEL": "INFO",
        },
    )
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put("EOF")

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


async def stored(db: Path, table: int) -> tuple[list[int], int]:
    """The stored moves' numbers, and the move a restarted service resumes at."""
    store = Store(f"sqlite+aiosqlite:///{db}")
    try:
        seqs = [row.seq for row in await store.actions(table)]
        service = TableService(store, turn_seconds_default=0)
        await service.start(dispatch_deadlines=False)
        try:
            resumed = service.tables[table].info().seq if table in service.tables else -1
        finally:
            await service.close()
        return seqs, resumed
    finally:
        await store.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stores_every_acknowledged_move_and_exits_0(tmp_path, signum):
    proc, lines = launch(tmp_path)
    table, acked, seen = None, [], []
    try:
        deadline = time.monotonic() + 120
        while len(acked) < ACKS_BEFORE_STOP:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            seen.append(line)
            assert line not in ("EOF", "OVER"), (seen, proc.stderr.read() if proc.stderr else "")
            if line.startswith("TABLE"):
                table = int(line.split()[1])
            if line.startswith("ACK"):
                acked.append(int(line.split()[1]))
        start = time.monotonic()
        proc.send_signal(signum)  # moves in play: the person's next one, the AI's
        proc.wait(timeout=30)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.stderr is not None
    err = proc.stderr.read()
    while (line := lines.get(timeout=10)) != "EOF":  # what it printed until it stopped
        if line.startswith("ACK"):
            acked.append(int(line.split()[1]))
    assert proc.returncode == 0, err[-3000:]
    assert took < 5, f"took {took:.1f} s"
    assert "Traceback" not in err, err[-3000:]
    assert f"{signal.Signals(signum).name}: shutting down" in err
    assert "stopped: every acknowledged move is stored" in err.splitlines()[-1]
    assert table is not None
    seqs, resumed = asyncio.run(stored(tmp_path / "bot.db", table))
    assert seqs == list(range(len(seqs)))
    assert set(acked) <= set(seqs), (acked, seqs)
    assert resumed == len(seqs) > max(acked)

"""A store run that writes settings quickly and SIGKILLs itself, leaving
``-wal`` and ``-shm`` as a killed bot does (the store checkpoints right after
its first write and then not for a second, so most writes are only in the
log).  Used by the lost-log and doctor tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KILLED_RUN = r"""
import asyncio, os, signal, sys
from bot.db.repositories import Store

async def run(url, writes):
    store = Store(url)
    await store.migrate()
    for i in range(writes):
        await store.put_setting(1, "", f"k{i:03}", "x" * 300)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(run(sys.argv[1], int(sys.argv[2])))
"""


def killed_run(path: Path, writes: int) -> None:
    """Run the store on ``path``, write ``writes`` settings, die by SIGKILL."""
    result = subprocess.run(
        [sys.executable, "-c", KILLED_RUN, f"sqlite+aiosqlite:///{path}", str(writes)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == -signal.SIGKILL, result.stderr
    assert Path(f"{path}-wal").exists() and Path(f"{path}-shm").exists()

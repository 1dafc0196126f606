"""Lint and types are part of the suite: ruff over the project and
``mypy --strict`` over the engine (pyproject's [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_reports_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "engine", "bot", "tests", "bench", "migrations"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_is_strictly_typed():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "engine"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr

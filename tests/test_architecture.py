"""Architecture: the layering of bot/ and engine/ is import-linter's
contracts (``[tool.importlinter]`` in pyproject.toml, docs/design.md
"Layers"): the engine imports nothing from bot/ or any I/O framework; each
layer of bot/ imports only those below it (cli > discord > render > services
> db > i18n); only bot/discord imports discord.py; render imports no service
or store logic; no import circles.  TYPE_CHECKING imports count too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: runs import-linter's command line in this interpreter (``lint-imports``)
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's bot/ and engine/
    return subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contracts_hold():
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The check sees real imports: a contract this tree breaks (bot/discord
    does import discord.py) fails."""
    config = tmp_path / "contracts.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_packages = ["bot"]\n'
        "include_external_packages = true\n"
        "[[tool.importlinter.contracts]]\n"
        'name = "bot.discord without discord.py"\n'
        'type = "forbidden"\n'
        'source_modules = ["bot.discord"]\n'
        'forbidden_modules = ["discord"]\n',
        encoding="utf-8",
    )
    result = lint_imports("--config", str(config))
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert "BROKEN" in result.stdout

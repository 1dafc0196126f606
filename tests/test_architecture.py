"""Architecture: the engine is pure (DESIGN.md "Layers"): it imports nothing
from bot/, discord, sqlalchemy or any other I/O framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = (
    "bot",
    "discord",
    "sqlalchemy",
    "aiosqlite",
    "asyncpg",
    "alembic",
    "asyncio",
    "PIL",
    "pydantic",
)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_imports_nothing_from_bot_discord_or_databases():
    offenders = []
    files = list((ROOT / "engine").rglob("*.py"))
    assert len(files) > 10
    for path in files:
        for name in imported_modules(path):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_importing_engine_loads_no_io_framework():
    code = (
        "import sys, engine, engine.ai; "
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_bot_services_do_not_import_discord():
    services = ROOT / "bot" / "services"
    for path in services.rglob("*.py") if services.exists() else []:
        assert not any(n.split(".")[0] == "discord" for n in imported_modules(path)), path

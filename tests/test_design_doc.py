"""docs/design.md describes the code as it is: every file it names exists,
the store's and the service's modules are each described, and a move's way
from a click to the database and back is drawn.  (It once described the
store as it was two changes before: no writer, no group commit, no shards.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
#: modules too small or too internal to need a word in the design
NOT_DESCRIBED = {
    "__init__.py",
    "errors.py",
    "models.py",
    "retry.py",
    "schema.py",
    "history_queries.py",
    "tournament_models.py",
    "session.py",
    "actor.py",
    "live.py",
    "policy.py",
    "watching.py",
    "ratings.py",
    "hints.py",
    "analysis_jobs.py",
    "history.py",
    "replays.py",
    "lobby.py",
}


def test_every_file_named_exists():
    names = set(re.findall(r"`([\w./-]+\.(?:py|md))`", DESIGN))
    assert names
    every = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py")} | {
        p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.md")
    }
    for name in names:
        assert any(path == name or path.endswith("/" + name) for path in every), name


def test_the_store_and_service_modules_are_described():
    for folder in ("bot/db", "bot/services"):
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name not in NOT_DESCRIBED:
                assert f"{path.name}`" in DESIGN, f"docs/design.md does not describe {path}"


def test_a_moves_way_is_drawn():
    section = DESIGN.split("## A move's way", 1)[1].split("\n## ", 1)[0]
    diagram = section.split("```", 2)[1]
    for step in ("TableService.act", "GroupCommit", "COMMIT", "Presenter", "Discord channel"):
        assert step in diagram, step

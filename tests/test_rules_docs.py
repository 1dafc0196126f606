"""The rule book (bot/rulebook/*.md, indexed by docs/rules/README.md) and the
engine never disagree: every setting's name, default and range, in both
directions; every relative link resolves; nothing points outside the
repository (a fresh clone is complete)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot import rulebook
from engine import GAMES, get_game

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def test_every_game_has_a_rule_book_and_nothing_else_is_there():
    books = {p.stem for p in (ROOT / "bot" / "rulebook").glob("*.md")}
    assert books == set(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_settings_table_matches_the_engine(game):
    rows = {row.name: row for row in rulebook.settings_table(game)}
    specs = {spec.name: spec for spec in get_game(game).Variant.settings()}
    assert sorted(rows) == sorted(specs), "documented settings differ from the engine's"
    assert len(rows) == len(rulebook.settings_table(game)), "a setting documented twice"
    for name, spec in specs.items():
        row = rows[name]
        assert row.default == rulebook.format_value(spec.default), name
        assert row.range == spec.describe_range(), name
        assert row.meaning, f"{name} needs a meaning"


@pytest.mark.parametrize("game", list(GAMES))
def test_each_book_has_the_sections_players_need(game):
    titles = [s.title for s in rulebook.sections(game)]
    assert titles[0] == rulebook.OVERVIEW
    assert titles[-1] == rulebook.SETTINGS
    assert "Scoring" in titles or "Winning" in titles
    assert "Rulings" in titles
    assert len(titles) == len(set(titles)), "section titles must be distinct"
    assert rulebook.title(game) in (get_game(game).title, get_game(game).title.split()[-1])
    for sec in rulebook.sections(game):
        assert len(sec.body) <= rulebook.PAGE_LIMIT, f"{sec.title} is too long for one page"
        assert len(sec.title) <= 100


def test_a_setting_table_that_drifts_is_caught(monkeypatch):
    good = rulebook.text("callbreak")
    monkeypatch.setattr(
        rulebook,
        "text",
        lambda game: good.replace("| `rounds` | 5 | 1..13 |", "| `rounds` | 6 | 1..13 |"),
    )
    (row, _) = rulebook.settings_table("callbreak")
    assert (
        row.default
        == "6"
        != rulebook.format_value(get_game("callbreak").Variant.spec("rounds").default)
    )


def _markdown_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [*files, *sorted((ROOT / "bot" / "rulebook").glob("*.md"))]


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_to_files_in_the_repository(path):
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor on the same page
        resolved = (path.parent / target.split("#")[0]).resolve()
        assert resolved.exists(), f"{path.relative_to(ROOT)} links to missing {target}"
        assert resolved.is_relative_to(ROOT), f"{path.relative_to(ROOT)} leaves the repository"


def test_nothing_refers_to_files_outside_the_repository():
    suffixes = {".md", ".py", ".toml", ".txt", ".cfg", ".ini"}
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for folder in ("docs", "bot", "engine"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in suffixes]
    offenders = [
        str(p.relative_to(ROOT))
        for p in files
        if p.is_file()
        and ("../shared" in (text := p.read_text(encoding="utf-8")) or "/work/shared" in text)
    ]
    assert offenders == []


def test_the_index_links_every_rule_book():
    index = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert f"(../../bot/rulebook/{game}.md)" in index
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/rules/" in readme


def test_the_rule_books_ship_with_the_package():
    """An installed bot (a wheel) carries the books: they are package data of
    ``bot.rulebook`` and read through importlib.resources, never from a path
    relative to a checkout."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "*.md" in config["tool"]["setuptools"]["package-data"]["bot.rulebook"]
    source = (ROOT / "bot" / "rulebook" / "__init__.py").read_text(encoding="utf-8")
    assert "resources.files(__name__)" in source and "__file__" not in source

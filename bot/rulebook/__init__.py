"""The rule book: one Markdown file per game, shipped inside this package.

``bot/rulebook/<game>.md`` is the single source of truth: the files sit
next to this module so that an installed wheel carries them as package data
(``[tool.setuptools.package-data]`` cannot reach ``docs/``), and
``docs/rules/README.md`` is the index that links here.  The same text is
printed by ``python -m bot rules <game>`` and paged into embeds by ``/rules``
on Discord; ``tests/test_rules_docs.py`` checks every settings table against
the engine's variant.

Each file has a ``# Title``, an introduction, then ``## `` sections; the
``## Settings`` section holds a table ``| setting | default | range |
meaning |`` whose default and range cells are spelled as
``format_value`` and ``SettingSpec.describe_range`` spell them.

Translations sit in ``bot/rulebook/<lang>/<game>.md`` (``tr``, ``hy``,
``ne``, ``hi``) with the same sections in the same order; ``lang=`` picks
one, and a game without a translated book reads in English.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from importlib import resources
from typing import Any, TextIO

from engine import GAMES, get_game
from engine.errors import EngineError

#: an embed description holds at most 4096 characters; sections are kept under this
PAGE_LIMIT = 4000
SETTINGS = "Settings"
OVERVIEW = "Overview"
_HEADING = re.compile(r"^## +(?P<title>.+?)\s*$")


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    body: str


@dataclass(frozen=True, slots=True)
class SettingRow:
    name: str
    default: str
    range: str
    meaning: str


def format_value(value: Any) -> str:
    """A setting value as the rule book spells it: ``true``, ``3,5``, ``50``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value)


def game_name(text: str) -> str:
    """The registered name of a game (aliases allowed); ``UnknownGame`` otherwise."""
    return get_game(text).name


def language_of(game: str, lang: str | None) -> str | None:
    """``lang`` when the game's book is translated into it, else None (English)."""
    if not lang or not lang.isalpha():
        return None
    path = resources.files(__name__).joinpath(lang, f"{game_name(game)}.md")
    return lang if path.is_file() else None


def text(game: str, lang: str | None = None) -> str:
    """The whole rule book of ``game`` as Markdown (in ``lang`` when translated)."""
    name = game_name(game)
    folder = resources.files(__name__)
    chosen = language_of(name, lang)
    if chosen is not None:
        folder = folder.joinpath(chosen)
    return folder.joinpath(f"{name}.md").read_text(encoding="utf-8")


def title(game: str, lang: str | None = None) -> str:
    first = (text(game) if lang is None else text(game, lang)).splitlines()[0]
    return first.lstrip("#").strip()


def sections(game: str, lang: str | None = None) -> list[Section]:
    """The introduction (as "Overview") and every ``##`` section, in order."""
    out: list[Section] = []
    current, lines = OVERVIEW, []
    book = text(game) if lang is None else text(game, lang)
    for line in book.splitlines():
        match = _HEADING.match(line)
        if match:
            out.append(Section(current, "\n".join(lines).strip()))
            current, lines = match["title"], []
        elif not line.startswith("# "):
            lines.append(line)
    out.append(Section(current, "\n".join(lines).strip()))
    return [s for s in out if s.body]


def section(game: str, wanted: str, lang: str | None = None) -> Section | None:
    """The section whose title is ``wanted`` (case and spaces ignored)."""
    key = " ".join(wanted.split()).lower()
    for sec in sections(game, lang):
        if sec.title.lower() == key:
            return sec
    return None


#: the words of the section titles that explain each phase of play
PHASE_WORDS = {
    "auction": ("bazar", "auction", "bidding"),
    "bidding": ("bidding",),
    "trump": ("bidding", "dummy"),
    "play": ("play", "what may be played"),
}


def for_phase(game: str, phase: str, lang: str | None = None) -> list[Section]:
    """Every section, the one that explains ``phase`` first (a player at a
    running table asking for the rules is most likely stuck right there).
    A translated book has the English book's sections in the same order, so
    the section is found by its English title's place."""
    english = sections(game)
    every = sections(game, lang)
    words = PHASE_WORDS.get(phase, ())
    at = next((i for i, s in enumerate(english) if any(w in s.title.lower() for w in words)), None)
    if at is None or len(every) != len(english):
        return every
    first = every[at]
    return [first, *(s for s in every if s is not first)]


def _cell(raw: str) -> str:
    cell = raw.strip()
    if len(cell) > 1 and cell[0] == cell[-1] == "`" and cell.count("`") == 2:
        cell = cell[1:-1].strip()
    return cell


def _cells(line: str) -> list[str]:
    return [_cell(c) for c in line.strip().strip("|").split("|")]


def settings_table(game: str) -> list[SettingRow]:
    """The rows of the ``## Settings`` table (header and rule lines skipped)."""
    sec = section(game, SETTINGS)
    if sec is None:
        return []
    rows = [line for line in sec.body.splitlines() if line.lstrip().startswith("|")]
    if not rows or _cells(rows[0]) != ["setting", "default", "range", "meaning"]:
        raise ValueError(f"{game}: the settings table must start | setting | default | range |")
    out = []
    for line in rows[2:]:
        name, default, range_, meaning = _cells(line)
        out.append(SettingRow(name, default, range_, meaning))
    return out


# -- the terminal: python -m bot rules <game> ---------------------------------------------------
def add_parser(sub: Any) -> None:
    """Register ``rules`` on ``python -m bot``'s subparsers."""
    rules = sub.add_parser("rules", help="print a game's rule book")
    rules.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    rules.add_argument(
        "--lang", default=None, help="the book's language: en, tr, hy, ne, hi (default: $LANG)"
    )


def cli_rules(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Print the rule book; an unknown game is one line on stderr, exit 2."""
    out = out or sys.stdout
    err = err or sys.stderr
    lang = getattr(args, "lang", None)
    if lang is None:
        import os

        from bot.i18n.locales import from_environment

        lang = from_environment(os.environ)
    try:
        book = text(args.game, lang)
    except EngineError as exc:
        print(f"python -m bot rules: {exc}", file=err)
        return 2
    out.write(book if book.endswith("\n") else book + "\n")
    return 0

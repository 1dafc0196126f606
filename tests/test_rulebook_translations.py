"""Every translated rule book (``bot/rulebook/<locale>/<game>.md``) keeps the
shape of the English one, section for section.

``/rules`` pages a book into embeds by its ``## `` headings and the
terminal prints it whole, so a translation must keep the same headings in
the same order and at the same levels, the same lists and tables, and
every number, command and setting it quotes (a player types ``bid 3`` or
``/settings set`` whatever language they read).  The test is generic over
the locale folders: a new language is checked as soon as its folder exists.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bot import rulebook
from engine import GAMES, get_game

BOOKS = Path(rulebook.__file__).resolve().parent
LOCALES = sorted(p.name for p in BOOKS.iterdir() if p.is_dir() and any(p.glob("*.md")))
PAIRS = [(locale, game) for locale in LOCALES for game in GAMES]

_CODE = re.compile(r"`[^`\n]+`")
#: a decimal comma (Turkish ``3,2``) is the same number as ``3.2``
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
#: the first word of what a player types: moves, and Ladder's requirements
_TYPED_WORDS = {"bid", "pass", "trump", "play", "hidden", "pickup", "contra", "recontra"}
_TYPED_WORDS |= {"ANY", "MIN", "MAX"}
_NOTATION = re.compile(r"^[A-Z0-9 <>=+.,/-]+$")


def _english(game: str) -> str:
    return (BOOKS / f"{game}.md").read_text(encoding="utf-8")


def _translated(locale: str, game: str) -> str:
    return (BOOKS / locale / f"{game}.md").read_text(encoding="utf-8")


def _sections(text: str) -> list[str]:
    """The title block, then one block per ``## `` heading (heading included)."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.startswith("## "):
            blocks.append([])
        blocks[-1].append(line)
    return ["\n".join(b) for b in blocks]


def _shape(block: str) -> list[tuple[str, int]]:
    """Headings with their level, list items, and table rows with their cell count."""
    out: list[tuple[str, int]] = []
    for line in block.splitlines():
        if line.startswith("#"):
            out.append(("heading", len(line) - len(line.lstrip("#"))))
        elif line.lstrip().startswith("|"):
            out.append(("row", line.strip().strip("|").count("|") + 1))
        elif line.startswith("- "):
            out.append(("item", 0))
    return out


def _numbers(block: str) -> Counter[str]:
    return Counter(n.replace(",", ".") for n in _NUMBER.findall(_CODE.sub(" ", block)))


def _typed(span: str, game: str) -> bool:
    """Whether a code span of the English book is something a player or
    moderator types or reads as notation (a command, a setting, a card):
    those stay as they are.  A formula's variables (`` `-bid` ``) may be
    translated."""
    inner = span.strip("`").strip()
    if inner.startswith(("/", "--")) or inner.split()[0] in _TYPED_WORDS:
        return True
    if _NOTATION.match(inner):
        return True
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", inner))
    settings = get_game(game).Variant.settings()
    values = {str(v) for s in settings for v in (s.default, *(s.choices or ()))}
    return bool(words & {s.name for s in settings}) or inner in values | {"true", "false"}


def _code(block: str, game: str, kept: set[str]) -> Counter[str]:
    return Counter(s for s in _CODE.findall(block) if s in kept)


def test_there_are_translations_and_each_covers_every_game() -> None:
    assert LOCALES, "no translated rule book under bot/rulebook/<locale>/"
    for locale in LOCALES:
        books = {p.stem for p in (BOOKS / locale).glob("*.md")}
        assert books == set(GAMES), f"{locale}: rule books differ from the games"


@pytest.mark.parametrize(("locale", "game"), PAIRS)
def test_the_book_is_not_empty_and_has_a_title(locale: str, game: str) -> None:
    text = _translated(locale, game)
    assert text.strip(), f"{locale}/{game}.md is empty"
    first = text.splitlines()[0]
    assert first.startswith("# ") and first[2:].strip(), "the first line must be the # title"


@pytest.mark.parametrize(("locale", "game"), PAIRS)
def test_headings_lists_and_tables_match_the_english_book(locale: str, game: str) -> None:
    english, translated = _sections(_english(game)), _sections(_translated(locale, game))
    assert len(translated) == len(english), "a different number of sections"
    for number, (en, tr) in enumerate(zip(english, translated, strict=True)):
        assert _shape(tr) == _shape(en), f"section {number}: {tr.splitlines()[0]!r}"


@pytest.mark.parametrize(("locale", "game"), PAIRS)
def test_numbers_and_commands_are_kept_in_every_section(locale: str, game: str) -> None:
    english, translated = _sections(_english(game)), _sections(_translated(locale, game))
    kept = {s for s in _CODE.findall(_english(game)) if _typed(s, game)}
    for en, tr in zip(english, translated, strict=True):
        where = tr.splitlines()[0] if tr else "(title)"
        assert _numbers(tr) == _numbers(en), f"{where}: numbers differ"
        assert _code(tr, game, kept) == _code(en, game, kept), f"{where}: commands differ"


@pytest.mark.parametrize(("locale", "game"), PAIRS)
def test_the_settings_table_keeps_names_and_defaults(locale: str, game: str) -> None:
    """Setting names and defaults are what a moderator types: never translated."""

    def rows(text: str) -> list[tuple[str, ...]]:
        table = [ln for ln in _sections(text)[-1].splitlines() if ln.lstrip().startswith("|")]
        return [tuple(c.strip() for c in ln.strip().strip("|").split("|")[:2]) for ln in table[2:]]

    assert rows(_translated(locale, game)) == rows(_english(game))


@pytest.mark.parametrize(("locale", "game"), PAIRS)
def test_sections_fit_a_page_and_are_translated(locale: str, game: str) -> None:
    english = [s.title for s in rulebook.sections(game)]
    titles, changed, prose = [], 0, 0
    for block in _sections(_translated(locale, game))[1:]:
        title = block.splitlines()[0][3:].strip()
        titles.append(title)
        body = "\n".join(block.splitlines()[1:]).strip()
        assert body, f"{title}: empty section"
        assert len(body) <= rulebook.PAGE_LIMIT, f"{title} is too long for one page"
        assert len(title) <= 100  # a slash-command choice name
    assert len(titles) == len(set(titles)), "section titles must be distinct"
    english_lines = set(_english(game).splitlines())
    for line in _translated(locale, game).splitlines():
        if line.strip() and not line.lstrip().startswith(("|", "#")):
            prose += 1
            changed += line not in english_lines
    assert changed >= 0.9 * prose, "most of the book is still English"
    assert titles != english[1:], "no section title is translated"

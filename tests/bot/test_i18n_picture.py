"""The table picture in every language: its labels come from the catalogues,
every character any catalogue uses has a glyph in a shipped font (Armenian
and Devanagari included), and without libraqm (no complex shaping) the
picture still renders."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALES, using
from bot.i18n.catalog import catalogue_path
from bot.render.picture import typefaces as picture_fonts
from bot.render.picture.facts import deal_text, phase_text, place_text
from bot.render.picture.table import render_table_png
from bot.render.picture.typefaces import font_for
from engine import Observation, get_game

NAMES = ["Ada", "Արամ", "सीता", "Zeynep"]


def view_of(game: str, moves: int, seed: int = 5) -> Observation:
    state = get_game(game).new_match(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state.view(None)


#: the modules whose words the picture draws (the game's words come from ``terms``)
DRAWN = ("bot/render/picture/table.py", "bot/render/picture/", "bot/i18n/terms.py")


def translations(code: str) -> Iterator[str]:
    """The translations of every message the picture may draw."""
    with catalogue_path(code).open("rb") as handle:
        for message in read_po(handle):
            if not any(path.startswith(DRAWN) for path, _ in message.locations):
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            yield from (s for s in strings if s)


@pytest.mark.parametrize("code", LOCALES[1:])
def test_every_translated_character_has_a_glyph(code: str) -> None:
    """Whatever a translator writes can be drawn (no missing-glyph boxes)."""
    lacking = {
        ch
        for text in translations(code)
        for ch in text
        if ch.isprintable() and not ch.isspace() and ch != "\ufe0f" and font_for(ch) is None
    }
    assert not lacking, f"{code}: no shipped font draws {sorted(lacking)}"


@pytest.mark.parametrize("code", LOCALES[1:])
def test_the_pictures_words_are_translated(code: str) -> None:
    view = view_of("callbreak", 6)
    english = (deal_text(view), phase_text(view), place_text(2))
    with using(code):
        translated = (deal_text(view), phase_text(view), place_text(2))
        png = render_table_png(view, NAMES, title="Callbreak")
    assert translated != english
    assert png.startswith(b"\x89PNG")


@pytest.mark.parametrize(("code", "game"), [("hy", "blot"), ("hi", "callbreak")])
def test_without_raqm_the_picture_still_renders(
    code: str, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Pillow built without libraqm draws unshaped text instead of failing."""
    monkeypatch.setattr(picture_fonts.features, "check", lambda feature: False)
    caches = (picture_fonts.get_font, picture_fonts.label, picture_fonts.text_width)
    for cached in caches:
        cached.cache_clear()
    try:
        with using(code):
            png = render_table_png(view_of(game, 12), NAMES)
        font = picture_fonts.get_font(picture_fonts.DEVANAGARI, 20)
        assert font.layout_engine == picture_fonts.ImageFont.Layout.BASIC
    finally:
        for cached in caches:
            cached.cache_clear()
    assert png.startswith(b"\x89PNG")

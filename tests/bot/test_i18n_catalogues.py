"""The message catalogues: the template is up to date with the code, and
every locale's catalogue has every message of the template, translated
(all plural forms), with the same placeholders.

These tests are strict for every locale: a catalogue a translator has not
finished fails them, naming what is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import LOCALES, placeholders
from bot.i18n.catalog import PLURAL_FORMS, catalogue_path, template_path
from bot.i18n.terms import GAME_SUMMARIES, GAME_TITLES, SETTING_HELP
from bot.i18n.update import extract, ids
from engine import GAMES, get_game

TRANSLATED = LOCALES[1:]
#: the plural form's count may be left out of a form ("one card" / "{n} cards")
COUNT = {"n"}


def read(path: Path | object) -> Catalog:
    with Path(str(path)).open("rb") as handle:
        return read_po(handle)


@pytest.fixture(scope="module")
def template() -> Catalog:
    return read(template_path())


def key(message: object) -> tuple[str, str | None]:
    mid = message.id  # type: ignore[attr-defined]
    return (mid[0] if isinstance(mid, tuple) else mid, message.context)  # type: ignore[attr-defined]


def test_the_template_is_up_to_date_with_the_code(tmp_path: Path) -> None:
    """``python -m bot.i18n.update`` was run after the last text changed."""
    fresh = tmp_path / "fresh.pot"
    extract(fresh)
    assert ids(fresh) == ids(Path(str(template_path()))), "run: python -m bot.i18n.update"


def test_template_placeholders_are_plain_names(template: Catalog) -> None:
    """Only ``{name}`` placeholders (the layer fills nothing else)."""
    for message in template:
        if not message.id:
            continue
        texts = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in texts:
            assert "{}" not in text and "{0" not in text and "%s" not in text, text


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalogue_header(code: str) -> None:
    catalog = read(catalogue_path(code))
    assert catalog.plural_forms == PLURAL_FORMS[code]
    assert str(catalog.locale) == code


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalogue_has_every_message_translated(code: str, template: Catalog) -> None:
    catalog = read(catalogue_path(code))
    have = {key(m): m for m in catalog if m.id}
    missing, untranslated, fuzzy = [], [], []
    for message in template:
        if not message.id:
            continue
        found = have.get(key(message))
        if found is None:
            missing.append(key(message))
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if (message.pluralizable and len(strings) != catalog.num_plurals) or not all(strings):
            untranslated.append(key(message))
        elif found.fuzzy:
            fuzzy.append(key(message))
    assert not missing, f"{code}: not in the catalogue: {missing}"
    assert not untranslated, f"{code}: not translated: {untranslated}"
    assert not fuzzy, f"{code}: still fuzzy: {fuzzy}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code: str) -> None:
    catalog = read(catalogue_path(code))
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids_ = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(placeholders(i) for i in ids_))
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if not text:
                continue
            got = placeholders(text)
            allowed_missing = COUNT if message.pluralizable else set()
            if got - wanted or (wanted - got) - allowed_missing:
                wrong.append((ids_[0], text))
    assert not wrong, f"{code}: placeholders differ: {wrong}"


# -- the engine's own words are all in the template ------------------------------------------
def test_every_setting_help_is_a_message() -> None:
    helps = {s.help for name in GAMES for s in get_game(name).Variant.settings()}
    assert helps <= set(SETTING_HELP), sorted(helps - set(SETTING_HELP))


def test_every_game_title_and_summary_is_a_message() -> None:
    for name in GAMES:
        game = get_game(name)
        assert GAME_TITLES[name] == game.title
        assert GAME_SUMMARIES[name] == game.summary

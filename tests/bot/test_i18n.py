"""The translation layer's behaviour: languages chosen, placeholders filled,
plural forms from the catalogue, refusals in the reader's language, game
words, and the terminal's ``--lang``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from bot.cli.terminal import play_terminal
from bot.cli.terminal_console import Console
from bot.i18n import catalog as catalogue_module
from bot.i18n import current, fill, get_lang, normalize, pick, placeholders, t, tn, using
from bot.i18n.errors import GENERIC, error_text
from bot.i18n.locales import from_environment
from bot.i18n.terms import card_text, declaration_text, notation_text, requirement_text
from bot.services.errors import NotHost, TableNotFound, WrongStatus
from engine import IllegalAction, get_game
from engine.core.cards import Card
from engine.errors import EngineError


# -- placeholders ------------------------------------------------------------------------
def test_fill_replaces_names_only() -> None:
    assert fill("table #{table} ({seat})", {"table": 3, "seat": "2"}) == "table #3 (2)"
    assert fill("{{literal}} {x}", {"x": 1}) == "{literal} 1"
    # a catalogue mistake never raises and never reaches an attribute
    assert fill("{missing} {x.__class__}", {"x": 1}) == "{missing} {x.__class__}"
    assert placeholders("{a} {{b}} {c}") == {"a", "c"}


# -- choosing a language ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("tr", "tr"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("hi", "hi"),
        ("tr_TR.UTF-8", "tr"),
        ("hy_AM", "hy"),
        ("ne_NP.UTF-8", "ne"),
        ("C", None),
        ("POSIX", None),
        ("ru", None),
        ("auto", None),
        ("", None),
        (None, None),
    ],
)
def test_normalize(given: str | None, code: str | None) -> None:
    assert normalize(given) == code


def test_pick_takes_the_first_language_spoken() -> None:
    assert pick(None, "ru", "hy", "tr") == "hy"
    assert pick("de", None) == "en"


def test_terminal_language_from_the_environment() -> None:
    assert from_environment({"LANG": "tr_TR.UTF-8"}) == "tr"
    assert from_environment({"LC_ALL": "hi_IN.UTF-8", "LANG": "tr_TR.UTF-8"}) == "hi"
    assert from_environment({"LC_ALL": "C.UTF-8", "LANG": "tr_TR.UTF-8"}) == "en"
    assert from_environment({"LANGUAGE": "ru:ne"}) == "ne"
    assert from_environment({}) == "en"


def test_the_current_language_is_scoped() -> None:
    assert current().code == "en"
    with using("tr") as lang:
        assert current() is lang
        with using("hi"):
            assert current().code == "hi"
        assert current().code == "tr"
    assert current().code == "en"
    assert t("Seats") == "Seats"


# -- catalogues: a temporary one shows the mechanics whatever the translators wrote --------
@pytest.fixture
def fake_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A Hindi catalogue with two messages, read the production way."""
    cat = Catalog(locale="hi")
    cat.mime_headers = [("Plural-Forms", "nplurals=2; plural=(n > 1);")]
    cat.add("Seats", "SEATS")
    cat.add(("{n} card", "{n} cards"), ("ONE {n}", "MANY {n}"))
    cat.add(("{n} win", "{n} wins"), ("", "half"))  # half translated: read in English
    cat.add("It is not your turn: waiting for {waiting}.", "WAIT {waiting}")
    folder = tmp_path / "hi" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    buffer = io.BytesIO()
    write_po(buffer, cat)
    (folder / "messages.po").write_bytes(buffer.getvalue())
    monkeypatch.setattr(
        catalogue_module, "catalogue_path", lambda code: tmp_path / code / "LC_MESSAGES" / "x.po"
    )
    (folder / "x.po").write_bytes(buffer.getvalue())
    catalogue_module.reload()
    yield "hi"
    catalogue_module.reload()


def test_translation_plural_forms_and_misses(fake_catalogue: str) -> None:
    lang = get_lang(fake_catalogue)
    assert lang.t("Seats") == "SEATS"
    # Hindi's rule (n > 1): 0 and 1 take the first form
    assert [lang.tn("{n} card", "{n} cards", n) for n in (0, 1, 2)] == ["ONE 0", "ONE 1", "MANY 2"]
    assert lang.tn("{n} win", "{n} wins", 2) == "2 wins"
    assert lang.t("Table") == "Table"
    assert {"Table", "{n} win"} <= lang.missing
    assert lang.lookup("Seats") == "SEATS" and lang.lookup("Table") is None


def test_refusals_in_the_readers_language(fake_catalogue: str) -> None:
    refusal = IllegalAction("it is not your turn: waiting for Ada", "not_your_turn")
    refusal.params["waiting"] = "Ada"
    assert error_text(refusal) == str(refusal)  # English: the engine's own words
    with using(fake_catalogue):
        assert error_text(refusal) == "WAIT Ada"
        without = IllegalAction("it is not your turn", "not_your_turn")
        assert error_text(without) == "It is not your turn."  # not in this catalogue: English
        assert error_text(EngineError("odd", "a_code_nobody_knows")) == GENERIC


def test_service_errors_carry_their_message_id() -> None:
    exc = TableNotFound("there is no table #{table}", table=12)
    assert str(exc) == "there is no table #12" and exc.reason == "unknown_table"
    assert exc.msgid == "there is no table #{table}" and exc.params == {"table": 12}
    assert error_text(exc) == "there is no table #12"
    status = WrongStatus("table #{table} is already {status}", table=3, status="finished")
    with using("tr"):
        assert "3" in error_text(status)
        assert error_text(NotHost("only the host can do that")) == t("only the host can do that")


# -- game words ---------------------------------------------------------------------------
def test_game_words_in_english() -> None:
    assert card_text(Card.parse("TH")) == "10♥"
    assert card_text(Card.parse("KS")) == "K♠"
    assert notation_text("bid 9 NT") == "9 no trump"
    assert notation_text("10 H contra") == "10 ♥ contra"
    assert declaration_text("tierce (20)") == "tierce (20)"
    assert declaration_text("four jacks (200)") == "four jacks (200)"
    assert declaration_text("belote (20)") == "belote (20)"
    assert requirement_text("MIN 8") == "MIN 8"
    assert tn("{n} card", "{n} cards", 1) == "1 card"


@pytest.mark.parametrize("code", ["tr", "hy", "ne", "hi"])
def test_game_words_come_from_the_catalogue(code: str) -> None:
    lang = get_lang(code)
    with using(lang):
        assert card_text(Card.parse("QS")) == lang.tp("card rank", "Q") + "♠"
        assert notation_text("10 H contra").endswith(lang.tp("bid", "contra"))
        assert declaration_text("tierce (20)").startswith(lang.tp("declaration", "tierce"))


def test_every_engine_reason_has_a_message() -> None:
    """The reasons the engine raises for a played card or a bid all have a
    message of their own (a new one falls back to the generic refusal)."""
    from bot.i18n.errors import ENGINE_REASONS

    game = get_game("callbreak")
    state = game.new_match(seed=3)
    with pytest.raises(EngineError) as caught:
        state.apply(game.parse_action("bid 13"))  # above max_bid
    assert caught.value.reason in ENGINE_REASONS
    with pytest.raises(EngineError) as caught:
        state.apply(game.parse_action("play AS"))  # not the phase for it
    assert caught.value.reason in ENGINE_REASONS


# -- the terminal -------------------------------------------------------------------------
def test_terminal_speaks_lang(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(stdin=io.StringIO("q\n"), stdout=out, stderr=io.StringIO())
    code = play_terminal(
        "callbreak",
        seed=1,
        db_url=f"sqlite+aiosqlite:///{tmp_path / 'game.db'}",
        console=console,
        lang="tr",
    )
    assert code == 0
    text = out.getvalue()
    with using("tr"):
        assert t("Your move: ") in text
        assert t("Scores: {scores}", scores="").strip() in text
    assert "Your move: " not in text


@pytest.mark.parametrize("code", ["tr", "hy", "ne", "hi"])
def test_a_refused_setting_names_the_setting_and_its_range(code: str) -> None:
    """A moderator's typo is explained in their language with the facts
    (the engine's ``params``), not in a generic sentence."""
    with pytest.raises(EngineError) as caught:
        get_game("callbreak").Variant.from_options({"rounds": 99})
    with pytest.raises(EngineError) as unknown:
        get_game("poker")
    with using(code):
        text = error_text(caught.value)
        assert "rounds" in text and "1..13" in text and "99" in text
        assert text != str(caught.value)
        assert "'poker'" in error_text(unknown.value)

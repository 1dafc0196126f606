"""An AI seat's stored English suffix "(AI, hard)" is shown in the reader's language."""

from __future__ import annotations

import pytest

from bot.i18n import using
from bot.i18n.terms import difficulty_word, seat_display_name


def test_english_keeps_the_stored_name() -> None:
    with using("en"):
        assert seat_display_name("Ada (AI, hard)", "hard") == "Ada (AI, hard)"


@pytest.mark.parametrize("locale", ["tr", "hy", "ne", "hi"])
def test_the_ai_suffix_is_translated(locale: str) -> None:
    with using(locale):
        shown = seat_display_name("Ada (AI, hard)", "hard")
        assert shown.startswith("Ada (")
        assert "AI" not in shown
        assert difficulty_word("hard") in shown


def test_people_and_resigned_seats_are_left_alone() -> None:
    with using("tr"):
        assert seat_display_name("Bob (AI, fan)", None) == "Bob (AI, fan)"
        assert seat_display_name("Bob", "normal") == "Bob"

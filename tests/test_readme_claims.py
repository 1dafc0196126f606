"""Claims README.md makes about the code, checked against the code, so that
the next change that makes one false fails here instead of misleading a
reader (README once said `search` existed for three games when all five
had it, and that card ranks used each language's letters)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.cli.args import AGENTS as TERMINAL_AGENTS
from bot.i18n import LOCALES, using
from bot.i18n.terms import rank_text
from bot.services.policy import DIFFICULTIES
from engine import GAMES
from engine.ai import AGENTS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def paragraph(starting: str) -> str:
    """The README paragraph that begins with ``starting``, on one line."""
    for block in re.split(r"\n\s*\n", README):
        if block.startswith(starting):
            return " ".join(block.split())
    raise AssertionError(f"README has no paragraph starting {starting!r}")


def test_the_ai_list_matches_the_engines_registry():
    text = paragraph("AI players")
    named = re.findall(r"`([a-z-]+)`", text.split("Figures in")[0])
    assert named == ["random", "heuristic", "search"]
    # what the README offers is what a player can choose, in the terminal and on Discord
    assert set(named) == set(TERMINAL_AGENTS) == set(DIFFICULTIES.values())
    assert "in every game" in text
    for game in GAMES:
        missing = set(named) - set(AGENTS(game))
        assert not missing, f"README says every game has {missing}; {game} has {AGENTS(game)}"


def test_the_games_table_lists_every_registered_game():
    commands = set(re.findall(r"`python -m bot play ([a-z]+)", paragraph("| Game |")))
    assert commands == set(GAMES)


def test_card_ranks_keep_a_k_q_j_in_every_language():
    text = paragraph("The bot speaks English")
    assert "card ranks keep A K Q J in every language" in text
    for code in LOCALES:
        with using(code):
            assert [rank_text(r) for r in (14, 13, 12, 11)] == ["A", "K", "Q", "J"], code


def test_the_languages_named_are_the_catalogues():
    text = paragraph("The bot speaks English")
    named = set(re.findall(r"\(`([a-z]{2})`\)", text))
    assert named | {"en"} == set(LOCALES)

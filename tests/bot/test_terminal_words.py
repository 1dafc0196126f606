"""The terminal's rendering, piece by piece (issue 27): columns measured by
display width, the final result with its winner and ties, the legal moves
as the hand shows them, each game's own verbs."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.cli.terminal_text import help_text, refusal_text, typed_examples
from bot.i18n import t, using
from bot.i18n.terms import card_text
from bot.render.columns import fit, ljust, width
from bot.render.text import moves_text, render_ranking, render_table
from engine import GAMES, EngineError, get_game
from engine.core.actions import play
from engine.core.cards import Card

NAMES = {
    "devanagari": "Bram (कंप्यूटर, सामान्य)",
    "nepali": "नेपाली खेलाडी सामान्य कठिन",
    "armenian": "Արամ (համակարգիչ, միջին)",
    "turkish": "Şükrü Öztürk İğdeli Çağ",
    "emoji": "🃏 Joker 😀😀😀😀😀😀",
}


@pytest.mark.parametrize("text", list(NAMES.values()))
def test_a_name_is_fitted_and_padded_by_display_width(text):
    for columns in (8, 20, 40):
        cell = ljust(text, columns)
        assert width(cell) == columns
        assert fit(text, columns).endswith("…") == (width(text) > columns)


def test_devanagari_width_is_not_its_length():
    name = NAMES["devanagari"]
    assert width(name) != len(name)  # combining marks take no column


def _played_view(game: str, seed: int = 3):
    g = get_game(game)
    state = g.new_match(seed=seed)
    rng = random.Random(seed)
    while state.phase.value != "play":
        state.apply(rng.choice(state.legal_actions()))
    return state, state.view(state.decider)


@pytest.mark.parametrize("lang", ["en", "hi", "ne", "hy", "tr"])
def test_the_seat_rows_line_up_whatever_the_names(lang):
    _, view = _played_view("callbreak")
    with using(lang):
        text = render_table(view, list(NAMES.values())[:4])
        heading = text.index("\n  ") + 1  # the "Seat  Bid  Tricks  Cards" line
        assert text[heading:].startswith("  " + t("Seat"))
    rows = text[heading:].splitlines()[1:5]
    assert len({width(r) for r in rows}) == 1, rows


def test_the_final_result_says_who_won_and_shows_ties_as_ties():
    _, view = _played_view("callbreak")
    names = ["You", "Bram (AI, normal)", NAMES["devanagari"], NAMES["emoji"]]
    tied = dataclasses.replace(view, ranking=(1, 1, 3, 4), scores=(120, 120, 30, -40))
    text = render_ranking(tied, names, you=0)
    lines = text.splitlines()
    assert lines[1] == "Tie for first place: You and Bram (AI, normal)."
    firsts = [ln for ln in lines if ln.lstrip().startswith("1. ")]
    assert len(firsts) == 2 and all(ln.endswith("(tie)") for ln in firsts)
    rows = [ln.removesuffix("  (tie)") for ln in lines[2:]]
    assert len({width(r) for r in rows}) == 1, rows  # scores end in one column
    won = dataclasses.replace(view, ranking=(2, 1, 3, 4), scores=(12, 130, 30, -40))
    assert render_ranking(won, names, you=0).splitlines()[1] == "Bram (AI, normal) wins!"
    mine = dataclasses.replace(view, ranking=(1, 2, 3, 4), scores=(130, 12, 30, -40))
    assert render_ranking(mine, names, you=0).splitlines()[1] == "You win!"


def test_team_results_name_the_winning_team():
    _, view = _played_view("blot")
    names = ["You", "Bram (AI, normal)", "Cleo (AI, normal)", "Dov (AI, normal)"]
    won = dataclasses.replace(view, ranking=(1, 2), scores=(308, 0))
    lines = render_ranking(won, names, you=0).splitlines()
    assert lines[1] == "You and Cleo (AI, normal) win!"
    assert lines[2].endswith(" 308") and lines[3].endswith("   0")
    assert width(lines[2]) == width(lines[3])
    theirs = dataclasses.replace(view, ranking=(2, 1), scores=(0, 308))
    assert render_ranking(theirs, names, you=0).splitlines()[1] == (
        "Bram (AI, normal) & Dov (AI, normal) win!"
    )


def test_legal_moves_are_shown_as_the_hand_shows_them_in_its_order():
    hand = [Card.parse(c) for c in ("3S", "AS", "TH", "2H", "KD", "5D")]
    legal = [play(Card.parse(c)) for c in ("5D", "TH", "AS", "KD", "2H", "3S")]
    assert moves_text(legal, hand) == "A♠, 3♠, 10♥, 2♥, K♦, 5♦"
    assert "TH" not in moves_text(legal, hand)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_game_offers_only_its_own_verbs(name):
    game = get_game(name)
    text = help_text(game)
    for verb in ("pickup", "hidden", "contra", "recontra", "trump", "pass"):
        assert (f"'{verb}" in text) == (verb in game.verbs), (name, verb, text)
    assert ("'play 7H 7D'" in text) == (game.max_play_cards > 1)
    assert all(game.parse_action(example) for example in typed_examples(game))
    with pytest.raises(EngineError) as caught:
        game.parse_action("zz")
    said = refusal_text(caught.value, game, "zz")
    for verb in ("pickup", "hidden", "contra", "trump"):
        assert (f"'{verb}'" in said) == (verb in game.verbs), said


def test_a_refused_card_is_one_sentence_with_the_card_as_the_hand_shows_it():
    state, view = _played_view("callbreak", seed=5)
    rng = random.Random(2)
    while True:  # a position where following suit is compulsory
        legal = {a.card for a in state.legal_actions()}
        others = [c for c in view.hand if c not in legal]
        if state.view(None).trick and others:
            break
        state.apply(rng.choice(state.legal_actions()))
        view = state.view(state.decider)
    with pytest.raises(EngineError) as caught:
        state.apply(play(others[0]))
    said = refusal_text(caught.value, get_game("callbreak"), "x")
    assert said.startswith("You cannot play ") and said.count(":") == 1, said
    assert card_text(others[0]) in said


def test_the_final_result_follows_the_services_ranking():
    # the service ranks a resigned seat last whatever its score (ResultInfo.ranks)
    _, view = _played_view("callbreak")
    names = ["You", "Bram (AI, normal)", "Cleo (AI, normal)", "Dov (AI, normal)"]
    scores = dataclasses.replace(view, ranking=(1, 2, 3, 4), scores=(130, 12, 3, -4))
    text = render_ranking(scores, names, you=0, ranks=(4, 1, 2, 3))
    lines = text.splitlines()
    assert lines[1] == "Bram (AI, normal) wins!"
    assert lines[-1].lstrip().startswith("4. You")


def test_the_blot_auction_says_what_can_be_bid_in_one_short_line():
    from bot.render.text import options_text

    state = get_game("blot").new_match(seed=4)
    state.apply("bid 9 H")
    state.apply("bid 30 S capot")
    assert options_text(state.legal_actions()) == "pass, bid 31-80 S/H/D/C/NT capot, contra"

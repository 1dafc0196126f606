"""Every refusal code of every game keeps its values in every language (issue 27).

Seeded games of each game are played out; at each decision a fixed set of
actions (every card, every bid, every verb, a few malformed texts) is tried
and every refusal the engine raises is kept, one per reason code.  Each one
must carry the values its sentence needs, and every catalogue must say it
with those values: never the generic "That move is not allowed now.", never
a sentence that drops the number, the card or the suit.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from bot.i18n import LOCALES, get_lang, t, using
from bot.i18n.errors import GENERIC, WITH_VALUES, engine_message, error_text, rule_text
from bot.i18n.terms import card_text, suit_name
from engine import EngineError, get_game
from engine.core.cards import Card

GAMES_AND_OPTIONS = {
    "callbreak": [{"rounds": "2"}],
    "batak": [{"target_score": "20"}, {"trump_unlock": "ruff_only"}],
    "blot": [{"target_score": "51"}, {"must_undertrump": "true", "partner_exemption": "false"}],
    "backalley": [{"players": "4", "max_cards": "4"}, {"hook_rule": "true", "max_cards": "3"}],
    "ladder": [{}],
}
#: the reason codes each game's rules can give (the rule file's refusals)
EXPECTED = {
    "callbreak": {"bid_out_of_range", "must_follow_suit", "must_beat", "must_trump"},
    "batak": {"bid_out_of_range", "forced_opening", "must_follow_suit", "must_beat"},
    "blot": {"bid_too_low", "must_follow_suit", "must_trump", "bad_contra", "bad_recontra"},
    "backalley": {"bid_out_of_range", "must_follow_suit", "trump_not_broken", "hook_rule"},
    "ladder": {"blocked_by_requirement", "mixed_ranks", "not_in_hand", "must_play"},
}
#: values that must be read in the sentence, whatever the language
SHOWN_VALUES = ("min", "max", "low", "total", "number", "limit")
MALFORMED = ["zz", "play XX", "bid 99999999999", "pass now", "play AS AS", "x" * 90]


def _candidates(view) -> list[str]:
    cards = [f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA"] + ["RJ", "BJ"]
    texts = [f"play {c}" for c in cards]
    texts += [f"bid {n}" for n in range(0, 15)] + ["bid 8 H", "bid 30 S", "bid 8 S capot"]
    texts += ["bid backalley", "pass", "contra", "recontra", "trump S", "pickup", "play 7H 8H"]
    texts += [f"hidden {n}" for n in range(1, 5)]
    hand = list(view.hand or ())
    shown = list(view.shown[view.seat]) if view.shown and view.seat is not None else []
    if hand and shown:
        texts.append(f"play {hand[0]} {shown[0]}")
    if len(hand) >= 2:
        texts.append(f"play {hand[0]} {hand[1]}")
    return texts


@cache
def refusals(name: str) -> dict[str, EngineError]:
    """One refusal per reason code met while playing ``name`` out."""
    game = get_game(name)
    found: dict[str, EngineError] = {}
    for options in GAMES_AND_OPTIONS[name]:
        for seed in (1, 2):
            state = game.new_match(seed=seed, variant=game.Variant.from_options(options))
            rng = random.Random(seed)
            for text in MALFORMED:
                try:
                    state.apply(text, seat=state.decider)
                except EngineError as exc:
                    found.setdefault(exc.reason, exc)
            steps = 0
            while not state.is_over and steps < 400:
                steps += 1
                seat = state.decider
                view = state.view(seat)
                for text in _candidates(view):
                    try:
                        state.clone().apply(text, seat=seat)
                    except EngineError as exc:
                        found.setdefault(exc.reason, exc)
                state.apply(rng.choice(state.legal_actions()), seat=seat)
    return found


@pytest.mark.parametrize("name", sorted(GAMES_AND_OPTIONS))
def test_each_game_meets_its_refusal_codes(name):
    missing = EXPECTED[name] - set(refusals(name))
    assert not missing, f"{name}: the playouts met no {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(GAMES_AND_OPTIONS))
def test_every_refusal_with_values_is_said_with_them_in_every_language(name):
    problems = []
    for reason, exc in sorted(refusals(name).items()):
        msgid = engine_message(exc)
        if reason in WITH_VALUES and msgid is None:
            problems.append(f"{reason}: carries {sorted(exc.params)}, no sentence fits")
            continue
        for code in LOCALES:
            with using(code):
                text = error_text(exc)
                generic = t(GENERIC)
                if text == generic:
                    problems.append(f"{reason} [{code}]: the generic fallback")
                if msgid is not None and code != "en" and get_lang(code).lookup(msgid) is None:
                    problems.append(f"{reason} [{code}]: not in the catalogue")
                said = rule_text(exc)
                for key in SHOWN_VALUES:
                    if key in exc.params and str(exc.params[key]) not in said:
                        problems.append(f"{reason} [{code}]: {key}={exc.params[key]} dropped")
                if "card" in exc.params:
                    card = card_text(Card.parse(exc.params["card"]))
                    if card not in said:
                        problems.append(f"{reason} [{code}]: card {card} dropped: {said}")
                for key in ("suit", "trump"):
                    named = key in exc.params and "{" + key + "}" in (msgid or "")
                    if named and suit_name(exc.params[key]) not in said:
                        problems.append(f"{reason} [{code}]: {key} dropped: {said}")
                if re.search(r"\{\w+\}", said):
                    problems.append(f"{reason} [{code}]: unfilled placeholder: {said}")
    assert not problems, "\n".join(problems)


def test_blot_bid_too_low_and_callbreak_bid_out_of_range_in_turkish():
    # the two refusals the issue quotes
    blot = refusals("blot")["bid_too_low"]
    callbreak = refusals("callbreak")["bid_out_of_range"]
    with using("tr"):
        assert str(blot.params["low"]) in error_text(blot)
        assert "80" in error_text(blot)
        assert error_text(blot) != t(GENERIC)
        assert "8" in error_text(callbreak)

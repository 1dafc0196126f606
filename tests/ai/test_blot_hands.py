"""Hands that explain a Bazar Blot bazar: the quick hand values agree with
the heuristic's, and explanations are real combinations from the pool."""

from __future__ import annotations

import random

from engine.ai.blot_hands import explanation, quick_values
from engine.ai.heuristics.blot import hand_value
from engine.core.cards import parse_cards
from engine.games.blot.cards import blot_deck
from engine.games.blot.declarations import best_split


def test_quick_values_agree_with_the_heuristics_hand_value():
    rng = random.Random(2)
    deck = blot_deck()
    for _ in range(300):
        hand = rng.sample(deck, 8)
        quick = quick_values(hand)
        for strain in ("C", "D", "H", "S", "NT"):
            assert abs(quick[strain] - hand_value(hand, strain)) < 1e-9


def test_a_four_of_a_kind_and_a_run_count_like_declarations():
    hand = parse_cards("JC JD JH JS 7H 8H 9H AS")
    values = quick_values(hand)
    # four jacks 200 and the tierce 7 8 9 of hearts 20, in a suit contract
    assert sum(d.value for d in best_split(0, hand, "S")) == 220
    assert abs(values["S"] - hand_value(hand, "S")) < 1e-9


def test_explanations_are_combinations_from_the_pool():
    rng = random.Random(5)
    deck = blot_deck()
    kinds = set()
    for _ in range(300):
        pool = rng.sample(deck, 24)
        strain = rng.choice(["C", "D", "H", "S", "NT"])
        cards = explanation(strain, pool, rng)
        assert set(cards) <= set(pool) and len(cards) == len(set(cards))
        if not cards:
            continue
        ranks = {c.rank for c in cards}
        suits = {c.suit for c in cards}
        if len(cards) == 4 and len(ranks) == 1:
            kinds.add("four")
        elif len(suits) == 1 and sorted(ranks) == list(range(min(ranks), max(ranks) + 1)):
            kinds.add("run")
        else:
            assert ranks <= {11, 9, 14, 10}  # top trumps, or aces and tens in NT
            kinds.add("top")
    assert kinds == {"four", "run", "top"}

"""The deal's shuffle (``engine.core.shuffle``) deals exactly what
``random.Random.shuffle`` deals: same seed, same cards, same RNG state after."""

from __future__ import annotations

import random

import pytest

from engine.core import shuffle as shuffle_module
from engine.core.cards import standard_deck
from engine.core.shuffle import shuffle


def test_the_inline_shuffle_is_in_use_on_this_interpreter():
    assert shuffle_module.INLINE


@pytest.mark.parametrize("size", [0, 1, 2, 5, 32, 52, 54, 200])
def test_same_permutation_and_same_rng_state_as_the_standard_library(size):
    for seed in range(50):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(ours, a)
        b.shuffle(theirs)
        assert ours == theirs
        assert a.getstate() == b.getstate()


def test_a_deck_of_cards_is_shuffled_in_place():
    deck = standard_deck(jokers=True)
    expected = list(deck)
    random.Random(7).shuffle(expected)
    shuffle(deck, random.Random(7))
    assert deck == expected


def test_another_kind_of_generator_uses_its_own_shuffle():
    class Reversing(random.Random):
        def shuffle(self, x):  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(cards, Reversing(1))
    assert cards == [3, 2, 1]


def test_without_the_inline_path_the_standard_shuffle_is_used(monkeypatch):
    def fail(cards, rng):
        raise AssertionError("the inline shuffle was used")

    monkeypatch.setattr(shuffle_module, "INLINE", False)
    monkeypatch.setattr(shuffle_module, "_inline_shuffle", fail)
    cards, expected = list(range(20)), list(range(20))
    shuffle(cards, random.Random(3))
    random.Random(3).shuffle(expected)
    assert cards == expected

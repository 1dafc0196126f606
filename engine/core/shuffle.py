"""The deal's shuffle: exactly ``random.Random.shuffle``, without its per-card calls.

Every deal shuffles a 32- to 54-card deck, and ``random.Random.shuffle`` spends
most of its time calling ``_randbelow`` once per card.  ``shuffle`` below is
the same Fisher-Yates walk with the same draws (``getrandbits(k)`` with
``k = (i + 1).bit_length()``, redrawn while out of range), written inline
with the steps ``(i, k)`` worked out once per deck size, so a seed gives the
same deal as before, card for card.

It is only used for a plain ``random.Random`` and only after checking at import
that it agrees with the standard library's shuffle on this interpreter; should
a future Python change its algorithm, every deal goes through
``random.Random.shuffle`` as before (``tests/engine/test_shuffle.py``).
"""

from __future__ import annotations

import random
from typing import Any

#: deck size -> the walk's steps: (i, the bits drawn for a j in 0..i)
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


def _inline_shuffle(cards: list[Any], rng: random.Random) -> None:
    getrandbits = rng.getrandbits
    for i, k in _STEPS.get(len(cards)) or _steps(len(cards)):
        j = getrandbits(k)
        while j > i:  # ``_randbelow(i + 1)``: redraw while out of range
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _agrees_with_the_standard_library() -> bool:
    for seed in range(8):
        for size in (0, 1, 2, 3, 7, 32, 52, 54, 100):
            ours, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            _inline_shuffle(ours, a)
            b.shuffle(theirs)
            if ours != theirs or a.getstate() != b.getstate():
                return False
    return True


INLINE = _agrees_with_the_standard_library()


def shuffle(cards: list[Any], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` would."""
    if INLINE and type(rng) is random.Random:
        _inline_shuffle(cards, rng)
    else:
        rng.shuffle(cards)

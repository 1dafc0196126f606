"""Perft for Callbreak: frozen counts of legal play sequences from fixed
deals (STYLE.md, python-chess).  A change in move generation changes a count.

The counts were produced by this engine and checked by hand on the rules for
the small cases; they guard against regressions in the follow filters.
"""

from __future__ import annotations

import pytest

from engine import get_game

CB = get_game("callbreak")


def perft(state, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def bid_all(state) -> None:
    for _ in range(4):
        state.apply("bid 2")


def test_perft_hand_checked_position():
    # Seat 0 leads from AS 2H 3D 4C: 4 leads.  After 2H, seat 1 (KH QH 2S 5D)
    # must beat the 2H: KH or QH.  Seat 2 (3H 4S 6D 7D) cannot beat either,
    # so it follows with its only heart, 3H.  Seat 3 (5S TC 9C JD) is void in
    # hearts and the trick is not ruffed: it must trump with 5S.  2 x 1 x 1.
    state = CB.position(
        hands={
            0: ["AS", "2H", "3D", "4C"],
            1: ["KH", "QH", "2S", "5D"],
            2: ["3H", "4S", "6D", "7D"],
            3: ["5S", "TC", "9C", "JD"],
        },
        to_act=0,
    )
    assert perft(state, 1) == 4
    child = state.clone()
    child.apply("play 2H")
    assert perft(child, 3) == 2 * 1 * 1


@pytest.mark.parametrize(("seed", "depth", "expected"), [(1, 4, 137), (2, 4, 248), (3, 5, 1752)])
def test_perft_first_trick_counts_are_stable(seed, depth, expected):
    state = CB.new_match(seed=seed)
    bid_all(state)
    assert perft(state, depth) == expected

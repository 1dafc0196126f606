"""Scoring table of rules/callbreak.md, in integer tenths."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import get_game
from engine.ai import get_agent, play_out
from engine.games.callbreak import format_tenths, score_bid, score_deal


@pytest.mark.parametrize(
    ("bid", "tricks", "tenths"),
    [
        (3, 3, 30),
        (3, 5, 32),  # 3.2: made with two overtricks
        (3, 2, -30),  # failed: -bid
        (1, 13, 22),
        (8, 8, 80),
        (8, 7, -80),
        (13, 13, 130),
        (5, 0, -50),
    ],
)
def test_deal_score_in_tenths(bid, tricks, tenths):
    assert score_bid(bid, tricks) == tenths


def test_score_deal_for_all_players():
    assert score_deal([3, 4, 2, 1], [5, 3, 2, 3]) == (32, -40, 20, 12)


@pytest.mark.parametrize(
    ("tenths", "text"), [(32, "3.2"), (-30, "-3.0"), (0, "0.0"), (7, "0.7"), (-7, "-0.7")]
)
def test_format_tenths(tenths, text):
    assert format_tenths(tenths) == text


@given(st.lists(st.tuples(st.integers(1, 13), st.integers(0, 13)), min_size=1, max_size=200))
def test_tenths_sum_without_float_drift(rounds):
    total = sum(score_bid(b, t) for b, t in rounds)
    exact = sum((b + (t - b) / 10) if t >= b else -b for b, t in rounds)
    assert isinstance(total, int)
    assert abs(total / 10 - exact) < 1e-6


def test_game_total_is_sum_of_deals_and_equal_totals_share_rank():
    game = get_game("callbreak")
    state = game.new_match(seed=12, variant=game.variant(rounds=13))
    play_out(state, [get_agent("heuristic", game="callbreak", seed=s) for s in range(4)])
    assert state.scores == [sum(r.scores[s] for r in state.history) for s in range(4)]
    assert len(state.history) == 13
    from engine.core.trickgame import shared_ranks

    assert shared_ranks([10, 30, 10, 5]) == (2, 1, 2, 4)
    assert state.view(None).ranking == shared_ranks(state.scores)


def test_running_totals_visible_after_every_deal():
    game = get_game("callbreak")
    state = game.new_match(seed=4, variant=game.variant(rounds=3))
    rng = random.Random(4)
    totals_seen = []
    while not state.is_over:
        before = len(state.history)
        state.apply(rng.choice(state.legal_actions()))
        if len(state.history) > before:
            view = state.view(0)
            totals_seen.append(view.scores)
            assert view.last_deal is not None and view.last_deal.number == len(state.history)
    assert len(totals_seen) == 3

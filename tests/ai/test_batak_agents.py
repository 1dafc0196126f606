"""Eşli Batak heuristic: sensible bids, trump choice, and dummy play."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent, play_out
from engine.ai.heuristics.batak import best_trump, hand_tricks
from engine.core.cards import parse_cards

BT = get_game("batak")


def test_hand_tricks_prefers_the_long_strong_suit_as_trump():
    hand = parse_cards("AH KH QH JH 9H 5H 2H AS 3S 4D 5D 6C 7C")
    suit, est = best_trump(hand)
    assert suit == "H"
    assert est > hand_tricks(hand, "C")


def test_forced_opening_is_the_lowest_bid():
    state = BT.new_match(seed=1)
    agent = get_agent("heuristic", game="batak", seed=0)
    assert str(agent.act(state.view(0), state.legal_actions())) == "bid 7"


def test_declarer_plays_the_dummys_cards_on_the_dummys_turn():
    state = BT.position(
        hands={0: ["AH", "2S"], 2: ["KH", "QH"], 1: ["5C"], 3: ["6H", "7C"]},
        trick=[(1, "4H")],
        to_act=2,
        trump="S",
        declarer=0,
        contract=8,
    )
    agent = get_agent("heuristic", game="batak", seed=0)
    # the declarer sees AH in its own hand: the dummy's QH already holds the trick
    action = agent.act(state.view(0), state.legal_actions())
    assert str(action) == "play QH"


def test_heuristic_team_beats_random_team():
    wins = 0
    for seed in range(6):
        state = BT.new_match(seed=seed, variant=BT.variant(target_score=30))
        agents = [
            get_agent("heuristic" if s % 2 == 0 else "random", game="batak", seed=s)
            for s in range(4)
        ]
        play_out(state, agents)
        wins += state.view(None).ranking[0] == 1
    assert wins >= 5


def test_search_agent_plays_legal_batak():
    state = BT.new_match(seed=2, variant=BT.variant(target_score=10))
    agents = [
        get_agent("search", game="batak", seed=s, budget_ms=60_000, max_worlds=2) for s in range(4)
    ]
    play_out(state, agents)
    assert state.is_over

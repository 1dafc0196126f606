"""Backalley heuristic: bids and backalley claims."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent, play_out
from engine.ai.heuristics.backalley import estimate_tricks, sure_winners
from engine.core.cards import parse_cards

BA = get_game("backalley")


def test_sure_winners_count_trumps_from_the_top():
    assert sure_winners(parse_cards("RJ BJ AS"), "S", set()) == 3
    assert sure_winners(parse_cards("RJ AS"), "S", set()) == 1
    assert sure_winners(parse_cards("RJ AS"), "S", set(parse_cards("BJ"))) == 2


def test_estimate_grows_with_jokers_and_trumps():
    assert estimate_tricks(parse_cards("RJ BJ AS KS"), "S", 4) > 3
    assert estimate_tricks(parse_cards("2C 3D 4H 5C"), "S", 4) < 0.5


def test_bids_backalley_with_only_sure_winners():
    deck = {"hands": [["RJ"], ["2C"], ["3C"], ["4C"]], "stock": ["5H"], "dealer": 3}
    state = BA.new_match(seed=1, deal=deck)
    agent = get_agent("heuristic", game="backalley", seed=0)
    assert str(agent.act(state.view(0), state.legal_actions())) == "bid backalley"


def test_heuristic_outscores_random_players():
    total = 0
    for seed in range(4):
        state = BA.new_match(seed=seed, variant=BA.variant(max_cards=4))
        agents = [
            get_agent("heuristic" if s == 0 else "random", game="backalley", seed=s)
            for s in range(4)
        ]
        play_out(state, agents)
        total += state.scores[0] - max(state.scores[1:])
    assert total > 0

"""Bidding by simulation for the search agent (engine/ai/bidding.py)."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent


def test_callbreak_bid_by_simulation_is_legal():
    state = get_game("callbreak").new_match(seed=2)
    agent = get_agent("search", game="callbreak", seed=1, budget_ms=1500)
    legal = state.legal_actions()
    action = agent.act(state.view(state.decider), legal)
    assert action in legal
    assert agent.last["how"] == "simulated_bid" and agent.last["worlds"] >= 8


def test_backalley_bids_backalley_with_a_sure_winner():
    # one card each and the red joker: every deal takes the trick, +10 beats +3
    deal = {"hands": [["RJ"], ["2C"], ["3C"], ["4C"]], "stock": ["5H"], "dealer": 3}
    state = get_game("backalley").new_match(seed=1, deal=deal)
    agent = get_agent("search", game="backalley", seed=0, budget_ms=1500)
    assert str(agent.act(state.view(0), state.legal_actions())) == "bid backalley"
    assert agent.last["how"] == "simulated_bid"


def test_blot_auction_by_simulation_is_legal():
    blot = get_game("blot")
    for seed in range(2):
        state = blot.new_match(seed=seed)
        agent = get_agent("search", game="blot", seed=seed, budget_ms=400)
        legal = state.legal_actions()
        assert agent.act(state.view(state.decider), legal) in legal


def test_batak_auction_and_trump_by_simulation_are_legal():
    batak = get_game("batak")
    state = batak.new_match(seed=3)
    heuristic = get_agent("heuristic", game="batak", seed=0)
    while state.phase.value in ("auction", "trump"):
        agent = get_agent("search", game="batak", seed=1, budget_ms=300)
        legal = state.legal_actions()
        assert agent.act(state.view(state.decider), legal) in legal
        state.apply(heuristic.act(state.view(state.decider), legal))

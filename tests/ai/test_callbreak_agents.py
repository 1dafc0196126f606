"""Callbreak agents: legal, reproducible, information-respecting."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import get_game
from engine.ai import get_agent, play_out
from engine.ai.heuristics.callbreak import estimate_tricks
from engine.ai.knowledge import known_voids
from engine.ai.sampling import deal_unseen
from engine.ai.worlds import callbreak_world
from engine.core.cards import parse_cards

CB = get_game("callbreak")


def test_estimate_tricks_rewards_high_spades_and_aces():
    strong = parse_cards("AS KS QS JS TS AH KH AD KD AC 2C 3C 4C")
    weak = parse_cards("2S 3H 4H 5H 6H 7D 8D 9D 2C 3C 4C 5C 6C")
    assert estimate_tricks(strong) >= 7.5
    assert estimate_tricks(weak) < 1.5


def test_heuristic_cashes_a_master_before_and_after_its_bid_is_made():
    # an overtrick scores 0.1 and is a trick the others miss: keep taking them
    agent = get_agent("heuristic", game="callbreak", seed=1)
    facts = {"hands": {0: ["AH", "2D", "3C"]}, "to_act": 0, "bids": {0: 2, 1: 1, 2: 1, 3: 1}}
    for won in (1, 2):
        state = CB.position(**facts, tricks_won={0: won})
        assert str(agent.act(state.view(0), state.legal_actions())) == "play AH"


def test_heuristic_wins_cheaply_when_it_needs_tricks_and_is_last():
    agent = get_agent("heuristic", game="callbreak", seed=1)
    state = CB.position(
        hands={3: ["AH", "JH", "2H"]},
        trick=[(0, "9H"), (1, "TH"), (2, "3H")],
        to_act=3,
        bids={0: 1, 1: 1, 2: 1, 3: 3},
    )
    assert str(agent.act(state.view(3), state.legal_actions())) == "play JH"


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_agents_play_legal_games_reproducibly(name):
    def run() -> list[str]:
        state = CB.new_match(seed=3, variant=CB.variant(rounds=1))
        agents = [
            get_agent(name, game="callbreak", seed=s, budget_ms=60_000, max_worlds=3)
            if name == "search"
            else get_agent(name, game="callbreak", seed=s)
            for s in range(4)
        ]
        play_out(state, agents)
        assert state.is_over
        return [str(a) for a in state.log]

    assert run() == run()


def test_deal_unseen_respects_counts_and_void_suits():
    cards = parse_cards("AS KS QS AH KH QH AD KD QD AC KC QC")
    rng = random.Random(0)
    for _ in range(50):
        hands = deal_unseen(cards, {1: 4, 2: 4, 3: 4}, rng, forbidden={1: {"S", "H"}, 2: {"S"}})
        assert {s: len(h) for s, h in hands.items()} == {1: 4, 2: 4, 3: 4}
        assert Counter(c for h in hands.values() for c in h) == Counter(cards)
        assert not any(c.suit in "SH" for c in hands[1])
        assert not any(c.suit == "S" for c in hands[2])


def test_sampled_world_is_consistent_with_the_view_and_hides_nothing_new():
    state = CB.new_match(seed=17, variant=CB.variant(rounds=1))
    rng = random.Random(17)
    for _ in range(4 + 23):  # bids, then into the middle of the deal
        state.apply(rng.choice(state.legal_actions()))
    seat = state.decider
    view = state.view(seat)
    voids = known_voids(view, trump="S")
    for i in range(20):
        world = callbreak_world(view, random.Random(i))
        assert world.hands[seat] == list(view.hand)
        assert world.trick.plays == list(view.trick)
        assert [len(h) for h in world.hands] == list(view.hand_counts)
        for other in range(4):
            if other != seat:
                assert not set(world.hands[other]) & view.visible_cards()
                assert not any(c.suit in voids[other] for c in world.hands[other])
        assert {str(a) for a in world.legal_actions()} == {str(a) for a in view.legal_actions}

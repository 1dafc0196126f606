"""Bazar Blot heuristic: contracts it can make, doubles, feeding the partner."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent, play_out
from engine.ai.heuristics.blot import best_contract, hand_value
from engine.core.cards import parse_cards

BL = get_game("blot")


def test_strong_trump_hand_prefers_that_suit():
    hand = parse_cards("JH 9H AH TH KS 7D 8C 7C")
    strain, value = best_contract(hand)
    assert strain == "H" and value > hand_value(hand, "S")


def test_gives_points_to_a_partner_who_holds_the_trick():
    # seat 2's partner (seat 0) leads the master trump; seat 2 is void in hearts and
    # the partner wins: any card may go, and the heuristic feeds it the ace
    state = BL.position(
        hands={0: ["7C", "8C"], 2: ["AS", "7S", "8D"], 1: ["9D", "TD"], 3: ["8H", "JD", "QD"]},
        trick=[(0, "JH"), (1, "7H")],
        to_act=2,
        contract="9 H",
        declarer=0,
    )
    agent = get_agent("heuristic", game="blot", seed=0)
    assert str(agent.act(state.view(2), state.legal_actions())) == "play AS"


def test_heuristic_team_beats_random_team():
    wins = 0
    for seed in range(4):
        state = BL.new_match(seed=seed, variant=BL.variant(target_score=151))
        agents = [
            get_agent("heuristic" if s % 2 == 0 else "random", game="blot", seed=s)
            for s in range(4)
        ]
        play_out(state, agents)
        wins += state.view(None).ranking[0] == 1
    assert wins >= 3


def test_heuristic_contracts_are_mostly_made():
    made = total = 0
    for seed in range(6):
        state = BL.new_match(seed=seed, variant=BL.variant(target_score=301))
        play_out(state, [get_agent("heuristic", game="blot", seed=seed * 4 + s) for s in range(4)])
        made += sum(r.details["made"] for r in state.history)
        total += len(state.history)
    assert made / total > 0.6

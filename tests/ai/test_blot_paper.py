"""The Bazar Blot paper's agent (``paper-minimax``): its value-table bidder
and its all-seeing depth-limited minimax."""

from __future__ import annotations

import pytest

from engine import get_game, parse_action
from engine.ai import get_agent
from engine.ai.baselines import paper_bid, paper_values
from engine.ai.blot_solver import Solver, score_margin
from engine.core.actions import CONTRA, PASS
from engine.core.cards import parse_cards
from engine.games.blot.masks import CARDS, INDEX

BL = get_game("blot")


def auction_state(hands: list[str], actions: list[str], dealer: int = 3):
    state = BL.new_match(seed=0, deal={"hands": [h.split() for h in hands], "dealer": dealer})
    for text in actions:
        state.apply(parse_action(text))
    return state


def test_values_come_from_the_papers_table():
    # the paper's worked example: 7D 9S KS JH 9D 8D AC TS, the partner bid 8 spades
    hand = parse_cards("7D 9S KS JH 9D 8D AC TS")
    values = paper_values(hand, (8, "S"))
    assert values["D"] == 14  # 9 of trump 14, the 8 and 7 nothing
    assert values["S"] == pytest.approx(14 + 4 + 10 + 8 / 1.5)
    assert values["H"] == 20 and values["C"] == 11
    assert values["NT"] == pytest.approx((19 + 10 + 4 + 2) / 1.7)


def test_bids_its_best_contract_raised_by_its_value_and_combinations():
    # hearts J 9 A T = 55, above 4.5 x 8; the level below the lowest (7),
    # + 55 // 20 = 2, + the tierce J T 9 (20 points: 2) = 11
    state = auction_state(
        [
            "JH 9H AH TH 7C 8C 7D 8S",
            "AC TC KC QC AD TD KD QD",
            "7H 8H QH KH JC 9C JD 9D",
            "AS TS KS QS JS 9S 7S 8D",
        ],
        [],
    )
    assert paper_bid(state.view(0), state.legal_actions()) == parse_action("bid 11 H")


def test_passes_below_its_threshold_and_never_doubles():
    hands = [
        "7C 8C 9C 7D 8D 9D 7S 8S",
        "JH 9H AH TH KH QH AC AD",
        "TC KC QC JC AS TS KS QS",
        "7H 8H JD QD KD TD 9S JS",
    ]
    state = auction_state(hands, [])
    assert paper_bid(state.view(0), state.legal_actions()) == PASS
    state = auction_state(hands, ["pass", "bid 40 H"])
    legal = state.legal_actions()
    assert (
        CONTRA in legal
        and get_agent("paper-minimax", game="blot").act(state.view(2), legal) == PASS
    )


def test_minimax_sees_every_hand_and_plays_the_end_exactly():
    agent = get_agent("paper-minimax", game="blot", seed=0)
    assert agent.sees_all
    state = BL.new_match(seed=4)
    heuristic = [get_agent("heuristic", game="blot", seed=s) for s in range(4)]
    while not (state.phase.value == "play" and sum(len(h) for h in state.hands) <= 10):
        seat = state.decider
        state.apply(heuristic[seat].act(state.view(seat), state.legal_actions()))
    legal = state.legal_actions()
    with pytest.raises(ValueError):
        agent.act(state.view(state.decider), legal)
    action = agent.act(state.view(state.decider), legal, full_state=state)
    # depth 12 reaches the end of the deal: its card is one of the best
    deal = state.play_state()
    team = deal.to_act % 2
    values = Solver(deal, team).values()
    best = max(score_margin(deal, team, v) for v in values.values())
    assert score_margin(deal, team, values[INDEX[action.card]]) == best
    assert CARDS[INDEX[action.card]] in state._allowed_cards().cards

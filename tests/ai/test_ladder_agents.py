"""Ladder heuristic: shed low ordinary cards, keep or use action cards well."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent

LD = get_game("ladder")


def act(state, seat=0):
    return str(
        get_agent("heuristic", game="ladder", seed=0).act(state.view(seat), state.legal_actions())
    )


def test_sheds_the_lowest_ordinary_rank_with_every_copy():
    state = LD.position(hands={0: ["5H", "5S", "KC", "QD", "2H"]})
    assert act(state) == "play 5S 5H"


def test_plays_a_ten_when_the_opponents_hold_few_hand_cards():
    state = LD.position(
        hands={0: ["TH", "5S", "KC", "QD"], 1: ["4C"], 2: ["6C", "7C", "8C"], 3: ["9D", "JD"]}
    )
    assert act(state) == "play TH"


def test_uses_a_three_to_hand_the_turn_to_a_partner_about_to_go_out():
    state = LD.position(
        hands={
            0: ["3H", "5S", "KC", "6D", "7D"],
            1: ["4C", "5C", "7S", "8S"],
            2: ["6C"],
            3: ["9D", "JD", "4D", "8D"],
        },
        pile=["QS"],
        requirement="MIN 12",
    )
    assert act(state) == "play 3H"


def test_blind_hidden_play_and_forced_pickup():
    hidden = LD.position(hands={0: []}, hidden={0: 2})
    assert act(hidden).startswith("hidden ")
    stuck = LD.position(hands={0: ["4H"]}, pile=["KS"], requirement="MIN 13")
    assert act(stuck) == "pickup"

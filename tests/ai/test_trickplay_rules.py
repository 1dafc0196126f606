"""The shared trick-play heuristic, one named rule per test
(engine/ai/heuristics/trickplay.py).  Each position is built from named
facts; the test checks the card the heuristic agent plays and the rule the
heuristic names for it."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.ai import get_agent
from engine.ai.heuristics.trickplay import Choice
from engine.core.game import MatchState


def choice(game: str, state: MatchState, seat: int | None = None) -> Choice:
    """What the ``game`` heuristic plays for ``seat`` (default: the decider),
    checked against the action the agent itself returns."""
    seat = state.decider if seat is None else seat
    assert seat is not None
    view, legal = state.view(seat), state.legal_actions()
    agent: Any = get_agent("heuristic", game=game, seed=0)
    action = agent.act(view, legal)
    assert action in legal
    explained: Choice = agent.explain(view, [a.card for a in legal])
    assert action.card == explained.card
    return explained


def played(game: str, state: MatchState) -> tuple[str, str]:
    c = choice(game, state)
    return str(c.card), c.rule


# -- following ---------------------------------------------------------------------------
def test_cannot_win_play_low_keeps_the_king():
    # FINDINGS: K♣ thrown under A♣ while holding 6♣ 2♣ (Callbreak, must beat if able)
    state = get_game("callbreak").position(
        hands={1: ["KC", "6C", "2C", "9H", "4D"]},
        trick=[(0, "AC")],
        to_act=1,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("2C", "cannot_win_play_low")


def test_cannot_win_play_low_under_a_ruff_keeps_the_master():
    # hearts were ruffed: the A♥ cannot win this trick but will win a later one
    state = get_game("callbreak").position(
        hands={2: ["AH", "TH", "3H", "9D"]},
        trick=[(0, "5H"), (1, "2S")],
        to_act=2,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("3H", "cannot_win_play_low")


def test_partner_holds_the_trick_no_overtaking_and_no_honour_under_it():
    # FINDINGS: K♥ under the partner's A♥ (Batak; seat 2 cannot beat the ace)
    state = get_game("batak").position(
        hands={2: ["KH", "5H", "9C", "8D"]},
        trick=[(0, "AH"), (1, "3H")],
        to_act=2,
        trump="S",
        declarer=1,
        contract=8,
    )
    assert played("batak", state) == ("5H", "partner_holds")


def test_partner_holds_feeds_points_in_blot():
    # seat 2 is void in hearts and its partner's master trump holds: give it the ten
    state = get_game("blot").position(
        hands={0: ["7C", "8C"], 2: ["TS", "7S", "8D"], 1: ["9D", "TD"], 3: ["8H", "JD", "QD"]},
        trick=[(0, "JH"), (1, "7H")],
        to_act=2,
        contract="9 H",
        declarer=0,
    )
    assert played("blot", state) == ("TS", "partner_holds")


def test_discard_keeps_masters_and_the_guard_of_a_king():
    # void in hearts, the trick is ruffed and seat 3 has no spade: any card goes.
    # 4♦ guards K♦, A♣ is a master: the 5♣ goes.
    state = get_game("callbreak").position(
        hands={3: ["KD", "4D", "AC", "5C", "6C"]},
        trick=[(0, "AH"), (1, "5H"), (2, "3S")],
        to_act=3,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("5C", "discard")


def test_last_hand_wins_with_the_cheapest_winner():
    state = get_game("callbreak").position(
        hands={3: ["AH", "JH", "2H"]},
        trick=[(0, "9H"), (1, "TH"), (2, "3H")],
        to_act=3,
        bids={0: 1, 1: 1, 2: 1, 3: 3},
    )
    assert played("callbreak", state) == ("JH", "last_hand_cheapest")


def test_win_for_sure_with_a_master_nobody_can_ruff():
    state = get_game("callbreak").position(
        hands={1: ["AD", "9D", "3D", "7C"]},
        trick=[(0, "5D")],
        to_act=1,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("AD", "win_for_sure")


def test_second_hand_low():
    # the ace is out: must beat the 5 (K or 9), and second hand plays the low one
    state = get_game("callbreak").position(
        hands={1: ["KD", "9D", "3D", "7C"]},
        trick=[(0, "5D")],
        to_act=1,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("9D", "second_hand_low")


@pytest.mark.parametrize(
    ("hand", "card"),
    [(["KD", "9D", "3D", "7C"], "KD"), (["KD", "QD", "3D", "7C"], "QD")],
)
def test_third_hand_high_the_cheapest_of_equal_cards(hand, card):
    state = get_game("callbreak").position(
        hands={2: hand},
        trick=[(0, "5D"), (1, "8D")],
        to_act=2,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == (card, "third_hand_high")


def test_no_overtake_of_a_partner_who_may_still_win():
    # Blot: partner's K♥ is winning, the A♥ is out; the T♥ would beat the king
    # but not the ace: keep it, play low
    state = get_game("blot").position(
        hands={2: ["TH", "8H", "7C", "9D"]},
        trick=[(0, "KH"), (1, "7H")],
        to_act=2,
        contract="9 S",
        declarer=1,
    )
    assert played("blot", state) == ("8H", "no_overtake")


def test_ruff_with_the_cheapest_trump_that_holds():
    state = get_game("callbreak").position(
        hands={2: ["9S", "4S", "2D", "7C"]},
        trick=[(0, "AH"), (1, "5H")],
        to_act=2,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("4S", "ruff")


# -- leading -----------------------------------------------------------------------------
def test_draw_trumps_with_the_master_trump():
    # Blot declarer holding J♠ 9♠ (both masters, equal): draw trumps before cashing A♥
    state = get_game("blot").position(
        hands={0: ["JS", "9S", "7S", "AH", "7D"]},
        to_act=0,
        contract="10 S",
        declarer=0,
    )
    assert played("blot", state) == ("9S", "draw_trumps")


def test_cash_a_master_nobody_is_known_to_ruff():
    state = get_game("callbreak").position(
        hands={0: ["AH", "7H", "4D", "3C"]}, to_act=0, bids={0: 2, 1: 1, 2: 1, 3: 1}
    )
    assert played("callbreak", state) == ("AH", "cash_master")


def test_lead_from_length_low():
    state = get_game("callbreak").position(
        hands={0: ["9H", "6H", "4H", "2H", "KD", "QC", "5C"]},
        to_act=0,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("2H", "lead_from_length")


def test_lead_from_length_top_of_touching_honours():
    state = get_game("callbreak").position(
        hands={0: ["KD", "QD", "JD", "3D", "6H", "5C"]},
        to_act=0,
        bids={0: 3, 1: 3, 2: 3, 3: 3},
    )
    assert played("callbreak", state) == ("KD", "lead_from_length")


def test_lead_trump_when_only_trumps_are_left():
    state = get_game("callbreak").position(
        hands={0: ["9S", "4S"]}, to_act=0, bids={0: 3, 1: 3, 2: 3, 3: 3}
    )
    assert played("callbreak", state) == ("4S", "lead_trump")


def test_return_the_partners_suit():
    # Blot, dealer 1: seat 2 declares spades and leads 7♦; seat 0 wins with the A♦.
    # Seat 0 has no master left and longer clubs, but returns its partner's diamonds.
    blot = get_game("blot")
    hands = [
        ["AD", "QD", "7C", "8C", "9C", "7H", "8H", "KH"],  # 0
        ["9D", "TC", "JC", "QC", "KC", "AC", "9H", "TH"],  # 1
        ["7D", "JS", "9S", "AS", "TS", "KS", "QS", "8S"],  # 2
        ["8D", "TD", "JD", "KD", "JH", "QH", "AH", "7S"],  # 3
    ]
    state = blot.new_match(seed=0, deal={"hands": hands, "dealer": 1})
    for text in ["bid 8 S", "pass", "pass", "pass", "pass"]:
        state.apply(text)
    for text in ["play 7D", "play 8D", "play AD", "play 9D"]:
        state.apply(text)
    assert state.decider == 0
    assert played("blot", state) == ("QD", "partner_suit")

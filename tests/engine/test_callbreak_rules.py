"""One test per rule of rules/callbreak.md, each from a position or an explicit deal."""

from __future__ import annotations

import pytest

from engine import (
    IllegalAction,
    InvalidPosition,
    InvalidVariant,
    NotYourTurn,
    get_game,
    parse_cards,
)
from engine.core.cards import standard_deck

CB = get_game("callbreak")


def plays(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def sorted_deal() -> list[list[str]]:
    """Seat 0 all spades, 1 hearts, 2 diamonds, 3 clubs."""
    deck = [str(c) for c in standard_deck()]
    return [deck[13 * s : 13 * (s + 1)] for s in range(4)]


# -- Setup -----------------------------------------------------------------------
def test_setup_deals_thirteen_each_from_52_cards():
    state = CB.new_match(seed=1)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len({c for h in state.hands for c in h}) == 52


def test_spades_are_always_trump():
    assert CB.new_match(seed=4).trump == "S"
    with pytest.raises(InvalidPosition):
        CB.position(hands={0: ["AH"]}, trump="H")


def test_first_dealer_drawn_by_the_seed_and_reproducible():
    dealers = {CB.new_match(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert CB.new_match(seed=9).dealer == CB.new_match(seed=9).dealer


def test_dealer_can_be_set_by_an_explicit_deal():
    state = CB.new_match(seed=1, deal={"hands": sorted_deal(), "dealer": 2})
    assert state.dealer == 2 and state.to_act == 3


def test_dealer_moves_one_seat_every_deal_and_seat_after_dealer_bids_first():
    state = CB.new_match(
        seed=5, variant=CB.variant(rounds=3), deal={"hands": sorted_deal(), "dealer": 1}
    )
    seen = []
    while not state.is_over:
        if state.phase.value == "bidding" and all(b is None for b in state.bids):
            seen.append((state.dealer, state.to_act))
        state.apply(state.legal_actions()[0])
    assert seen == [(1, 2), (2, 3), (3, 0)]


def test_game_is_rounds_deals():
    state = CB.new_match(seed=2, variant=CB.variant(rounds=2))
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    assert len(state.history) == 2


# -- Bidding ---------------------------------------------------------------------
def test_each_player_bids_once_from_1_to_max_bid_no_pass():
    state = CB.new_match(seed=3, variant=CB.variant(max_bid=10))
    assert plays(state) == {f"bid {n}" for n in range(1, 11)}
    with pytest.raises(IllegalAction) as info:
        state.apply("bid 0")
    assert info.value.reason == "bid_out_of_range"
    with pytest.raises(IllegalAction):
        state.apply("bid 11")
    with pytest.raises(IllegalAction):
        state.apply("pass")


def test_bids_have_no_restriction_on_the_total():
    state = CB.new_match(seed=3, variant=CB.variant(max_bid=13))
    for _ in range(4):
        state.apply("bid 13")
    assert state.bids == [13, 13, 13, 13] and state.phase.value == "play"


def test_seat_after_dealer_leads_the_first_trick():
    state = CB.new_match(seed=1, deal={"hands": sorted_deal(), "dealer": 0})
    for _ in range(4):
        state.apply("bid 2")
    assert state.to_act == 1


def test_out_of_turn_is_refused():
    state = CB.new_match(seed=1, deal={"hands": sorted_deal(), "dealer": 0})
    with pytest.raises(NotYourTurn):
        state.apply("bid 2", seat=3)
    state.apply("bid 2", seat=1)


# -- Play ------------------------------------------------------------------------
def test_any_card_may_be_led_spades_included():
    state = CB.position(hands={0: ["AS", "2H", "3D", "4C"]}, to_act=0)
    assert plays(state) == {"play AS", "play 2H", "play 3D", "play 4C"}


def test_holding_led_suit_must_beat_highest_if_able():
    state = CB.position(hands={2: ["2H", "QH", "KH", "AS"]}, trick=[(0, "9H"), (1, "JH")], to_act=2)
    assert plays(state) == {"play QH", "play KH"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play 2H")
    assert info.value.reason == "must_beat"


def test_holding_led_suit_unable_to_beat_plays_any_of_it():
    state = CB.position(hands={2: ["2H", "3H", "AS"]}, trick=[(0, "9H"), (1, "JH")], to_act=2)
    assert plays(state) == {"play 2H", "play 3H"}


def test_spade_lead_must_be_beaten_if_able():
    state = CB.position(hands={1: ["2S", "KS", "AH"]}, trick=[(0, "QS")], to_act=1)
    assert plays(state) == {"play KS"}


def test_ruffed_trick_holding_led_suit_any_card_of_it():
    state = CB.position(
        hands={3: ["2H", "AH", "AS"]}, trick=[(0, "9H"), (1, "3S"), (2, "KH")], to_act=3
    )
    assert plays(state) == {"play 2H", "play AH"}


def test_void_not_ruffed_must_play_any_spade():
    state = CB.position(hands={1: ["2S", "KS", "AD"]}, trick=[(0, "9H")], to_act=1)
    assert plays(state) == {"play 2S", "play KS"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play AD")
    assert info.value.reason == "must_trump"


def test_void_ruffed_must_overtrump_if_able():
    state = CB.position(hands={2: ["2S", "KS", "AD"]}, trick=[(0, "9H"), (1, "5S")], to_act=2)
    assert plays(state) == {"play KS"}


def test_void_ruffed_only_lower_spades_any_card_no_forced_undertrump():
    state = CB.position(hands={2: ["2S", "3S", "AD"]}, trick=[(0, "9H"), (1, "5S")], to_act=2)
    assert plays(state) == {"play 2S", "play 3S", "play AD"}


def test_void_without_spades_any_card():
    state = CB.position(hands={1: ["2D", "AC"]}, trick=[(0, "9H")], to_act=1)
    assert plays(state) == {"play 2D", "play AC"}


def test_highest_spade_wins_the_trick():
    state = CB.position(
        hands={3: ["4S", "2D"]},
        trick=[(0, "AH"), (1, "2S"), (2, "KH")],
        to_act=3,
        bids={0: 1, 1: 1, 2: 1, 3: 1},
    )
    state.apply("play 4S")
    assert state.tricks_won[3] == 1 and state.to_act == 3


def test_without_spades_highest_card_of_led_suit_wins():
    state = CB.position(hands={3: ["2H", "2D"]}, trick=[(0, "9H"), (1, "AD"), (2, "KH")], to_act=3)
    state.apply("play 2H")
    assert state.tricks_won[2] == 1 and state.to_act == 2


def test_card_not_in_hand_is_refused_and_state_unchanged():
    state = CB.position(hands={0: ["AS", "2H"]}, to_act=0)
    before = list(state.hands[0])
    with pytest.raises(IllegalAction) as info:
        state.apply("play KD")
    assert info.value.reason == "not_in_hand"
    assert state.hands[0] == before and state.log == []


# -- Settings --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "value"), [("rounds", 0), ("rounds", 14), ("max_bid", 7), ("max_bid", 14)]
)
def test_settings_out_of_range_raise_clear_error(key, value):
    with pytest.raises(InvalidVariant) as info:
        CB.variant(**{key: value})
    assert key in str(info.value) and str(value) in str(info.value)


def test_settings_from_text_and_unknown_setting():
    assert CB.Variant.from_options({"rounds": "3", "max_bid": "13"}) == CB.variant(
        rounds=3, max_bid=13
    )
    with pytest.raises(InvalidVariant) as info:
        CB.variant(trump="H")
    assert info.value.reason == "unknown_setting"
    with pytest.raises(InvalidVariant):
        CB.Variant.from_options({"rounds": "five"})


def test_explicit_deal_with_a_card_twice_lists_the_problem():
    hands = sorted_deal()
    hands[1][0] = hands[0][0]
    with pytest.raises(InvalidPosition) as info:
        CB.new_match(seed=1, deal=hands)
    assert "dealt twice" in str(info.value)


def test_full_scripted_deal_replays_to_the_same_state():
    state = CB.new_match(
        seed=8, variant=CB.variant(rounds=1), deal={"hands": sorted_deal(), "dealer": 3}
    )
    for _ in range(4):
        state.apply("bid 1")
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    # seat 0 holds every spade and wins all 13 tricks
    assert state.tricks_won == [13, 0, 0, 0]
    assert state.scores == [22, -10, -10, -10]
    again = CB.replay(
        state.record()["actions"], seed=8, variant={"rounds": 1}, deal=state.initial_deal
    )
    assert again.scores == state.scores and again.log == state.log


def test_parse_cards_notation_examples():
    assert [str(c) for c in parse_cards("AS as 10h th 7d")] == ["AS", "AS", "TH", "TH", "7D"]

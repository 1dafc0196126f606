"""One test per rule of rules/batak.md (Eşli Batak)."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, InvalidPosition, InvalidVariant, NotYourTurn, get_game
from engine.core.cards import standard_deck
from engine.games.batak import match_winner, score_deal

BT = get_game("batak")


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def suit_deal() -> list[list[str]]:
    """Seat 0 all spades, 1 hearts, 2 diamonds, 3 clubs."""
    deck = [str(c) for c in standard_deck()]
    return [deck[13 * s : 13 * (s + 1)] for s in range(4)]


def auction(state, *texts: str) -> None:
    for text in texts:
        state.apply(text)


# -- Setup ---------------------------------------------------------------------
def test_deal_thirteen_each_partners_across():
    state = BT.new_match(seed=1)
    assert [len(h) for h in state.hands] == [13] * 4
    assert state.view(0).teams == ((0, 2), (1, 3))


def test_first_bidder_of_deal_one_is_seat_0_then_rotates():
    state = BT.new_match(seed=2, variant=BT.variant(target_score=500))
    firsts = []
    rng = random.Random(2)
    while len(firsts) < 3:
        if state.phase.value == "auction" and not state.auction:
            firsts.append(state.to_act)
        state.apply(rng.choice(state.legal_actions()))
    assert firsts == [0, 1, 2]


# -- Auction ---------------------------------------------------------------------
def test_first_bidder_may_not_pass_and_may_open_at_7():
    state = BT.new_match(seed=3)
    assert legal(state) == {f"bid {n}" for n in range(7, 14)}
    with pytest.raises(IllegalAction) as info:
        state.apply("pass")
    assert info.value.reason == "forced_opening"


def test_later_bids_need_min_bid_and_must_beat_the_current_bid():
    state = BT.new_match(seed=3)
    state.apply("bid 7")
    assert legal(state) == {"pass", *(f"bid {n}" for n in range(8, 14))}
    state.apply("bid 10")
    assert legal(state) == {"pass", "bid 11", "bid 12", "bid 13"}
    with pytest.raises(IllegalAction) as info:
        state.apply("bid 10")
    assert info.value.reason == "bid_out_of_range"


def test_a_pass_is_final_and_passed_players_are_skipped():
    state = BT.new_match(seed=3)
    auction(state, "bid 7", "pass", "bid 8", "bid 9")
    assert state.to_act == 0
    state.apply("bid 10")
    assert state.to_act == 2  # seat 1 passed: skipped for the rest of the deal


def test_auction_ends_after_three_passes_and_remaining_player_declares():
    state = BT.new_match(seed=3)
    auction(state, "bid 7", "bid 8", "pass", "pass", "pass")
    assert state.phase.value == "trump"
    assert state.declarer == 1 and state.to_act == 1
    assert state.view(None).contract == "8"


def test_forced_opening_with_three_passes_makes_the_opener_declarer_at_7():
    state = BT.new_match(seed=3)
    auction(state, "bid 7", "pass", "pass", "pass")
    assert state.declarer == 0 and state.high_bid == 7


def test_declarer_names_trump_and_there_is_no_no_trump():
    state = BT.new_match(seed=3)
    auction(state, "bid 7", "pass", "pass", "pass")
    assert legal(state) == {"trump S", "trump H", "trump D", "trump C"}
    with pytest.raises(IllegalAction):
        state.apply("bid 9 NT")
    state.apply("trump H")
    assert state.trump == "H" and state.phase.value == "play"


# -- Dummy -------------------------------------------------------------------------
def test_dummy_shown_to_all_once_trump_is_named_and_not_before():
    state = BT.new_match(seed=4)
    auction(state, "bid 8", "pass", "pass", "pass")
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat).dummy is None
    hidden = set(state.hands[2])
    assert not hidden & state.view(1).visible_cards()
    state.apply("trump S")
    for seat in (None, 0, 1, 3):
        view = state.view(seat)
        assert view.dummy_seat == 2 and set(view.dummy) == hidden


def test_declarer_decides_on_the_dummys_turn_under_the_dummys_legality():
    state = BT.position(
        hands={0: ["AS", "2H"], 2: ["KH", "3D"], 1: ["5C"], 3: ["6H", "7C"]},
        trick=[(1, "4H")],
        to_act=2,
        trump="S",
        declarer=0,
        contract=8,
    )
    assert state.to_act == 2 and state.decider == 0
    assert legal(state) == {"play KH"}
    assert {str(a) for a in state.view(0).legal_actions} == {"play KH"}
    assert state.view(2).legal_actions == ()
    with pytest.raises(NotYourTurn):
        state.apply("play KH", seat=2)
    state.apply("play KH", seat=0)
    assert [str(c) for _, c in state.trick.plays] == ["4H", "KH"]
    assert (
        state.hands[2] == [c for c in state.hands[2] if str(c) != "KH"] and len(state.hands[2]) == 1
    )


def test_dummy_player_makes_no_decision_all_deal():
    state = BT.new_match(seed=5)
    auction(state, "bid 8", "pass", "pass", "pass", "trump D")
    rng = random.Random(5)
    while state.round_number == 1:
        assert state.decider != 2
        state.apply(rng.choice(state.legal_actions()))


# -- Play ---------------------------------------------------------------------------
def test_declarer_leads_trick_one():
    state = BT.new_match(seed=6)
    auction(state, "bid 7", "bid 8", "pass", "pass", "pass", "trump C")
    assert state.to_act == 1


def test_trick_winner_leads_the_next_trick():
    state = BT.position(
        hands={0: ["2H", "3H"], 1: ["AH", "4C"], 2: ["5H", "6H"], 3: ["7H", "8H"]},
        to_act=0,
        trump="S",
    )
    for card in ("2H", "AH", "5H", "8H"):
        state.apply(f"play {card}")
    assert state.tricks_won[1] == 1 and state.to_act == 1


def test_no_trump_lead_until_broken_while_holding_another_suit():
    state = BT.position(hands={0: ["AS", "KS", "2H"]}, to_act=0, trump="S")
    assert legal(state) == {"play 2H"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play AS")
    assert info.value.reason == "trump_not_broken"


def test_trump_may_be_led_when_holding_only_trumps():
    state = BT.position(hands={0: ["AS", "KS"]}, to_act=0, trump="S")
    assert legal(state) == {"play AS", "play KS"}


def test_trump_may_be_led_once_broken():
    state = BT.position(hands={0: ["AS", "2H"]}, to_act=0, trump="S", trump_broken=True)
    assert legal(state) == {"play AS", "play 2H"}


def test_any_trump_played_breaks_trump_by_default():
    state = BT.position(
        hands={0: ["AS", "2S"], 1: ["3S", "4H"], 2: ["5S", "6H"], 3: ["7S", "8H"]},
        to_act=0,
        trump="S",
    )
    for card in ("AS", "3S", "5S", "7S"):  # a forced trump lead
        state.apply(f"play {card}")
    assert state.trump_broken


def test_ruff_only_setting_a_forced_trump_lead_does_not_break_trump():
    facts = {
        "hands": {0: ["AS", "2S"], 1: ["3S", "4H"], 2: ["5S", "6H"], 3: ["7S", "8H"]},
        "to_act": 0,
        "trump": "S",
        "variant": BT.variant(trump_unlock="ruff_only"),
    }
    state = BT.position(**facts)
    for card in ("AS", "3S", "5S", "7S"):
        state.apply(f"play {card}")
    assert not state.trump_broken


def test_ruff_breaks_trump_in_both_settings():
    for unlock in ("any_trump", "ruff_only"):
        state = BT.position(
            hands={0: ["2H", "3H"], 1: ["AS", "4D"], 2: ["5H", "6H"], 3: ["7H", "8H"]},
            to_act=0,
            trump="S",
            variant=BT.variant(trump_unlock=unlock),
        )
        for card in ("2H", "AS", "5H", "7H"):
            state.apply(f"play {card}")
        assert state.trump_broken and state.tricks_won[1] == 1


def test_following_must_beat_highest_of_led_suit_if_able():
    state = BT.position(
        hands={2: ["2H", "KH", "AS"]}, trick=[(0, "9H"), (1, "JH")], to_act=2, trump="S"
    )
    assert legal(state) == {"play KH"}


def test_following_trump_lead_must_beat_the_highest_trump():
    state = BT.position(
        hands={1: ["2S", "KS"]}, trick=[(0, "QS")], to_act=1, trump="S", trump_broken=True
    )
    assert legal(state) == {"play KS"}


def test_ruffed_trick_holding_led_suit_any_card_of_it():
    state = BT.position(
        hands={2: ["2H", "AH", "AS"]}, trick=[(0, "9H"), (1, "3S")], to_act=2, trump="S"
    )
    assert legal(state) == {"play 2H", "play AH"}


def test_void_not_ruffed_must_play_any_trump():
    state = BT.position(hands={1: ["2S", "KS", "AD"]}, trick=[(0, "9H")], to_act=1, trump="S")
    assert legal(state) == {"play 2S", "play KS"}


def test_void_ruffed_must_overtrump_if_able():
    state = BT.position(
        hands={2: ["2S", "KS", "AD"]}, trick=[(0, "9H"), (1, "5S")], to_act=2, trump="S"
    )
    assert legal(state) == {"play KS"}


def test_void_ruffed_unable_to_overtrump_still_must_trump():
    state = BT.position(
        hands={2: ["2S", "3S", "AD"]}, trick=[(0, "9H"), (1, "5S")], to_act=2, trump="S"
    )
    assert legal(state) == {"play 2S", "play 3S"}


def test_void_in_led_suit_and_trump_any_card():
    state = BT.position(hands={1: ["2D", "AC"]}, trick=[(0, "9H")], to_act=1, trump="S")
    assert legal(state) == {"play 2D", "play AC"}


def test_highest_trump_wins_else_highest_of_led_suit():
    state = BT.position(
        hands={3: ["4S", "2D"]}, trick=[(0, "AH"), (1, "2S"), (2, "KH")], to_act=3, trump="S"
    )
    state.apply("play 4S")
    assert state.tricks_won[3] == 1


# -- Scoring and end ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("bid", "tricks", "expected"),
    [
        (11, 12, (12, -11)),  # the rule book's 23-point swing
        (13, 12, (-13, -13)),  # both negative
        (8, 8, (8, 5)),
        (8, 7, (-8, 6)),
        (7, 11, (11, 2)),
        (7, 13, (13, -7)),
    ],
)
def test_scoring_examples(bid, tricks, expected):
    assert score_deal(bid, 0, tricks) == expected
    assert score_deal(bid, 1, tricks) == expected[::-1]


def test_defender_min_tricks_setting():
    assert score_deal(9, 0, 12, defender_min_tricks=0) == (12, 1)
    assert score_deal(9, 0, 10, defender_min_tricks=4) == (10, -9)


@pytest.mark.parametrize(
    ("totals", "winner"),
    [((50, 10), 0), ((10, 52), 1), ((55, 60), 1), ((55, 55), None), ((49, 3), None)],
)
def test_target_score_and_tie_rule(totals, winner):
    assert match_winner(totals, 50) == winner


def _last_trick(scores: list[int]):
    state = BT.position(
        hands={0: ["AS"], 1: ["2H"], 2: ["3H"], 3: ["4H"]},
        to_act=0,
        trump="S",
        declarer=0,
        contract=7,
        tricks_won={0: 6, 2: 0, 1: 6, 3: 0},
        scores=scores,
        variant=BT.variant(target_score=50),
    )
    for card in ("AS", "2H", "3H", "4H"):
        state.apply(f"play {card}")
    return state


def test_one_team_reaching_the_target_wins():
    state = _last_trick([43, 40])  # declarers 7 of 7: +7 -> 50; defenders +6 -> 46
    assert state.is_over and state.scores == [50, 46]
    assert state.view(None).ranking == (1, 2)


def test_equal_totals_at_the_target_deal_again():
    state = _last_trick([43, 44])  # both reach 50: equal, so another deal
    assert state.scores == [50, 50]
    assert not state.is_over and state.round_number == 2 and state.phase.value == "auction"


def test_settings_validated_with_clear_errors():
    for key, value in [
        ("target_score", 9),
        ("target_score", 501),
        ("min_bid", 6),
        ("min_bid", 14),
        ("defender_min_tricks", 5),
        ("trump_unlock", "never"),
    ]:
        with pytest.raises(InvalidVariant) as info:
            BT.variant(**{key: value})
        assert key in str(info.value)


def test_min_bid_7_allows_bids_of_7_and_forced_opening_stays_7():
    state = BT.new_match(seed=1, variant=BT.variant(min_bid=7))
    assert min(a.number for a in state.legal_actions()) == 7
    high = BT.new_match(seed=1, variant=BT.variant(min_bid=10))
    assert min(a.number for a in high.legal_actions()) == 7
    high.apply("bid 7")
    assert min(a.number for a in high.legal_actions() if a.verb == "bid") == 10


def test_position_requires_a_trump_suit_and_consistent_hands():
    with pytest.raises(InvalidPosition):
        BT.position(hands={0: ["AS"]}, to_act=0, trump=None)
    with pytest.raises(InvalidPosition):
        BT.position(hands={0: ["AS", "KS"], 1: ["AS"]}, to_act=0, trump="S")


# -- A full scripted deal -------------------------------------------------------------
def test_full_scripted_deal_from_an_explicit_deal_replays_exactly():
    state = BT.new_match(seed=9, variant=BT.variant(target_score=10), deal=suit_deal())
    auction(state, "bid 13", "pass", "pass", "pass", "trump S")
    # seat 0 holds every spade: it leads trumps (only trumps held) and takes all 13
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = state.history[0]
    assert record.tricks_won[0] == 13 and record.scores == (13, -13)
    assert record.contract == "13 S" and record.declarer == 0
    again = BT.replay(
        [str(a) for a in state.log], seed=9, variant={"target_score": 10}, deal=suit_deal()
    )
    assert again.scores == state.scores and again.hands == state.hands


def test_views_never_leak_a_hidden_hand_over_a_whole_match():
    state = BT.new_match(seed=10, variant=BT.variant(target_score=10))
    rng = random.Random(10)
    while not state.is_over:
        for seat in (None, 0, 1, 2, 3):
            seen = state.view(seat).visible_cards()
            allowed = set()
            if seat is not None:
                allowed |= set(state.hands[seat])
            if state.dummy_revealed:
                allowed |= set(state.hands[state.dummy])
            allowed |= {c for t in state.tricks for _, c in t} | {c for _, c in state.trick.plays}
            if state.history:
                allowed |= {c for h in state.history[-1].hands for c in h}
            assert seen <= allowed
        state.apply(rng.choice(state.legal_actions()))

"""Each rule and worked example of rules/blot.md (Bazar Blot)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import IllegalAction, InvalidPosition, InvalidVariant, get_game
from engine.core.cards import parse_cards
from engine.games.blot import (
    BLOT_RANKING,
    DealOutcome,
    award,
    best_split,
    card_points,
    deal_from_deck,
    is_made,
    match_winner,
    round6,
    score_deal,
)
from engine.games.blot.cards import blot_deck

BL = get_game("blot")


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def bids(state) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.verb != "bid"}


# -- Table and deal ---------------------------------------------------------------------
def test_deck_is_32_cards_seven_to_ace():
    deck = blot_deck()
    assert len(deck) == 32 and {c.rank for c in deck} == {7, 8, 9, 10, 11, 12, 13, 14}


def test_explicit_deck_convention_four_then_four_from_dealer_plus_one():
    deck = blot_deck()
    hands = deal_from_deck(deck, dealer=3)
    assert hands[0] == deck[0:4] + deck[16:20]
    assert hands[1] == deck[4:8] + deck[20:24]
    assert hands[3] == deck[12:16] + deck[28:32]
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in deck], "dealer": 3})
    assert state.hands == hands and state.to_act == 0


def test_dealer_moves_and_dealer_plus_one_opens_and_leads():
    state = BL.new_match(seed=2, deal={"deck": [str(c) for c in blot_deck()], "dealer": 1})
    assert state.to_act == 2
    state.apply("bid 8 H")
    for _ in range(4):
        state.apply("pass")
    assert state.phase.value == "play" and state.to_act == 2


def test_redeal_by_next_dealer_after_four_passes_without_a_bid():
    state = BL.new_match(seed=3, deal={"deck": [str(c) for c in blot_deck()], "dealer": 0})
    before = [list(h) for h in state.hands]
    for _ in range(4):
        state.apply("pass")
    assert state.dealer == 1 and state.phase.value == "auction" and state.to_act == 2
    assert state.hands != before and not state.history


# -- Auction ----------------------------------------------------------------------------
def test_first_bid_at_least_8_and_later_bids_strictly_higher():
    state = BL.new_match(seed=1)
    assert "bid 7 H" not in legal(state) and "bid 8 H" in legal(state)
    state.apply("bid 9 S")
    assert "bid 9 NT" not in legal(state)  # NT does not beat a suit at the same level
    assert "bid 10 C" in legal(state)
    with pytest.raises(IllegalAction):
        state.apply("bid 9 NT")


def test_plain_bids_go_up_to_80():
    state = BL.new_match(seed=1)
    assert "bid 80 H" in legal(state) and "bid 81 H" not in legal(state)


def test_a_player_may_outbid_partner_or_self_and_passes_do_not_bind():
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in blot_deck()], "dealer": 3})
    state.apply("bid 8 H")  # seat 0
    state.apply("pass")  # seat 1
    state.apply("bid 9 S")  # seat 2 outbids partner
    state.apply("pass")  # seat 3
    state.apply("bid 10 S")  # seat 0 outbids partner again
    state.apply("bid 11 C")  # seat 1 bids after passing: not binding
    assert state.auction.level == 11 and state.auction.bidder == 1


def test_four_consecutive_passes_close_and_bidder_may_raise_after_three():
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in blot_deck()], "dealer": 3})
    state.apply("bid 8 H")
    for _ in range(3):
        state.apply("pass")
    assert state.to_act == 0 and "bid 9 H" in legal(state)
    state.apply("bid 9 H")
    for _ in range(4):
        state.apply("pass")
    assert state.view(None).contract == "9 H" and state.view(None).declarer == 0


def test_capot_bids_need_25_and_are_sticky():
    state = BL.new_match(seed=1)
    assert "bid 24 H capot" not in legal(state) and "bid 25 H capot" in legal(state)
    state.apply("bid 25 H capot")
    assert "bid 30 H" not in legal(state) and "bid 26 S capot" in legal(state)
    with pytest.raises(IllegalAction) as info:
        state.apply("bid 30 H")
    assert info.value.reason == "capot_sticky"


def test_contra_only_by_an_opponent_on_their_turn_once():
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in blot_deck()], "dealer": 3})
    assert "contra" not in legal(state)  # no standing bid
    state.apply("bid 9 H")  # seat 0
    assert "contra" in legal(state)  # seat 1, an opponent
    state.apply("pass")
    assert "contra" not in legal(state)  # seat 2, the bidder's partner
    state.apply("pass")
    state.apply("contra")  # seat 3
    assert legal(state) == {"pass", "recontra"}  # no new bid after contra
    assert state.to_act == 0


def test_after_contra_contracted_team_passes_twice_auction_ends_doubled():
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in blot_deck()], "dealer": 3})
    state.apply("bid 9 H")
    state.apply("contra")  # seat 1
    assert state.to_act == 2
    state.apply("pass")
    assert state.to_act == 0  # the contracted team only
    state.apply("pass")
    assert state.phase.value == "play" and state.view(None).contract == "9 H contra"


def test_recontra_ends_the_auction():
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in blot_deck()], "dealer": 3})
    state.apply("bid 9 NT")
    state.apply("contra")
    state.apply("recontra")
    assert state.phase.value == "play" and state.view(None).contract == "9 NT recontra"
    assert state.trump is None


def test_recontra_needs_a_contra_first():
    state = BL.new_match(seed=1)
    state.apply("bid 9 H")
    with pytest.raises(IllegalAction) as info:
        state.apply("recontra")
    assert info.value.reason == "bad_recontra"


# -- Card order and points ----------------------------------------------------------------
def test_trump_order_j_9_a_t_k_q_8_7():
    cards = parse_cards("JH 9H AH TH KH QH 8H 7H")
    powers = [BLOT_RANKING.trump_power(c) for c in cards]
    assert powers == sorted(powers, reverse=True)


def test_plain_order_a_t_k_q_j_9_8_7_from_the_table_not_points():
    cards = parse_cards("AS TS KS QS JS 9S 8S 7S")
    powers = [BLOT_RANKING.plain_power(c) for c in cards]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == 8


@pytest.mark.parametrize(
    ("card", "trump", "points"),
    [
        ("JH", "H", 20),
        ("9H", "H", 14),
        ("AH", "H", 11),
        ("TH", "H", 10),
        ("KH", "H", 4),
        ("QH", "H", 3),
        ("8H", "H", 0),
        ("JS", "H", 2),
        ("9S", "H", 0),
        ("AS", "H", 11),
        ("AS", None, 19),
        ("TS", None, 10),
        ("JS", None, 2),
    ],
)
def test_card_points_table(card, trump, points):
    assert card_points(parse_cards(card)[0], trump) == points


@given(st.permutations(blot_deck()), st.sampled_from(["S", "H", "D", "C", None]))
def test_every_deal_raw_points_total_162(deck, trump):
    assert sum(card_points(c, trump) for c in deck) + 10 == 162


def test_deal_points_in_play_total_162():
    state = BL.new_match(seed=5, variant=BL.variant(target_score=1001))
    rng = random.Random(5)
    while len(state.history) < 6 and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    for record in state.history:
        assert sum(record.details["card_points"]) == 162


# -- Play --------------------------------------------------------------------------------
def pos(hand: str, trick: list[tuple[int, str]], contract: str = "9 H", **kw):
    seat = (trick[0][0] + len(trick)) % 4 if trick else 0
    return BL.position(
        hands={seat: hand.split()}, trick=trick, to_act=seat, contract=contract, **kw
    )


def test_must_follow_suit_any_card_of_a_plain_suit():
    state = pos("7S AS 8D", [(0, "KS")])
    assert legal(state) == {"play 7S", "play AS"}


def test_trump_lead_must_beat_highest_trump_even_partners():
    state = pos("7H 9H AH", [(0, "AH".replace("A", "T")), (1, "KH")])  # partner's TH leads
    assert legal(state) == {"play 9H", "play AH"}


def test_trump_lead_cannot_beat_any_trump():
    state = pos("7H 8H AS", [(0, "JH")])
    assert legal(state) == {"play 7H", "play 8H"}


def test_void_partner_winning_any_card():
    state = pos("7H AD", [(0, "AS"), (1, "7S")])  # seat 2; partner seat 0 wins
    assert legal(state) == {"play 7H", "play AD"}


def test_void_partner_exemption_off_must_trump():
    state = pos("7H AD", [(0, "AS"), (1, "7S")], variant=BL.variant(partner_exemption=False))
    assert legal(state) == {"play 7H"}


def test_void_opponent_winning_must_trump():
    state = pos("7H AD", [(0, "7S"), (1, "AS")])
    assert legal(state) == {"play 7H"}


def test_void_must_beat_highest_trump_in_trick_if_able():
    state2 = pos("JH 7H AD", [(0, "7S"), (1, "9H")])
    assert legal(state2) == {"play JH"}


def test_void_cannot_overtrump_any_card_no_forced_undertrump():
    state = pos("7H AD", [(0, "7S"), (1, "9H")])
    assert legal(state) == {"play 7H", "play AD"}


def test_must_undertrump_setting():
    state = pos("7H AD", [(0, "7S"), (1, "9H")], variant=BL.variant(must_undertrump=True))
    assert legal(state) == {"play 7H"}


def test_void_without_trump_any_card():
    state = pos("7D AC", [(0, "7S")])
    assert legal(state) == {"play 7D", "play AC"}


def test_no_trump_follow_suit_else_any_card():
    state = pos("7D AC", [(0, "7S")], contract="9 NT")
    assert legal(state) == {"play 7D", "play AC"}


def test_highest_trump_wins_else_highest_of_led_suit():
    state = pos("8S 7D", [(0, "AS"), (1, "7H"), (2, "TS")])
    state.apply("play 8S")
    assert state.tricks_won[1] == 1
    plain = pos("9S 7D", [(0, "KS"), (1, "QS"), (2, "TS")], contract="9 NT")
    plain.apply("play 9S")
    assert plain.tricks_won[2] == 1  # T beats K, Q and 9 in the plain order


# -- Declarations ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "trump", "found"),
    [
        ("AS KS QS 7H 8D 9D JC TC", "H", ["tierce (20)"]),
        ("AS KS QS JS 8D 9D JC TC", "H", ["fifty (50)"]),
        ("AS KS QS JS TS 9D JC 7C", "H", ["hundred (100)"]),
        ("JS JH JD JC 7S 8S 9D AC", "H", ["four jacks (200)"]),
        ("9S 9H 9D 9C 7S 8S TD AC", "H", ["four nines (140)"]),
        ("AS AH AD AC 7S 8S TD QC", "H", ["four aces (110)"]),
        ("AS AH AD AC 7S 8S TD QC", None, ["four aces (190)"]),
        ("JS JH JD JC 7S 8S 9D AC", None, ["four jacks (100)"]),
        ("9S 9H 9D 9C 7S 8S TD AC", None, ["tierce (20)"]),  # NT nines: not declared
        ("7S 7H 7D 7C 8S 8H 8D 8C", "H", []),
    ],
)
def test_declarations_detected(hand, trump, found):
    assert sorted(d.describe() for d in best_split(0, parse_cards(hand), trump)) == sorted(found)


def test_a_card_belongs_to_one_combination_best_split_chosen():
    # KS QS JS + four jacks: the jack cannot serve both; 200 beats 20
    decls = best_split(0, parse_cards("KS QS JS JH JD JC 8H 7D"), "H")
    assert [d.describe() for d in decls] == ["four jacks (200)"]
    # A K Q J T 9 8 7 of spades: one hundred (8 cards), not two runs
    run = best_split(0, parse_cards("AS KS QS JS TS 9S 8S 7S"), "H")
    assert sum(d.value for d in run) == 100


def test_any_four_of_a_kind_beats_any_run():
    hands = [
        parse_cards(h)
        for h in (
            "AS KS QS JS TS 7H 8H 9H",
            "TD TH TS TC 7D 8D 7C 8C",
            "9D JD QD 9C JC QC AH KH",
            "AD KD AC KC QH JH 9S 8S",
        )
    ]
    team, decls = award(hands, "H", first_player=0)
    assert team == 1 and [d.describe() for d in decls] == ["four tens (100)"]


def test_runs_compare_by_length_then_top_card():
    longer = [
        parse_cards(h)
        for h in (
            "AS KS QS 7H 8H 9C 7D 8D",
            "KD QD JD TD 7C 8C TH JH",
            "9H 9S TS JS AH AC KC QC",
            "AD QH KH 8S JC TC 9D 7S",
        )
    ]
    assert award(longer, "S", 0)[0] == 1
    higher = [
        parse_cards(h)
        for h in (
            "AS KS QS 7H 8H 9C 7D 8D",
            "KD QD JD 8S 7C 8C TH JH",
            "9H 9S TS JS AH AC KC QC",
            "AD QH KH TD JC TC 9D 7S",
        )
    ]
    assert award(higher, "C", 0)[0] == 0  # A-K-Q beats K-Q-J


def test_equal_runs_trump_beats_plain_then_earlier_player():
    hands = [
        parse_cards(h)
        for h in (
            "AS KS QS 7H 8H 9C 7D 8D",
            "AD KD QD 8S 7C 8C TH JH",
            "9H 9S TS JS AH AC KC QC",
            "QH KH JD TD JC TC 9D 7S",
        )
    ]
    assert award(hands, "D", 0)[0] == 1  # diamonds are trump
    assert award(hands, "H", 0)[0] == 0  # plain both: seat 0 plays first in trick 1
    assert award(hands, "H", 1)[0] == 1  # now seat 1 plays first


def test_declarations_shown_once_auction_ends_and_public():
    deck = parse_cards(
        "AS KS QS 7H 8H 9C 7D 8D 9D JD QD 9S 7C 8C TH JH "
        "AD KD TD JS TS AH AC KC QH KH JC TC 9H 8S QC 7S"
    )
    state = BL.new_match(seed=1, deal={"deck": [str(c) for c in deck], "dealer": 3})
    assert state.view(1).declarations == ()
    state.apply("bid 9 H")
    for _ in range(4):
        state.apply("pass")
    shown = state.view(None).declarations
    assert shown and all(state.view(s).declarations == shown for s in range(4))
    for seat, _text, cards in shown:
        assert set(cards) <= set(state.hands[seat])


def test_belote_announced_when_trump_k_or_q_is_played():
    state = BL.position(
        hands={
            0: ["KH", "QH", "7S"],
            1: ["7C", "8C", "9C"],
            2: ["TC", "JC", "QC"],
            3: ["KC", "AC", "7D"],
        },
        to_act=0,
        contract="9 H",
        declarer=0,
    )
    state.dealt_hands = [list(h) for h in state.hands]
    events = state.apply("play KH")
    assert any(e.kind == "belote" for e in events)
    assert any(text.startswith("belote") for _, text, _ in state.view(None).declarations)


# -- Scoring ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "rounded"), [(85, 8), (86, 9), (96, 10), (0, 0), (162, 16), (4, 0), (6, 1)]
)
def test_round6(raw, rounded):
    assert round6(raw) == rounded


def outcome(**kw):
    base = dict(
        level=9,
        nt=False,
        doubling=0,
        capot_bid=False,
        cards_declarers=96,
        tricks_declarers=5,
        decl_declarers=0,
        decl_defenders=0,
    )
    base.update(kw)
    return DealOutcome(**base)


def test_example_clubs_9_with_96_raw():
    assert score_deal(outcome()) == (19, 6)


def test_example_clubs_9_with_85_raw_fails():
    assert score_deal(outcome(cards_declarers=85)) == (0, 25)


def test_example_hearts_10_contra_with_110_raw():
    assert score_deal(outcome(level=10, doubling=1, cards_declarers=110)) == (36, 0)


def test_declarations_count_toward_the_contract_by_default():
    o = outcome(cards_declarers=80, decl_declarers=20, decl_defenders=0)
    assert is_made(o) and score_deal(o) == (9 + 8 + 2, 16 - 8)
    assert not is_made(outcome(cards_declarers=80, decl_declarers=20, declarations_count=False))


def test_made_needs_at_least_one_trick():
    assert not is_made(outcome(cards_declarers=0, tricks_declarers=0, decl_declarers=100))


def test_failed_contract_declarers_forfeit_and_defenders_take_it():
    assert score_deal(outcome(cards_declarers=40, decl_declarers=20, decl_defenders=20)) == (
        0,
        9 + 16 + 2,
    )


def test_defenders_take_all_tricks_25_replaces_16():
    assert score_deal(outcome(cards_declarers=0, tricks_declarers=0)) == (0, 9 + 25)


def test_declarers_take_all_8_tricks_25_replaces_16():
    assert score_deal(outcome(cards_declarers=162, tricks_declarers=8, decl_declarers=50)) == (
        9 + 25 + 5,
        0,
    )


def test_made_capot_bid_of_25_scores_50_and_capot_needs_all_tricks():
    assert score_deal(
        outcome(level=25, capot_bid=True, cards_declarers=162, tricks_declarers=8)
    ) == (50, 0)
    assert score_deal(
        outcome(level=25, capot_bid=True, cards_declarers=150, tricks_declarers=7)
    ) == (0, 41)


@pytest.mark.parametrize(
    ("nt", "doubling", "mult"),
    [(False, 0, 1), (False, 1, 2), (False, 2, 4), (True, 0, 2), (True, 1, 3), (True, 2, 5)],
)
def test_multipliers(nt, doubling, mult):
    o = outcome(level=10, nt=nt, doubling=doubling, cards_declarers=120)
    expected_decl = mult * 10 + (12 if doubling == 0 else 16)
    assert score_deal(o)[0] == expected_decl


def test_nt_doubling_multipliers_setting():
    o = outcome(level=10, nt=True, doubling=2, cards_declarers=120, nt_multipliers=(4, 8))
    assert score_deal(o) == (8 * 10 + 16, 0)
    with pytest.raises(InvalidVariant):
        BL.Variant.from_options({"nt_doubling_multipliers": "3"})
    assert BL.Variant.from_options({"nt_doubling_multipliers": "4,6"}).nt_doubling_multipliers == (
        4,
        6,
    )


@pytest.mark.parametrize(
    ("totals", "winner"), [((301, 200), 0), ((310, 320), 1), ((305, 305), None), ((10, 20), None)]
)
def test_match_target_and_tie_rule(totals, winner):
    assert match_winner(totals, 301) == winner


@pytest.mark.parametrize(
    ("key", "value"),
    [("target_score", 50), ("target_score", 1002), ("min_bid", 7), ("min_bid", 17)],
)
def test_settings_validated(key, value):
    with pytest.raises(InvalidVariant):
        BL.variant(**{key: value})


def test_min_bid_setting():
    state = BL.new_match(seed=1, variant=BL.variant(min_bid=12))
    assert "bid 11 H" not in legal(state) and "bid 12 H" in legal(state)


def test_position_checks_contract_and_cards():
    with pytest.raises(InvalidPosition):
        BL.position(hands={0: ["2S"]}, to_act=0, contract="9 H")
    with pytest.raises(InvalidPosition):
        BL.position(hands={0: ["AS"]}, to_act=0, contract="nine hearts")


# -- A full deal from an explicit deal -----------------------------------------------------
def test_full_deal_replayed_from_an_explicit_deck():
    deck = [str(c) for c in blot_deck()]
    state = BL.new_match(
        seed=4, variant=BL.variant(target_score=51), deal={"deck": deck, "dealer": 3}
    )
    # seat 0 holds AS KS QS JS + 7S-ish spades: bid spades
    state.apply("bid 12 S")
    for _ in range(4):
        state.apply("pass")
    rng = random.Random(0)
    while not state.history:
        state.apply(rng.choice(state.legal_actions()))
    record = state.history[0]
    assert record.contract == "12 S" and sum(record.details["card_points"]) == 162
    again = BL.replay(
        [str(a) for a in state.log],
        seed=4,
        variant={"target_score": 51},
        deal={"deck": deck, "dealer": 3},
    )
    assert again.scores == state.scores and again.history[0] == record

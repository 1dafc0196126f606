"""One test per rule and scoring example of rules/backalley.md."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, InvalidPosition, InvalidVariant, get_game
from engine.core.cards import standard_deck
from engine.games.backalley import deal_sizes, peak, score_backalley, score_bid

BA = get_game("backalley")


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def dealt(players: int = 4, hands=None, stock=None, dealer: int = 0, **options):
    """An explicit first deal of one card each (the default first hand size)."""
    variant = BA.variant(players=players, **options)
    deck = [str(c) for c in standard_deck(jokers=True)]
    hands = hands or [[deck[10 + s]] for s in range(players)]
    used = {c for h in hands for c in h}
    rest = [c for c in deck if c not in used]
    if stock is not None:
        rest = stock + [c for c in rest if c not in stock]
    return BA.new_match(
        seed=1, variant=variant, deal={"hands": hands, "stock": rest, "dealer": dealer}
    )


# -- Setup -----------------------------------------------------------------------------
def test_deck_has_54_cards_with_two_jokers():
    state = BA.new_match(seed=1)
    deck = state.full_deck()
    assert len(deck) == 54 and {str(c) for c in deck if c.suit == "J"} == {"RJ", "BJ"}


@pytest.mark.parametrize("players", range(2, 9))
def test_deal_sequence_for_every_player_count(players):
    m = min(7, 53 // players)
    assert peak(players, 7) == m
    assert deal_sizes(players, 7) == [*range(1, m + 1), *range(m - 1, 0, -1)]
    assert len(deal_sizes(players, 7)) == 2 * m - 1


def test_four_players_play_13_deals_1_to_7_to_1():
    assert deal_sizes(4, 7) == [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]


def test_peak_is_capped_by_53_over_n():
    assert peak(8, 13) == 6 and peak(4, 13) == 13 and peak(2, 13) == 13


@pytest.mark.parametrize("players", range(2, 9))
def test_every_deal_of_a_match_has_the_right_hand_size(players):
    state = BA.new_match(seed=players, variant=BA.variant(players=players, max_cards=3))
    rng = random.Random(players)
    sizes = []
    while not state.is_over:
        if state.phase.value == "bidding" and not state.auction:
            sizes.append(len(state.hands[0]))
            assert all(len(h) == state.hand_size for h in state.hands)
        state.apply(rng.choice(state.legal_actions()))
    assert sizes == deal_sizes(players, 3)


def test_first_dealer_drawn_by_seed_and_dealer_rotates():
    assert {BA.new_match(seed=s).dealer for s in range(30)} == {0, 1, 2, 3}
    state = BA.new_match(seed=3, variant=BA.variant(players=3, max_cards=2))
    first = state.dealer
    rng = random.Random(3)
    while state.round_number == 1:
        state.apply(rng.choice(state.legal_actions()))
    assert state.dealer == (first + 1) % 3


def test_top_card_of_the_stock_is_turned_for_trump():
    state = dealt(stock=["7H"])
    assert str(state.turned) == "7H" and state.trump == "H"


def test_turned_joker_is_set_aside_and_next_card_turned():
    state = dealt(stock=["RJ", "BJ", "9D"])
    assert state.trump == "D" and str(state.turned) == "9D"
    assert [str(c) for c in state.set_aside] == ["RJ", "BJ"]
    assert [str(c) for c in state.view(None).extra["set_aside"]] == ["RJ", "BJ"]


def test_joker_turned_no_trump_setting_jokers_form_their_own_trump():
    state = dealt(stock=["BJ", "9D"], joker_turned="no_trump")
    assert state.trump == "J" and str(state.turned) == "BJ"


# -- Card power -------------------------------------------------------------------------
def test_card_power_red_joker_black_joker_trump_led_suit():
    state = BA.position(
        hands={3: ["2C", "3C"]},
        trick=[(0, "AH"), (1, "BJ"), (2, "AS")],
        to_act=3,
        trump="S",
        bids={0: 1, 1: 1, 2: 1, 3: 1},
    )
    state.apply("play 2C")
    assert state.tricks_won[1] == 1  # BJ beats the trump ace
    state2 = BA.position(
        hands={3: ["RJ", "3C"]}, trick=[(0, "AH"), (1, "BJ"), (2, "AS")], to_act=3, trump="S"
    )
    state2.apply("play RJ")
    assert state2.tricks_won[3] == 1


def test_other_suits_never_win():
    state = BA.position(
        hands={2: ["AC", "3C"]},
        trick=[(0, "2H"), (1, "3H")],
        to_act=2,
        trump="S",
        variant=BA.variant(players=3),
    )
    state.apply("play AC")
    assert state.tricks_won[1] == 1


def test_jokers_follow_a_trump_lead_and_a_led_joker_calls_for_trump():
    state = BA.position(hands={1: ["RJ", "2D"]}, trick=[(0, "5S")], to_act=1, trump="S")
    assert legal(state) == {"play RJ"}
    led = BA.position(hands={1: ["3S", "2D"]}, trick=[(0, "BJ")], to_act=1, trump="S")
    assert legal(led) == {"play 3S"}


def test_no_trump_deal_jokers_follow_each_other():
    state = BA.position(hands={1: ["RJ", "2D"]}, trick=[(0, "BJ")], to_act=1, trump="J")
    assert legal(state) == {"play RJ"}


# -- Bidding -----------------------------------------------------------------------------
def test_bidding_once_around_from_dealer_plus_one_ending_with_dealer():
    state = dealt(players=4, dealer=2)
    order = []
    while state.phase.value == "bidding":
        order.append(state.to_act)
        state.apply("bid 0")
    assert order == [3, 0, 1, 2]


def test_bids_range_0_to_hand_size_and_backalley():
    state = dealt()
    assert legal(state) == {"bid 0", "bid 1", "bid backalley"}
    with pytest.raises(IllegalAction) as info:
        state.apply("bid 2")
    assert info.value.reason == "bid_out_of_range"


def test_hook_rule_off_by_default_dealer_may_make_bids_add_up():
    state = dealt(players=2, dealer=1)
    state.apply("bid 0")
    assert "bid 1" in legal(state)


def test_hook_rule_dealer_may_not_make_bids_add_up_to_hand_size():
    state = dealt(players=2, dealer=1, hook_rule=True)
    state.apply("bid 0")
    assert legal(state) == {"bid 0"}
    with pytest.raises(IllegalAction) as info:
        state.apply("bid 1")
    assert info.value.reason == "hook_rule"


# -- Play --------------------------------------------------------------------------------
def test_highest_bidder_leads_first_trick_ties_to_earliest_bidder():
    state = BA.new_match(seed=2, variant=BA.variant(max_cards=3))
    for _ in range(4):  # deal 1: one card each
        state.apply("bid 0")
    assert state.to_act == (state.dealer + 1) % 4  # all zero: dealer + 1
    while state.round_number == 1:
        state.apply(state.legal_actions()[0])
    dealer = state.dealer
    bids = {
        (dealer + 1) % 4: "bid 1",
        (dealer + 2) % 4: "bid 2",
        (dealer + 3) % 4: "bid 2",
        dealer: "bid 0",
    }
    while state.phase.value == "bidding":
        state.apply(bids[state.to_act])
    assert state.to_act == (dealer + 2) % 4


def test_trump_may_not_be_led_unless_hand_holds_only_trumps():
    state = BA.position(hands={0: ["AS", "RJ", "2H"]}, to_act=0, trump="S")
    assert legal(state) == {"play 2H"}
    only = BA.position(hands={0: ["AS", "RJ"]}, to_act=0, trump="S")
    assert legal(only) == {"play AS", "play RJ"}


def test_trump_lead_broken_setting_allows_trump_after_one_was_played():
    v = BA.variant(trump_lead="broken")
    state = BA.position(hands={0: ["AS", "2H"]}, to_act=0, trump="S", variant=v)
    assert legal(state) == {"play 2H"}
    broken = BA.position(hands={0: ["AS", "2H"]}, to_act=0, trump="S", variant=v, trump_broken=True)
    assert legal(broken) == {"play AS", "play 2H"}
    default = BA.position(hands={0: ["AS", "2H"]}, to_act=0, trump="S", trump_broken=True)
    assert legal(default) == {"play 2H"}


def test_follow_suit_else_any_card_no_obligation_to_beat_or_trump():
    state = BA.position(hands={1: ["2H", "AH", "AS"]}, trick=[(0, "9H")], to_act=1, trump="S")
    assert legal(state) == {"play 2H", "play AH"}
    void = BA.position(hands={1: ["2C", "AS"]}, trick=[(0, "9H")], to_act=1, trump="S")
    assert legal(void) == {"play 2C", "play AS"}


# -- Scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [(3, 3, 9), (3, 5, 11), (3, 2, -9), (0, 0, 0), (0, 2, 2), (1, 0, -3), (5, 7, 17)],
)
def test_normal_bid_scoring(bid, tricks, points):
    assert score_bid(bid, tricks) == points


@pytest.mark.parametrize(
    ("h", "tricks", "points"), [(3, 3, 30), (3, 2, -30), (1, 1, 10), (7, 6, -70)]
)
def test_backalley_scoring(h, tricks, points):
    assert score_backalley(h, tricks) == points


def test_a_backalley_deal_scored_in_play():
    state = dealt(players=2, hands=[["RJ"], ["2C"]], stock=["3H"], dealer=1)
    state.apply("bid backalley")
    state.apply("bid 0")
    state.apply("play RJ")
    state.apply("play 2C")
    assert state.history[0].scores == (10, 0)
    assert state.history[0].bids == ("backalley", 0)


def test_final_ranking_shares_ranks_for_equal_totals():
    state = BA.new_match(seed=7, variant=BA.variant(players=3, max_cards=1))
    for _ in range(3):
        state.apply("bid 0")
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    ranking = state.view(None).ranking
    totals = state.scores
    for a in range(3):
        for b in range(3):
            assert (ranking[a] == ranking[b]) == (totals[a] == totals[b])


# -- Settings and positions ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("players", 1),
        ("players", 9),
        ("max_cards", 0),
        ("max_cards", 14),
        ("trump_lead", "x"),
        ("joker_turned", "x"),
        ("hook_rule", "maybe"),
    ],
)
def test_settings_validated(key, value):
    with pytest.raises(InvalidVariant):
        BA.Variant.from_options({key: value})


def test_players_setting_changes_the_number_of_seats_everywhere():
    state = BA.new_match(seed=1, variant=BA.variant(players=7))
    assert state.num_seats == 7 and len(state.hands) == 7
    view = state.view(3)
    assert view.num_seats == 7 and len(view.hand_counts) == 7 and len(view.scores) == 7


def test_explicit_deal_must_hold_every_card_once():
    with pytest.raises(InvalidPosition):
        BA.new_match(seed=1, deal={"hands": [["AS"], ["AS"], ["2C"], ["3C"]]})
    with pytest.raises(InvalidPosition):
        BA.new_match(seed=1, deal={"hands": [["AS"], ["KS"], ["2C"], ["3C"]], "stock": ["AS"]})
    partial = BA.new_match(
        seed=1, deal={"hands": [["AS"], ["KS"], ["2C"], ["3C"]], "stock": ["9D"]}
    )
    assert str(partial.turned) == "9D" and len(partial.card_inventory()) == 54


def test_stock_and_other_hands_stay_hidden():
    state = BA.new_match(seed=4, variant=BA.variant(max_cards=5))
    rng = random.Random(4)
    while not state.is_over:
        for seat in (None, *range(4)):
            seen = state.view(seat).visible_cards()
            assert not seen & set(state.stock)
            for other in range(4):
                if other != seat:
                    assert not seen & set(state.hands[other])
        state.apply(rng.choice(state.legal_actions()))

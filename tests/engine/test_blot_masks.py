"""Bazar Blot's play rules on masks (``engine.games.blot.masks``), the one
implementation the table and the searches share: the follow rule against
the rule book's wording on card lists (rules/blot.md "Play"), the trick
winner against the shared ``Trick`` with Blot's orders, the search state
(``BlotPlay``: play, undo, copy) against the table's own deal, and the
declarations' quick split against the full search."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.core.actions import play
from engine.core.cards import Card
from engine.core.follow import of_suit, stronger_than
from engine.core.trick import Trick
from engine.errors import IllegalAction
from engine.games.blot import masks
from engine.games.blot.cards import BLOT_RANKING, blot_deck
from engine.games.blot.declarations import (
    _search_split,
    award,
    belote_points,
    best_split,
    has_belote,
    team_points,
)
from engine.games.blot.masks import CARDS, INDEX, RULES, SEAT, WIN_SEAT, allowed, bits, cards_of

BL = get_game("blot")
VARIANTS = [
    {},
    {"partner_exemption": False, "must_undertrump": True},
    {"declarations_count_for_contract": False, "nt_doubling_multipliers": (4, 8)},
]


def random_auction(state: Any, rng: random.Random) -> None:
    """A first bid of any contract (capot now and then), then passes,
    contras and recontras at random."""
    while state.phase.value == "auction":
        legal = state.legal_actions()
        if state.auction.level is None:
            bids = [
                a for a in legal if a.verb == "bid" and (a.number or 0) <= 12 + 13 * rng.random()
            ]
            state.apply(rng.choice(bids))
        else:
            state.apply(rng.choice([a for a in legal if a.verb != "bid"]))


def follow_by_the_book(
    hand: list[Card], trick: Trick, trump: str | None, exempt: bool, under: bool
) -> tuple[list[Card], str]:
    """rules "Play" said over card lists with the shared helpers: the
    cards allowed and the reason code."""
    led = trick.led_suit(BLOT_RANKING, trump)
    if led is None:
        return hand, "any_card"
    same = of_suit(hand, led, BLOT_RANKING, trump)
    if same:
        if led == trump:
            best = trick.highest_of(led, BLOT_RANKING, trump)
            higher = stronger_than(same, best, led, BLOT_RANKING, trump)
            if higher:
                return higher, "must_overtrump"
        return same, "must_follow_suit"
    trumps = of_suit(hand, trump, BLOT_RANKING, trump) if trump else []
    if not trumps:
        return hand, "any_card"
    seat = (trick.leader + len(trick.plays)) % 4
    if exempt and trick.winner(BLOT_RANKING, trump) % 2 == seat % 2:
        return hand, "any_card"
    best = trick.highest_of(trump, BLOT_RANKING, trump)
    over = stronger_than(trumps, best, trump, BLOT_RANKING, trump)
    if over:
        return over, "must_trump"
    return (trumps, "must_trump") if under else (hand, "any_card")


@pytest.mark.parametrize(("exempt", "under"), [(True, False), (False, True), (False, False)])
def test_allowed_and_the_trick_winner_follow_the_rule_book(exempt, under):
    rng = random.Random(11)
    deck = blot_deck()
    for _ in range(3000):
        rng.shuffle(deck)
        trump = rng.choice(["C", "D", "H", "S", None])
        leader = rng.randrange(4)
        plays = [((leader + i) % 4, deck[i]) for i in range(rng.randrange(4))]
        seat = (leader + len(plays)) % 4
        hand = deck[4 : 4 + rng.randrange(1, 9)]
        tab = masks.tables(trump, exempt, under)
        hands = [0, 0, 0, 0]
        hands[seat] = masks.mask_of(hand)
        pos = masks.position(hands, leader, [INDEX[c] for _, c in plays], tab)
        assert pos[SEAT] == seat
        mask, rule = allowed(pos, tab)
        cards, reason = follow_by_the_book(hand, Trick(leader, plays), trump, exempt, under)
        assert set(cards_of(mask)) == set(cards)
        assert RULES[rule][0] == reason
        if plays:
            assert pos[WIN_SEAT] == Trick(leader, plays).winner(BLOT_RANKING, trump)


@pytest.mark.parametrize("options", VARIANTS)
def test_the_search_state_plays_the_deal_as_the_table_does(options):
    rng = random.Random(7)
    for seed in range(12):
        state = BL.new_match(seed=seed, variant=BL.variant(target_score=1001, **options))
        random_auction(state, rng)
        deal = state.play_state()
        deals = len(state.history)
        while len(state.history) == deals:
            legal = sorted(INDEX[a.card] for a in state.legal_actions())
            assert bits(deal.legal()) == legal
            card = rng.choice(legal)
            state.apply(play(CARDS[card]))
            deal.play(card)
            if len(state.history) == deals:
                assert deal.points == list(state.points_won)
                assert state.play_state().pos == deal.pos
        record = state.history[deals]
        assert deal.points == list(record.details["card_points"])
        assert deal.final_score() == tuple(record.scores)


def test_undo_takes_back_every_card_and_copy_is_independent():
    rng = random.Random(5)
    for seed in range(10):
        state = BL.new_match(seed=seed, variant=BL.variant(target_score=1001))
        random_auction(state, rng)
        deal = state.play_state()
        start = deal.copy()
        seen = []
        while deal.cards_left:
            seen.append(deal.pos)
            deal.play(rng.choice(bits(deal.legal())))
        assert sum(deal.points) == 162 and sum(deal.tricks) == 8
        assert start.pos == seen[0] and start.cards_left > 0
        for pos in reversed(seen):
            deal.undo()
            assert deal.pos == pos


def test_a_trick_goes_to_its_winner_with_its_points():
    tab = masks.tables("H")
    hands = [masks.mask_of([Card.parse(c)]) for c in ("AS", "TS", "7H", "KS")]
    pos = masks.position(hands, 0, [], tab, points=(30, 40), tricks=(2, 2))
    for card in ("AS", "TS", "7H", "KS"):
        pos = masks.step(pos, INDEX[Card.parse(card)], tab)
    # the 7 of trumps takes it: 11 + 10 + 0 + 4, and 10 for the last trick
    assert pos[SEAT] == 2 and masks.totals_of(pos) == (30 + 35, 40, 3, 2)
    assert masks.hands_of(pos) == [0, 0, 0, 0]


def test_refusals_name_the_rule():
    state = BL.position(
        hands={0: ["KC"], 1: ["7H", "KD"], 2: ["8S", "9D"], 3: ["9S", "TD"]},
        to_act=1,
        trick=[(0, "AS")],
        contract="8 H",
    )
    allowed_cards = state._allowed_cards()
    assert allowed_cards.cards == [Card.parse("7H")]
    assert allowed_cards.reason == "must_trump"
    assert (allowed_cards.suit, allowed_cards.trump) == ("S", "H")
    with pytest.raises(IllegalAction) as refused:
        state.apply(play(Card.parse("KD")))
    assert refused.value.reason == "must_trump"
    assert refused.value.params == {"card": "KD", "suit": "S", "trump": "H"}


def test_the_quick_split_is_the_full_search():
    rng = random.Random(1)
    deck = blot_deck()
    for _ in range(3000):
        rng.shuffle(deck)
        for trump in ("H", None):
            assert best_split(0, deck[:8], trump) == _search_split(0, deck[:8], trump)
    jacks = [Card(11, s) for s in "SHDC"] + [Card(r, "S") for r in (10, 9, 8, 7)]
    assert best_split(0, jacks, "H") == _search_split(0, jacks, "H")


def test_team_points_are_the_award_and_belote():
    rng = random.Random(3)
    deck = blot_deck()
    for _ in range(400):
        rng.shuffle(deck)
        hands = [deck[8 * s : 8 * s + 8] for s in range(4)]
        for trump in ("H", "S", None):
            first = rng.randrange(4)
            _, declared = award(hands, trump, first)
            expected = [0, 0]
            for d in declared:
                expected[d.seat % 2] += d.value
            for seat in range(4):
                if has_belote(hands[seat], trump):
                    expected[seat % 2] += 20
            assert team_points(hands, trump, first) == expected
            held = [masks.mask_of(h) for h in hands]
            belote = belote_points(held, trump, ())
            assert belote == [
                sum(20 for s in (t, t + 2) if has_belote(hands[s], trump)) for t in (0, 1)
            ]


def test_last_trick_bonus_in_a_position_with_short_hands():
    # one card each: this is the deal's last trick whatever came before
    state = BL.position(
        hands={0: ["7C"], 1: ["8C"], 2: ["9C"], 3: ["AC"]},
        to_act=0,
        contract="8 H",
        declarer=0,
        points_won=[80, 71],
    )
    deal = state.play_state()
    for card in ("7C", "8C", "9C", "AC"):
        state.apply(play(Card.parse(card)))
        deal.play(INDEX[Card.parse(card)])
    assert state.history[-1].details["card_points"] == (80, 71 + 11 + 10)
    assert deal.points == [80, 71 + 11 + 10]

"""The Bazar Blot play-out policy (``engine.ai.blot_policy``), one
position each, and whole play-outs on the engine's ``BlotPlay``."""

from __future__ import annotations

import random

from engine.ai.blot_policy import choose, play_out
from engine.core.cards import Card, parse_cards
from engine.games.blot.cards import blot_deck
from engine.games.blot.masks import CARDS, INDEX, BlotPlay, bits, mask_of
from engine.games.blot.scoring import Stakes


def deal(
    hands: dict[int, str], trick: str = "", leader: int = 0, trump: str | None = "H"
) -> BlotPlay:
    masks = [mask_of(parse_cards(hands.get(s, ""))) for s in range(4)]
    plays = [INDEX[c] for c in parse_cards(trick)]
    return BlotPlay(masks, leader, trump, Stakes(0, 8, trump is None), trick=plays)


def chosen(d: BlotPlay) -> Card:
    card = choose(d.tab, d.side, d.pos, d.legal())
    assert card in bits(d.legal())
    return CARDS[card]


def test_declarers_draw_trumps_with_the_master_trump():
    d = deal({0: "JH 7H AC 8D", 1: "9H 7C 8C 9D", 2: "AH TC KC 7D", 3: "TH QC JC TD"})
    assert str(chosen(d)) == "JH"


def test_defenders_cash_a_master_not_trumps():
    d = deal({1: "JH AC 8D 7S", 2: "9H 7C 8C 9D", 3: "AH TC KC 7D", 0: "TH QC JC TD"}, leader=1)
    assert str(chosen(d)) == "AC"


def test_feeds_a_partner_who_holds_the_master():
    # seat 0 leads the master spade; seat 1 follows low; seat 2 feeds its ten
    d = deal({0: "8D", 1: "9D", 2: "TS 7S", 3: "8S 9S"}, trick="AS 7C")
    assert str(chosen(d)) == "TS"


def test_last_player_takes_the_trick_with_the_cheapest_winner():
    d = deal({0: "9D", 1: "8D", 2: "QD", 3: "AS KS 7S"}, trick="QS 8S 9S")
    assert str(chosen(d)) == "KS"


def test_a_void_player_trumps_cheaply_and_otherwise_plays_cheap():
    # seat 1 is void in spades, the opponent leads the ace: it must over-trump
    # with hearts trump and takes it with the smallest trump
    d = deal({0: "8D", 1: "JH 7H AD", 2: "9D", 3: "7D"}, trick="AS")
    assert str(chosen(d)) == "7H"
    # cannot win: the card worth least
    d = deal({0: "8D", 1: "KC 7C", 2: "9D", 3: "7D"}, trick="AC", trump="H")
    assert str(chosen(d)) == "7C"


def test_play_outs_take_all_162_points_in_eight_tricks():
    rng = random.Random(1)
    cards = blot_deck()
    for trump in ("C", "D", "H", "S", None):
        for _ in range(20):
            rng.shuffle(cards)
            d = BlotPlay(
                [mask_of(cards[8 * s : 8 * s + 8]) for s in range(4)],
                rng.randrange(4),
                trump,
                Stakes(rng.randrange(4), 8, trump is None),
            )
            play_out(d)
            assert sum(d.points) == 162 and sum(d.tricks) == 8 and d.cards_left == 0

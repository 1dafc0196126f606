"""The compact Bazar Blot deal used by the search agrees with the engine:
legal cards under every setting, trick points, declarations and the deal's
score; and the last trick earns its bonus in a position too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.ai.blot_model import CARDS, INDEX, Deal, indices, team_declarations
from engine.core.actions import play
from engine.core.cards import Card
from engine.games.blot.cards import blot_deck
from engine.games.blot.declarations import award, has_belote

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


@pytest.mark.parametrize("options", VARIANTS)
def test_legal_cards_points_and_score_agree_with_the_engine(options):
    rng = random.Random(7)
    for seed in range(12):
        state = BL.new_match(seed=seed, variant=BL.variant(target_score=1001, **options))
        random_auction(state, rng)
        deal = Deal.from_state(state)
        deals = len(state.history)
        while len(state.history) == deals:
            legal = sorted(INDEX[a.card] for a in state.legal_actions())
            assert sorted(indices(deal.legal())) == legal
            card = rng.choice(legal)
            state.apply(play(CARDS[card]))
            deal.play(card)
            if len(state.history) == deals:
                assert deal.points == list(state.points_won)
        record = state.history[deals]
        assert deal.points == list(record.details["card_points"])
        assert deal.final_score() == tuple(record.scores)


def test_declarations_agree_with_the_engines_award():
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
            assert team_declarations(hands, trump, first) == expected


def test_last_trick_bonus_in_a_position_with_short_hands():
    # one card each: this is the deal's last trick whatever came before
    state = BL.position(
        hands={0: ["7C"], 1: ["8C"], 2: ["9C"], 3: ["AC"]},
        to_act=0,
        contract="8 H",
        declarer=0,
        points_won=[80, 71],
    )
    for card in ("7C", "8C", "9C", "AC"):
        state.apply(play(Card.parse(card)))
    assert state.history[-1].details["card_points"] == (80, 71 + 11 + 10)

"""The Bazar Blot solver against plain minimax over the engine itself: the
exact end-game value (the deal's score margin) and the depth-limited value
(card points at the horizon) of every card, on small endings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game
from engine.ai.blot_solver import Solver, score_margin
from engine.ai.rollout import copy_state
from engine.core.actions import play
from engine.games.blot.masks import CARDS

BL = get_game("blot")


def ending(seed: int, cards: int, **options: Any) -> Any:
    """A deal with a random contract, played at random down to ``cards`` cards."""
    rng = random.Random(seed)
    state = BL.new_match(seed=seed, variant=BL.variant(target_score=1001, **options))
    while state.phase.value == "auction":
        legal = state.legal_actions()
        if state.auction.level is None:
            state.apply(rng.choice([a for a in legal if a.verb == "bid" and (a.number or 0) <= 11]))
        else:
            state.apply(rng.choice([a for a in legal if a.verb != "bid"]))
    while sum(len(h) for h in state.hands) > cards:
        state.apply(rng.choice(state.legal_actions()))
    return state


def margin_by_minimax(state: Any, team: int, deals: int) -> int:
    """Plain minimax, no pruning: ``team``'s score margin in the deal."""
    if len(state.history) > deals:
        scores = state.history[deals].scores
        return scores[team] - scores[1 - team]
    values = []
    for card in state._allowed_cards().cards:
        child = copy_state(state)
        child._apply(play(card))
        values.append(margin_by_minimax(child, team, deals))
    return max(values) if state.playing_seat % 2 == team else min(values)


def points_by_minimax(state: Any, team: int, depth: int, deals: int) -> int:
    """Plain depth-limited minimax of the points ``team`` takes."""
    if len(state.history) > deals:
        return state.history[deals].details["card_points"][team]
    if depth == 0:
        return state.points_won[team]
    values = []
    for card in state._allowed_cards().cards:
        child = copy_state(state)
        child._apply(play(card))
        values.append(points_by_minimax(child, team, depth - 1, deals))
    return max(values) if state.playing_seat % 2 == team else min(values)


@pytest.mark.parametrize(
    "options",
    [{}, {"partner_exemption": False, "must_undertrump": True}],
    ids=["default", "strict"],
)
def test_exact_values_agree_with_plain_minimax(options):
    for seed in range(8):
        state = ending(seed, 5 + seed % 4, **options)
        team = state.playing_seat % 2
        deal = state.play_state()
        values = Solver(deal, team).values()
        for card, future in values.items():
            child = copy_state(state)
            child._apply(play(CARDS[card]))
            expected = margin_by_minimax(child, team, len(state.history))
            assert score_margin(deal, team, future) == expected


def test_depth_limited_values_agree_with_plain_minimax():
    for seed in range(6):
        state = ending(seed, 12)
        team = state.playing_seat % 2
        deal = state.play_state()
        card, future = Solver(deal, team, depth=5).best()
        expected = points_by_minimax(copy_state(state), team, 5, len(state.history))
        assert deal.points[team] + future == expected
        assert CARDS[card] in state._allowed_cards().cards

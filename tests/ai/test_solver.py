"""The exact end-game solver and the Bazar Blot paper's minimax baseline."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.ai import get_agent, play_out
from engine.ai.rollout import copy_state
from engine.ai.solver import Solver
from engine.core.actions import play


def brute_force(state: Any, team: int, deals: int, game: str) -> int:
    """Plain minimax, no pruning, no table: what the solver must agree with."""
    if len(state.history) > deals:
        record = state.history[deals]
        if game == "blot":
            return record.details["card_points"][team]
        return record.tricks_won[team] + record.tricks_won[team + 2]
    values = []
    for card in state._allowed_cards().cards:
        child = copy_state(state)
        child._apply(play(card))
        values.append(brute_force(child, team, deals, game))
    return max(values) if state.playing_seat % 2 == team else min(values)


def endgame(game: str, seed: int, cards: int) -> Any:
    g = get_game(game)
    state = g.new_match(seed=seed)
    players = [get_agent("heuristic", game=game, seed=s) for s in range(4)]
    while not (state.phase.value == "play" and sum(len(h) for h in state.hands) <= cards):
        state.apply(players[state.decider].act(state.view(state.decider), state.legal_actions()))
    return state


@pytest.mark.parametrize("game", ["batak", "blot"])
def test_solver_agrees_with_plain_minimax(game):
    for seed in range(3):
        state = endgame(game, seed, 8)
        team = state.playing_seat % 2
        value, card = Solver(game).solve(state, team)
        assert card in state._allowed_cards().cards
        assert value == brute_force(copy_state(state), team, len(state.history), game)


def test_solver_finds_the_winning_line_double_dummy():
    # Batak, spades trump, two tricks left, seat 0 on lead: cashing A♥ first
    # lets seat 1 ruff; leading the trump first draws seat 1's last spade
    state = get_game("batak").position(
        hands={0: ["AH", "AS"], 1: ["2S", "3D"], 2: ["4H", "5D"], 3: ["6H", "7D"]},
        to_act=0,
        trump="S",
        declarer=0,
        contract=7,
        trump_broken=True,
    )
    value, card = Solver("batak").solve(state, 0)
    assert (value, str(card)) == (2, "AS")


def test_paper_minimax_sees_all_and_is_the_only_one_handed_the_state():
    agent = get_agent("paper-minimax", game="blot", seed=0)
    assert agent.sees_all
    state = endgame("blot", 1, 12)
    legal = state.legal_actions()
    with pytest.raises(ValueError):
        agent.act(state.view(state.decider), legal)
    assert agent.act(state.view(state.decider), legal, full_state=state) in legal
    # a whole short match through the play-out driver, which hands it the state
    g = get_game("blot")
    match = g.new_match(seed=2, variant=g.variant(target_score=51))
    players = [
        get_agent("paper-minimax" if s % 2 else "heuristic", game="blot", seed=s, depth=4)
        for s in range(4)
    ]
    play_out(match, players)
    assert match.is_over

"""The Ladder rollout player (engine/ai/ladder_playouts.py) chooses what the
Ladder heuristic chooses, move by move, on the engine's own count table
(the rules themselves: tests/engine/test_ladder_table.py)."""

from __future__ import annotations

import random

from engine import get_game
from engine.ai import get_agent
from engine.ai.ladder_playouts import LadderPlayouts, heuristic

LD = get_game("ladder")


def test_choices_match_the_heuristic_agent():
    rng = random.Random(4)
    moves = choices = 0
    for seed in range(12):
        state = LD.new_match(seed=seed)
        agents = [
            get_agent("heuristic" if rng.random() < 0.7 else "random", game="ladder", seed=s)
            for s in range(4)
        ]
        while not state.is_over and state.turns < 250:
            seat = state.to_act
            legal = state.legal_actions()
            view = state.view(seat)
            if legal[0].verb == "play":
                mine = heuristic(state.table, seat)
                theirs = get_agent("heuristic", game="ladder", seed=0).act(view, legal)
                assert mine == (theirs.cards[0].rank, len(theirs.cards))
                choices += 1
            elif legal[0].verb == "pickup":
                assert heuristic(state.table, seat) is None
            games = len(state.results)
            state.apply(agents[seat].act(view, legal))
            moves += 1
            if len(state.results) > games:
                break
    assert moves > 500 and choices > 200


def test_worlds_keep_what_the_seat_sees_and_deal_the_rest():
    state = LD.new_match(seed=3)
    agents = [get_agent("heuristic", game="ladder", seed=s) for s in range(4)]
    for _ in range(40):
        state.apply(agents[state.to_act].act(state.view(state.to_act), state.legal_actions()))
    view = state.view(state.to_act)
    fast = LadderPlayouts(view, horizon=30)
    table = fast.sample(random.Random(1))
    seat = view.seat
    assert sorted(c.rank for c in view.hand) == [
        r for r in range(15) for _ in range(table.hands[seat][r])
    ]
    assert table.sizes == list(view.hand_counts)
    assert table.hidden_n == list(view.hidden)
    assert table.pile == [c.rank for c in view.pile]
    everything = sum(sum(h) for h in table.hands) + sum(table.shown_n) + sum(table.hidden_n)
    assert everything + len(table.pile) <= 52
    again = fast.sample(random.Random(1))
    assert (again.hands, again.hidden) == (table.hands, table.hidden)

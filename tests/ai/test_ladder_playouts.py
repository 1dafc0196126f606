"""Ladder on rank counts (engine/ai/ladder_playouts.py) follows the engine's
rules and the Ladder heuristic's choices move by move."""

from __future__ import annotations

import random

from engine import get_game
from engine.ai import get_agent
from engine.ai.ladder_playouts import (
    LadderPlayouts,
    Table,
    as_play,
    heuristic,
    parse_requirement,
    play_counts,
    step,
)

LD = get_game("ladder")


def table_of(state) -> Table:
    """The engine's state on counts (hidden ranks included: the truth)."""
    table = Table()
    for s in range(4):
        for c in state.hands[s]:
            table.hands[s][c.rank] += 1
        table.sizes[s] = len(state.hands[s])
        for c in state.shown[s]:
            table.shown[s][c.rank] += 1
        table.shown_n[s] = len(state.shown[s])
        table.hidden[s] = [c.rank if c is not None else 0 for c in state.hidden[s]]
        table.hidden_n[s] = sum(c is not None for c in state.hidden[s])
    table.pile = [c.rank for c in state.pile]
    table.req = parse_requirement(str(state.requirement))
    table.to_act = state.to_act
    table.turns = state.turns
    table.max_turns = state.variant.max_turns
    return table


def same(table: Table, state) -> bool:
    truth = table_of(state)
    return all(
        getattr(table, k) == getattr(truth, k)
        for k in ("hands", "sizes", "shown", "shown_n", "hidden", "hidden_n", "pile", "req")
    )


def test_moves_and_choices_match_the_engine_and_the_heuristic():
    rng = random.Random(4)
    moves = choices = 0
    for seed in range(12):
        state = LD.new_match(seed=seed)
        agents = [
            get_agent("heuristic" if rng.random() < 0.7 else "random", game="ladder", seed=s)
            for s in range(4)
        ]
        table = table_of(state)
        while not state.is_over and state.turns < 250:
            seat = state.to_act
            legal = state.legal_actions()
            view = state.view(seat)
            if legal[0].verb == "play":
                by_rank: dict[int, set[int]] = {}
                for action in legal:
                    by_rank.setdefault(action.cards[0].rank, set()).add(len(action.cards))
                options = play_counts(table, seat)
                assert {r: (min(k), max(k)) for r, k in by_rank.items()} == options
                mine = heuristic(table, seat)
                theirs = get_agent("heuristic", game="ladder", seed=0).act(view, legal)
                assert mine == (theirs.cards[0].rank, len(theirs.cards))
                choices += 1
            elif legal[0].verb == "pickup":
                assert not play_counts(table, seat)
                assert heuristic(table, seat) is None
            action = agents[seat].act(view, legal)
            games = len(state.results)
            events = state.apply(action)
            step(table, as_play(action))
            moves += 1
            if len(state.results) > games:
                assert table.result == state.results[-1]
                break
            assert table.result is None
            if any(e.kind == "redistributed" for e in events):
                table = table_of(state)  # a T: the engine's shuffle is its own
            assert same(table, state)
            assert table.to_act == state.to_act
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

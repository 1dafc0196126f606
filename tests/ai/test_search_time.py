"""The search agent's time follows the decision (engine/ai/search.py).

Behaviour, not wall-clock thresholds (speed is measured in bench/ai_speed.py):
how the agent decided, how many worlds it sampled, and -- with a fake clock
that advances at every reading -- that it stops at its budget."""

from __future__ import annotations

from engine import get_game
from engine.ai import get_agent
from engine.ai.knowledge import equivalence_classes
from engine.core.cards import parse_cards

CB = get_game("callbreak")
BIDS = {0: 3, 1: 3, 2: 3, 3: 3}


def decide(agent, state):
    return agent.act(state.view(state.decider), state.legal_actions())


def test_one_legal_card_is_instant():
    state = CB.position(hands={1: ["2H", "KD", "9C"]}, trick=[(0, "AH")], to_act=1, bids=BIDS)
    agent = get_agent("search", game="callbreak", seed=1, budget_ms=60_000)
    action = decide(agent, state)
    assert str(action) == "play 2H"
    assert agent.last["how"] == "only_action"


def test_equivalent_cards_are_instant():
    # Q♥ and J♥ touch (no unseen heart between them): either beats the 3♥ alike
    state = CB.position(hands={1: ["QH", "JH", "9C"]}, trick=[(0, "3H")], to_act=1, bids=BIDS)
    agent = get_agent("search", game="callbreak", seed=1, budget_ms=60_000)
    action = decide(agent, state)
    assert str(action) in ("play QH", "play JH")
    assert agent.last["how"] == "all_equivalent"


def test_equivalence_classes_need_touching_cards_and_equal_points():
    unseen = set(parse_cards("KH TH 9H"))
    runs = equivalence_classes(parse_cards("AH QH JH 8H 7H"), unseen)
    assert sorted(sorted(map(str, r)) for r in runs) == [["7H", "8H"], ["AH"], ["JH", "QH"]]
    points = {c: 1 if c.rank == 12 else 0 for c in parse_cards("QH JH")}
    assert len(equivalence_classes(parse_cards("QH JH"), set(), points=points)) == 2


def test_a_clear_best_card_stops_the_search_early():
    # Backalley (no trump is compulsory): seat 2 needs its trick; the ruff with
    # 4♠ wins it unless seat 3 over-ruffs, the 2♦ never does
    state = get_game("backalley").position(
        hands={2: ["4S", "2D"]},
        trick=[(0, "AH"), (1, "5H")],
        to_act=2,
        trump="S",
        hand_size=2,
        bids={0: 1, 1: 0, 2: 1, 3: 0},
    )
    agent = get_agent("search", game="backalley", seed=1, budget_ms=60_000)
    action = decide(agent, state)
    assert str(action) == "play 4S"
    assert agent.last["how"] == "searched"
    assert agent.last["worlds"] < 50


def test_budget_is_never_exceeded_even_early_in_a_deal(monkeypatch):
    import engine.ai.search as search

    now = [0.0]

    def fake_clock() -> float:  # every reading of the clock costs 20 microseconds
        now[0] += 0.00002
        return now[0]

    monkeypatch.setattr(search.time, "perf_counter", fake_clock)
    state = CB.new_match(seed=11, variant=CB.variant(rounds=1))
    for bid in ("bid 3", "bid 3", "bid 3", "bid 3"):
        state.apply(bid)
    agent = get_agent(
        "search", game="callbreak", seed=2, budget_ms=150, min_worlds=10**6, work=10**9
    )
    agent.act(state.view(state.decider), state.legal_actions())
    assert agent.last["how"] == "searched"
    assert agent.last["worlds"] > 0
    assert agent.last["stop"] == "deadline"
    # it searched until the budget (less its safety margin) and no further
    assert 100 < agent.last["ms"] <= 150


def test_same_seed_and_same_worlds_same_choice():
    state = CB.new_match(seed=4, variant=CB.variant(rounds=1))
    for bid in ("bid 2", "bid 3", "bid 4", "bid 2"):
        state.apply(bid)
    picks = []
    for _ in range(2):
        agent = get_agent("search", game="callbreak", seed=9, budget_ms=60_000, max_worlds=5)
        picks.append(
            (str(agent.act(state.view(state.decider), state.legal_actions())), agent.last["worlds"])
        )
    assert picks[0] == picks[1]


def test_a_long_search_ends_by_its_work_not_the_clock_so_it_replays_identically(monkeypatch):
    """However fast or slow the clock runs, a search that ends by its work
    cap (rollout cards) plays the same worlds and makes the same choice."""
    import time

    state = CB.new_match(seed=11, variant=CB.variant(rounds=1))
    for bid in ("bid 3", "bid 3", "bid 3", "bid 3"):
        state.apply(bid)
    results = []
    for tick in (0.0, 1e-6):  # a frozen clock, and one that crawls

        def clock(tick=tick, now=[0.0]) -> float:  # noqa: B006 (the clock's own state)
            now[0] += tick
            return now[0]

        monkeypatch.setattr(time, "perf_counter", clock)
        agent = get_agent("search", game="callbreak", seed=3, budget_ms=300, min_worlds=10**6)
        action = decide(agent, state)
        monkeypatch.undo()
        assert agent.last["stop"] == "work"
        results.append((str(action), agent.last["worlds"]))
    assert results[0] == results[1]


def test_the_work_cap_follows_the_budget():
    from engine.ai.search import WORK_PER_MS

    assert get_agent("search", game="batak", seed=0, budget_ms=300).work_cap == 300 * WORK_PER_MS
    assert get_agent("search", game="batak", seed=0, work=500).work_cap == 500

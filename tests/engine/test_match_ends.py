"""A match always ends (issue 23): random and easy AI matches of every game
and variant end within a stated bound of actions (``match_bounds.py``), and
the deal cap of the games played to a target score (``max_deals``, rule
books "End of the game") ends a match that would not: the higher total
wins, equal totals draw.  Longer runs: ``bench/fuzz_engine.py --match-ends``."""

from __future__ import annotations

import random

import pytest

from engine import GAMES, MatchState, get_game
from engine.ai import get_agent
from engine.core.deal_cap import MAX_DEALS_DEFAULT
from tests.engine.match_bounds import action_bound

#: the suite's quick cap for the games that have one (the default cap is played once each)
QUICK_DEALS = 12


def _variants(name: str) -> list[tuple[str, object]]:
    game = get_game(name)
    variants = [game.Variant(), *game.conformance_variants()]
    capped = any(s.name == "max_deals" for s in game.Variant.settings())
    out: list[tuple[str, object]] = [("default", variants[0])]
    for index, variant in enumerate(variants[1:], 1):
        if capped:
            variant = variant.replace(max_deals=QUICK_DEALS)
        out.append((f"v{index}", variant))
    return out


CASES = [(name, label, variant) for name in GAMES for label, variant in _variants(name)]


def play(state: MatchState, chooser: str, seed: int, bound: int) -> int:
    """Play to the end (or the bound); the number of actions taken."""
    rng = random.Random(seed)
    agents = [get_agent("random", game=state.game.name, seed=seed + i) for i in range(4)]
    taken = 0
    while not state.is_over and taken <= bound:
        seat = state.decider
        assert seat is not None
        legal = state.legal_actions()
        if chooser == "easy":
            action = agents[seat % 4].act(state.view(seat), legal, full_state=state)
        else:
            action = rng.choice(legal)
        state.apply(action)
        taken += 1
    return taken


@pytest.mark.parametrize(
    ("name", "label", "variant"), CASES, ids=[f"{n}-{label}" for n, label, _ in CASES]
)
def test_random_and_easy_matches_end_within_the_stated_bound(name, label, variant):
    game = get_game(name)
    for seed, chooser in ((11, "random"), (12, "easy")):
        state = game.new_match(seed=seed, variant=variant)
        bound = action_bound(state)
        taken = play(state, chooser, seed, bound)
        assert state.is_over, f"{name} {label} seed {seed}: not over after {taken} actions"
        assert taken <= bound
        assert sorted(state.view(None).ranking) in ([1, 1], [1, 2]) or name in (
            "callbreak",
            "backalley",
        )


def test_easy_batak_at_the_default_cap_ends_instead_of_running_forever():
    """The case the issue measured: four easy AI players, default settings,
    drift ever lower; the match now ends after the 200th deal."""
    game = get_game("batak")
    state = game.new_match(seed=5)
    taken = play(state, "easy", 5, action_bound(state))
    assert state.is_over and state.round_number == MAX_DEALS_DEFAULT == 200
    assert state.scores[0] < game.Variant().target_score > state.scores[1]
    view = state.view(None)
    expected = (1, 1) if state.scores[0] == state.scores[1] else None
    assert view.ranking == expected or view.ranking == (
        (1, 2) if state.scores[0] > state.scores[1] else (2, 1)
    )
    assert taken <= action_bound(state)


def _events_to_end(state: MatchState, pick) -> list:
    events: list = []
    while not state.is_over:
        events += state.apply(pick(state.legal_actions()))
    return events


@pytest.mark.parametrize("name", ["batak", "blot"])
def test_at_the_cap_the_higher_total_wins(name):
    game = get_game(name)
    rng = random.Random(3)
    for seed in range(4):
        state = game.new_match(seed=seed, variant={"max_deals": 10, "target_score": 500})
        over = [e for e in _events_to_end(state, rng.choice) if e.kind == "match_over"]
        assert state.round_number <= 10 and len(over) == 1
        a, b = state.scores
        if max(a, b) < 500:  # ended by the cap
            assert state.round_number == 10
            winner = None if a == b else (0 if a > b else 1)
            assert over[0].data == {"winner_team": winner}
            assert state.view(None).ranking == ((1, 1) if a == b else (1, 2) if a > b else (2, 1))


@pytest.mark.parametrize("name", ["batak", "blot"])
def test_equal_totals_at_the_cap_draw(name, monkeypatch):
    monkeypatch.setattr(f"engine.games.{name}.rules.score_deal", lambda *a, **k: (0, 0))
    game = get_game(name)
    state = game.new_match(seed=1, variant={"max_deals": 10})
    over = [e for e in _events_to_end(state, random.Random(1).choice) if e.kind == "match_over"]
    assert state.round_number == 10 and state.scores == [0, 0]
    assert over[0].data == {"winner_team": None}
    assert state.view(None).ranking == (1, 1)
    for seat in range(4):
        assert state.view(seat).ranking == (1, 1)


def test_a_blot_deal_passed_out_at_the_cap_ends_the_match():
    """A redeal counts as a deal (rule book), so four passes every deal no
    longer redeal forever."""
    game = get_game("blot")
    state = game.new_match(seed=2, variant={"max_deals": 10})
    events = _events_to_end(state, lambda legal: next(a for a in legal if a.verb == "pass"))
    assert [e.kind for e in events].count("redeal") == 10
    assert events[-1].kind == "match_over" and state.round_number == 10
    assert state.scores == [0, 0] and state.view(None).ranking == (1, 1)
    assert len(state.log) == 40


def test_the_cap_is_recorded_only_when_it_is_not_the_default():
    """Records and stored variants of earlier matches stay the same; a
    match with another cap replays with it."""
    for name in ("batak", "blot"):
        game = get_game(name)
        assert "max_deals" not in game.Variant().to_dict()
        assert game.Variant().max_deals == MAX_DEALS_DEFAULT
        state = game.new_match(seed=4, variant={"max_deals": 10})
        _events_to_end(state, random.Random(4).choice)
        record = state.record()
        assert record["variant"]["max_deals"] == 10
        again = game.replay(record["actions"], seed=record["seed"], variant=record["variant"])
        assert again.is_over and again.view(None) == state.view(None)


def test_a_normal_match_never_meets_the_default_cap():
    """Normal AI players at the default settings finish far below the cap
    (bench "Match length": at most 13 Batak and 20 Blot deals in 30 matches)."""
    for name in ("batak", "blot"):
        game = get_game(name)
        for seed in range(2):
            state = game.new_match(seed=seed)
            agents = [get_agent("heuristic", game=name, seed=seed + i) for i in range(4)]
            while not state.is_over:
                seat = state.decider
                legal = state.legal_actions()
                state.apply(agents[seat].act(state.view(seat), legal, full_state=state))
            assert state.round_number < MAX_DEALS_DEFAULT // 5
            assert max(state.scores) >= game.Variant().target_score

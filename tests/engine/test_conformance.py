"""Conformance: every registered game, now and later, runs these checks
automatically (OpenSpiel-style random playouts; issue "Foundation")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import GAMES, IllegalAction, get_game
from tests.engine.conformance import snapshot, vocabulary

CASES = [
    (name, index, variant)
    for name in GAMES
    for index, variant in enumerate(get_game(name).conformance_variants())
]
IDS = [f"{name}-v{index}" for name, index, _ in CASES]
SEEDS = range(4)


def random_playout(state, rng, check_every: int = 0):
    """Yield the state before every action, then apply a random legal one."""
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action in phase {state.phase} with the game not over"
        yield state
        state.apply(rng.choice(legal))
        steps += 1
        assert steps < 200_000, "game did not end"


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_random_playouts_finish_with_consistent_totals(name, index, variant):
    game = get_game(name)
    for seed in SEEDS:
        state = game.new_match(seed=seed, variant=variant)
        rng = random.Random(seed)
        for _ in random_playout(state, rng):
            pass
        assert state.is_over and state.legal_actions() == []
        view = state.view(None)
        if view.deal_scores and view.score_unit != "wins":
            totals = [sum(col) for col in zip(*view.deal_scores, strict=True)]
            assert totals == list(view.scores), "game totals must equal the sum of deal scores"
        assert view.ranking, "a finished match reports a ranking"


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_illegal_actions_raise_and_change_nothing(name, index, variant):
    game = get_game(name)
    rng = random.Random(1000 + index)
    state = game.new_match(seed=11, variant=variant)
    for step, live in enumerate(random_playout(state, rng)):
        if step % 7:
            continue
        legal = set(live.legal_actions())
        before = snapshot(live)
        for action in vocabulary(rng, live):
            if action in legal:
                continue
            with pytest.raises(IllegalAction) as info:
                live.apply(action)
            assert info.value.reason and str(info.value)
            assert snapshot(live) == before, f"{action} changed the state"


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_every_card_exists_exactly_once(name, index, variant):
    game = get_game(name)
    state = game.new_match(seed=5, variant=variant)
    deck = Counter(state.full_deck())
    assert all(n == 1 for n in deck.values())
    for live in random_playout(state, random.Random(5)):
        assert Counter(live.card_inventory()) == deck
    assert Counter(state.card_inventory()) == deck


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_clones_are_independent(name, index, variant):
    game = get_game(name)
    state = game.new_match(seed=3, variant=variant)
    rng = random.Random(3)
    for step, live in enumerate(random_playout(state, rng)):
        if step % 11:
            continue
        before = snapshot(live)
        twin = live.clone()
        assert snapshot(twin) == before
        twin_rng = random.Random(step)
        for _ in range(20):
            if twin.is_over:
                break
            twin.apply(twin_rng.choice(twin.legal_actions()))
        assert snapshot(live) == before, "playing on a clone changed the original"


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_replaying_the_log_gives_the_live_state(name, index, variant):
    game = get_game(name)
    for seed in SEEDS:
        state = game.new_match(seed=seed, variant=variant)
        rng = random.Random(seed + 77)
        for step, live in enumerate(random_playout(state, rng)):
            if step % 29 == 0:
                record = live.record()
                again = game.replay(
                    record["actions"],
                    seed=record["seed"],
                    variant=record["variant"],
                    deal=record["deal"],
                )
                assert snapshot(again) == snapshot(live)
        record = state.record()
        again = game.replay(record["actions"], seed=record["seed"], variant=record["variant"])
        assert snapshot(again) == snapshot(state)


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_action_text_round_trips(name, index, variant):
    game = get_game(name)
    state = game.new_match(seed=9, variant=variant)
    for live in random_playout(state, random.Random(9)):
        for action in live.legal_actions():
            assert game.parse_action(str(action)) == action


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_view_unchanged_when_unseen_cards_are_permuted(name, index, variant):
    """Information hiding: a seat's view depends only on what it may see."""
    game = get_game(name)
    state = game.new_match(seed=21, variant=variant)
    rng = random.Random(21)
    moved = 0
    for step, live in enumerate(random_playout(state, rng)):
        if step % 5:
            continue
        for seat in range(live.num_seats):
            other = live.shuffled_unseen(seat, random.Random(step * 10 + seat))
            moved += snapshot(other) != snapshot(live)
            assert other.view(seat) == live.view(seat)
            assert other.view(None) == live.view(None)
    assert moved, "the permutation never moved a card: the test would prove nothing"

"""``clone()`` gives an independent copy (issue 14: explicit per-attribute
copies instead of ``copy.deepcopy``, and an RNG shared until one side draws).

Whatever is done to a clone -- playing on through later deals, or changing
its lists, sets and tricks in place -- never shows in the original, and the
reverse; a clone continues exactly as the original would."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import GAMES, MatchState, get_game
from engine.core.trick import Trick
from tests.engine.conformance import snapshot

CASES = [
    (name, index, variant)
    for name in GAMES
    for index, variant in enumerate(get_game(name).conformance_variants())
]
IDS = [f"{name}-v{index}" for name, index, _ in CASES]


def states_along_a_game(name: str, variant: Any, seed: int, every: int):
    """A seeded random match, yielding the live state every ``every`` actions."""
    state = get_game(name).new_match(seed=seed, variant=variant)
    rng = random.Random(seed)
    step = 0
    while not state.is_over and step < 600:
        if step % every == 0:
            yield state
        state.apply(rng.choice(state.legal_actions()))
        step += 1


def vandalise(state: MatchState) -> int:
    """Change every mutable container of ``state`` in place (nested lists
    included); returns how many were changed."""
    changed = 0

    def hit(value: Any) -> None:
        nonlocal changed
        if isinstance(value, list):
            for item in value:
                hit(item)
            value.append("junk")
            changed += 1
        elif isinstance(value, set):
            value.add("junk")
            changed += 1
        elif isinstance(value, dict):
            for item in value.values():
                hit(item)
            value["junk"] = "junk"
            changed += 1
        elif isinstance(value, Trick):
            value.plays.append((9, "junk"))  # type: ignore[arg-type]
            changed += 1

    for name, value in vars(state).items():
        if name not in ("game", "variant"):
            hit(value)
    return changed


def play_on(state: MatchState, seed: int, actions: int) -> list[str]:
    """Play ``actions`` random legal actions; the texts of what was seen."""
    rng = random.Random(seed)
    seen = []
    for _ in range(actions):
        if state.is_over:
            break
        legal = state.legal_actions()
        seen.append(repr(state.view(None)) + repr(legal))
        state.apply(rng.choice(legal))
    seen.append(repr(state.view(None)))
    return seen


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_changing_a_clone_in_place_never_changes_the_original(name, index, variant):
    for live in states_along_a_game(name, variant, seed=index, every=37):
        before = snapshot(live)
        twin = live.clone()
        assert snapshot(twin) == before
        assert vandalise(twin) >= 4
        assert snapshot(live) == before


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_changing_the_original_in_place_never_changes_a_clone(name, index, variant):
    for live in states_along_a_game(name, variant, seed=index + 10, every=41):
        twin = live.clone()
        before = snapshot(twin)
        vandalise(live)
        assert snapshot(twin) == before
        break  # the original is ruined: one check per match


@pytest.mark.parametrize(("name", "index", "variant"), CASES, ids=IDS)
def test_a_clone_plays_on_exactly_as_the_original_even_across_deals(name, index, variant):
    """The clone draws the next deals from the same RNG state as the original
    (copy on write): played with the same choices, both see the same."""
    for step, live in enumerate(states_along_a_game(name, variant, seed=index + 20, every=53)):
        twin = live.clone()
        first = play_on(twin, step, 150)  # the clone goes first, past a deal
        second = play_on(live, step, 150)
        assert first == second
        break


@pytest.mark.parametrize("name", list(GAMES))
def test_a_match_from_an_explicit_deal_clones_independently(name):
    game = get_game(name)
    seeded = game.new_match(seed=4)
    deal = seeded.record()["deal"]
    if deal is None:  # rebuild the first deal as an explicit one
        deal = explicit_first_deal(seeded)
    state = game.new_match(seed=4, deal=deal)
    assert state.initial_deal is not None
    before = snapshot(state)
    twin = state.clone()
    vandalise(twin)
    assert snapshot(state) == before


def explicit_first_deal(state: MatchState) -> dict[str, Any]:
    """The dealt cards of a seeded match as an explicit ``deal`` argument."""
    name = state.game.name
    if name == "ladder":
        return {
            "hands": [[str(c) for c in h] for h in state.hands],  # type: ignore[attr-defined]
            "shown": [[str(c) for c in h] for h in state.shown],  # type: ignore[attr-defined]
            "hidden": [[str(c) for c in h] for h in state.hidden],  # type: ignore[attr-defined]
        }
    return {"hands": [[str(c) for c in h] for h in state.hands]}  # type: ignore[attr-defined]


def test_a_clone_of_a_clone_and_its_original_all_deal_alike():
    game = get_game("callbreak")
    state = game.new_match(seed=5, variant=game.variant(rounds=3))
    a = state.clone()
    b = a.clone()
    runs = [play_on(s, 1, 120) for s in (b, state, a)]
    assert runs[0] == runs[1] == runs[2]


def test_drawing_from_one_copy_leaves_the_others_generator_alone():
    state = get_game("ladder").new_match(seed=9)
    twin = state.clone()
    expected = state.rng.getstate()
    twin.rng.random()
    assert state.rng.getstate() == expected
    assert twin.rng.getstate() != expected

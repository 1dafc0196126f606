"""Search for every game: a "hard" seat is a real search everywhere, its
worlds agree with the seat's view, and it never sees a hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.ai.worlds as worlds_module
from engine import get_game
from engine.ai import agent_names, get_agent, play_out
from engine.ai.base import BaseAgent
from engine.ai.knowledge import cards_not_held, inferred_voids
from engine.ai.ladder_search import ladder_world
from engine.ai.rollout import TrickRollout, copy_state
from engine.ai.search import deal_value
from engine.ai.worlds import backalley_world, batak_world, blot_world, callbreak_world
from engine.core.game import MatchState

GAMES = ("callbreak", "batak", "blot", "backalley", "ladder")
WORLDS = {
    "callbreak": callbreak_world,
    "batak": batak_world,
    "blot": blot_world,
    "backalley": backalley_world,
    "ladder": ladder_world,
}
VARIANTS: dict[str, dict[str, Any]] = {
    "callbreak": {"rounds": 1},
    "batak": {"target_score": 10},
    "blot": {"target_score": 51},
    "backalley": {"max_cards": 5},
    "ladder": {},
}


def decisions(game: str, seed: int, count: int, every: int = 3) -> list[MatchState]:
    """Copies of ``count`` play decisions with a choice, from a heuristic game."""
    g = get_game(game)
    state = g.new_match(seed=seed, variant=g.variant(**VARIANTS[game]))
    players = [get_agent("heuristic", game=game, seed=s) for s in range(state.num_seats)]
    found: list[MatchState] = []
    step = 0
    while not state.is_over and len(found) < count:
        seat = state.decider
        legal = state.legal_actions()
        if state.phase.value == "play" and len(legal) > 1 and step % every == 0:
            found.append(state.clone())
        state.apply(players[seat].act(state.view(seat), legal))
        step += 1
    return found


@pytest.mark.parametrize("game", GAMES)
def test_hard_is_search_in_every_game(game):
    assert "search" in agent_names(game)
    # Bazar Blot's own search (engine/ai/blot_search.py) replaces the generic one
    assert type(get_agent("search", game=game, seed=0)).__name__ in {"SearchAgent", "BlotSearch"}


@pytest.mark.parametrize("game", GAMES)
def test_search_returns_legal_actions(game):
    for i, state in enumerate(decisions(game, seed=5, count=4)):
        agent = get_agent("search", game=game, seed=i, budget_ms=60_000, max_worlds=3)
        legal = state.legal_actions()
        assert agent.act(state.view(state.decider), legal) in legal


@pytest.mark.parametrize("game", GAMES)
def test_worlds_agree_with_the_view(game):
    for i, state in enumerate(decisions(game, seed=7, count=4, every=5)):
        seat = state.decider
        view = state.view(seat)
        seen = view.visible_cards() - set(view.hand)
        for k in range(3):
            world: Any = WORLDS[game](view, random.Random(k))
            assert world.hands[seat] == list(view.hand)
            assert [len(h) for h in world.hands] == list(view.hand_counts)
            assert {str(a) for a in world.legal_actions()} == {
                str(a) for a in view.legal_actions
            }, (game, i)
            shown_elsewhere = seen - {c for _, _, cards in view.declarations for c in cards}
            for other in range(state.num_seats):
                if other != seat and other != view.dummy_seat:
                    assert not set(world.hands[other]) & shown_elsewhere


def test_blot_worlds_respect_declarations_belote_and_compulsory_trumps():
    states = decisions("blot", seed=3, count=12, every=2)
    checked = 0
    for state in states:
        seat = state.decider
        view = state.view(seat)
        voids = inferred_voids(view, state.ranking, view.trump, "blot")
        missing = cards_not_held(view, state.full_deck(), state.ranking, view.trump, "blot")
        played = {c for _, c in view.played}
        for k in range(3):
            world: Any = blot_world(view, random.Random(k))
            for other in range(4):
                if other == seat:
                    continue
                hand = set(world.hands[other])
                assert not {c for c in hand if state.ranking.suit_of(c, view.trump) in voids[other]}
                assert not hand & missing[other]
            for owner, _, cards in view.declarations:
                assert set(cards) - played <= set(world.hands[owner])
            assert world.belote == sorted(s for s, _, cards in view.declarations if not cards)
            checked += 1
    assert checked


@pytest.mark.parametrize("game", ["callbreak", "batak", "blot", "backalley"])
def test_a_world_with_the_true_hands_scores_the_deal_like_the_table(game, monkeypatch):
    """Everything but the hidden hands is carried into the world: dealt the
    true hands, the rest of the deal plays out to the same deal score."""
    for state in decisions(game, seed=11, count=2, every=7):
        seat = state.decider
        view = state.view(seat)
        truth: Any = state

        def true_hands(dealer, rng, truth=truth):
            return {s: list(truth.hands[s]) for s in dealer.counts}

        monkeypatch.setattr(worlds_module.UnseenDealer, "__call__", true_hands)
        world: Any = WORLDS[game](view, random.Random(0))
        monkeypatch.undo()
        rollouts = worlds_module.trick_rollouts(game)(view)
        assert isinstance(rollouts, TrickRollout)
        results = []
        for s in (copy_state(state), world):
            before = len(s.history)
            rollouts.run(s, deadline=float("inf"))
            results.append(deal_value(s, seat, before))
        assert results[0] == results[1]


class Spy(BaseAgent):
    """Remembers whether it was ever handed the full state."""

    name = "spy"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.given: list[object] = []

    def act(self, view, legal, *, full_state=None):
        self.given.append(full_state)
        return legal[0]


def test_honest_agents_never_receive_the_full_state():
    g = get_game("callbreak")
    state = g.new_match(seed=1, variant=g.variant(rounds=1))
    spies = [Spy(game="callbreak", seed=s) for s in range(4)]
    play_out(state, spies)
    assert all(given is None for spy in spies for given in spy.given)
    for game in GAMES:
        for name in agent_names(game):
            # only the paper's baseline openly sees every hand (and says so)
            assert get_agent(name, game=game, seed=0).sees_all == (name == "paper-minimax")


@pytest.mark.parametrize("game", GAMES)
def test_search_depends_only_on_the_view(game):
    """Two tables that look the same from the seat (the unseen cards dealt
    differently, ``shuffled_unseen``) get the same decision."""
    for i, state in enumerate(decisions(game, seed=13, count=2, every=4)):
        seat = state.decider
        other = state.shuffled_unseen(seat, random.Random(i))
        assert other.view(seat) == state.view(seat)
        picks = []
        for s in (state, other):
            agent = get_agent("search", game=game, seed=3, budget_ms=60_000, max_worlds=3)
            picks.append(agent.act(s.view(seat), s.legal_actions()))
        assert picks[0] == picks[1]

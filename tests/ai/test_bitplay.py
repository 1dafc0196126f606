"""The bit-coded play-outs (engine/ai/bitplay.py, playouts.py on the
engine's ``PlayMask``) play exactly as the engine's rules and the shared
heuristic do.

From positions of real matches (seeded heuristic and random play), the
legacy rollout (``TrickRollout``: the engine's ``_allowed_cards`` and
``_apply``, ``trickplay.decide_at``) and the bit-coded one finish the deal
from the same knowledge; at every card the legal cards must agree with the
engine and the chosen card with the heuristic, and the deal's tricks and
scores with the engine's record."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.ai import get_agent
from engine.ai.bitplay import choose, note, rollout
from engine.ai.playouts import TrickPlayouts, contract_scores, play_out, solve
from engine.ai.rollout import TrickRollout, copy_state
from engine.ai.solver import Solver
from engine.ai.worlds import trick_rollouts
from engine.core.actions import play as play_action

CASES = [
    ("callbreak", {}),
    ("batak", {}),
    ("backalley", {"max_cards": 7}),
    ("backalley", {"players": 3, "max_cards": 9}),
    ("backalley", {"players": 6, "max_cards": 8, "joker_turned": "no_trump"}),
]


def positions(game_name: str, options: dict, count: int, seed: int):
    """(state, view) in the play phase, from seeded matches mixing the
    heuristic and random play (random play reaches odd corners)."""
    game = get_game(game_name)
    rng = random.Random(seed)
    found = 0
    match = 0
    while found < count:
        state = game.new_match(seed=seed * 1000 + match, variant=game.variant(**options))
        match += 1
        seats = state.num_seats
        kinds = ["heuristic" if rng.random() < 0.6 else "random" for _ in range(seats)]
        agents = [get_agent(k, game=game_name, seed=rng.randrange(99)) for k in kinds]
        while not state.is_over and found < count:
            seat = state.decider
            legal_actions = state.legal_actions()
            if state.phase.value == "play" and rng.random() < 0.15:
                yield state, state.view(seat)
                found += 1
            state.apply(agents[seat].act(state.view(seat), legal_actions))


def real_world(game_name: str, state, view):
    """The fast path's set-up for the view, and the real hands as its world."""
    fast = TrickPlayouts(game_name, view, lambda rng: {})
    deal = fast.template.copy()
    deal.hands = [fast.codec.mask(h) for h in state.hands]
    return fast, deal


@pytest.mark.parametrize(("game_name", "options"), CASES)
def test_rollouts_play_the_engines_rules_and_the_heuristics_cards(game_name, options):
    checked = 0
    for state, view in positions(game_name, options, 25, seed=len(options) + 3):
        fast, deal = real_world(game_name, state, view)
        know = fast.know.copy()
        # the hot loop (``rollout``, the step functions written out inline)
        inline_deal, inline_know = deal.copy(), fast.know.copy()
        played = rollout(inline_deal, inline_know, fast.deck, fast.partners)
        # the legacy rollout, on a copy of the real state
        slow = copy_state(state)
        deals_before = len(slow.history)
        assert trick_rollouts(game_name)(view).run(slow, float("inf"))
        record = slow.history[deals_before]
        sequence = [c for trick in record.tricks for _, c in trick][len(view.played) :]
        # the bit-coded one, card by card beside an engine copy
        engine = copy_state(state)
        rules = fast.rules
        for expected in sequence:
            cards = deal.legal()
            allowed = engine._allowed_cards().cards
            assert sorted(fast.codec.cards(cards)) == sorted(allowed)
            seat = deal.to_act
            partner = fast.partners[seat]
            if cards & (cards - 1):
                bit = choose(
                    deal,
                    rules,
                    cards,
                    fast.deck & ~know.public & ~deal.hands[seat],
                    know.voids,
                    partner,
                    know.led[partner] if partner is not None else 0,
                )
            else:
                bit = cards.bit_length() - 1
            assert fast.codec.card(bit) == expected
            note(know, deal, bit)
            deal.play(bit)
            engine._apply(play_action(expected))
            if any(deal.hands):
                assert deal.to_act == engine.to_act
        assert not any(deal.hands)
        assert tuple(deal.won) == record.tricks_won
        assert played == len(sequence)
        assert inline_deal.won == deal.won
        assert (inline_know.voids, inline_know.led) == (know.voids, know.led)
        assert contract_scores(game_name, fast.contract, deal.won) == record.scores
        checked += 1
    assert checked == 25


@pytest.mark.parametrize(("game_name", "options"), CASES[:3])
def test_fresh_deals_play_out_like_the_legacy_rollout(game_name, options):
    """Bidding by simulation plays whole deals from the first card."""
    game = get_game(game_name)
    for seed in range(6):
        state = game.new_match(seed=seed, variant=game.variant(**options))
        agents = [get_agent("heuristic", game=game_name, seed=s) for s in range(state.num_seats)]
        while state.phase.value != "play":
            seat = state.decider
            state.apply(agents[seat].act(state.view(seat), state.legal_actions()))
        view = state.view(state.decider)
        public = list(view.dummy or ()) + ([view.turned] if view.turned else [])
        public += list(view.extra.get("set_aside", ()))
        won = play_out(game_name, state.hands, state.trump, state.to_act, public)
        seats = state.num_seats
        legacy = TrickRollout(
            game_name,
            state.full_deck(),
            set(public),
            {s: set() for s in range(seats)},
            {s: set() for s in range(seats)},
        )
        slow = copy_state(state)
        before = len(slow.history)
        assert legacy.run(slow, float("inf"))
        assert won is not None and tuple(won) == slow.history[before].tricks_won


def test_the_exact_end_game_agrees_with_the_engine_solver():
    for state, view in positions("batak", {}, 40, seed=11):
        if sum(len(h) for h in state.hands) > 9:
            continue
        _fast, deal = real_world("batak", state, view)
        team = view.decider % 2
        assert solve(deal, team) == Solver("batak").solve(copy_state(state), team)[0]


@pytest.mark.parametrize(("game_name", "options"), CASES[:3])
def test_sampled_worlds_keep_the_view_and_deal_only_unseen_cards(game_name, options):
    """The fast path's worlds (``SearchGame.playouts``): the seat's own hand
    (and Batak's dummy) as seen, every other hand of the right size, dealt
    only from cards the seat has not seen."""
    from engine.ai.search import _GAMES

    for _state, view in positions(game_name, options, 8, seed=21):
        fast = _GAMES[game_name].playouts(view)
        seen = view.visible_cards() - set(view.hand) - set(view.dummy or ())
        for k in range(3):
            world = fast.sample(random.Random(k))
            hands = [set(fast.codec.cards(h)) for h in world.hands]
            assert hands[view.seat] == set(view.hand)
            if view.dummy_seat is not None:
                assert hands[view.dummy_seat] == set(view.dummy)
            assert [len(h) for h in hands] == list(view.hand_counts)
            for seat, hand in enumerate(hands):
                if seat not in (view.seat, view.dummy_seat):
                    assert not hand & seen
            assert world.to_act == view.to_act

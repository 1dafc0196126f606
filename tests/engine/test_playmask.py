"""The engine's play state on masks and its search API (``engine.core.playmask``):
``state.play_masks()``, ``legal``, ``play``, ``push``/``pop``, ``copy`` and
``beating`` agree with the engine's own play (``apply``) card by card, and
taking cards back restores the deal exactly."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.core.bits import bits_of, codec
from engine.core.cards import parse_cards
from engine.core.playmask import PlayMask
from engine.games.batak.rules import play_rules as batak_rules

CASES = [
    ("callbreak", {}),
    ("batak", {}),
    ("batak", {"trump_unlock": "ruff_only"}),
    ("backalley", {"max_cards": 7}),
    ("backalley", {"players": 3, "max_cards": 9, "trump_lead": "broken"}),
    ("backalley", {"players": 6, "max_cards": 8, "joker_turned": "no_trump"}),
]


def fields(pm: PlayMask) -> tuple[object, ...]:
    return (
        list(pm.hands),
        pm.leader,
        pm.to_act,
        list(pm.won),
        pm.broken,
        list(pm.plays),
        pm.led,
        pm.led_top,
        pm.trump_top,
        pm.win_seat,
    )


@pytest.mark.parametrize(("game_name", "options"), CASES)
def test_play_masks_follow_the_engine_card_by_card(game_name: str, options: dict) -> None:
    game = get_game(game_name)
    rng = random.Random(5)
    for seed in range(4):
        state = game.new_match(seed=seed, variant=game.variant(**options))
        for _ in range(150):
            if state.is_over:
                break
            legal = state.legal_actions()
            if state.phase.value == "play":
                pm = state.play_masks()
                code = pm.rules.codec
                assert pm.to_act == state.to_act
                assert sorted(code.cards(pm.legal())) == sorted(a.card for a in legal)
                mask, reason = pm.allowed()
                assert mask == pm.legal()
                assert reason == state._allowed_cards().reason
                action = rng.choice(legal)
                bit = code.bit(action.card)
                before = fields(pm)
                twin = pm.copy()
                pm.push(bit)
                twin.play(bit)
                assert fields(pm) == fields(twin)
                assert pm.pop() == bit
                assert fields(pm) == before
                # ``beating``: the card would win the trick so far
                if pm.plays:
                    wins = bool(pm.beating(1 << bit))
                    pm.play(bit)
                    if pm.plays:
                        assert (pm.win_seat == state.to_act) == wins
                state.apply(action)
                if state.phase.value == "play" and not state.trick.plays and state.tricks:
                    assert state.to_act == state.play_masks().leader
            else:
                state.apply(rng.choice(legal))


@pytest.mark.parametrize(("game_name", "options"), CASES)
def test_push_and_pop_a_whole_deal(game_name: str, options: dict) -> None:
    """Every card of a deal pushed, then every one popped: the deal comes back."""
    game = get_game(game_name)
    rng = random.Random(9)
    state = game.new_match(seed=3, variant=game.variant(**options))
    while state.phase.value != "play":
        state.apply(rng.choice(state.legal_actions()))
    pm = state.play_masks()
    start = fields(pm)
    pushed = []
    while any(pm.hands):
        bit = rng.choice(bits_of(pm.legal()))
        pm.push(bit)
        pushed.append(bit)
    assert sum(pm.won) == sum(state.tricks_won) + len(pushed) // state.num_seats
    while pushed:
        assert pm.pop() == pushed.pop()
    assert fields(pm) == start


def test_batak_trump_is_broken_by_a_ruff_only_under_ruff_only() -> None:
    """rules/batak.md "Play": with trump_unlock=ruff_only a trump lead does not break trump."""
    code = codec("H")
    for unlock, broken in (("ruff_only", False), ("any_trump", True)):
        rules = batak_rules("H", unlock)
        hands = [code.mask(parse_cards(h)) for h in ("AH 2S", "3H 4S", "5H 6S", "7H 8S")]
        deal = PlayMask(rules, hands, 0)
        for card in parse_cards("AH 3H 5H 7H"):
            deal.play(code.bit(card))
        assert deal.broken is broken
        assert deal.won == [1, 0, 0, 0]

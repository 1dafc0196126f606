"""``apply`` accepts an action of the last ``legal_actions()`` list without
asking the rules again (issue 25) only while the position that list was
computed for is unchanged (``MatchState._legal_key``).  A stale list is never
trusted: a card played behind ``apply``'s back (the AI's ``_apply``), a hand
or trick replaced, a copy -- each makes ``apply`` ask the rules."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine import Card, IllegalAction, get_game
from engine.core.actions import PLAY_OF
from tests.engine.conformance import snapshot


def _callbreak_in_play(seed: int = 3):
    state = get_game("callbreak").new_match(seed=seed)
    for _ in range(4):
        state.apply("bid 2")
    return state


def test_the_memo_is_used_for_an_action_of_the_last_legal_list(monkeypatch):
    state = _callbreak_in_play()
    legal = state.legal_actions()
    calls = []
    original = type(state)._legal_action

    def counting(self, action):
        calls.append(action)
        return original(self, action)

    monkeypatch.setattr(type(state), "_legal_action", counting)
    state.apply(legal[0])
    assert calls == []  # accepted from the memo
    assert state.log[-1] is legal[0]
    state.apply(state.legal_actions()[0])
    assert calls == []
    # without a fresh legal list, apply asks the rules
    action = state.legal_actions()[0]
    state.apply(action)
    state.apply(random.Random(1).choice(state._legal()))
    assert len(calls) == 1


def test_a_card_played_behind_applys_back_makes_the_list_stale():
    state = _callbreak_in_play()
    legal = state.legal_actions()
    state._apply(legal[0])  # what the AI's play-outs do: no log, no memo reset
    # legal[1] was legal for the seat that just played; the next seat does
    # not hold it
    assert legal[1] not in state.legal_actions()
    state.legal_actions()
    with pytest.raises(IllegalAction):
        state.apply(legal[1])


def test_the_memo_ends_with_apply_and_a_refusal_leaves_the_state_unchanged():
    state = _callbreak_in_play()
    legal = state.legal_actions()
    state.apply(legal[0])
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(legal[1])  # the old list: a card of the previous seat
    assert snapshot(state) == before


def test_a_changed_hand_or_trick_is_another_position():
    state = _callbreak_in_play()
    legal = state.legal_actions()
    seat = state.to_act
    first = legal[0].card
    state.hands[seat].remove(first)
    state.hands[seat].append(first)  # same list, same length, same cards: still legal
    state.apply(legal[0])

    state = _callbreak_in_play()
    legal = state.legal_actions()
    seat = state.to_act
    state.hands[seat][state.hands[seat].index(legal[0].card)] = state.hands[(seat + 1) % 4][0]
    with pytest.raises(IllegalAction):  # the card left the hand in place
        state.apply(legal[0])

    game = get_game("callbreak")
    hands = {0: "2C", 1: "3H 3D"}
    state = game.position(hands=hands, trick=[(0, "4H")], to_act=1)
    assert [str(a) for a in state.legal_actions()] == ["play 3H"]
    state.trick.plays = [(0, Card.parse("4D"))]  # another led card
    with pytest.raises(IllegalAction):  # now diamonds must be followed
        state.apply(PLAY_OF[Card.parse("3H")])
    state.apply(PLAY_OF[Card.parse("3D")])


def test_the_memo_is_not_part_of_the_state_nor_of_its_copies():
    state = _callbreak_in_play()
    before = snapshot(state)
    legal = state.legal_actions()
    assert state._legal_memo is not None
    assert snapshot(state) == before  # not an attribute: snapshots unchanged
    assert "_legal_memo" not in vars(state)
    assert state.clone()._legal_memo is None
    shallow = copy.copy(state)
    assert getattr(shallow, "_legal_memo", None) is None
    thawed = pickle.loads(pickle.dumps(state))
    assert getattr(thawed, "_legal_memo", None) is None
    # copies without a memo still apply (the rules are asked)
    thawed.apply(PLAY_OF[legal[0].card])
    shallow.apply(legal[0])
    assert shallow.log[-1] is legal[0]


@pytest.mark.parametrize("name", ["callbreak", "batak", "backalley", "blot"])
def test_random_play_with_and_without_the_memo_agrees(name):
    """The same random matches, once driven through ``legal_actions()`` (the
    memo) and once checking every action by the rules alone."""
    game = get_game(name)
    for seed in range(3):
        a, b = game.new_match(seed=seed), game.new_match(seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if a.is_over:
                break
            action = rng.choice(a.legal_actions())
            events_a = a.apply(action)
            b._legal_memo = None
            events_b = b.apply(str(action))
            assert events_a == events_b
        assert a.log == b.log and snapshot(a) == snapshot(b)

"""The engine's action objects are shared, one per value (issue 14): legal
lists, ``parse_action`` and the log hand out the same objects, so ``apply``
knows its own actions by identity.  Sharing never changes what is accepted:
an equal Action built by hand is accepted and logged as the shared object,
and a malformed look-alike is still refused."""

from __future__ import annotations

import pytest

from engine import Action, Card, InvalidAction, get_game, parse_action
from engine.core.actions import PASS, bid, hidden, is_shared, play, trump


def test_legal_lists_parse_action_and_the_log_share_one_object_per_value():
    state = get_game("callbreak").new_match(seed=2)
    first = state.legal_actions()
    assert all(is_shared(a) for a in first)
    assert [parse_action(str(a)) for a in first] == first
    assert all(parse_action(str(a)) is a for a in first)
    state.apply(str(first[3]))
    assert state.log[-1] is first[3]
    assert state.legal_actions()[0] is first[0]


def test_an_equal_action_built_by_hand_is_accepted_and_logged_as_the_shared_one():
    state = get_game("callbreak").new_match(seed=2)
    for _ in range(4):
        state.apply("bid 2")
    legal = state.legal_actions()[0]
    by_hand = Action("play", (Card(legal.card.rank, legal.card.suit),))
    assert by_hand == legal and by_hand is not legal and not is_shared(by_hand)
    state.apply(by_hand)
    assert state.log[-1] is legal


@pytest.mark.parametrize(
    "look_alike",
    [
        bid(True),  # a bool is not the number 1
        bid(2.0),  # type: ignore[arg-type]
        play((14, "S")),  # type: ignore[arg-type]
        Action("bid", number=True),
        Action("play", ((14, "S"),)),  # type: ignore[arg-type]
    ],
    ids=repr,
)
def test_look_alikes_of_shared_actions_are_not_shared_and_are_refused(look_alike):
    assert not is_shared(look_alike)
    state = get_game("callbreak").new_match(seed=2)
    if look_alike.verb == "play":
        for _ in range(4):
            state.apply("bid 2")
    with pytest.raises(InvalidAction):
        state.apply(look_alike)
    assert state.log == [parse_action("bid 2")] * len(state.log)


def test_the_constructors_return_the_shared_objects():
    assert bid(9, "H") is bid(9, "H") is parse_action("bid 9 h")
    assert trump("S") is parse_action("trump S")
    assert hidden(2) is parse_action("hidden 2")
    assert PASS is parse_action("pass")
    assert play(Card(7, "H"), Card(7, "D")) is parse_action("play 7D 7H")


def test_only_a_bounded_set_of_values_is_shared():
    mixed = parse_action("play 7H 8D 9C")  # never legal anywhere: not kept
    assert not is_shared(mixed)
    assert not is_shared(Action("bid", number=5000))
    assert str(mixed) == "play 7H 8D 9C"


def test_every_shared_id_belongs_to_a_kept_object_even_when_threads_race():
    """``apply`` trusts an action whose id is registered, so a registered id
    must always be that of an object the registry keeps alive."""
    import threading

    from engine.core import actions

    def build(offset: int) -> None:
        for n in range(200, 600):
            bid((n + offset) % 400 + 200, "NT")
            hidden((n + offset) % 400 + 200)

    threads = [threading.Thread(target=build, args=(k * 37,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = {id(a) for a in actions._SHARED.values()}
    assert kept == actions.SHARED_IDS
    assert all(is_shared(bid(n, "NT")) for n in range(200, 600))

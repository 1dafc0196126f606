"""The browser tests' leak check can fail: a frame naming another seat's
card, in any field and in either notation, is caught; the seat's own cards
and the public ones are not."""

from __future__ import annotations

import pytest

from engine import get_game
from tests.browser.hidden import card_tokens, check_frames


def frame(seat: int | None, **view: object) -> dict[str, object]:
    return {"type": "state", "table": 1, "seq": 0, "seat": seat, "view": view}


def test_tokens_in_both_notations_and_nowhere_else():
    assert card_tokens({"a": ["play 10H", "AS"], "b": "7♦ 10♣", "c": {"d": "TH"}}) == {
        "TH",
        "AS",
        "7D",
        "TC",
    }
    assert card_tokens({"words": "AS you like", "n": "10", "x": "ASK"}) == {"AS"}
    assert card_tokens({"last_deal": {"hands": [["AS"]]}}) == set()


def test_a_frame_naming_another_seats_card_is_caught():
    state = get_game("callbreak").new_match(seed=3)
    mine = [str(c) for c in state.view(0).hand]
    theirs = str(state.view(2).hand[0])
    at = lambda seq: state  # noqa: E731
    assert check_frames([frame(0, hand=mine, legal=[f"play {mine[0]}"])], 1, at, 0) == 1
    for leak in (
        frame(0, hand=[*mine, theirs]),
        frame(0, hand=mine, labels={"x": theirs.replace("T", "10")}),
        frame(None, trick=[[2, theirs]]),
    ):
        seat = leak["seat"]
        with pytest.raises(AssertionError, match=theirs):
            check_frames([leak], 1, at, seat)  # type: ignore[arg-type]
    with pytest.raises(AssertionError, match="reached seat"):
        check_frames([frame(1, hand=[])], 1, at, 0)


def test_ladders_hidden_cards_are_unseen_even_by_their_owner():
    state = get_game("ladder").new_match(seed=2)
    own_hidden = str(state.hidden[0][0])
    with pytest.raises(AssertionError, match=own_hidden):
        check_frames([frame(0, hand=[], extra={"x": own_hidden})], 1, lambda seq: state, 0)

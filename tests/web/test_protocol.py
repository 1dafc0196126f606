"""bot/web/protocol.py and the flood gate: pure functions, checked alone."""

from __future__ import annotations

import json

import pytest

from bot.web.protocol import (
    MAX_FRAME,
    Act,
    BadFrame,
    Hello,
    Ping,
    ReplayStep,
    dumps,
    parse_frame,
    view_json,
)
from bot.web.socket import FloodGate
from bot.web.words import action_label
from engine import get_game


def test_frames_parse_to_their_kinds() -> None:
    assert parse_frame('{"type":"ping"}') == Ping()
    assert parse_frame('{"type":"hello","session":"s","table":3,"lang":"tr"}') == Hello(
        "s", 3, None, "tr"
    )
    assert parse_frame(b'{"type":"act","table":3,"seq":0,"action":"pass"}') == Act(3, 0, "pass")
    assert parse_frame('{"type":"replay_step","to":15}') == ReplayStep(15)
    assert parse_frame('{"type":"hello","session":"s","table":null}') == Hello("s")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("x" * (MAX_FRAME + 1), "too_big"),
        ('{"type":"ping","pad":"' + "é" * (MAX_FRAME // 2) + '"}', "too_big"),  # bytes count
        ("\xff", "bad_frame"),
        ('{"type":"act","table":0,"seq":0,"action":"pass"}', "bad_frame"),
        ('{"type":"act","table":1,"seq":0,"action":"' + "p" * 101 + '"}', "bad_frame"),
        ('{"type":"hello","session":"s","lang":"' + "x" * 17 + '"}', "bad_frame"),
        ('{"type":"hello","session":"s","table":10000000000000}', "bad_frame"),
        ('{"type":"ping","extra":1}', "bad_frame"),
        ('{"type":null}', "bad_frame"),
    ],
)
def test_bad_frames(text: str, code: str) -> None:
    with pytest.raises(BadFrame) as refused:
        parse_frame(text)
    assert refused.value.code == code


def test_view_json_is_the_view_and_its_legal_actions() -> None:
    game = get_game("blot")
    state = game.new_match(seed=3)
    seat = state.decider
    view = state.view(seat)
    out = view_json(view, action_label)
    assert out["hand"] == [str(c) for c in view.hand]
    assert out["legal"] == [str(a) for a in view.legal_actions]
    assert out["playable"] == []  # the auction: nothing to play yet
    assert set(out["labels"]) == set(out["legal"]) and out["labels"]["pass"] == "pass"
    assert json.loads(dumps(out)) == out  # JSON all the way down
    fields = set(out) - {"legal", "playable", "labels"}
    assert fields == set(type(view).__dataclass_fields__)


def test_playable_cards_are_the_single_card_plays() -> None:
    game = get_game("callbreak")
    state = game.new_match(seed=5)
    while not any(a.verb == "play" for a in state.legal_actions()):
        state.apply(state.legal_actions()[0])
    view = state.view(state.decider)
    out = view_json(view, action_label)
    assert out["playable"] and set(out["playable"]) <= set(out["hand"])
    assert out["labels"] == {}


def test_the_flood_gate() -> None:
    gate = FloodGate(limit=3, window=1.0)
    assert [gate.admit(0.1 * i) for i in range(4)] == ["ok", "ok", "ok", "warn"]
    assert gate.admit(0.9) == "drop"  # the second after the limit: dropped
    assert gate.admit(1.5) == "ok"  # a new window
    # a sustained flood: warned at 20 s and 21.5 s, closed at the third within 10 s
    assert [gate.admit(20 + 0.01 * i) for i in range(4)][-1] == "warn"
    assert [gate.admit(21.5 + 0.01 * i) for i in range(4)][-1] == "warn"
    assert [gate.admit(23 + 0.01 * i) for i in range(4)][-1] == "close"

"""custom_ids and the hand's components: limits, paging, nothing hidden."""

from __future__ import annotations

import re

from bot.services.models import SeatInfo, TableInfo
from bot.ui import custom_ids
from bot.ui.custom_ids import ComponentId
from bot.ui.items import hand_view
from engine import get_game
from engine.core.cards import standard_deck

CARD = re.compile(r"\b([2-9TJQKA][SHDC])\b")


def info(game: str, seats: int = 4, seq: int = 7) -> TableInfo:
    return TableInfo(
        3,
        1,
        2,
        4,
        None,
        1,
        game,
        {},
        "playing",
        tuple(SeatInfo(s, 100 + s, f"p{s}", None) for s in range(seats)),
        seats,
        seq,
        None,
        0,
    )


def test_custom_id_round_trip_and_garbage():
    cid = ComponentId(12, 345, "act", "7")
    assert custom_ids.parse(str(cid)) == cid
    for junk in (
        "",
        "ct:",
        "ct:1:2:act",
        "ct:1:2:nuke:1",
        "ct:1:2:act:AS",
        "x" * 200,
        "ct:-1:2:act:1",
    ):
        assert custom_ids.parse(junk) is None


def test_ladder_hand_over_25_cards_is_paged_within_limits():
    game = get_game("ladder")
    deck = [str(c) for c in standard_deck()]
    state = game.position(hands={0: deck[:30], 1: deck[30:33], 2: deck[33:36], 3: deck[36:39]})
    view = state.view(0)
    ui, pages = hand_view(info("ladder"), view, 0)
    assert pages >= 2
    for page in range(pages):
        ui, _ = hand_view(info("ladder"), view, page)
        rows: dict[int, int] = {}
        for item in ui.children:
            custom_id = item.custom_id  # type: ignore[attr-defined]
            assert len(custom_id) <= 100 and not CARD.search(custom_id)
            rows[item._rendered_row or 0] = rows.get(item._rendered_row or 0, 0) + 1  # type: ignore[attr-defined]
        assert len(ui.children) <= 25
    payload = ui.to_components()
    assert len(payload) <= 5 and all(len(row["components"]) <= 5 for row in payload)


def test_blot_auction_choices_are_paged_25_at_a_time():
    game = get_game("blot")
    state = game.new_match(seed=1)
    view = state.view(state.decider)
    ui, pages = hand_view(info("blot"), view, 0)
    assert pages > 10
    selects = [c for c in ui.to_components() for c2 in c["components"] if c2["type"] == 3]
    assert len(selects) == 1
    options = selects[0]["components"][0]["options"]
    assert 1 <= len(options) <= 25


def test_hand_buttons_name_no_cards():
    game = get_game("callbreak")
    state = game.new_match(seed=2)
    for _ in range(4):
        state.apply("bid 2")
    view = state.view(state.decider)
    ui, _ = hand_view(info("callbreak"), view)
    ids = [c.custom_id for c in ui.children]  # type: ignore[attr-defined]
    assert ids and not any(CARD.search(i) for i in ids)
    enabled = [c for c in ui.children if not c.item.disabled]  # type: ignore[attr-defined]
    assert len(enabled) == len(view.legal_actions)

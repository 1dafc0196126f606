"""custom_ids and the views' components: limits, paging, nothing hidden."""

from __future__ import annotations

import re

import pytest

from bot.discord import custom_ids
from bot.discord.custom_ids import ComponentId
from bot.discord.items import (
    TableButton,
    TableSelect,
    fill_view,
    hand_view,
    lobby_view,
    resign_confirm_view,
    table_view,
)
from bot.services.models import SeatInfo, TableInfo
from engine import get_game
from engine.core.cards import standard_deck

CARD = re.compile(r"\b([2-9TJQKA][SHDC])\b")


def info(
    game: str,
    seats: int = 4,
    seq: int = 7,
    status: str = "playing",
    seat_infos: tuple[SeatInfo, ...] | None = None,
) -> TableInfo:
    if seat_infos is None:
        seat_infos = tuple(SeatInfo(s, 100 + s, f"p{s}", None) for s in range(seats))
    return TableInfo(3, 1, 2, 4, None, 100, game, {}, status, seat_infos, seats, seq, None, 0)


def rows_of(ui) -> list[list[dict]]:
    return [row["components"] for row in ui.to_components()]


def check_limits(ui) -> None:
    rows = rows_of(ui)
    assert len(rows) <= 5
    for row in rows:
        assert 1 <= len(row) <= 5
        for comp in row:
            assert len(comp["custom_id"]) <= 100 and not CARD.search(comp["custom_id"])
            assert custom_ids.parse(comp["custom_id"]) is not None
            if comp["type"] == 3:
                assert len(row) == 1 and 1 <= len(comp["options"]) <= 25
            else:
                assert len(comp["label"]) <= 80


def test_custom_id_round_trip_and_garbage():
    for verb, arg in (("act", "7"), ("fill", "hard"), ("kick", ""), ("lvl", ""), ("resignok", "")):
        cid = ComponentId(12, 345, verb, arg)
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


@pytest.mark.parametrize(
    ("verb", "kind"),
    [(v, "button") for v in custom_ids.BUTTON_VERBS]
    + [(v, "select") for v in ("pick", "kick", "lvl")],
)
def test_buttons_and_selects_have_distinct_templates(verb, kind):
    text = str(ComponentId(1, 2, verb, "easy" if verb in ("ai", "fill") else "0"))
    button = re.fullmatch(custom_ids.BUTTON_PATTERN, text)
    select = re.fullmatch(custom_ids.SELECT_PATTERN, text)
    assert (button is not None, select is not None) == (kind == "button", kind == "select")
    assert (
        TableButton.__discord_ui_compiled_template__ != TableSelect.__discord_ui_compiled_template__
    )


def test_lobby_has_join_leave_start_cancel_and_ai_levels():
    ui = lobby_view(info("callbreak", status="lobby"))
    check_limits(ui)
    labels = [c["label"] for row in rows_of(ui) for c in row if c["type"] == 2]
    assert labels == [
        "Join",
        "Leave",
        "Start",
        "Cancel",
        "Add AI (easy)",
        "Add AI (normal)",
        "Add AI (hard)",
    ]


def test_lobby_offers_a_remove_menu_only_when_someone_but_the_host_is_seated():
    alone = (SeatInfo(0, 100, "Host", None), *(SeatInfo(s, None, "", None) for s in (1, 2, 3)))
    ui = lobby_view(info("callbreak", status="lobby", seat_infos=alone))
    assert not [c for row in rows_of(ui) for c in row if c["type"] == 3]
    seated = (
        SeatInfo(0, 100, "Host", None),
        SeatInfo(1, 101, "Bram", None),
        SeatInfo(2, None, "Cleo (AI, easy)", "easy"),
        SeatInfo(3, None, "", None),
    )
    ui = lobby_view(info("callbreak", status="lobby", seat_infos=seated))
    check_limits(ui)
    (menu,) = [c for row in rows_of(ui) for c in row if c["type"] == 3]
    assert ":kick:" in menu["custom_id"]
    assert [(o["label"], o["value"]) for o in menu["options"]] == [
        ("Seat 2: Bram", "1"),
        ("Seat 3: Cleo (AI, easy)", "2"),
    ]


def test_table_view_by_status():
    def labels(status):
        return [
            c["label"] for row in rows_of(table_view(info("batak", status=status))) for c in row
        ]

    assert labels("playing") == ["Show my hand", "I'm back", "Leave (AI takes my seat)"]
    assert labels("finished") == ["Rematch"]
    assert labels("abandoned") == []


def test_fill_and_resign_confirmation():
    ui = fill_view(info("callbreak", status="lobby"))
    check_limits(ui)
    assert [(c["label"], c["custom_id"].split(":", 3)[3]) for r in rows_of(ui) for c in r] == [
        ("Fill with AI (easy) and start", "fill:easy"),
        ("Fill with AI (normal) and start", "fill:normal"),
        ("Fill with AI (hard) and start", "fill:hard"),
    ]
    (row,) = rows_of(resign_confirm_view(info("callbreak")))
    assert [(c["label"], c["custom_id"].endswith(":resignok:")) for c in row] == [
        ("Yes, leave (AI takes my seat)", True)
    ]


def test_ladder_hand_over_25_cards_is_paged_within_limits():
    game = get_game("ladder")
    deck = [str(c) for c in standard_deck()]
    state = game.position(hands={0: deck[:30], 1: deck[30:33], 2: deck[33:36], 3: deck[36:39]})
    view = state.view(0)
    _, pages = hand_view(info("ladder"), view)
    assert pages >= 2
    seen = set()
    for page in range(pages):
        ui, _ = hand_view(info("ladder"), view, page=page)
        check_limits(ui)
        seen |= {c["label"] for row in rows_of(ui) for c in row if ":act:" in c["custom_id"]}
    assert len(seen) >= 30


def test_blot_auction_fits_one_page():
    game = get_game("blot")
    state = game.new_match(seed=1)
    view = state.view(state.decider)
    assert len(view.legal_actions) > 600
    ui, pages = hand_view(info("blot"), view)
    assert pages == 1
    check_limits(ui)
    selects = [c for row in rows_of(ui) for c in row if c["type"] == 3]
    assert [":lvl:" in s["custom_id"] for s in selects] == [True]


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

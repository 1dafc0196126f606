"""The presenter hands the picture one away flag per seat and a title that
keeps the game's name."""

from __future__ import annotations

from bot.discord import presenter
from bot.services.models import SeatInfo, TableInfo, TableUpdate
from engine import get_game


def test_picture_gets_one_away_flag_per_seat_and_the_game_title(monkeypatch):
    seen = {}

    def fake_render(view, names, *, away=(), title=""):
        seen.update(away=tuple(away), title=title, names=list(names))
        return b"png"

    monkeypatch.setattr(presenter, "render_table_png", fake_render)
    state = get_game("callbreak").new_match(seed=1)
    seats = tuple(SeatInfo(s, 100 + s, f"p{s}", None, away=(s == 2)) for s in range(4))
    info = TableInfo(9, 1, 2, 3, None, 100, "callbreak", {}, "playing", seats, 4, 0, None, 90)
    assert presenter.picture(info, TableUpdate(info, state.view(None), (), "action")) == b"png"
    assert seen["away"] == (False, False, True, False)
    assert "Callbreak" in seen["title"] and "#9" in seen["title"]

"""The public texts: table embed (spectator view, mention-free names,
deadline, away and resigned markers, symbols), lobby, results and the one
clip helper."""

from __future__ import annotations

import random

import discord
import pytest

from bot.discord import embeds
from bot.render import messages
from bot.services.models import ResultInfo, SeatInfo, TableInfo
from engine import GAMES, Observation, get_game

NAMES = ("Ada", "Bram", "Cleo", "Dov")


def table(game: str, status: str = "playing", seats: tuple[SeatInfo, ...] | None = None, **kw):
    seats = seats or tuple(SeatInfo(s, 500 + s, NAMES[s], None) for s in range(4))
    fields = {
        "id": 12,
        "guild_id": 1,
        "channel_id": 2,
        "message_id": 3,
        "thread_id": None,
        "host_id": 500,
        "game": game,
        "variant": {"rounds": 1},
        "status": status,
        "seats": seats,
        "num_seats": len(seats),
        "seq": 5,
        "deadline": 1_900_000_123.0,
        "turn_seconds": 90,
    }
    fields.update(kw)
    return TableInfo(**fields)


def over(game: str, teams=(), scores=(), ranking=(), unit="points") -> Observation:
    return Observation(
        game=game,
        seat=None,
        num_seats=4,
        phase="over",
        round_number=3,
        is_over=True,
        teams=teams,
        scores=scores,
        ranking=ranking,
        score_unit=unit,
    )


def test_clip_keeps_every_limit():
    assert messages.clip("short") == "short"
    long = "x" * 5000
    assert len(messages.clip(long)) == 2000 and messages.clip(long).endswith("…")
    assert len(messages.clip(long, 1024)) == 1024
    assert len(messages.clip(long, 4096)) == 4096
    assert messages.clip("", 10) == ""


def test_fit_embed_keeps_the_total_under_6000():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(8):
        embed.add_field(name=f"f{i}" * 200, value="v" * 2000)
    embeds.fit_embed(embed)
    assert len(embed) <= 6000
    assert len(embed.title) <= 256 and len(embed.description) <= 4096
    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)


def test_team_result_names_the_winning_team_scores_ratings_and_resigned():
    info = table(
        "blot",
        seats=(
            SeatInfo(0, 500, "Ada", None),
            SeatInfo(1, 501, "Bram", "normal"),  # resigned: an AI plays for Bram
            SeatInfo(2, 502, "Cleo", None),
            SeatInfo(3, 503, "Dov", None),
        ),
        status="finished",
    )
    view = over("blot", teams=((0, 2), (1, 3)), scores=(312, 180), ranking=(1, 2))
    results = ResultInfo(
        ranks=(1, 3, 1, 2),  # Bram resigned: placed after Dov, his partner who stayed
        points=(312, 180, 312, 180),
        rating_changes={0: (20.0, 21.5), 1: (20.0, 18.25), 2: (19.0, 20.0), 3: (22.0, 21.0)},
        resigned=(1,),
    )
    text = messages.result_text(info, view, results)
    assert "🏆 Ada & Cleo win" in text
    assert "1. Ada & Cleo — 312\n2. Dov — 180\n3. Bram 🏳️ — 180" in text
    assert "Bram 20.0 → 18.2 (-1.8)" in text or "Bram 20.0 → 18.3 (-1.8)" in text
    assert "Ada 20.0 → 21.5 (+1.5)" in text
    assert "Resigned (counts as a loss): Bram" in text
    assert len(text) <= 2000 and "<@" not in text


def test_individual_result_names_the_winner_with_tenths():
    info = table("callbreak", status="finished")
    view = over("callbreak", scores=(-77, 183, -39, 18), ranking=(4, 1, 3, 2), unit="tenths")
    text = messages.result_text(info, view, None)
    assert "🏆 Bram wins" in text
    assert "1. Bram — 18.3" in text and "4. Ada — -7.7" in text
    assert "Resigned" not in text


def test_shared_first_place_reads_as_a_shared_win():
    info = table("backalley", status="finished")
    view = over("backalley", scores=(10, 10, 4, 2), ranking=(1, 1, 3, 4))
    results = ResultInfo(ranks=(1, 1, 3, 4), points=(10, 10, 4, 2))
    assert "🏆 Ada & Bram win" in messages.result_text(info, view, results)


def test_table_embed_marks_turn_deadline_away_and_resigned_without_mentions():
    seats = (
        SeatInfo(0, 500, "@everyone", None),
        SeatInfo(1, 501, "Bram", None, away=True),
        SeatInfo(2, 502, "Cleo", "normal"),
        SeatInfo(3, None, "Dov (AI, easy)", "easy"),
    )
    game = get_game("callbreak")
    state = game.new_match(seed=1, variant=game.variant(rounds=1))
    while state.decider != 1:
        state.apply(state.legal_actions()[0])
    info = table("callbreak", seats=seats)
    embed = embeds.table_embed(info, state.view(None)).to_dict()
    assert "Waiting for **Bram**" in embed["description"]
    assert "💤 away" in embed["description"]
    assert "<t:1900000123:R>" in embed["description"]
    text = str(embed)
    assert "<@" not in text and "@everyone" not in text  # escaped
    seats_field = embed["fields"][0]["value"]
    assert "**Bram** 💤 away" in seats_field
    assert "**Cleo** 🏳️ resigned (AI plays)" in seats_field
    assert "➡️ **Bram**" in seats_field


def test_table_embed_shows_contract_auction_and_trump_with_symbols():
    game = get_game("blot")
    state = game.new_match(seed=2)
    state.apply("bid 9 H")
    state.apply("bid 10 NT")
    embed = embeds.table_embed(table("blot"), state.view(None)).to_dict()
    text = str(embed)
    assert "9 ♥" in text and "10 no trump" in text
    for move in ("pass",) * 4:
        state.apply(move)
    assert state.phase == "play"
    table_field = next(
        f["value"]
        for f in embeds.table_embed(table("blot"), state.view(None)).to_dict()["fields"]
        if f["name"] == "Table"
    )
    assert "Contract: **10 no trump** by" in table_field
    assert "Trump: no trump" in table_field


@pytest.mark.parametrize("name", sorted(GAMES))
def test_public_texts_stay_within_limits_through_a_game(name):
    game = get_game(name)
    small = {"callbreak": {"rounds": 1}, "backalley": {"max_cards": 2}}.get(name, {})
    state = game.new_match(seed=4, variant=game.variant(**small))
    rng = random.Random(4)
    info = table(
        name, seats=tuple(SeatInfo(s, 500 + s, "Ｗ" * 40, None) for s in range(state.num_seats))
    )
    for _ in range(300):
        if state.is_over:
            break
        view = state.view(None)
        embed = embeds.table_embed(info, view)
        assert len(embed) <= 6000
        assert all(len(f.value) <= 1024 for f in embed.fields)
        if view.last_deal is not None:
            assert len(messages.deal_summary(info, view)) <= 2000
        state.apply(rng.choice(state.legal_actions()))


def test_lobby_embed_lists_seats_host_and_closing_time():
    seats = (
        SeatInfo(0, 500, "Ada", None),
        SeatInfo(1, None, "Bram (AI, hard)", "hard"),
        SeatInfo(2, None, "", None),
        SeatInfo(3, None, "", None),
    )
    embed = embeds.lobby_embed(table("callbreak", status="lobby", seats=seats)).to_dict()
    assert embed["title"] == "Callbreak — table #12"
    assert "Host: **Ada**" in embed["description"]
    assert "2/4 seated" in embed["description"]
    assert "closes <t:1900000123:R>" in embed["description"]
    seats_text = next(f["value"] for f in embed["fields"] if f["name"] == "Seats")
    assert seats_text.splitlines() == [
        "Seat 1: Ada (host)",
        "Seat 2: Bram (AI, hard)",
        "Seat 3: — open —",
        "Seat 4: — open —",
    ]

"""Results after a resignation, as Discord users read them (issue 22).

The player the engine would rank first resigns when nothing is left for
their seat to decide (every move it still makes is its only legal move), so
the AI that takes the seat plays exactly what they would have, and the
engine's final ranking puts the resigner first.  The table must still say
what a resignation means: the resigner is placed after everybody who
stayed, never wins, and the winner line, the places, ``/history``, the
leaderboard's wins and the rating changes tell the same story.  In a
partnership game the resigner's partner keeps the team's real result.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from bot.db.models import ResultRow
from bot.services.actor import Actor
from engine import get_game
from tests.bot.discord.harness import (
    CHANNEL,
    GUILD,
    POST_PATH,
    FakeDiscord,
    answer_of,
    click,
    send,
    settle,
    start_game,
    table_message,
)

PEOPLE = (11, 12, 13, 14)


def me(user: int) -> Actor:
    return Actor(user, GUILD, CHANNEL, f"User {user}")


def name(user: int) -> str:
    return f"User {user}"


def _teams(game: str, seats: int) -> list[list[int]]:
    return [[0, 2], [1, 3]] if get_game(game).partnership else [[s] for s in range(seats)]


def forced_winner(state: Any, game: str, seats: int) -> int | None:
    """A seat that stays first alone when everybody plays their first legal
    move from here, and that has no choice left on the way."""
    for candidate in range(seats):
        sim = state.clone()
        free = False
        while not sim.is_over:
            legal = sim.legal_actions()
            if sim.decider == candidate and len(legal) > 1:
                free = True
                break
            sim.apply(legal[0])
        if free:
            continue
        ranking = list(sim.view(None).ranking)
        teams = _teams(game, seats)
        side = next(i for i, team in enumerate(teams) if candidate in team)
        if ranking[side] == 1 and ranking.count(1) == 1:
            return candidate
    return None


async def resign(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> None:
    """The "Leave (AI takes my seat)" button, then its confirmation."""
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":resign:", user)
    await click(bot, fake, answer_of(fake, replies), r":resignok:", user)


async def play_until_the_winner_resigns(
    bot: Any, fake: FakeDiscord, table_id: int, game: str
) -> int:
    """Everybody plays their first legal move (service calls: the clicks
    have their own tests) until the coming winner can leave without
    changing the result; they leave through Discord.  Then the others play
    on to the end.  Returns the resigned seat."""
    service = bot.service
    resigned: int | None = None
    for _ in range(5000):
        await service.wait_idle(table_id)
        await settle()
        live = service.tables.get(table_id)
        if live is None or live.status != "playing":
            break
        if resigned is None:
            seat = forced_winner(live.state, game, len(live.seats))
            if seat is not None:
                user = live.seats[seat].user_id
                await resign(bot, fake, table_id, user)
                assert live.seats[seat].resigned
                resigned = seat
                continue
        info = live.info()
        user = info.seats[live.state.decider].user_id
        assert info.seats[live.state.decider].human, "only people are left to move"
        action = str(live.state.legal_actions()[0])
        await service.act(table_id, me(user), action, expected_seq=info.seq)
    assert (await service.get_table(table_id)).status == "finished"
    assert resigned is not None, "the winner never had only forced moves left"
    return resigned


def result_post(fake: FakeDiscord, table_id: int) -> str:
    over = f"table #{table_id} is over"
    (post,) = [
        str(s.json.get("content"))
        for s in fake.sent
        if (s.method, s.path) == ("POST", POST_PATH) and over in str((s.json or {}).get("content"))
    ]
    return post


async def ephemeral(bot: Any, fake: FakeDiscord, user: int, *args: Any, **options: Any) -> str:
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash(*args, **options), user)
    await settle()
    replies = [s for s in fake.replies(start) if s.method != "GET"]
    assert replies, "no answer"
    return str(fake.body_of(replies[-1]).get("content") or "") or str(
        fake.reply_message(replies[-1]).get("content")
    )


async def engine_ranking(bot: Any, table_id: int) -> list[int]:
    _, view = await bot.service.public_view(table_id)
    return list(view.ranking)


async def check_everything_agrees(
    bot: Any, fake: FakeDiscord, table_id: int, game: str, gone: int
) -> dict[int, int]:
    """The result post, /history, /leaderboard and the ratings; returns each
    person's place."""
    goner = PEOPLE[gone]
    text = result_post(fake, table_id)
    winner_line = next(line for line in text.splitlines() if line.startswith("🏆"))
    assert name(goner) not in winner_line, text
    async with bot.service.store.sessions() as session:
        results = {
            r.seat: r
            for r in await session.scalars(select(ResultRow).where(ResultRow.table_id == table_id))
        }
    places = {PEOPLE[s]: r.rank for s, r in results.items()}
    winners = {PEOPLE[s] for s, r in results.items() if r.won}
    assert places[goner] == max(places.values()), places  # last
    assert all(places[u] < places[goner] for u in PEOPLE if u != goner)
    assert goner not in winners and winners
    assert winners == {u for u, p in places.items() if p == 1}
    assert all(name(u) in winner_line for u in winners), text
    # the places in the post, in order, with the resigner marked and last
    (last,) = [line for line in text.splitlines() if "🏳️ —" in line]
    assert last.startswith(f"{places[goner]}. {name(goner)} 🏳️"), text
    # the ratings (all started equal): the better the place, the better the
    # change; a win gains, the resignation loses the most (in a partnership
    # game as much as the losing team: rated as if the side had come last)
    changes = {PEOPLE[s]: r.rating_after - r.rating_before for s, r in results.items()}
    assert changes[goner] == min(changes.values()) < 0, changes
    for a in PEOPLE:
        for b in PEOPLE:
            if places[a] < places[b]:
                assert changes[a] >= changes[b], (places, changes)
            if a in winners and b not in winners:
                assert changes[a] > 0 and changes[a] > changes[b], (places, changes)
    # /history: the resigner's place, nobody else's
    history = await ephemeral(bot, fake, goner, "history")
    line = next(x for x in history.splitlines() if f"#{table_id}" in x)
    assert f"place {places[goner]}" in line and "· won ·" not in line, history
    for user in winners:
        mine = await ephemeral(bot, fake, user, "history")
        assert "· won ·" in next(x for x in mine.splitlines() if f"#{table_id}" in x), mine
    # /leaderboard: the real winners have the win, the resigner none
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("leaderboard", game=game), PEOPLE[0])
    await settle()
    (board,) = fake.replies(start)
    content = str(fake.body_of(board).get("content"))
    for user in PEOPLE:
        won = 1 if user in winners else 0
        assert re.search(rf"<@{user}> — rating [-\d.]+, {won}/1 won", content), content
    return places


async def test_a_resigned_winner_of_an_individual_game_is_placed_last(fake, bot):
    table_id = await start_game(bot, fake, PEOPLE, game="callbreak", options="rounds=1")
    gone = await play_until_the_winner_resigns(bot, fake, table_id, "callbreak")
    assert (await engine_ranking(bot, table_id))[gone] == 1, "the engine ranks the resigner first"
    places = await check_everything_agrees(bot, fake, table_id, "callbreak", gone)
    # those who stayed keep the engine's order among themselves
    engine = await engine_ranking(bot, table_id)
    stayed = [s for s in range(4) if s != gone]
    for seat in stayed:
        better = sum(engine[other] < engine[seat] for other in stayed)
        assert places[PEOPLE[seat]] == 1 + better, (engine, places)
    assert places[PEOPLE[gone]] == 4


async def test_a_resigned_winner_of_a_partnership_game_is_last_and_the_partner_wins(fake, bot):
    table_id = await start_game(bot, fake, PEOPLE, game="batak", options="target_score=10")
    gone = await play_until_the_winner_resigns(bot, fake, table_id, "batak")
    partner = (gone + 2) % 4
    assert (await engine_ranking(bot, table_id))[gone % 2] == 1, "the engine: their team won"
    places = await check_everything_agrees(bot, fake, table_id, "batak", gone)
    # the partner keeps the team's real result: first, and the only winner
    assert places[PEOPLE[partner]] == 1
    others = [PEOPLE[s] for s in range(4) if s % 2 != gone % 2]
    assert {places[u] for u in others} == {2} and places[PEOPLE[gone]] == 3
    text = result_post(fake, table_id)
    assert f"🏆 {name(PEOPLE[partner])} wins" in text, text
    assert f"2. {name(others[0])} & {name(others[1])} —" in text, text


async def test_an_unrated_result_says_why_in_the_post_and_in_history(fake, bot):
    host = PEOPLE[0]
    table_id = await start_game(bot, fake, (host,), options="rounds=1", fill="easy")
    for _ in range(500):
        await bot.service.wait_idle(table_id)
        await settle()
        live = bot.service.tables.get(table_id)
        if live is None or live.status != "playing":
            break
        info = live.info()
        action = str(live.state.legal_actions()[0])
        await bot.service.act(table_id, me(host), action, expected_seq=info.seq)
    text = result_post(fake, table_id)
    assert (
        "Not rated: an AI played a seat from the start, and this server rates only games "
        "between people." in text
    ), text
    assert "Ratings:" not in text
    history = await ephemeral(bot, fake, host, "history")
    line = next(x for x in history.splitlines() if f"#{table_id}" in x)
    assert line.endswith("· not rated: AI players"), history

"""Results after a resignation and unrated results, in the service (issue
22): places, wins and ratings agree, and an unrated result says why."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import ResultRow
from bot.db.tournaments import TournamentStore
from bot.services import results as res
from bot.services.results import MatchOutcome, new_ratings, places, team_places
from tests.store.test_service import HOST, A, new_table, play_to_end


def outcome(team_ranks: list[int], partnership: bool = False) -> MatchOutcome:
    teams = [[0, 2], [1, 3]] if partnership else [[s] for s in range(len(team_ranks))]
    team_of = {s: i for i, team in enumerate(teams) for s in team}
    seats = 4
    return MatchOutcome(
        teams=teams,
        team_ranks=team_ranks,
        ranks=tuple(team_ranks[team_of[s]] for s in range(seats)),
        points=tuple(0 for _ in range(seats)),
    )


def test_a_resigned_seat_comes_after_every_seat_that_stayed():
    assert places(outcome([1, 2, 3, 4]), {0}) == (4, 1, 2, 3)
    assert places(outcome([1, 2, 2, 4]), {3}) == (1, 2, 2, 4)  # last already
    assert places(outcome([1, 1, 3, 4]), {1}) == (1, 4, 2, 3)  # a shared first
    assert places(outcome([1, 2, 3, 4]), set()) == (1, 2, 3, 4)


def test_resigners_among_themselves_keep_the_engines_order():
    assert places(outcome([1, 2, 3, 4]), {0, 2}) == (3, 1, 4, 2)
    assert places(outcome([2, 1, 2, 4]), {0, 2}) == (3, 1, 3, 2)  # tied by score


def test_a_resigners_partner_keeps_the_teams_real_result():
    won = outcome([1, 2], partnership=True)  # seats 0 and 2 won
    assert places(won, {0}) == (3, 2, 1, 2)
    lost = outcome([2, 1], partnership=True)
    assert places(lost, {0}) == (3, 1, 2, 1)
    assert places(won, {0, 2}) == (2, 1, 2, 1)  # the whole team left: the others win
    assert team_places(won, {0}) == [1, 2] and team_places(won, {0, 2}) == [2, 1]


def test_ratings_follow_the_places():
    start = {s: (25.0, 25.0 / 3) for s in range(4)}
    after = new_ratings(outcome([1, 2, 3, 4]), start, {0})
    mu = {s: after[s][0] for s in range(4)}
    assert mu[1] > mu[2] > mu[3] > mu[0]  # the resigner loses the most; seat 1 won
    team = new_ratings(outcome([1, 2], partnership=True), start, {0})
    assert team[2][0] > 25.0 > team[1][0] and team[0][0] < 25.0  # the partner gains


async def _results(store, table_id: int) -> list[ResultRow]:
    async with store.sessions() as session:
        return list(await session.scalars(select(ResultRow).where(ResultRow.table_id == table_id)))


async def test_an_unrated_result_says_why(service):
    info = await new_table(service)  # one person and three AI seats, in a server
    await service.start_table(info.id, A(HOST))
    done = []

    async def seen(update):
        if update.kind == "finished":
            done.append(update.results)

    service.subscribe(seen)
    await play_to_end(service, info.id, {HOST})
    (results,) = done
    assert results.unrated == res.AI_SEATS and not results.rating_changes
    assert {r.unrated for r in await _results(service.store, info.id)} == {res.AI_SEATS}


async def test_a_result_outside_a_server_and_a_rated_one(service):
    info = await new_table(service, guild=None)
    await service.start_table(info.id, A(HOST, None))
    await play_to_end(service, info.id, {HOST})
    assert {r.unrated for r in await _results(service.store, info.id)} == {res.NO_SERVER}
    await service.set_guild_setting(A(HOST, can_manage_server=True), "rated_with_ai", "true")
    rated = await new_table(service)
    await service.start_table(rated.id, A(HOST))
    await play_to_end(service, rated.id, {HOST})
    assert {r.unrated for r in await _results(service.store, rated.id)} == {None}


async def test_a_tournament_board_is_never_rated(service):
    await service.set_guild_setting(A(HOST, can_manage_server=True), "rated_with_ai", "true")
    info = await new_table(service)
    tournaments = TournamentStore(service.store)
    tour = await tournaments.create(
        guild_id=1, channel_id=5, host_id=HOST, game="callbreak", state={}, status="playing"
    )
    await tournaments.link(tour, info.id, 0, 0)
    await service.start_table(info.id, A(HOST))
    await play_to_end(service, info.id, {HOST})
    rows = await _results(service.store, info.id)
    assert {r.unrated for r in rows} == {res.TOURNAMENT_BOARD}
    assert all(r.rating_before == r.rating_after for r in rows if r.user_id is not None)

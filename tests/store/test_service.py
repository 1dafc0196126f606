"""TableService and store, on SQLite and PostgreSQL: lobby, play, refusals,
concurrency, deadlines, resume, leaderboards and settings."""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import insert

from bot.db.models import ActionRow, Base
from bot.services.actor import Actor
from bot.services.errors import (
    AlreadySeated,
    NotHost,
    NotSeated,
    ServiceError,
    StaleAction,
    TableFull,
    TableNotFound,
    WrongStatus,
)
from bot.services.tables import TableService
from engine import IllegalAction, InvalidAction, InvalidVariant, NotYourTurn, UnknownGame, get_game

HOST, BOB, CAT, DAN = 101, 102, 103, 104


def A(user: int, guild: int | None = 1, **kw) -> Actor:
    """The actor for a user calling from a server's channel 5."""
    return Actor(user, guild, 5, name=f"user{user}", **kw)


async def new_table(service, game="callbreak", options=None, humans=(HOST,), ai=None, guild=1):
    info = await service.create_table(
        A(HOST, guild),
        game=game,
        options=options or ({"rounds": "1"} if game == "callbreak" else {}),
    )
    for user in humans[1:]:
        info = await service.join(info.id, A(user, guild))
    for _ in range(info.num_seats - len(humans)):
        info = await service.add_ai(info.id, A(HOST, guild), ai or "easy")
    return info


async def play_to_end(service, table_id, users):
    """People play their first legal action until the table is finished."""
    for _ in range(5000):
        await service.wait_idle(table_id)
        info = await service.get_table(table_id)
        if info.status != "playing":
            return info
        _, view = await service.public_view(table_id)
        seat = view.decider
        user = info.seats[seat].user_id
        assert user in users
        private = await service.private_view(table_id, A(user, info.guild_id))
        await service.act(
            table_id,
            A(user, info.guild_id),
            str(private.view.legal_actions[0]),
            expected_seq=info.seq,
        )
    raise AssertionError("game did not finish")


async def test_models_and_migrations_agree(store):
    async with store.engine.connect() as conn:
        diff = await conn.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
        )
    assert diff == []


async def test_lobby_join_leave_add_remove_ai_and_start(service):
    info = await service.create_table(A(HOST), game="batak")
    assert info.status == "lobby" and info.seats[0].user_id == HOST and info.num_seats == 4
    info = await service.join(info.id, A(BOB))
    with pytest.raises(AlreadySeated):
        await service.join(info.id, A(BOB))
    info = await service.add_ai(info.id, A(HOST), "normal")
    with pytest.raises(NotHost):
        await service.add_ai(info.id, A(BOB), "normal")
    with pytest.raises(WrongStatus) as empty:
        await service.start_table(info.id, A(HOST))
    assert "seats still empty: 1" in str(empty.value)
    info = await service.remove_ai(info.id, A(HOST), 2)
    info = await service.leave(info.id, A(BOB))
    assert [s.empty for s in info.seats] == [False, True, True, True]
    for _ in range(3):
        info = await service.add_ai(info.id, A(HOST), "easy")
    with pytest.raises(TableFull):
        await service.join(info.id, A(CAT))
    info = await service.start_table(info.id, A(HOST))
    assert info.status == "playing"
    with pytest.raises(WrongStatus):
        await service.join(info.id, A(CAT))


async def test_whole_game_with_two_people_and_ai_reaches_the_leaderboard(service):
    info = await new_table(service, humans=(HOST, BOB))
    await service.start_table(info.id, A(HOST))
    final = await play_to_end(service, info.id, {HOST, BOB})
    assert final.status == "finished"
    board = await service.leaderboard(1, "callbreak")
    assert {r.user_id for r in board} == {HOST, BOB}
    assert all(r.played == 1 for r in board)
    stats = await service.stats(1, HOST)
    assert stats["callbreak"].played == 1


async def test_ratings_change_only_without_ai_by_default(service):
    info = await new_table(service, humans=(HOST, BOB, CAT, DAN))
    await service.start_table(info.id, A(HOST))
    await play_to_end(service, info.id, {HOST, BOB, CAT, DAN})
    board = await service.leaderboard(1, "callbreak")
    assert len({round(r.rating, 6) for r in board}) > 1  # rated: ratings moved apart
    with_ai = await new_table(service, humans=(HOST,), guild=2)
    await service.start_table(with_ai.id, A(HOST, 2))
    await play_to_end(service, with_ai.id, {HOST})
    (row,) = await service.leaderboard(2, "callbreak")
    assert row.rating == pytest.approx(0.0) and row.played == 1
    await service.set_guild_setting(A(HOST, 3, can_manage_server=True), "rated_with_ai", "true")
    rated = await new_table(service, humans=(HOST,), guild=3)
    await service.start_table(rated.id, A(HOST, 3))
    await play_to_end(service, rated.id, {HOST})
    (row3,) = await service.leaderboard(3, "callbreak")
    assert row3.rating != pytest.approx(0.0)


async def test_bad_input_is_refused_and_changes_nothing(service):
    info = await new_table(service, humans=(HOST, BOB))
    await service.start_table(info.id, A(HOST))
    await service.wait_idle(info.id)
    before = await service.get_table(info.id)
    with pytest.raises(TableNotFound):
        await service.act(9999, A(HOST), "bid 3")
    with pytest.raises(NotSeated):
        await service.act(info.id, A(CAT), "bid 3")
    _, view = await service.public_view(info.id)
    waiting = before.seats[view.decider].user_id
    other = BOB if waiting == HOST else HOST
    with pytest.raises(NotYourTurn):
        await service.act(info.id, A(other), "bid 3")
    with pytest.raises(InvalidAction):
        await service.act(info.id, A(waiting), "bid three")
    with pytest.raises(IllegalAction):
        await service.act(info.id, A(waiting), "bid 42")
    with pytest.raises(StaleAction):
        await service.act(info.id, A(waiting), "bid 3", expected_seq=before.seq + 5)
    after = await service.get_table(info.id)
    assert after.seq == before.seq
    assert len(await service.store.actions(info.id)) == before.seq


async def test_simultaneous_submissions_exactly_one_applied(service):
    info = await new_table(service, humans=(HOST, BOB))
    await service.start_table(info.id, A(HOST))
    await service.wait_idle(info.id)
    info = await service.get_table(info.id)
    _, view = await service.public_view(info.id)
    user = info.seats[view.decider].user_id
    results = await asyncio.gather(
        *(service.act(info.id, A(user), "bid 2", expected_seq=info.seq) for _ in range(12)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 11
    assert all(isinstance(r, (StaleAction, NotYourTurn)) for r in refused)
    rows = await service.store.actions(info.id)
    assert [r.seq for r in rows] == list(range(len(rows)))


async def test_many_tables_in_parallel_without_cross_talk(service):
    service.max_open_per_host = None  # one host, six tables
    tables = [await new_table(service, humans=(HOST,)) for _ in range(6)]
    for t in tables:
        await service.start_table(t.id, A(HOST))
    finals = await asyncio.gather(*(play_to_end(service, t.id, {HOST}) for t in tables))
    assert all(f.status == "finished" for f in finals)
    game = get_game("callbreak")
    for t in tables:
        row, _ = await service.store.table(t.id)
        moves = [a.notation for a in await service.store.actions(t.id)]
        replayed = game.replay(moves, seed=row.seed, variant={"rounds": 1})
        assert t.id not in service.tables  # finished tables leave the live set
        assert replayed.is_over and replayed.scores == service.recent[t.id].state.scores


async def test_deadlines_ai_plays_then_away_and_back(service, clock):
    info = await new_table(service, humans=(HOST,), options={"rounds": "1", "turn_seconds": "30"})
    await service.start_table(info.id, A(HOST))
    await service.wait_idle(info.id)
    info = await service.get_table(info.id)
    assert info.deadline == pytest.approx(clock.now + 30)
    assert await service.expire_due() == 0
    clock.now += 31
    assert await service.expire_due() == 1
    await service.wait_idle(info.id)
    info = await service.get_table(info.id)
    assert not info.seats[0].away and info.deadline is not None
    clock.now += 31
    assert await service.expire_due() == 1
    await service.wait_idle(info.id)
    info = await service.get_table(info.id)
    assert info.seats[0].away  # two expiries in a row: the AI keeps playing the seat
    await service.wait_idle(info.id)
    info = await service.get_table(info.id)
    assert info.status == "finished" or info.seats[0].away


async def test_deadline_survives_a_restart(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=50)
    await svc.start(dispatch_deadlines=False)
    info = await new_table(svc, humans=(HOST,), options={"rounds": "1", "turn_seconds": "60"})
    await svc.start_table(info.id, A(HOST))
    await svc.wait_idle(info.id)
    deadline = (await svc.get_table(info.id)).deadline
    seq = (await svc.get_table(info.id)).seq
    await svc.close()
    again = TableService(store, clock=clock, ai_budget_ms=50)
    await again.start(dispatch_deadlines=False)
    resumed = await again.get_table(info.id)
    assert resumed.deadline == pytest.approx(deadline) and resumed.seq == seq
    clock.now += 61
    assert await again.expire_due() == 1
    await again.close()


async def test_resume_rebuilds_every_table_and_refuses_a_corrupted_log(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=50)
    await svc.start(dispatch_deadlines=False)
    good = await new_table(svc, humans=(HOST,))
    bad = await new_table(svc, humans=(HOST,))
    for t in (good, bad):
        await svc.start_table(t.id, A(HOST))
        await svc.wait_idle(t.id)
    good_seq = (await svc.get_table(good.id)).seq
    bad_seq = (await svc.get_table(bad.id)).seq
    await svc.close()
    async with store.sessions() as session:
        await session.execute(
            insert(ActionRow).values(
                table_id=bad.id, seq=bad_seq, notation="play ZZ", seat=0, by_ai=False
            )
        )
        await session.commit()
    again = TableService(store, clock=clock, ai_budget_ms=50)
    await again.start(dispatch_deadlines=False)
    assert (await again.get_table(good.id)).seq == good_seq
    assert bad.id in again.broken
    with pytest.raises(ServiceError) as info:
        await again.get_table(bad.id)
    assert info.value.reason == "table_broken"
    await again.close()


async def test_settings_per_server_validated_and_used_for_new_tables(service):
    MOD = A(HOST, can_manage_server=True)
    settings = await service.get_settings(1, "callbreak")
    assert settings["rounds"] == 5 and settings["turn_seconds"] == 90
    await service.set_setting(MOD, "callbreak", "rounds", "3")
    await service.set_setting(MOD, "callbreak", "turn_seconds", "45")
    with pytest.raises(InvalidVariant) as bad:
        await service.set_setting(MOD, "callbreak", "rounds", "99")
    assert "rounds" in str(bad.value)
    with pytest.raises(InvalidVariant):
        await service.set_setting(MOD, "callbreak", "colour", "red")
    with pytest.raises(InvalidVariant):
        await service.set_setting(MOD, "callbreak", "turn_seconds", "5")
    with pytest.raises(UnknownGame):
        await service.get_settings(1, "poker")
    info = await service.create_table(A(HOST), game="callbreak")
    assert info.variant["rounds"] == 3 and info.turn_seconds == 45
    override = await service.create_table(A(HOST), game="callbreak", options={"rounds": "2"})
    assert override.variant["rounds"] == 2
    assert (await service.get_settings(2, "callbreak"))["rounds"] == 5  # other servers unaffected
    reset = await service.reset_settings(MOD, "callbreak", "rounds")
    assert reset["rounds"] == 5 and reset["turn_seconds"] == 45
    with pytest.raises(ServiceError):
        await service.set_guild_setting(MOD, "rated_with_ai", "perhaps")


async def test_abandon_by_host_or_moderator_only(service):
    info = await new_table(service, humans=(HOST, BOB))
    with pytest.raises(NotHost):
        await service.abandon(info.id, A(BOB))
    await service.abandon(info.id, A(BOB, can_manage_server=True))
    assert (await service.get_table(info.id)).status == "abandoned"
    with pytest.raises(WrongStatus):
        await service.abandon(info.id, A(HOST))


async def test_updates_are_published_to_subscribers(service):
    seen = []

    async def record(update):
        seen.append(update.kind)

    unsubscribe = service.subscribe(record)
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    await play_to_end(service, info.id, {HOST})
    unsubscribe()
    assert (
        seen[0] == "lobby"
        and seen[-1] == "finished"
        and "action" in seen
        and "deal_end" not in seen[-1:]
    )


async def test_batak_declarer_plays_the_dummy_through_the_service(service):
    info = await new_table(
        service, game="batak", options={"target_score": "10"}, humans=(HOST, BOB, CAT, DAN)
    )
    await service.start_table(info.id, A(HOST))
    users = {HOST, BOB, CAT, DAN}
    final = await play_to_end(service, info.id, users)
    assert final.status == "finished"

"""Turn flow in the service: timers, away and back, resigning, the finish
boundary, resume with grace, idle lobbies, and AI drivers that cannot die."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import delete, func, select, update

from bot.db.models import RatingRow, ResultRow, SeatRow, TableRow
from bot.db.repositories import StoreUnavailable
from bot.services.deadlines import DeadlineScheduler
from bot.services.errors import NotSeated, Resuming, WrongStatus
from bot.services.policy import AWAY_TURN_SECONDS, RESUME_GRACE_SECONDS
from bot.services.tables import TableService
from tests.store.test_service import BOB, CAT, DAN, HOST, A, new_table, play_to_end

TIMED = {"rounds": "1", "turn_seconds": "30"}


async def my_turn(service, table_id, user=HOST):
    """Let the AI seats play until it is ``user``'s decision."""
    await service.wait_idle(table_id)
    private = await service.private_view(table_id, A(user))
    assert private.view.legal_actions, "expected the person to be on turn"
    return private


async def test_away_player_gets_a_short_turn_and_is_never_replaced_at_once(service, clock):
    info = await new_table(service, humans=(HOST,), options=TIMED)
    await service.start_table(info.id, A(HOST))
    for _ in range(2):
        await my_turn(service, info.id)
        clock.now += 31
        assert await service.expire_due() == 1
    private = await my_turn(service, info.id)  # away, yet on turn: the AI did not jump in
    assert private.table.seats[0].away
    assert private.table.deadline == pytest.approx(clock.now + AWAY_TURN_SECONDS)
    # playing again is all it takes to be back
    await service.act(info.id, A(HOST), str(private.view.legal_actions[0]))
    info = await service.get_table(info.id)
    assert not info.seats[0].away
    rows = (await service.store.table(info.id))[1]
    assert not rows[0].away and rows[0].expiries == 0


async def test_im_back_clears_away_and_restores_the_full_timer(service, clock):
    info = await new_table(service, humans=(HOST,), options=TIMED)
    await service.start_table(info.id, A(HOST))
    with pytest.raises(WrongStatus):
        await service.back(info.id, A(HOST))  # not away
    for _ in range(2):
        await my_turn(service, info.id)
        clock.now += 31
        await service.expire_due()
    await my_turn(service, info.id)
    info = await service.back(info.id, A(HOST))
    assert not info.seats[0].away and info.deadline == pytest.approx(clock.now + 30)
    with pytest.raises(NotSeated):
        await service.back(info.id, A(BOB))


async def test_resign_hands_the_seat_to_the_ai_and_counts_as_a_loss(service):
    info = await new_table(service, humans=(HOST, BOB, CAT, DAN))
    await service.start_table(info.id, A(HOST))
    info = await service.resign(info.id, A(BOB))
    assert info.seats[1].resigned and info.seats[1].ai == "normal"
    with pytest.raises(NotSeated):
        await service.act(info.id, A(BOB), "bid 2")
    final = await play_to_end(service, info.id, {HOST, CAT, DAN})
    assert final.status == "finished"
    async with service.store.sessions() as session:
        bob = await session.scalar(
            select(ResultRow).where(ResultRow.table_id == info.id, ResultRow.user_id == BOB)
        )
    assert bob is not None and not bob.won
    board = {r.user_id: r for r in await service.leaderboard(1, "callbreak")}
    assert board[BOB].won == 0 and board[BOB].rating < max(r.rating for r in board.values())


async def test_the_last_person_leaving_ends_the_table(service):
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    info = await service.leave(info.id, A(HOST))  # during play: resign
    assert info.status == "abandoned"


async def test_resume_finishes_a_match_that_was_over_exactly_once(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    await svc.start(dispatch_deadlines=False)
    info = await new_table(svc, humans=(HOST,))
    await svc.start_table(info.id, A(HOST))
    await play_to_end(svc, info.id, {HOST})
    await svc.close()
    # the process died between the last move and the results (which land in
    # one transaction with the ratings and the status)
    async with store.sessions() as session:
        await session.execute(delete(ResultRow).where(ResultRow.table_id == info.id))
        await session.execute(delete(RatingRow))
        await session.execute(
            update(TableRow).where(TableRow.id == info.id).values(status="playing")
        )
        await session.commit()
    for _ in range(2):  # a second restart must not finish it twice
        again = TableService(store, clock=clock, ai_budget_ms=20)
        seen: list[str] = []

        async def record(update_, seen=seen):
            seen.append(update_.kind)

        again.subscribe(record)
        await again.start(dispatch_deadlines=False)
        assert (await again.get_table(info.id)).status == "finished"
        await again.close()
        async with store.sessions() as session:
            count = await session.scalar(
                select(func.count()).select_from(ResultRow).where(ResultRow.table_id == info.id)
            )
        assert count == 4
    board = await again.leaderboard(1, "callbreak")
    assert [r.played for r in board] == [1]


async def test_a_deadline_that_passed_while_down_gets_grace(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    await svc.start(dispatch_deadlines=False)
    info = await new_table(svc, humans=(HOST,), options=TIMED)
    await svc.start_table(info.id, A(HOST))
    await svc.wait_idle(info.id)
    seq = (await svc.get_table(info.id)).seq
    await svc.close()
    clock.now += 3600  # down for an hour
    again = TableService(store, clock=clock, ai_budget_ms=20)
    await again.start(dispatch_deadlines=False)
    info = await again.get_table(info.id)
    assert info.deadline == pytest.approx(clock.now + RESUME_GRACE_SECONDS)
    assert await again.expire_due() == 0 and (await again.get_table(info.id)).seq == seq
    clock.now += RESUME_GRACE_SECONDS + 1
    assert await again.expire_due() == 1
    await again.close()


async def test_an_idle_lobby_closes(service, clock):
    seen: list[str] = []

    async def record(update_):
        seen.append(update_.kind)

    service.subscribe(record)
    info = await new_table(service, humans=(HOST, BOB), ai="easy")
    assert info.deadline == pytest.approx(clock.now + service.lobby_seconds)
    clock.now += service.lobby_seconds + 1
    assert await service.expire_due() == 1
    assert (await service.get_table(info.id)).status == "abandoned" and seen[-1] == "expired"
    assert info.id not in service.tables


async def test_the_ai_driver_survives_store_failures_and_goes_on(service, monkeypatch):
    real = service.store.append_action
    failures = {"left": 3}

    async def flaky(*args, **kwargs):
        if kwargs.get("actor_id", args[4] if len(args) > 4 else None) is None and failures["left"]:
            failures["left"] -= 1
            raise StoreUnavailable("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(service.store, "append_action", flaky)
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    final = await asyncio.wait_for(play_to_end(service, info.id, {HOST}), 120)
    assert final.status == "finished" and failures["left"] == 0


async def test_a_person_gets_a_retryable_refusal_when_the_store_is_busy(service, monkeypatch):
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    private = await my_turn(service, info.id)
    real = service.store.append_action

    async def locked(*args, **kwargs):
        raise StoreUnavailable("database is locked")

    monkeypatch.setattr(service.store, "append_action", locked)
    move = str(private.view.legal_actions[0])
    with pytest.raises(Exception) as busy:
        await service.act(info.id, A(HOST), move)
    assert busy.value.reason == "busy" and getattr(busy.value, "retryable", False)
    monkeypatch.setattr(service.store, "append_action", real)
    await service.act(info.id, A(HOST), move)  # the same move goes through afterwards
    assert (await service.get_table(info.id)).seq == private.table.seq + 1


async def test_the_driver_survives_an_agent_crash(service, monkeypatch):
    real = service.thinker.decide
    crashes = {"left": 2}

    async def crashing(decision):
        if crashes["left"]:
            crashes["left"] -= 1
            raise RuntimeError("agent exploded")
        return await real(decision)

    monkeypatch.setattr(service.thinker, "decide", crashing)
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    final = await asyncio.wait_for(play_to_end(service, info.id, {HOST}), 120)
    assert final.status == "finished" and crashes["left"] == 0


async def test_a_second_process_on_the_same_table_gets_the_friendly_refusal(store, clock):
    first = TableService(store, clock=clock, ai_budget_ms=20)
    await first.start(dispatch_deadlines=False)
    info = await new_table(first, humans=(HOST, BOB))
    await first.start_table(info.id, A(HOST))
    await first.wait_idle(info.id)
    second = TableService(store, clock=clock, ai_budget_ms=20)
    await second.start(dispatch_deadlines=False)
    info = await first.get_table(info.id)
    _, view = await first.public_view(info.id)
    user = info.seats[view.decider].user_id
    private = await first.private_view(info.id, A(user))
    move = str(private.view.legal_actions[0])
    await first.act(info.id, A(user), move)
    with pytest.raises(Exception) as dup:
        await second.act(info.id, A(user), move)
    assert dup.value.reason == "duplicate" and "already" in str(dup.value)
    assert (await second.get_table(info.id)).seq == info.seq + 1  # it re-read the table
    await first.close()
    await second.close()


async def test_the_dummy_turn_counts_against_the_declarer_row(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    await svc.start(dispatch_deadlines=False)
    info = await new_table(
        svc,
        game="batak",
        options={"target_score": "10", "turn_seconds": "30"},
        humans=(HOST, BOB, CAT, DAN),
    )
    await svc.start_table(info.id, A(HOST))
    for _ in range(200):
        state = svc.tables[info.id].state
        if state.to_act != state.decider:
            break
        clock.now += 31
        await svc.expire_due()
    else:
        pytest.fail("no dummy turn reached")
    dummy, declarer = state.to_act, state.decider
    rows = {r.seat: r for r in (await store.table(info.id))[1]}
    before = (rows[declarer].expiries, rows[dummy].expiries)
    clock.now += 31
    assert await svc.expire_due() == 1
    rows = {r.seat: r for r in (await store.table(info.id))[1]}
    assert (rows[declarer].expiries, rows[dummy].expiries) == (before[0] + 1, before[1])
    await svc.close()


async def test_the_scheduler_sleeps_until_the_next_deadline():
    now = {"t": 0.0}
    asked: list[float | None] = []
    fired: list[float] = []
    deadline: dict[str, float | None] = {"at": None}

    def next_deadline():
        asked.append(deadline["at"])
        return deadline["at"]

    async def fire():
        fired.append(now["t"])
        deadline["at"] = None

    scheduler = DeadlineScheduler(clock=lambda: now["t"], next_deadline=next_deadline, fire=fire)
    scheduler.start()
    await asyncio.sleep(0.2)
    assert len(asked) == 1  # no deadline: it waits, it does not poll
    deadline["at"] = 5.0
    scheduler.poke()
    await asyncio.sleep(0.05)
    assert fired == [] and len(asked) == 2
    now["t"] = 5.0
    scheduler.poke()
    await asyncio.sleep(0.05)
    assert fired == [5.0]
    await asyncio.sleep(0.2)
    assert len(asked) == 4  # once after the poke, once after firing; then idle
    await scheduler.close()


async def test_seat_rows_stay_consistent_after_restart(store, clock):
    svc = TableService(store, clock=clock, ai_budget_ms=20)
    await svc.start(dispatch_deadlines=False)
    info = await new_table(svc, humans=(HOST,), options=TIMED)
    await svc.start_table(info.id, A(HOST))
    for _ in range(2):
        await my_turn(svc, info.id)
        clock.now += 31
        await svc.expire_due()
    await svc.wait_idle(info.id)
    await svc.close()
    again = TableService(store, clock=clock, ai_budget_ms=20)
    await again.start(dispatch_deadlines=False)
    info = await again.get_table(info.id)
    assert info.seats[0].away and again.tables[info.id].expiries[0] == 2
    async with store.sessions() as session:
        away = await session.scalar(
            select(SeatRow.away).where(SeatRow.table_id == info.id, SeatRow.seat == 0)
        )
    assert away
    await again.close()


async def test_every_call_turns_a_locked_database_into_a_friendly_refusal(service, monkeypatch):
    info = await service.create_table(A(HOST), game="callbreak")

    async def locked(*args, **kwargs):
        raise StoreUnavailable("database is locked")

    monkeypatch.setattr(service.store, "update_seat", locked)
    monkeypatch.setattr(service.store, "create_table", locked)
    for call in (service.join(info.id, A(BOB)), service.create_table(A(CAT), game="callbreak")):
        with pytest.raises(Exception) as busy:
            await call
        assert busy.value.reason == "busy" and "try again" in str(busy.value)
    assert (await service.get_table(info.id)).seats[1].empty


async def test_each_front_end_resumes_only_its_own_tables(store, clock):
    from bot.services.actor import Actor
    from bot.services.policy import discord_tables, terminal_tables

    svc = TableService(store, clock=clock, ai_budget_ms=20, max_open_per_host=None)
    await svc.start(dispatch_deadlines=False)
    on_discord = await new_table(svc, humans=(HOST,))
    local = await svc.create_table(Actor.local(), game="callbreak", options={"rounds": "1"})
    await svc.close()
    terminal = TableService(store, clock=clock, owns=terminal_tables)
    await terminal.start(dispatch_deadlines=False)
    assert set(terminal.tables) == {local.id}
    with pytest.raises(Exception) as foreign:
        await terminal.get_table(on_discord.id)
    assert foreign.value.reason == "unknown_table"
    await terminal.close()
    bot = TableService(store, clock=clock, owns=discord_tables)
    await bot.start(dispatch_deadlines=False)
    assert set(bot.tables) == {on_discord.id}
    await bot.close()


async def test_a_table_asked_for_before_its_turn_to_resume_answers_resuming_and_goes_first(
    store, clock
):
    svc = TableService(store, clock=clock, ai_budget_ms=20, max_open_per_host=None)
    await svc.start(dispatch_deadlines=False)
    tables = [await new_table(svc, humans=(HOST,), options=TIMED) for _ in range(5)]
    for t in tables:
        await svc.start_table(t.id, A(HOST))
        await svc.wait_idle(t.id)
    await svc.close()
    clock.now += 3600
    again = TableService(store, clock=clock, ai_budget_ms=20)
    seen: list[int] = []

    async def record(update_):
        if update_.kind == "resumed":
            seen.append(update_.table.id)

    again.subscribe(record)
    await again.start(dispatch_deadlines=False, wait=False)
    last = tables[-1].id
    with pytest.raises(Resuming) as early:  # before the bulk resume reached it
        await again.get_table(last, A(HOST))
    assert early.value.reason == "resuming" and "one moment" in str(early.value)
    await again.resumed()
    assert seen[0] == last  # asked for: resumed first
    assert sorted(seen) == sorted(t.id for t in tables)  # each resumed exactly once
    info = await again.get_table(last, A(HOST))
    assert info.deadline == pytest.approx(clock.now + RESUME_GRACE_SECONDS)
    await again.close()

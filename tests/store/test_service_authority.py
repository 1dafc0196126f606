"""Authority in the service, whatever the front end: server scope, host and
moderator rights, settings for moderators only, input that cannot break a
limit.  Every refusal changes nothing."""

from __future__ import annotations

import pytest

from bot.services.actor import Actor
from bot.services.errors import (
    NotHost,
    NotModerator,
    NotSeated,
    ServiceError,
    TableNotFound,
    TooManyTables,
    WrongStatus,
)
from tests.store.test_service import BOB, CAT, HOST, A, new_table, play_to_end

STRANGER_SERVER = 2


async def test_a_table_of_another_server_does_not_exist_for_its_members(service):
    info = await new_table(service, humans=(HOST,))
    other = A(BOB, STRANGER_SERVER, can_manage_server=True)  # even a moderator there
    for call in (
        service.join(info.id, other),
        service.abandon(info.id, other),
        service.public_view(info.id, other),
        service.get_table(info.id, other),
        service.add_ai(info.id, A(HOST, STRANGER_SERVER), "easy"),
        service.start_table(info.id, A(HOST, STRANGER_SERVER)),
    ):
        with pytest.raises(TableNotFound) as refused:
            await call
        assert "here" in str(refused.value)
    assert (await service.get_table(info.id)).status == "lobby"
    assert [t.id for t in await service.open_tables(A(BOB))] == [info.id]
    assert await service.open_tables(other) == []


async def test_a_dm_table_belongs_to_its_dm_channel(service):
    dm = Actor(HOST, None, 77, "Host")
    info = await service.create_table(dm, game="callbreak")
    await service.add_ai(info.id, dm, "easy")
    with pytest.raises(TableNotFound):
        await service.join(info.id, Actor(BOB, None, 78, "Bob"))
    with pytest.raises(TableNotFound):
        await service.join(info.id, A(BOB))  # from a server
    await service.join(info.id, Actor(BOB, None, 77, "Bob"))


async def test_abandon_host_or_moderator_of_this_server(service):
    info = await new_table(service, humans=(HOST, BOB))
    with pytest.raises(NotHost):
        await service.abandon(info.id, A(BOB))
    await service.abandon(info.id, A(CAT, can_manage_server=True))
    assert (await service.get_table(info.id)).status == "abandoned"
    with pytest.raises(WrongStatus):
        await service.abandon(info.id, A(HOST))


async def test_moderator_role_is_checked_by_the_service(service):
    member = A(BOB, role_ids=frozenset({555}))
    with pytest.raises(NotModerator):
        await service.set_setting(member, "callbreak", "rounds", "3")
    with pytest.raises(NotModerator):
        await service.set_moderator_role(member, 555)
    with pytest.raises(NotModerator):
        await service.set_guild_setting(member, "rated_with_ai", "true")
    with pytest.raises(NotModerator):
        await service.reset_settings(member, "callbreak")
    await service.set_moderator_role(A(HOST, can_manage_server=True), 555)
    assert await service.is_moderator(member)
    await service.set_setting(member, "callbreak", "rounds", "3")
    assert (await service.get_settings(1, "callbreak"))["rounds"] == 3
    # the same role id means nothing in another server
    assert not await service.is_moderator(A(BOB, STRANGER_SERVER, role_ids=frozenset({555})))


async def test_settings_need_a_server_and_refuse_garbage(service):
    with pytest.raises(ServiceError) as no_server:
        await service.set_setting(
            Actor(HOST, None, 7, can_manage_server=True), "callbreak", "rounds", "3"
        )
    assert no_server.value.reason == "no_server"
    mod = A(HOST, can_manage_server=True)
    for value in ("²", "٣", "-5", "12abc", "9" * 30):
        with pytest.raises(ServiceError) as bad:
            await service.set_guild_setting(mod, "moderator_role_id", value)
        assert len(str(bad.value)) < 200
    with pytest.raises(ServiceError):
        await service.set_setting(mod, "callbreak", "rounds", "5" * 5000)
    with pytest.raises(ServiceError):
        await service.set_guild_setting(mod, "x" * 5000, "true")
    assert (await service.get_guild_settings(1))["moderator_role_id"] is None


async def test_lobby_kick_fill_and_open_table_limit(service):
    info = await new_table(service, humans=(HOST, BOB), ai="easy")
    with pytest.raises(NotHost):
        await service.kick(info.id, A(BOB), 0)
    with pytest.raises(ServiceError):
        await service.kick(info.id, A(HOST), 0)  # yourself: use Leave
    info = await service.kick(info.id, A(HOST), 1)
    assert info.seats[1].empty
    info = await service.kick(info.id, A(HOST), 2)  # an AI seat
    assert info.seats[2].empty
    with pytest.raises(WrongStatus) as empty:
        await service.start_table(info.id, A(HOST))
    assert empty.value.reason == "seats_empty"
    info = await service.start_table(info.id, A(HOST), fill_ai="easy")
    assert info.status == "playing" and all(not s.empty for s in info.seats)
    await new_table(service, humans=(HOST,))
    await new_table(service, humans=(HOST,))
    with pytest.raises(TooManyTables):
        await new_table(service, humans=(HOST,))
    await new_table(service, humans=(HOST,), guild=STRANGER_SERVER)  # per server


async def test_act_refuses_huge_and_non_text_input_without_change(service):
    info = await new_table(service, humans=(HOST,))
    await service.start_table(info.id, A(HOST))
    await service.wait_idle(info.id)
    before = await service.get_table(info.id)
    for garbage in ("5" * 5000, "bid ²", "", "play", None, 7):
        with pytest.raises(ServiceError if not isinstance(garbage, str) else Exception) as refused:
            await service.act(info.id, A(HOST), garbage)  # type: ignore[arg-type]
        assert len(str(refused.value)) < 300
    assert (await service.get_table(info.id)).seq == before.seq


async def test_rematch_same_seats_new_deals_once(service):
    info = await new_table(service, humans=(HOST, BOB))
    await service.start_table(info.id, A(HOST))
    with pytest.raises(WrongStatus):
        await service.rematch(info.id, A(BOB))
    await play_to_end(service, info.id, {HOST, BOB})
    with pytest.raises(NotSeated):
        await service.rematch(info.id, A(CAT))
    again = await service.rematch(info.id, A(BOB))
    assert again.id != info.id and again.status == "lobby" and again.host_id == BOB
    assert [s.user_id for s in again.seats] == [s.user_id for s in info.seats]
    assert [s.ai for s in again.seats] == [s.ai for s in info.seats]
    assert (await service.rematch(info.id, A(HOST))).id == again.id
    old_row, _ = await service.store.table(info.id)
    new_row, _ = await service.store.table(again.id)
    assert old_row.seed != new_row.seed


async def test_ping_preference_is_per_person_and_validated(service):
    assert await service.ping_preference(BOB) == "channel"
    assert await service.set_ping_preference(A(BOB), "DM") == "dm"
    with pytest.raises(ServiceError):
        await service.set_ping_preference(A(BOB), "carrier pigeon")
    fresh = type(service)(service.store)  # another process reads it from the store
    assert await fresh.ping_preference(BOB) == "dm"
    assert await fresh.ping_preference(CAT) == "channel"

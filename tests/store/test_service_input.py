"""Input at the service boundary (issue 23), on SQLite and PostgreSQL: ids
out of the store's range are tables that do not exist; values of the wrong
type get a domain error and change nothing.  The property test over every
public method is ``test_service_boundary.py``."""

from __future__ import annotations

import math

import pytest

from bot.services.actor import Actor
from bot.services.errors import ServiceError, TableNotFound
from bot.services.history import match_replay, stored_match, table_deals
from bot.services.tournaments import TournamentService
from tests.store.test_service import HOST, A, new_table, play_to_end

OUT_OF_RANGE = [0, -1, 2**31, 2**53, 2**63, 2**64, 10**30]


@pytest.mark.parametrize("table_id", OUT_OF_RANGE)
async def test_an_id_out_of_range_is_no_table_on_either_database(service, table_id):
    """PostgreSQL answered "busy" forever from 2^31 on (its ids are 32-bit)
    and SQLite overflowed from 2^63 on."""
    await new_table(service)
    actor = A(HOST)
    calls = {
        "join": lambda: service.join(table_id, actor),
        "get_table": lambda: service.get_table(table_id, actor),
        "watch": lambda: service.public_view(table_id, actor),
        "history": lambda: stored_match(service.store, actor, table_id),
        "deals": lambda: table_deals(service.store, actor, table_id),
        "replay": lambda: match_replay(service.store, actor, table_id),
    }
    for name, call in calls.items():
        with pytest.raises(TableNotFound) as refused:
            await call()
        assert f"#{table_id}" in str(refused.value), name
    assert await service.store.table(table_id) is None
    assert await service.store.actions(table_id) == []


async def test_a_table_id_as_text_is_no_table_and_loads_no_second_copy(service):
    info = await new_table(service)
    for wrong in ("1", str(info.id), 1.0, float(info.id), True, [info.id]):
        with pytest.raises(TableNotFound):
            await service.get_table(wrong, A(HOST))  # type: ignore[arg-type]
    assert list(service.tables) == [info.id]


async def test_seats_and_seeds_of_the_wrong_type_are_refused_without_change(service):
    info = await new_table(service, ai="easy")
    before = await service.get_table(info.id)
    for call in (
        lambda: service.kick(info.id, A(HOST), 1.5),
        lambda: service.kick(info.id, A(HOST), True),
        lambda: service.remove_ai(info.id, A(HOST), "1"),
        lambda: service.create_table(A(HOST), game="callbreak", host_seat="1"),
        lambda: service.create_table(A(HOST), game="callbreak", seed=math.inf),
        lambda: service.create_table(A(HOST), game="callbreak", seed=1.5),
        lambda: service.create_table(A(HOST), game="callbreak", options="rounds=1"),
        lambda: service.add_ai(info.id, A(HOST), ["easy"]),
    ):
        with pytest.raises(ServiceError):
            await call()
    assert await service.get_table(info.id) == before
    assert list(service.tables) == [info.id]


async def test_tournament_ids_of_the_wrong_type_are_refused(service):
    tours = TournamentService(service, seed=lambda: 7)
    mod = A(HOST, can_manage_server=True)
    first = await tours.new(mod, game="callbreak", boards=1, tables=2)
    for wrong in ("abc", math.nan, [1], 1.5, True, 0, 2**31, "1"):
        for call in (tours.get, tours.join, tours.start):
            with pytest.raises(ServiceError) as refused:
                await call(mod, wrong)
            assert refused.value.reason == "no_tournament"
    assert (await tours.get(mod, first.id)).status == "lobby"  # 1.5 did not start #1
    await tours.close()


async def test_an_actor_with_a_text_id_cannot_join_and_the_tournament_stays_readable(service):
    tours = TournamentService(service, seed=lambda: 7)
    mod = A(HOST, can_manage_server=True)
    first = await tours.new(mod, game="callbreak", boards=1, tables=2)
    for actor in (
        Actor("abc", 1, 5, "x"),  # type: ignore[arg-type]
        Actor(2.5, 1, 5, "x"),  # type: ignore[arg-type]
        Actor(7, "1", 5, "x"),  # type: ignore[arg-type]
        Actor(7, 1, 5, ["x"]),  # type: ignore[arg-type]
        Actor(7, 1, 5, "x", can_manage_server="yes"),  # type: ignore[arg-type]
        Actor(7, 1, 5, "x", role_ids=frozenset({"r"})),  # type: ignore[arg-type]
        "user 7",
    ):
        with pytest.raises(ServiceError) as refused:
            await tours.join(actor, first.id)  # type: ignore[arg-type]
        assert refused.value.reason == "bad_actor"
    again = TournamentService(service, seed=lambda: 7)
    record = await again.store.get(first.id)
    assert record is not None
    assert all(p is None for entrant in record.state["places"] for p in entrant)
    assert all(people == () for people in (await tours.get(mod, first.id)).people)
    await tours.close()


async def test_a_finished_table_out_of_range_and_in_range(service):
    """The range check refuses only what cannot exist: a real table still
    replays."""
    info = await new_table(service)
    await service.start_table(info.id, A(HOST))
    await play_to_end(service, info.id, {HOST})
    replay = await match_replay(service.store, A(HOST), info.id)
    assert replay is not None

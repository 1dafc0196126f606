"""The web table inside Discord: the Activity's login against a fake
Discord API on 127.0.0.1, and every authority rule of the service through
the WebSocket -- another server's table does not exist, a spectator cannot
act, out of turn and stale moves are refused, and a refusal changes
nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services.tables import TableService
from tests.web.fake_discord import auth_for, fake_discord_api
from tests.web.harness import (
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    OTHER_GUILD,
    Web,
    person,
    serving,
)

ANA, BOB, CAT, STRANGER = 101, 102, 103, 909


async def two_player_table(service: TableService) -> int:
    """Callbreak in GUILD: Ana (seat 0), Bob (seat 1), two AI players."""
    info = await service.create_table(person(ANA), game="callbreak", options={"rounds": "1"})
    await service.join(info.id, person(BOB))
    info = await service.start_table(info.id, person(ANA), fill_ai="easy")
    await service.wait_idle(info.id)
    return info.id


@pytest.fixture
async def discord_web(service: TableService):
    async with fake_discord_api() as (fake, base):
        fake.instances["here"] = (GUILD, CHANNEL, {ANA, BOB, CAT})
        fake.instances["there"] = (OTHER_GUILD, OTHER_CHANNEL, {STRANGER})
        for user in (ANA, BOB, CAT):
            fake.members[(GUILD, user)] = [55]
        fake.members[(OTHER_GUILD, STRANGER)] = []
        async with serving(service, auth=auth_for(base)) as web:
            yield web, fake


async def token(web: Web, **body: Any) -> tuple[int, dict[str, Any]]:
    resp = await web.client.post("/api/token", json=body)
    return resp.status, await resp.json()


async def test_login_gives_a_session_scoped_to_the_instance(discord_web) -> None:
    web, fake = discord_web
    fake.codes["c-ana"] = ANA
    status, body = await token(web, code="c-ana", instance_id="here", guild_id=str(GUILD))
    assert status == 200, body
    assert body["access_token"] == "access-c-ana" and body["user"]["id"] == str(ANA)
    actor = web.sessions.actor(body["session"])
    assert actor is not None
    assert (actor.user_id, actor.guild_id, actor.channel_id) == (ANA, GUILD, CHANNEL)
    assert actor.role_ids == frozenset({55}) and not actor.can_manage_server


@pytest.mark.parametrize(
    ("code_user", "body", "status"),
    [
        (ANA, {"code": "wrong", "instance_id": "here"}, 401),  # Discord refuses the code
        (ANA, {"code": "c", "instance_id": "there"}, 403),  # not in that Activity
        (ANA, {"code": "c", "instance_id": "gone"}, 403),  # no such instance
        (ANA, {"code": "c", "instance_id": "here", "guild_id": str(OTHER_GUILD)}, 403),
        (ANA, {"code": "c", "instance_id": "here", "channel_id": "5"}, 403),
        (ANA, {"code": "c"}, 400),
        (ANA, {"instance_id": "here"}, 400),
    ],
)
async def test_login_refusals(discord_web, code_user, body, status) -> None:
    web, fake = discord_web
    fake.codes["c"] = code_user
    got, answer = await token(web, **body)
    assert got == status, answer
    assert set(answer) == {"error", "message"}


async def test_a_member_who_left_the_server_is_refused(discord_web) -> None:
    web, fake = discord_web
    del fake.members[(GUILD, CAT)]
    fake.codes["c"] = CAT
    status, _ = await token(web, code="c", instance_id="here")
    assert status == 403


async def test_local_login_is_not_served_in_discord_mode(discord_web) -> None:
    web, _ = discord_web
    assert (await web.client.post("/api/local")).status == 404


async def test_a_person_of_another_server_is_refused(service: TableService, discord_web) -> None:
    web, fake = discord_web
    table = await two_player_table(service)
    before = (await service.get_table(table)).seq
    fake.codes["c"] = STRANGER
    _, body = await token(web, code="c", instance_id="there")
    peer = await web.peer()
    await peer.send({"type": "hello", "session": body["session"], "table": table})
    refusal = await peer.next_of("error", after=0)
    assert refusal["code"] == "not_found"
    assert not [f for f in peer.frames if f["type"] == "state"]
    await peer.send({"type": "act", "table": table, "seq": 0, "action": "bid 1"})
    assert (await peer.next_of("error"))["code"] == "not_found"
    listed = await (await web.client.get(f"/api/tables?session={body['session']}")).json()
    assert listed == {"tables": []}
    assert (await service.get_table(table)).seq == before  # nothing changed
    await peer.close()


async def test_every_authority_rule_holds(service: TableService, web: Web) -> None:
    table = await two_player_table(service)
    seq = (await service.get_table(table)).seq
    ana = await web.hello(person(ANA), table=table)
    bob = await web.hello(person(BOB), table=table)
    cat = await web.hello(person(CAT), table=table)  # a spectator of this server
    spectator = await cat.next_of("state", after=0)
    assert spectator["seat"] is None and spectator["view"]["hand"] == []
    assert spectator["view"]["legal"] == []
    state = await ana.next_of("state", after=0)
    decider = state["view"]["decider"]
    mover, other = (ana, bob) if decider == 0 else (bob, ana)
    mover_state = await mover.next_of("state", after=0)
    action = mover_state["view"]["legal"][0]

    async def refused(peer, frame: dict[str, Any], code: str) -> None:
        start = len(peer.frames)
        await peer.send(frame)
        error = await peer.next_of("error", after=start)
        assert error["code"] == code, error
        assert error["message"]
        assert (await service.get_table(table)).seq == seq  # nothing changed

    await refused(cat, {"type": "act", "table": table, "seq": seq, "action": action}, "forbidden")
    await refused(
        other, {"type": "act", "table": table, "seq": seq, "action": action}, "not_your_turn"
    )
    await refused(mover, {"type": "act", "table": table, "seq": seq + 1, "action": action}, "stale")
    await refused(
        mover, {"type": "act", "table": table, "seq": seq, "action": "play AS AS"}, "illegal"
    )
    await refused(
        mover, {"type": "act", "table": table + 1, "seq": seq, "action": action}, "not_found"
    )
    # and the real move goes through, everybody sees it
    start = len(cat.frames)
    await mover.send({"type": "act", "table": table, "seq": seq, "action": action})
    after = await cat.wait_for(lambda f: f["type"] == "state" and f["seq"] > seq, after=start)
    assert after["seq"] > seq
    for peer in (ana, bob, cat):
        await peer.close()


async def test_refusals_in_the_readers_language(service: TableService, web: Web) -> None:
    table = await two_player_table(service)
    cat = await web.hello(person(CAT), lang="tr", table=table)
    welcome = await cat.next_of("welcome", after=0)
    assert welcome["lang"] == "tr" and welcome["words"]["your_turn"] == "Sıra sende"
    await cat.next_of("state", after=0)
    seq = (await service.get_table(table)).seq
    await cat.send({"type": "act", "table": table, "seq": seq, "action": "bid 2"})
    error = await cat.next_of("error")
    assert (
        error["code"] == "forbidden" and "#" in error["message"] and "table" not in error["message"]
    )


async def test_the_activity_table_is_listed_first(service: TableService, web: Web) -> None:
    first = await two_player_table(service)
    second = await two_player_table(service)
    from bot.web.app import LAUNCHES

    session = web.sessions.new(person(CAT))
    listed = await (await web.client.get(f"/api/tables?session={session}")).json()
    assert [t["id"] for t in listed["tables"]] == [second, first]
    web.client.server.app[LAUNCHES].note(CAT, GUILD, first)
    listed = await (await web.client.get(f"/api/tables?session={session}")).json()
    assert [(t["id"], t["launch"]) for t in listed["tables"]] == [(first, True), (second, False)]
    assert (await web.client.get("/api/tables?session=nope")).status == 401

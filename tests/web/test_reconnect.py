"""Reconnecting: a dropped connection, or a server restart (a new app and a
new service on the same database), brings the same view at the same move;
the session survives the restart (it is signed, not remembered)."""

from __future__ import annotations

from pathlib import Path

from bot.web.auth import Sessions
from tests.web.harness import Web, person, serving, table_service
from tests.web.test_discord_mode import ANA, BOB, two_player_table

SECRET = "the-same-secret"


async def test_a_dropped_connection_gets_the_same_view(web: Web, service) -> None:
    table = await two_player_table(service)
    session = web.sessions.new(person(ANA))
    first = await web.peer()
    await first.send({"type": "hello", "session": session, "table": table})
    before = await first.next_of("state", after=0)
    await first.ws.close()  # dropped
    again = await web.peer()
    await again.send({"type": "hello", "session": session, "table": table})
    after = await again.next_of("state", after=0)
    assert after.pop("now") >= before.pop("now")  # the server's clock, for the timer
    assert after == before
    await again.close()


async def test_a_restart_on_the_same_database_gets_the_same_view(tmp_path: Path) -> None:
    path = str(tmp_path / "restart.db")
    async with table_service(path) as service:
        table = await two_player_table(service)
        async with serving(service, secret=SECRET) as web:  # the bot's sessions
            token = web.sessions.new(person(ANA))
            peer = await web.peer()
            await peer.send({"type": "hello", "session": token, "table": table})
            state = await peer.next_of("state", after=0)
            if state["view"]["legal"]:  # make a move, so the restart has one to keep
                start = len(peer.frames)
                seq = state["seq"]
                action = state["view"]["legal"][0]
                await peer.send({"type": "act", "table": table, "seq": seq, "action": action})
                state = await peer.wait_for(
                    lambda f: f["type"] == "state" and f["seq"] > seq, after=start
                )
            await service.wait_idle(table)
            await peer.send({"type": "hello", "session": token, "table": table})
            before = await peer.next_of("state")
            await peer.close()
    # a new process: new service, new app, same database, same secret
    async with table_service(path) as service, serving(service, secret=SECRET) as web:
        assert web.sessions.actor(token) == person(ANA)
        peer = await web.peer()
        await peer.send({"type": "hello", "session": token, "table": table})
        after = await peer.next_of("state", after=0)
        assert after["seq"] == before["seq"] > 0
        assert after["view"] == before["view"]
        assert after["players"] == before["players"]
        await peer.close()


def test_sessions_cannot_be_forged_or_altered() -> None:
    sessions = Sessions("k")
    token = sessions.new(person(ANA))
    assert sessions.actor(token) == person(ANA)
    text, mac = token.split(".")
    assert Sessions("other").actor(token) is None
    assert sessions.actor(text + "." + mac[:-2] + "AA") is None
    forged = Sessions("k2").new(person(BOB)).split(".")[0]
    assert sessions.actor(forged + "." + mac) is None
    for junk in (None, 7, "", "a.b.c", "x" * 5000, "....", "%%%.%%%"):
        assert sessions.actor(junk) is None

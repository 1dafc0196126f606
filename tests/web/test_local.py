"""``python -m bot web``'s local mode end to end: the local person logs in,
opens a game against AI players and plays it to the end through the
WebSocket; finished tables are listed and replayed."""

from __future__ import annotations

from tests.web.harness import Web

GAMES_SHORT = {"callbreak": {"rounds": "1"}}


async def login(web: Web) -> str:
    resp = await web.client.post("/api/local")
    assert resp.status == 200
    body = await resp.json()
    assert body["user"]["id"] == "1"
    return str(body["session"])


async def play_out(peer, table: int, first: dict) -> dict:
    """Play the first legal action whenever it is our turn, until the end."""
    state = first
    for _ in range(2000):
        if state["status"] != "playing":
            return state
        legal = state["view"]["legal"]
        seen = len(peer.frames)
        if legal:
            await peer.send(
                {"type": "act", "table": table, "seq": state["seq"], "action": legal[0]}
            )
        seq = state["seq"]
        state = await peer.wait_for(
            lambda f, seq=seq: (f["type"] == "state" and f["seq"] > seq) or f["type"] == "error",
            after=seen,
        )
        assert state["type"] == "state", state
    raise AssertionError("the game did not end")


async def test_config_says_local(local_web: Web) -> None:
    resp = await local_web.client.get("/api/config")
    body = await resp.json()
    assert body["mode"] == "local" and "tr" in body["languages"]


async def test_a_whole_local_game_in_the_browser(local_web: Web) -> None:
    session = await login(local_web)
    resp = await local_web.client.post(
        "/api/local/new", json={"game": "callbreak", "session": session, "difficulty": "easy"}
    )
    assert resp.status == 200, await resp.text()
    table = (await resp.json())["table"]
    peer = await local_web.peer()
    await peer.send({"type": "hello", "session": session, "table": table, "lang": "en"})
    welcome = await peer.next_of("welcome", after=0)
    assert welcome["words"]["your_turn"] == "Your turn"
    first = await peer.next_of("state", after=0)
    assert first["seat"] == 0 and first["players"][0]["you"] is True
    assert first["game"] == "callbreak" and len(first["view"]["hand"]) == 13
    final = await play_out(peer, table, first)
    assert final["status"] == "finished"
    assert final["result"]["lines"] and final["result"]["winners"]
    listed = await (await local_web.client.get(f"/api/local/tables?session={session}")).json()
    assert [t["id"] for t in listed["tables"]] == [table]
    assert listed["tables"][0]["status"] == "finished"
    # the replay of the finished match, step by step
    await peer.send({"type": "hello", "session": session, "replay": table})
    replay = await peer.next_of("replay", after=0)
    assert replay["at"] == 0 and replay["total"] == final["seq"]
    assert [len(h) for h in replay["hands"]] == [13, 13, 13, 13]
    await peer.send({"type": "replay_step", "to": replay["total"]})
    end = await peer.next_of("replay", at=replay["total"])
    assert end["view"]["is_over"] is True
    await peer.close()


async def test_local_routes_are_not_served_in_discord_mode(web: Web) -> None:
    assert (await web.client.post("/api/local")).status == 404
    assert (await web.client.post("/api/local/new", json={})).status == 404


async def test_watching_a_table_of_ai_players(local_web: Web) -> None:
    session = await login(local_web)
    body = {"game": "ladder", "session": session, "difficulty": "easy", "watch": True}
    resp = await local_web.client.post("/api/local/new", json=body)
    table = (await resp.json())["table"]
    peer = await local_web.peer()
    await peer.send({"type": "hello", "session": session, "table": table})
    state = await peer.next_of("state", after=0)
    assert state["seat"] is None and state["view"]["hand"] == [] and state["view"]["legal"] == []
    assert all(p["ai"] for p in state["players"])
    seq = state["seq"]
    later = await peer.wait_for(lambda f: f["type"] == "state" and f["seq"] > seq + 5)
    assert later["view"]["seat"] is None  # the spectator's view, move after move
    await peer.send({"type": "act", "table": table, "seq": later["seq"], "action": "pickup"})
    assert (await peer.next_of("error"))["code"] == "forbidden"  # a spectator never acts
    await peer.close()

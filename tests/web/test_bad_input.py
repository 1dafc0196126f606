"""Bad input on the WebSocket: malformed frames, unknown types, oversized
frames, a flood, moves before a hello or with a dead session -- each gets
a clear error frame in the reader's language, nothing changes, and a
flood is rate-limited (then closed)."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.services.tables import TableService
from bot.web.protocol import MAX_FRAME
from tests.web.harness import Web, person
from tests.web.test_discord_mode import ANA, two_player_table

MALFORMED = [
    "not json",
    "[1, 2]",
    '"hello"',
    "{}",
    '{"type": "dance"}',
    '{"type": "act", "table": 1, "seq": 0}',
    '{"type": "act", "table": "1", "seq": 0, "action": "pass"}',
    '{"type": "act", "table": 1, "seq": -1, "action": "pass"}',
    '{"type": "act", "table": 1, "seq": 0, "action": ""}',
    '{"type": "act", "table": 1, "seq": 0, "action": "pass", "seat": 2}',
    '{"type": "act", "table": true, "seq": 0, "action": "pass"}',
    '{"type": "act", "table": 1, "seq": 1.5, "action": "pass"}',
    '{"type": "hello", "session": 7}',
    '{"type": "hello", "session": "x", "table": 1, "replay": 1}',
    '{"type": "replay_step", "to": "end"}',
    "[" * 2000 + "]" * 2000,  # deeper than the parser goes, under 4 KB
]


async def table_and_seq(service: TableService) -> tuple[int, int]:
    table = await two_player_table(service)
    return table, (await service.get_table(table)).seq


@pytest.mark.parametrize("text", MALFORMED)
async def test_malformed_frames_are_refused_and_change_nothing(
    service: TableService, web: Web, text: str
) -> None:
    table, seq = await table_and_seq(service)
    peer = await web.hello(person(ANA), table=table)
    await peer.next_of("state", after=0)
    start = len(peer.frames)
    await peer.send(text.replace('"table": 1', f'"table": {table}'))
    error = await peer.next_of("error", after=start)
    assert error["code"] == "bad_frame" and error["message"]
    assert (await service.get_table(table)).seq == seq
    await peer.send({"type": "ping"})  # the connection still serves
    await peer.next_of("pong", after=start)
    await peer.close()


async def test_the_error_is_in_the_readers_language(service: TableService, web: Web) -> None:
    table, _ = await table_and_seq(service)
    peer = await web.hello(person(ANA), lang="hi", table=table)
    start = len(peer.frames)
    await peer.send("{")
    error = await peer.next_of("error", after=start)
    assert error["code"] == "bad_frame" and "टेबल" in error["message"]
    await peer.close()


async def test_an_oversized_frame_is_refused_and_the_connection_closed(
    service: TableService, web: Web
) -> None:
    table, seq = await table_and_seq(service)
    peer = await web.hello(person(ANA), table=table)
    start = len(peer.frames)
    action = "pass " * (MAX_FRAME // 5 + 1)
    await peer.send(json.dumps({"type": "act", "table": table, "seq": seq, "action": action}))
    error = await peer.next_of("error", after=start)
    assert error["code"] == "too_big"
    await peer.closed.wait()
    assert peer.close_code == 1009
    assert (await service.get_table(table)).seq == seq


async def test_a_flood_is_rate_limited_then_closed(service: TableService, web: Web) -> None:
    table, seq = await table_and_seq(service)
    peer = await web.hello(person(ANA), table=table)
    await peer.next_of("state", after=0)
    start = len(peer.frames)
    for _ in range(40):  # twice the limit within a second
        await peer.send({"type": "ping"})
    limited = await peer.next_of("error", after=start)
    assert limited["code"] == "rate_limited"
    pongs = [f for f in peer.frames[start:] if f["type"] == "pong"]
    assert len(pongs) <= 20  # the rest were dropped unanswered
    assert (await service.get_table(table)).seq == seq
    # a sustained flood: closed (1008)
    for _ in range(200):
        if peer.closed.is_set():
            break
        await peer.send({"type": "act", "table": table, "seq": seq, "action": "pass"})
        await asyncio.sleep(0.02)
    await peer.closed.wait()
    assert peer.close_code == 1008
    assert (await service.get_table(table)).seq == seq


async def test_nothing_is_served_before_a_hello_or_with_a_dead_session(
    service: TableService, web: Web
) -> None:
    table, seq = await table_and_seq(service)
    peer = await web.peer()
    await peer.send({"type": "act", "table": table, "seq": seq, "action": "pass"})
    assert (await peer.next_of("error", after=0))["code"] == "auth"
    await peer.send({"type": "hello", "session": "made-up", "table": table})
    assert (await peer.next_of("error", after=1))["code"] == "auth"
    await peer.send({"type": "replay_step", "to": 3})
    assert (await peer.next_of("error", after=2))["code"] == "auth"
    assert not [f for f in peer.frames if f["type"] in ("state", "welcome")]
    assert (await service.get_table(table)).seq == seq
    await peer.close()


async def test_an_expired_session_is_refused(service: TableService, web: Web) -> None:
    table, _ = await table_and_seq(service)
    now = [1000.0]
    web.sessions.clock = lambda: now[0]
    session = web.sessions.new(person(ANA))
    now[0] += 24 * 3600 + 1
    peer = await web.peer()
    await peer.send({"type": "hello", "session": session, "table": table})
    assert (await peer.next_of("error", after=0))["code"] == "auth"
    await peer.close()

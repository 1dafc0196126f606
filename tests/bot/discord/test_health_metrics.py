"""``/healthz`` and ``/metrics`` (bot/discord/health.py, bot/discord/metrics.py), scraped
over a real localhost port from a bot logged in against the fake Discord.

The gateway is driven the way discord.py drives it: a READY payload through
the connection's parser (``connect``, then ``ready``), ``disconnect`` as the
client dispatches it when the websocket is lost."""

from __future__ import annotations

import asyncio
import json
import shutil
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.cli.health import cli_health, local_host
from bot.discord.client import CardBot
from bot.discord.metrics import Metrics, route_of_path
from bot.settings import Settings
from tests.bot.discord.harness import FakeDiscord, play_turn, settle, start_game, user_payload


def health_settings(tmp_path: Any, database: str = "bot.db") -> Settings:
    return Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / database}",
        edit_interval=0.0,
        ai_workers=0,
        health_port=0,  # any free port
        _env_file=None,
    )


async def start(tmp_path: Any, database: str = "bot.db") -> CardBot:
    (tmp_path / database).parent.mkdir(parents=True, exist_ok=True)
    bot = CardBot(health_settings(tmp_path, database), ai_budget_ms=20)
    await bot.login("fake-token")
    await settle()
    return bot


async def gateway_ready(bot: CardBot) -> None:
    """READY through discord.py's own parser (no guilds: ready at once)."""
    bot._connection.guild_ready_timeout = 0.0
    bot._connection.parsers["READY"](
        {
            "v": 10,
            "user": user_payload(1) | {"bot": True},
            "guilds": [],
            "session_id": "session",
            "resume_gateway_url": "wss://gateway.invalid",
            "application": {"id": str(bot.application_id or 1), "flags": 0},
        }
    )
    for _ in range(50):
        await asyncio.sleep(0.01)
        if bot.is_ready():
            break
    await settle()


async def get(bot: CardBot, path: str) -> tuple[int, str]:
    assert bot.health_server is not None and bot.health_server.running
    url = f"http://127.0.0.1:{bot.health_server.port}{path}"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        if path == "/metrics":
            assert answer.headers["Content-Type"].startswith("text/plain; version=")
        return answer.status, await answer.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_healthz_follows_the_gateway(fake: FakeDiscord, tmp_path):
    bot = await start(tmp_path)
    try:
        status, text = await get(bot, "/healthz")
        assert (status, text) == (503, "gateway: not connected yet\n")
        await gateway_ready(bot)
        assert await get(bot, "/healthz") == (200, "ok\n")
        bot.dispatch("disconnect")  # the websocket was lost
        await settle()
        status, text = await get(bot, "/healthz")
        assert status == 503 and text.startswith("gateway: disconnected for "), text
        bot.dispatch("resumed")
        await settle()
        assert await get(bot, "/healthz") == (200, "ok\n")
    finally:
        await bot.close()


async def test_healthz_503_when_the_database_is_unreachable(fake: FakeDiscord, tmp_path):
    bot = await start(tmp_path, "data/bot.db")
    try:
        await gateway_ready(bot)
        assert await get(bot, "/healthz") == (200, "ok\n")
        await bot.store.engine.dispose()  # no pooled connection left over
        shutil.rmtree(tmp_path / "data")  # the volume went away
        status, text = await get(bot, "/healthz")
        assert status == 503 and text.startswith("database: "), text
        assert "\n" not in text.strip()
    finally:
        (tmp_path / "data").mkdir()
        await bot.close()


async def test_healthz_503_while_the_writer_is_stuck(fake: FakeDiscord, tmp_path):
    bot = await start(tmp_path)
    try:
        await gateway_ready(bot)
        bot.health.stuck_seconds = 0.05
        await bot.store.writer.lock.acquire()  # a batch that never finishes
        write = asyncio.create_task(bot.store.put_user_setting(7, "ping", "dm"))
        await asyncio.sleep(0.1)
        status, text = await get(bot, "/healthz")
        assert status == 503 and text.startswith("database writer: stuck for"), text
        bot.store.writer.lock.release()
        await write
        assert await get(bot, "/healthz") == (200, "ok\n")
    finally:
        await bot.close()


async def test_metrics_count_a_game(fake: FakeDiscord, tmp_path):
    bot = await start(tmp_path)
    try:
        table_id = await start_game(bot, fake, (11,))
        for _ in range(3):
            await play_turn(bot, fake, table_id, 11)
            await settle()
        status, text = await get(bot, "/metrics")
        assert status == 200
        found = samples(text)
        assert value(found, "cardtable_live_tables", game="callbreak", status="playing") == 1
        assert value(found, "cardtable_live_tables", game="blot", status="playing") == 0
        assert value(found, "cardtable_moves_total", game="callbreak", by="person") == 3
        assert value(found, "cardtable_moves_total", game="callbreak", by="ai") >= 9
        assert value(found, "cardtable_act_seconds_count", game="callbreak") == 3
        assert value(found, "cardtable_ai_decision_seconds_count", agent="heuristic") >= 9
        assert value(found, "cardtable_store_transaction_seconds_count") >= 12
        assert value(found, "cardtable_ai_decisions_total") >= 9
        assert value(found, "cardtable_resume_tables_found") == 0
        assert value(found, "cardtable_resume_tables_pending") == 0
        assert value(found, "cardtable_store_writer_stalled_seconds") == 0
        edits = value(found, "cardtable_table_edits_total")
        assert edits >= 1
        channel = str(bot.service.tables[table_id].channel_id)
        assert value(found, "cardtable_table_edits_busiest_total", channel=channel) == edits
        assert value(found, "cardtable_table_edit_channels") == 1
    finally:
        await bot.close()


async def test_the_server_stops_with_the_bot(fake: FakeDiscord, tmp_path):
    bot = await start(tmp_path)
    port = bot.health_server.port
    await bot.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as session:
            await session.get(f"http://127.0.0.1:{port}/healthz")


async def test_off_by_default(fake: FakeDiscord, tmp_path):
    settings = Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        ai_workers=0,
        _env_file=None,
    )
    assert settings.health_port is None and settings.health_host == "127.0.0.1"
    bot = CardBot(settings)
    assert bot.health_server is None
    await bot.close()


def test_an_empty_health_port_is_off(monkeypatch):
    monkeypatch.setenv("HEALTH_PORT", "")
    assert Settings(_env_file=None).health_port is None
    monkeypatch.setenv("HEALTH_PORT", "8080")
    assert Settings(_env_file=None).health_port == 8080


def test_every_bot_has_its_own_registry():
    first, second = Metrics(), Metrics()
    first.move_stored("callbreak", by_ai=False)
    assert b'cardtable_moves_total{by="person",game="callbreak"} 1.0' in first.exposition()
    assert b"cardtable_moves_total{" not in second.exposition()


async def test_health_command_asks_the_running_bot(
    fake: FakeDiscord, tmp_path, monkeypatch, capsys
):
    bot = await start(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HEALTH_HOST", "0.0.0.0")
    monkeypatch.setenv("HEALTH_PORT", str(bot.health_server.port))
    try:
        assert await asyncio.to_thread(cli_health, None) == 1
        assert capsys.readouterr().out == "gateway: not connected yet\n"
        await gateway_ready(bot)
        assert await asyncio.to_thread(cli_health, None) == 0
        assert capsys.readouterr().out == "ok\n"
    finally:
        await bot.close()
    assert await asyncio.to_thread(cli_health, None, timeout=2) == 1
    assert capsys.readouterr().out.startswith("no answer from http://127.0.0.1:")


def test_local_host():
    assert local_host("0.0.0.0") == "127.0.0.1"
    assert local_host("::") == "::1"
    assert local_host("10.0.0.5") == "10.0.0.5"


def test_routes_never_carry_ids_or_tokens():
    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OmV4YW1wbGU"
    assert (
        route_of_path(f"/api/v10/interactions/123456789012345678/{token}/callback")
        == "/interactions/{id}/{token}/callback"
    )
    assert (
        route_of_path(f"/api/v10/webhooks/123456789012345678/{token}/messages/@original")
        == "/webhooks/{id}/{token}/messages/@original"
    )
    assert route_of_path("/api/v10/channels/123456789012345678/messages") == (
        "/channels/{id}/messages"
    )


async def test_rest_requests_and_429s_by_route(monkeypatch):
    """discord.py's real HTTPClient against a local server that answers one
    429: the request is retried (nothing breaks) and both are counted under
    the route's template, never its URL."""
    calls: list[str] = []

    def json_answer(data: Any, status: int = 200, **headers: str) -> web.Response:
        # exactly "application/json", as discord.py wants it (aiohttp would add a charset)
        body = json.dumps(data).encode()
        return web.Response(
            body=body, status=status, headers=headers, content_type="application/json"
        )

    async def me(request: web.Request) -> web.Response:
        return json_answer(user_payload(1) | {"bot": True})

    async def messages(request: web.Request) -> web.Response:
        calls.append(request.path)
        if len(calls) == 1:
            limited = {"message": "You are being rate limited.", "retry_after": 0.01}
            return json_answer(limited | {"global": False}, 429, Via="1.1 google")
        return json_answer({"id": "1"})

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_post("/api/v10/channels/{channel}/messages", messages)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    metrics = Metrics()
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=metrics.trace)
    metrics.watch_http(http)
    try:
        await http.static_login("fake-token")
        route = discord.http.Route(
            "POST", "/channels/{channel_id}/messages", channel_id=98765432101
        )
        assert await http.request(route, json={"content": "hi"}) == {"id": "1"}
    finally:
        await http.close()
        await runner.cleanup()
    assert len(calls) == 2
    found = samples(metrics.exposition().decode())
    labels = {"method": "POST", "route": "/channels/{channel_id}/messages"}
    assert value(found, "cardtable_discord_requests_total", **labels) == 2
    assert value(found, "cardtable_discord_rate_limited_total", **labels) == 1
    assert value(found, "cardtable_discord_requests_total", method="GET", route="/users/@me") == 1
    assert "98765432101" not in metrics.exposition().decode()


class ShardedStub:
    """What GatewayWatch reads of an AutoShardedBot running shards 0 and 1."""

    shard_ids = (0, 1)

    def __init__(self) -> None:
        self.listeners: dict[str, list[Any]] = {}

    def add_listener(self, func: Any, name: str) -> None:
        self.listeners.setdefault(name, []).append(func)

    async def dispatch(self, name: str, *args: Any) -> None:
        for func in self.listeners.get(f"on_{name}", []):
            await func(*args)

    def is_closed(self) -> bool:
        return False

    def is_ready(self) -> bool:
        return True


async def test_a_sharded_bot_is_healthy_only_with_every_shard_connected():
    from bot.discord.health import GatewayWatch

    now = [100.0]
    bot = ShardedStub()
    watch = GatewayWatch(bot, lambda: now[0], sharded=True)
    await bot.dispatch("shard_connect", 0)
    assert watch.problem() == "gateway: shard 1 not connected yet"
    await bot.dispatch("shard_ready", 1)
    assert watch.problem() is None
    await bot.dispatch("shard_disconnect", 1)
    now[0] += 30
    assert watch.problem() == "gateway: disconnected (shard 1) for 30 s"
    await bot.dispatch("shard_resumed", 1)
    assert watch.problem() is None


async def test_a_taken_port_is_one_clear_line(fake: FakeDiscord, tmp_path):
    from bot.discord.health import HealthServerError
    from bot.discord.run import failure_line

    first = await start(tmp_path)
    try:
        settings = health_settings(tmp_path, "other.db").model_copy(
            update={"health_port": first.health_server.port}
        )
        second = CardBot(settings, ai_budget_ms=20)
        with pytest.raises(HealthServerError) as caught:
            await second.login("fake-token")
        await second.close()
        line = failure_line(caught.value)
        assert line is not None and line.startswith("cannot serve /healthz and /metrics on ")
        assert "(HEALTH_HOST, HEALTH_PORT)" in line
    finally:
        await first.close()


def test_health_command_without_a_port_is_doctor_quick(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name in ("HEALTH_PORT", "DATABASE_URL", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=MTIzNDU2Nzg5MDEyMzQ1Njc4OTA.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB\n"
    )
    assert cli_health(None) == 0
    out = capsys.readouterr().out
    assert "token" in out and "database" in out

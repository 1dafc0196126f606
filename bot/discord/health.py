"""The bot's HTTP endpoint for operators: ``/healthz`` and ``/metrics``.

Off unless ``HEALTH_PORT`` is set; bound to ``HEALTH_HOST`` (127.0.0.1
unless configured: the figures are not secret, but nobody outside needs
them unless the operator says so).  It runs in the bot's own event loop
(aiohttp's server, already a dependency of discord.py), starts with the bot
and stops when it closes.

``/healthz`` answers 200 ``ok`` or 503 with one line saying what is wrong,
checked in this order:

* the gateway: discord.py says the client is closed, never connected, a
  connection (a shard's) was lost and not re-established, or it is
  connected but not ready -- the one thing ``doctor --quick`` cannot tell;
* the database answers a light read within ``DB_TIMEOUT`` seconds;
* the writer is not stuck: the batch on its way, or the oldest write queued
  behind it, has waited less than ``STUCK_SECONDS``.

``python -m bot health`` is the container's HEALTHCHECK: it asks
``/healthz`` when ``HEALTH_PORT`` is set, and otherwise runs ``doctor
--quick`` (so the image's check works with the endpoint on or off).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

if TYPE_CHECKING:
    from bot.discord.host import ProcessHost
    from bot.discord.metrics import Metrics

log = logging.getLogger(__name__)
#: seconds the database has to answer the health check's read
DB_TIMEOUT = 3.0
#: seconds of waiting after which the writer is called stuck (writes are
#: withdrawn after 15 s: by then players already see "busy")
STUCK_SECONDS = 10.0
#: the text format ``generate_latest`` writes (Prometheus's own constant)
METRICS_CONTENT_TYPE = CONTENT_TYPE_LATEST


class HealthServerError(OSError):
    """The endpoint cannot listen where it was told to (the port is taken,
    the address is not this machine's): said in one line at start."""


class GatewayWatch:
    """The state of the bot's gateway connection(s), from discord.py's own
    events (``connect``/``disconnect``/``ready``/``resumed``, per shard for a
    sharded bot): ``Client.is_ready()`` stays true after a connection is
    lost, so it alone cannot tell a bot that lost its gateway."""

    def __init__(
        self,
        bot: Any,
        clock: Callable[[], float] = time.monotonic,
        *,
        sharded: bool | None = None,
    ) -> None:
        """``bot``: a discord.py client (``sharded``: an ``AutoShardedClient``,
        found out when not given)."""
        import discord

        self.bot = bot
        self.clock = clock
        #: shard id (0 for an unsharded bot) -> when it went down, None while up
        self.down_since: dict[int, float | None] = {}
        if sharded is None:
            sharded = isinstance(bot, discord.AutoShardedClient)
        self.sharded = sharded
        if self.sharded:
            for event in ("on_shard_connect", "on_shard_ready", "on_shard_resumed"):
                bot.add_listener(self._shard_up, event)
            bot.add_listener(self._shard_down, "on_shard_disconnect")
        else:
            for event in ("on_connect", "on_ready", "on_resumed"):
                bot.add_listener(self._up, event)
            bot.add_listener(self._down, "on_disconnect")

    async def _up(self) -> None:
        self.down_since[0] = None

    async def _down(self) -> None:
        self.went_down(0)

    async def _shard_up(self, shard_id: int) -> None:
        self.down_since[shard_id] = None

    async def _shard_down(self, shard_id: int) -> None:
        self.went_down(shard_id)

    def went_down(self, shard_id: int) -> None:
        if self.down_since.get(shard_id) is None:
            self.down_since[shard_id] = self.clock()

    def problem(self) -> str | None:
        if self.bot.is_closed():
            return "gateway: the client is closed"
        if not self.down_since:
            return "gateway: not connected yet"
        down = {s: when for s, when in self.down_since.items() if when is not None}
        if down:
            shard, since = min(down.items(), key=lambda item: item[1])
            which = f" (shard {shard})" if self.sharded else ""
            return f"gateway: disconnected{which} for {self.clock() - since:.0f} s"
        if self.sharded:
            missing = sorted(set(getattr(self.bot, "shard_ids", None) or ()) - set(self.down_since))
            if missing:
                return f"gateway: shard {missing[0]} not connected yet"
        if not self.bot.is_ready():
            return "gateway: connected, not ready yet"
        return None


class Health:
    """The checks behind ``/healthz``."""

    def __init__(
        self,
        bot: ProcessHost,
        *,
        db_timeout: float = DB_TIMEOUT,
        stuck_seconds: float = STUCK_SECONDS,
        gateway: GatewayWatch | None = None,
    ) -> None:
        self.bot = bot
        self.db_timeout = db_timeout
        self.stuck_seconds = stuck_seconds
        self.gateway = gateway or GatewayWatch(bot)

    async def problem(self) -> str | None:
        """None when healthy, else one line saying what is wrong."""
        trouble = self.gateway.problem()
        if trouble is not None:
            return trouble
        try:
            async with asyncio.timeout(self.db_timeout):
                await self.bot.store.ping()
        except TimeoutError:
            return f"database: no answer within {self.db_timeout:g} s"
        except Exception as exc:
            text = " ".join(str(exc).split())[:160] or type(exc).__name__
            return f"database: {text}"
        stalled = self.bot.store.writer.group.stalled_for()
        if stalled >= self.stuck_seconds:
            return f"database writer: stuck for {stalled:.0f} s"
        return None


class HealthServer:
    """``/healthz`` and ``/metrics`` on ``host:port`` (port 0: any free port,
    for tests; ``port`` holds the one bound once started)."""

    def __init__(self, health: Health, metrics: Metrics, host: str, port: int) -> None:
        self.health = health
        self.metrics = metrics
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self.app = web.Application()
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.scrape)

    async def healthz(self, request: web.Request) -> web.Response:
        problem = await self.health.problem()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=problem + "\n")

    async def scrape(self, request: web.Request) -> web.Response:
        return web.Response(
            body=self.metrics.exposition(),
            headers={"Content-Type": METRICS_CONTENT_TYPE},
        )

    async def start(self) -> None:
        if self._runner is not None:
            return
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            reason = exc.strerror or str(exc)
            raise HealthServerError(
                f"cannot serve /healthz and /metrics on {self.host}:{self.port}: {reason}"
                " (HEALTH_HOST, HEALTH_PORT)"
            ) from exc
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("health and metrics on http://%s:%d (/healthz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening (a second call does nothing)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    @property
    def running(self) -> bool:
        return self._runner is not None

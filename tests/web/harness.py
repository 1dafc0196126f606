"""The web table under test: the real aiohttp app on 127.0.0.1 (aiohttp's
``TestServer``/``TestClient``), a real ``TableService`` on a SQLite file,
and WebSocket peers that record every frame they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.web.app import WebConfig, make_app
from bot.web.auth import DiscordAuth, Sessions

GUILD, CHANNEL = 1000, 2000
OTHER_GUILD, OTHER_CHANNEL = 3000, 4000


def person(user: int, guild: int | None = GUILD, channel: int | None = CHANNEL) -> Actor:
    return Actor(user, guild, channel, f"P{user}")


@dataclass
class Peer:
    """One WebSocket client: every frame it got, in order."""

    ws: ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int | None = None
    _arrived: asyncio.Condition = field(default_factory=asyncio.Condition)
    _reader: asyncio.Task[None] | None = None

    def start(self) -> Peer:
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for msg in self.ws:
                if msg.type == WSMsgType.TEXT:
                    async with self._arrived:
                        self.frames.append(json.loads(msg.data))
                        self._arrived.notify_all()
        finally:
            self.close_code = self.ws.close_code
            self.closed.set()
            async with self._arrived:
                self._arrived.notify_all()

    async def send(self, frame: dict[str, Any] | str) -> None:
        if isinstance(frame, str):
            await self.ws.send_str(frame)
        else:
            await self.ws.send_json(frame)

    async def wait_for(
        self, test: Callable[[dict[str, Any]], bool], *, after: int = 0, timeout: float = 10
    ) -> dict[str, Any]:
        """The first frame from index ``after`` on that passes ``test``."""

        async def find() -> dict[str, Any]:
            async with self._arrived:
                while True:
                    for frame in self.frames[after:]:
                        if test(frame):
                            return frame
                    if self.closed.is_set():
                        raise AssertionError(f"closed ({self.close_code}) while waiting")
                    await self._arrived.wait()

        return await asyncio.wait_for(find(), timeout)

    async def next_of(self, kind: str, *, after: int | None = None, **match: Any) -> dict[str, Any]:
        start = len(self.frames) if after is None else after
        return await self.wait_for(
            lambda f: f["type"] == kind and all(f.get(k) == v for k, v in match.items()),
            after=start,
        )

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


@dataclass
class Web:
    client: TestClient
    sessions: Sessions
    service: TableService

    async def peer(self) -> Peer:
        return Peer(await self.client.ws_connect("/ws")).start()

    async def hello(self, actor: Actor, lang: str = "en", **where: Any) -> Peer:
        """A connection that said hello as ``actor`` (``table=`` / ``replay=``)."""
        peer = await self.peer()
        count = 0
        await peer.send(
            {"type": "hello", "session": self.sessions.new(actor), "lang": lang, **where}
        )
        await peer.wait_for(lambda f: f["type"] == "welcome", after=count)
        return peer


@contextlib.asynccontextmanager
async def serving(
    service: TableService,
    mode: str = "discord",
    auth: DiscordAuth | None = None,
    frames_per_second: int = 20,
    secret: str | None = None,
) -> AsyncIterator[Web]:
    sessions = Sessions(secret)
    app = make_app(
        service,
        WebConfig(mode, client_id="42"),
        auth=auth,
        sessions=sessions,
        frames_per_second=frames_per_second,
    )
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        yield Web(client, sessions, service)
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def table_service(path: str, **options: Any) -> AsyncIterator[TableService]:
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    service = TableService(
        store, turn_seconds_default=0, ai_budget_ms=20, max_open_per_host=None, **options
    )
    await service.start(dispatch_deadlines=False)
    try:
        yield service
    finally:
        await service.close()
        await store.close()

"""The real web table (bot/web) for the browser tests: its aiohttp app on
127.0.0.1, a real ``TableService`` on a SQLite file, run on an event loop in
a thread of its own (selenium blocks the test's thread), plus the fake of the
Discord HTTP endpoints the Activity's login asks (tests/web/fake_discord.py,
served at what ``DISCORD_API_BASE`` would say).

The tests seat people and make tables through the service itself, as the
Discord bot would; the browsers only do what a person does.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from aiohttp import web

from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.web.app import WebConfig, WebServer, make_app
from tests.web.fake_discord import APP_ID, FakeDiscordApi, auth_for

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerThread:
    """bot/web serving ``db_path`` on ``port`` from a thread's event loop."""

    def __init__(
        self,
        db_path: str,
        *,
        mode: str = "local",
        port: int | None = None,
        discord: FakeDiscordApi | None = None,
        turn_seconds: int = 0,
    ) -> None:
        self.db_path = db_path
        self.turn_seconds = turn_seconds
        self.mode = mode
        self.port = port or free_port()
        self.discord = discord
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.service: TableService
        self._server: WebServer | None = None
        self._fake: web.AppRunner | None = None
        self._store: Store | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def run(self, make: Callable[[], Awaitable[T]], timeout: float = 30) -> T:
        """Run a coroutine on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(make(), self.loop).result(timeout)  # type: ignore[arg-type]

    def start(self) -> ServerThread:
        self.thread.start()
        self.run(self._start)
        return self

    async def _start(self) -> None:
        store = Store(f"sqlite+aiosqlite:///{self.db_path}")
        await store.migrate()
        self._store = store
        self.service = TableService(
            store,
            turn_seconds_default=self.turn_seconds,
            ai_budget_ms=20,
            max_open_per_host=None,
        )
        auth = None
        if self.mode == "discord":
            assert self.discord is not None
            fake = web.AppRunner(self.discord.app(), access_log=None)
            await fake.setup()
            fake_port = free_port()
            await web.TCPSite(fake, "127.0.0.1", fake_port).start()
            self._fake = fake
            auth = auth_for(f"http://127.0.0.1:{fake_port}")
        app = make_app(self.service, WebConfig(self.mode, client_id=APP_ID), auth=auth)
        await self.service.start(dispatch_deadlines=False)
        self._server = WebServer(app, "127.0.0.1", self.port)
        await self._server.start()

    def stop(self) -> None:
        """Stop it as the bot stops (every socket closed 1001), then the loop."""
        if not self.thread.is_alive():
            return
        self.run(self._stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    async def _stop(self) -> None:
        if self._server is not None:
            await self._server.stop()
        await self.service.close()
        if self._store is not None:
            await self._store.close()
        if self._fake is not None:
            await self._fake.cleanup()

    # -- tables, as the bot makes them ---------------------------------------------------
    def table(
        self,
        host: Actor,
        game: str,
        *,
        options: dict[str, Any] | None = None,
        seed: int = 1,
        join: tuple[Actor, ...] = (),
        ai: str = "easy",
    ) -> int:
        """A started table: ``host`` in seat 0, ``join`` in the next seats, AI in the rest."""

        async def make() -> int:
            info = await self.service.create_table(
                host, game=game, options=options, seed=seed, host_seat=0
            )
            for person in join:
                await self.service.join(info.id, person)
            await self.service.start_table(info.id, host, fill_ai=ai)
            return info.id

        return self.run(make)

    def log(self, table_id: int) -> list[str]:
        """The table's moves so far (every move is public)."""

        async def read() -> list[str]:
            return [action for _, _, action in await self.service.history(table_id)]

        return self.run(read)

    def moves_of(self, table_id: int, seat: int) -> list[str]:
        """The moves ``seat`` made, in order."""

        async def read() -> list[str]:
            return [a for _, s, a in await self.service.history(table_id) if s == seat]

        return self.run(read)

    def replayer(self, table_id: int) -> Callable[[int], Any]:
        """``state_at(seq)``: the true match state after ``seq`` moves (all hands),
        for the moves made until now."""
        from engine import get_game

        async def facts() -> tuple[str, Any, int]:
            live = await self.service._live(table_id)
            return live.game, live.variant, live.seed

        game, variant, seed = self.run(facts)
        spec = get_game(game)
        log = self.log(table_id)

        def state_at(seq: int) -> Any:
            assert seq <= len(log), f"a frame of move {seq} but only {len(log)} moves were made"
            return spec.replay(log[:seq], seed=seed, variant=variant)

        return state_at

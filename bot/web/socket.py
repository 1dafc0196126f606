"""One WebSocket connection (``GET /ws``): reads the client's frames, answers
them, and pushes the table's state whenever the service says it changed.

Two tasks per connection.  The reader takes frames in order: each is
admitted by the ``FloodGate`` (20 a second), parsed (``bot.web.protocol``)
and served -- a move goes to ``TableService.act`` with this connection's
``Actor`` and the client's ``seq`` as ``expected_seq``, so a stale or
out-of-turn move is refused by the same rules as a click in Discord.  The
writer is the only one that sends: it sleeps on an event, sends queued
frames (welcome, errors, pong, replay) and, when the table changed (the
``Hub`` said so), one fresh ``state`` built for this actor.  Every text
is in the connection's language.  Every refusal is an error frame and
changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.i18n import DEFAULT_LOCALE, normalize, using
from bot.services.actor import Actor
from bot.services.history import match_replay
from bot.services.models import TableUpdate
from bot.web.auth import Sessions
from bot.web.frames import ReplayCursor, table_state, welcome_frame
from bot.web.hub import Hub
from bot.web.protocol import (
    MAX_FRAME,
    Act,
    BadFrame,
    Frame,
    Hello,
    JsonDict,
    Ping,
    ReplayStep,
    dumps,
    parse_frame,
)
from bot.web.refusals import refusal, service_refusal
from engine import EngineError

log = logging.getLogger(__name__)

#: frames a connection may send per second; more are dropped for a second
FRAMES_PER_SECOND = 20
#: rate-limited this many times within ``STRIKE_SECONDS``: closed (1008)
STRIKES = 3
STRIKE_SECONDS = 10.0
#: WebSocket close codes (RFC 6455)
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_GOING_AWAY = 1001
#: aiohttp itself refuses (and closes) frames beyond this; up to it we answer "too_big"
READ_LIMIT = 64 * 1024


class FloodGate:
    """At most ``limit`` frames per ``window`` seconds.  The first frame over
    the limit is answered ``rate_limited`` ("warn") and the frames of the
    next second are dropped unread ("drop"); the ``STRIKES``-th warning
    within ``STRIKE_SECONDS`` closes the connection ("close")."""

    def __init__(self, limit: int = FRAMES_PER_SECOND, window: float = 1.0) -> None:
        self.limit = limit
        self.window = window
        self._start = float("-inf")
        self._count = 0
        self._blocked_until = float("-inf")
        self._strikes: deque[float] = deque()

    def admit(self, now: float) -> str:
        if now < self._blocked_until:
            return "drop"
        if now - self._start >= self.window:
            self._start, self._count = now, 0
        self._count += 1
        if self._count <= self.limit:
            return "ok"
        self._blocked_until = now + self.window
        self._strikes.append(now)
        while self._strikes and now - self._strikes[0] > STRIKE_SECONDS:
            self._strikes.popleft()
        return "close" if len(self._strikes) >= STRIKES else "warn"


@dataclass
class WebContext:
    """What every connection of one web app shares."""

    service: Any
    sessions: Sessions
    hub: Hub
    default_lang: str = DEFAULT_LOCALE
    clock: Callable[[], float] = time.monotonic
    #: the ``FloodGate`` limit of each connection
    frames_per_second: int = FRAMES_PER_SECOND
    #: the Activity's login (discord mode with its secret), else None
    auth: Any = None
    #: open connections (closed with 1001 when the app stops)
    sockets: set[web.WebSocketResponse] = field(default_factory=set)


#: the app's ``WebContext``
CTX = web.AppKey("ctx", WebContext)


class Connection:
    def __init__(self, ws: web.WebSocketResponse, ctx: WebContext) -> None:
        self.ws = ws
        self.ctx = ctx
        self.gate = FloodGate(ctx.frames_per_second)
        self.actor: Actor | None = None
        self.lang = ctx.default_lang
        self.table_id: int | None = None
        self.replay: ReplayCursor | None = None
        #: the actor sat at the open table at the last frame (``table_state``)
        self.seated = False
        self._outbox: deque[str] = deque()
        self._stale = False
        self._wake = asyncio.Event()
        #: set by the writer whenever it has sent everything queued
        self._drained = asyncio.Event()

    # -- the hub's side ------------------------------------------------------------------
    def table_changed(self, update: TableUpdate) -> None:
        self._stale = True
        self._wake.set()

    # -- sending -------------------------------------------------------------------------
    def send(self, frame: JsonDict) -> None:
        self._outbox.append(dumps(frame))
        self._wake.set()

    async def _writer(self) -> None:
        ws = self.ws
        while not ws.closed:
            await self._wake.wait()
            self._wake.clear()
            try:
                while self._outbox and not ws.closed:
                    await ws.send_str(self._outbox.popleft())
                self._drained.set()
                if self._stale and self.table_id is not None and not ws.closed:
                    self._stale = False
                    await ws.send_str(dumps(await self._state_or_refusal(self.table_id)))
            except ConnectionError:
                return  # the reader sees the socket closed and cleans up

    async def _state_or_refusal(self, table_id: int) -> JsonDict:
        assert self.actor is not None
        with using(self.lang):
            try:
                results = self.ctx.hub.results.get(table_id)
                frame = await table_state(
                    self.ctx.service, table_id, self.actor, results, self.seated
                )
                self.seated = frame["seat"] is not None and frame["view"] is not None
                return frame
            except EngineError as exc:
                return service_refusal(exc)
            except Exception:  # a bug must not silence the connection: say busy, log it
                log.exception("building the state of table %s failed", table_id)
                return refusal("busy")

    # -- reading -------------------------------------------------------------------------
    async def run(self) -> None:
        writer = asyncio.create_task(self._writer(), name="bot.web: writer")
        try:
            async for msg in self.ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                verdict = self.gate.admit(self.ctx.clock())
                if verdict == "drop":
                    continue
                if verdict != "ok":
                    with using(self.lang):
                        self.send(refusal("rate_limited"))
                    if verdict == "close":
                        await self._flush_and_close(CLOSE_POLICY)
                        break
                    continue
                await self._frame(msg.data)
                if self.ws.closed:
                    break
        finally:
            self._leave_table()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await writer

    async def _flush_and_close(self, code: int) -> None:
        """Close with ``code`` once the writer has sent the error frame (at most 1 s)."""
        self._drained.clear()
        self._wake.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained.wait(), 1.0)
        await self.ws.close(code=code)

    async def _frame(self, data: str | bytes) -> None:
        with using(self.lang):
            try:
                frame = parse_frame(data)
            except BadFrame as exc:
                self.send(refusal(exc.code))
                if exc.code == "too_big":
                    await self._flush_and_close(CLOSE_TOO_BIG)
                return
        await self.serve(frame)

    async def serve(self, frame: Frame) -> None:
        if isinstance(frame, Hello):
            await self._hello(frame)
            return
        with using(self.lang):
            if isinstance(frame, Ping):
                self.send({"type": "pong"})
            elif self.actor is None:
                self.send(refusal("auth"))
            elif isinstance(frame, Act):
                await self._act(frame)
            elif isinstance(frame, ReplayStep):
                if self.replay is None:
                    self.send(refusal("not_replay"))
                else:
                    try:
                        self.send(self.replay.frame(frame.to))
                    except EngineError as exc:
                        self.send(service_refusal(exc))

    async def _hello(self, frame: Hello) -> None:
        actor = self.ctx.sessions.actor(frame.session)
        lang = normalize(frame.lang) if frame.lang else None
        lang = lang or self.lang
        if actor is None:
            with using(lang):
                self.send(refusal("auth"))
            return
        if self.actor is None or lang != self.lang or actor != self.actor:
            self.send(welcome_frame(actor, lang))
        self.actor, self.lang = actor, lang
        self._leave_table()
        with using(lang):
            if frame.table is not None:
                await self._open_table(frame.table)
            elif frame.replay is not None:
                await self._open_replay(frame.replay)

    async def _open_table(self, table_id: int) -> None:
        self.ctx.hub.watch(table_id, self)  # first: no update is missed meanwhile
        self.table_id = table_id
        frame = await self._state_or_refusal(table_id)
        if frame["type"] == "error":
            self._leave_table()
        self.send(frame)

    async def _open_replay(self, table_id: int) -> None:
        assert self.actor is not None
        try:
            replayed = await match_replay(self.ctx.service.store, self.actor, table_id)
        except EngineError as exc:
            self.send(service_refusal(exc))
            return
        users = replayed.match.users
        you = users.index(self.actor.user_id) if self.actor.user_id in users else None
        self.replay = ReplayCursor(replayed, you)
        self.send(self.replay.frame(0))

    def _leave_table(self) -> None:
        if self.table_id is not None:
            self.ctx.hub.unwatch(self.table_id, self)
        self.table_id = None
        self.replay = None
        self.seated = False
        self._stale = False

    async def _act(self, frame: Act) -> None:
        assert self.actor is not None
        if frame.table != self.table_id:
            self.send(refusal("no_table"))
            return
        try:
            await self.ctx.service.act(
                frame.table, self.actor, frame.action, expected_seq=frame.seq
            )
        except EngineError as exc:
            self.send(service_refusal(exc))


async def websocket(request: web.Request) -> web.WebSocketResponse:
    """``GET /ws``: one connection, served until either side closes it."""
    ctx = request.app[CTX]
    ws = web.WebSocketResponse(heartbeat=30, max_msg_size=READ_LIMIT)
    await ws.prepare(request)
    ctx.sockets.add(ws)
    try:
        await Connection(ws, ctx).run()
    finally:
        ctx.sockets.discard(ws)
    return ws


__all__ = ["CTX", "MAX_FRAME", "Connection", "FloodGate", "WebContext", "websocket"]

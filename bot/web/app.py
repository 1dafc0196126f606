"""The web table's aiohttp application (docs/web.md): the static client,
the small HTTP API and the WebSocket.

Two modes, one client:

* ``discord`` -- inside the bot's process (``WEB_PORT``), for the Discord
  Activity: a person logs in with the OAuth2 code the Embedded App SDK
  got (``POST /api/token``, ``bot.web.auth.DiscordAuth``);
* ``local`` -- ``python -m bot web``: the person at this computer is
  ``Actor.local()`` (``POST /api/local``) and opens tables against AI
  players (``POST /api/local/new``), watches local tables and replays
  finished ones.

Every table operation goes through the ``TableService`` with the
session's ``Actor``; this module only routes.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.i18n import DEFAULT_LOCALE, LOCALES, t, using
from bot.i18n.errors import error_text
from bot.i18n.terms import game_title
from bot.services.actor import Actor
from bot.services.models import TableInfo
from bot.services.policy import DIFFICULTIES
from bot.web.auth import AuthError, DiscordAuth, Sessions
from bot.web.frames import seat_names
from bot.web.hub import Hub
from bot.web.launches import Launches
from bot.web.socket import CLOSE_GOING_AWAY, CTX, FRAMES_PER_SECOND, WebContext, websocket
from engine import GAMES, EngineError, get_game

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("bot.web") / "static"))
#: finished tables listed by /api/local/tables (newest first)
FINISHED_LISTED = 20
#: the largest request body the API reads
MAX_BODY = 4096
PLACEHOLDER = (
    "<!doctype html><meta charset=utf-8><title>Card Table</title>"
    "<p>The Card Table web client is not installed (bot/web/static/index.html)."
)


@dataclass(frozen=True)
class WebConfig:
    mode: str  # "discord" | "local"
    client_id: Any = None  # a callable returning the application id, or the id
    default_lang: str = DEFAULT_LOCALE

    def app_id(self) -> str | None:
        value = self.client_id() if callable(self.client_id) else self.client_id
        return str(value) if value else None


CONFIG = web.AppKey("config", WebConfig)
LAUNCHES = web.AppKey("launches", Launches)


def _error(status: int, code: str, message: str) -> web.Response:
    return web.json_response({"error": code, "message": message}, status=status)


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=request.content_length)
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(raw))
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return body if isinstance(body, dict) else {}


def _ctx(request: web.Request) -> WebContext:
    return request.app[CTX]


def _config(request: web.Request) -> WebConfig:
    return request.app[CONFIG]


def _lang(request: web.Request) -> str:
    from bot.i18n import normalize

    return normalize(request.query.get("lang", "")) or _config(request).default_lang


def table_json(info: TableInfo, actor: Actor, launch: bool = False) -> dict[str, Any]:
    """A table in a list (``/api/tables``, ``/api/local/tables``)."""
    return {
        "id": info.id,
        "launch": launch,
        "game": info.game,
        "status": info.status,
        "seq": info.seq,
        "seat": info.seat_of(actor.user_id),
        "players": [
            {"seat": s.seat, "name": n, "ai": s.ai is not None}
            for s, n in zip(info.seats, seat_names(info.seats), strict=True)
        ],
    }


# -- routes ------------------------------------------------------------------------------------
async def index(request: web.Request) -> web.StreamResponse:
    page = STATIC / "index.html"
    if page.is_file():
        return web.FileResponse(page, headers={"Cache-Control": "no-cache"})
    return web.Response(text=PLACEHOLDER, content_type="text/html")


async def api_config(request: web.Request) -> web.Response:
    conf = _config(request)
    with using(_lang(request)):
        games = [
            {"id": name, "title": game_title(name), "seats": get_game(name).num_seats()}
            for name in GAMES
        ]
    return web.json_response(
        {
            "mode": conf.mode,
            "client_id": conf.app_id(),
            "languages": list(LOCALES),
            "games": games,
        }
    )


async def token(request: web.Request) -> web.Response:
    auth = _ctx(request).auth
    if _config(request).mode != "discord" or auth is None:
        raise web.HTTPNotFound()
    body = await _body(request)
    code, instance = body.get("code"), body.get("instance_id")
    if not isinstance(code, str) or not code or len(code) > 256:
        return _error(400, "bad_request", "an OAuth2 code is required")
    if not isinstance(instance, str) or not instance or len(instance) > 128:
        return _error(400, "bad_request", "the Activity instance_id is required")
    guild, channel = body.get("guild_id"), body.get("channel_id")
    try:
        login = await auth.login(
            code,
            instance,
            guild_id=str(guild) if guild is not None else None,
            channel_id=str(channel) if channel is not None else None,
        )
    except AuthError as exc:
        return _error(exc.status, exc.code, str(exc))
    session = _ctx(request).sessions.new(login.actor)
    user = {"id": str(login.actor.user_id), "name": login.actor.name}
    return web.json_response({"access_token": login.access_token, "session": session, "user": user})


def _local_only(request: web.Request) -> None:
    if _config(request).mode != "local":
        raise web.HTTPNotFound()


async def local_login(request: web.Request) -> web.Response:
    _local_only(request)
    with using(_lang(request)):
        actor = Actor.local(t("You"))
    session = _ctx(request).sessions.new(actor)
    return web.json_response(
        {"session": session, "user": {"id": str(actor.user_id), "name": actor.name}}
    )


def _session_actor(request: web.Request, token: Any) -> Actor:
    actor = _ctx(request).sessions.actor(token)
    if actor is None:
        raise web.HTTPUnauthorized(
            text=json.dumps({"error": "auth", "message": "no such session"}),
            content_type="application/json",
        )
    return actor


async def local_new(request: web.Request) -> web.Response:
    _local_only(request)
    body = await _body(request)
    actor = _session_actor(request, body.get("session"))
    game = body.get("game", "callbreak")
    difficulty = body.get("difficulty", "normal")
    watch = body.get("watch", False) is True  # AI players only: the person watches
    if game not in GAMES:
        return _error(400, "bad_request", f"choose one of: {', '.join(GAMES)}")
    if difficulty not in DIFFICULTIES:
        return _error(400, "bad_request", f"choose one of: {', '.join(DIFFICULTIES)}")
    service = _ctx(request).service
    try:
        info = await service.create_table(actor, game=game, host_seat=None if watch else 0)
        info = await service.start_table(info.id, actor, fill_ai=difficulty)
    except EngineError as exc:
        with using(_lang(request)):
            return _error(400, "illegal", error_text(exc))
    return web.json_response({"table": info.id})


async def _tables(request: web.Request, finished: bool) -> web.Response:
    actor = _session_actor(request, request.query.get("session"))
    service = _ctx(request).service
    infos = list(await service.open_tables(actor))
    if finished:
        infos += await finished_local_tables(service, actor)
    wanted = request.app[LAUNCHES].wanted(actor.user_id, actor.guild_id)
    # the table "Open the table" was clicked for, then the reader's own, then the rest
    infos.sort(key=lambda i: (i.id != wanted, i.seat_of(actor.user_id) is None))
    with using(_lang(request)):
        listed = [table_json(i, actor, launch=i.id == wanted) for i in infos]
        return web.json_response({"tables": listed})


async def finished_local_tables(service: Any, actor: Actor) -> list[TableInfo]:
    """The local person's newest finished tables (for replays)."""
    ids = await service.store.hosted_tables(None, actor.user_id, ("finished",))
    out: list[TableInfo] = []
    for table_id in sorted(ids, reverse=True)[:FINISHED_LISTED]:
        try:
            out.append(await service.get_table(table_id, actor))
        except EngineError:
            continue
    return out


async def local_tables(request: web.Request) -> web.Response:
    _local_only(request)
    return await _tables(request, finished=True)


async def tables(request: web.Request) -> web.Response:
    """The open tables where the session's actor is (its Activity's server,
    or the local person's), the ones they sit at first."""
    return await _tables(request, finished=False)


# -- the application ------------------------------------------------------------------------
def make_app(
    service: Any,
    config: WebConfig,
    auth: DiscordAuth | None = None,
    sessions: Sessions | None = None,
    frames_per_second: int = FRAMES_PER_SECOND,
    launches: Launches | None = None,
) -> web.Application:
    """The web table for ``service``; it listens to the service's updates
    while it runs and closes every WebSocket (1001) when it stops.
    ``frames_per_second``: each connection's flood limit (a load test
    simulating players who answer at once raises it)."""
    app = web.Application(client_max_size=MAX_BODY)
    hub = Hub()
    ctx = WebContext(
        service,
        sessions or Sessions(),
        hub,
        default_lang=config.default_lang,
        frames_per_second=frames_per_second,
    )
    ctx.auth = auth
    app[CTX], app[CONFIG] = ctx, config
    app[LAUNCHES] = launches or Launches()
    app.router.add_get("/", index)
    if STATIC.is_dir():
        app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/config", api_config)
    app.router.add_post("/api/token", token)
    app.router.add_post("/api/local", local_login)
    app.router.add_post("/api/local/new", local_new)
    app.router.add_get("/api/local/tables", local_tables)
    app.router.add_get("/api/tables", tables)
    app.router.add_get("/ws", websocket)

    async def listen(app: web.Application) -> None:
        hub.attach(service.subscribe)

    async def stop(app: web.Application) -> None:
        hub.detach()
        for ws in list(ctx.sockets):
            await ws.close(code=CLOSE_GOING_AWAY, message=b"server stopping")
        if auth is not None:
            await auth.close()

    app.on_startup.append(listen)
    app.on_shutdown.append(stop)
    return app


class WebServer:
    """The app on ``host:port``: started and stopped by its owner (the bot's
    ``setup_hook`` / ``shutdown``, or ``python -m bot web``)."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or ()
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("web table on http://%s:%s/", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

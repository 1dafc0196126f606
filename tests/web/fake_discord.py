"""A fake of the four Discord API endpoints the Activity's login calls
(docs/web.md, "The login inside Discord"), served by aiohttp on
127.0.0.1: no network.  Unknown routes answer 404; every request is
recorded."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

APP_ID = "42"
CLIENT_SECRET = "s3cret"
BOT_TOKEN = "bot-token"


@dataclass
class FakeDiscordApi:
    #: OAuth2 code -> user id
    codes: dict[str, int] = field(default_factory=dict)
    #: instance id -> (guild id or None, channel id, user ids in it)
    instances: dict[str, tuple[int | None, int, set[int]]] = field(default_factory=dict)
    #: (guild, user) -> role ids
    members: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    _tokens: dict[str, int] = field(default_factory=dict)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/oauth2/token", self.token)
        app.router.add_get("/users/@me", self.me)
        app.router.add_get("/applications/{app}/activity-instances/{instance}", self.instance)
        app.router.add_get("/guilds/{guild}/members/{user}", self.member)
        return app

    def _bot(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            raise web.HTTPUnauthorized()

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.requests.append(("POST", "/oauth2/token"))
        if (
            form.get("client_id") != APP_ID
            or form.get("client_secret") != CLIENT_SECRET
            or form.get("grant_type") != "authorization_code"
            or form.get("code") not in self.codes
        ):
            return web.json_response({"error": "invalid_grant"}, status=400)
        access = f"access-{form['code']}"
        self._tokens[access] = self.codes.pop(str(form["code"]))  # a code is good once
        return web.json_response({"access_token": access, "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", "/users/@me"))
        auth = request.headers.get("Authorization", "")
        user = self._tokens.get(auth.removeprefix("Bearer "))
        if user is None:
            raise web.HTTPUnauthorized()
        return web.json_response(
            {"id": str(user), "username": f"user{user}", "global_name": f"User {user}"}
        )

    async def instance(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", "activity-instances"))
        self._bot(request)
        found = self.instances.get(request.match_info["instance"])
        if request.match_info["app"] != APP_ID or found is None:
            raise web.HTTPNotFound()
        guild, channel, users = found
        location = {"id": "loc", "kind": "gc" if guild else "pc", "channel_id": str(channel)}
        if guild is not None:
            location["guild_id"] = str(guild)
        return web.json_response(
            {
                "application_id": APP_ID,
                "instance_id": request.match_info["instance"],
                "launch_id": "1",
                "location": location,
                "users": [str(u) for u in sorted(users)],
            }
        )

    async def member(self, request: web.Request) -> web.Response:
        self.requests.append(("GET", "member"))
        self._bot(request)
        key = (int(request.match_info["guild"]), int(request.match_info["user"]))
        if key not in self.members:
            raise web.HTTPNotFound()
        return web.json_response({"roles": [str(r) for r in self.members[key]], "nick": None})


@contextlib.asynccontextmanager
async def fake_discord_api() -> AsyncIterator[tuple[FakeDiscordApi, str]]:
    """The fake and its base URL (what DISCORD_API_BASE would say)."""
    fake = FakeDiscordApi()
    server = TestServer(fake.app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield fake, str(server.make_url("")).rstrip("/")
    finally:
        await server.close()


def auth_for(base: str) -> Any:
    from bot.web.auth import DiscordAuth

    return DiscordAuth(base, lambda: APP_ID, CLIENT_SECRET, BOT_TOKEN)

"""Who is at the other end of a web connection: sessions, and Discord's
OAuth2 code exchange for the Activity (docs/web.md, "HTTP").

A session token is an opaque signed string that stands for an ``Actor``
built from what the *server* established: in local
mode ``Actor.local()``; inside Discord the user Discord names for the
OAuth2 code, in the server and channel of the Activity instance as Discord
itself reports it (``activity-instances``, asked with the bot's token) --
never a server or channel the browser claims.  So server isolation and every
authority rule of the service hold exactly as for slash commands (the
service decides them from the ``Actor``).  Sessions expire (24 h) and
survive a restart of the bot (``Sessions``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.services.actor import Actor

SESSION_SECONDS = 24 * 3600
#: the longest token read (a real one is far shorter, even with many roles)
MAX_TOKEN = 4000
#: Discord's answers are read within this long
DISCORD_TIMEOUT = aiohttp.ClientTimeout(total=10)


class Sessions:
    """Session tokens <-> ``Actor``: signed, self-contained, expiring.

    A token is the actor and its expiry, signed with HMAC-SHA256 under a
    key derived from ``secret``: nothing is kept in memory, so a bot that
    restarts with the same secret (``DISCORD_CLIENT_SECRET``) still knows
    every session it gave out -- a reconnect after a restart needs no new
    login.  Without a secret a random one is made (local mode: a new
    process means a new ``POST /api/local``).  A token cannot be forged
    or altered without the key, and is refused once expired."""

    def __init__(
        self,
        secret: str | bytes | None = None,
        clock: Callable[[], float] = time.time,
        lifetime: float = SESSION_SECONDS,
    ) -> None:
        raw = secret.encode() if isinstance(secret, str) else secret or secrets.token_bytes(32)
        self._key = hashlib.sha256(b"card-table web session\0" + raw).digest()
        self.clock = clock
        self.lifetime = lifetime

    def _sign(self, body: bytes) -> str:
        mac = hmac.new(self._key, body, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def new(self, actor: Actor) -> str:
        payload = {
            "u": actor.user_id,
            "g": actor.guild_id,
            "c": actor.channel_id,
            "n": actor.name,
            "m": actor.can_manage_server,
            "r": sorted(actor.role_ids),
            "e": round(self.clock() + self.lifetime, 3),
        }
        body = base64.urlsafe_b64encode(json.dumps(payload, separators=(",", ":")).encode())
        text = body.decode().rstrip("=")
        return f"{text}.{self._sign(text.encode())}"

    def actor(self, token: object) -> Actor | None:
        """The session's actor, or None (forged, altered, expired, not a token)."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN or token.count(".") != 1:
            return None
        text, mac = token.split(".")
        if not hmac.compare_digest(mac, self._sign(text.encode())):
            return None
        try:
            payload = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
            if float(payload["e"]) <= self.clock():
                return None
            return Actor(
                int(payload["u"]),
                None if payload["g"] is None else int(payload["g"]),
                None if payload["c"] is None else int(payload["c"]),
                str(payload["n"]),
                can_manage_server=bool(payload["m"]),
                role_ids=frozenset(int(r) for r in payload["r"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


class AuthError(Exception):
    """A refused login: HTTP ``status``, the error ``code`` and an English reason."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


@dataclass(frozen=True, slots=True)
class DiscordLogin:
    access_token: str
    actor: Actor


def _snowflake(value: Any) -> int | None:
    text = str(value) if value is not None else ""
    return int(text) if text.isdecimal() and len(text) <= 20 else None


class DiscordAuth:
    """The Activity's login: OAuth2 code -> access token -> user, checked
    against the Activity instance the user is in.

    ``api_base`` is Discord's API root (``DISCORD_API_BASE``; tests serve a
    fake one on 127.0.0.1); ``client_id`` is read when needed (the bot
    learns its application id at login)."""

    def __init__(
        self,
        api_base: str,
        client_id: Callable[[], str | None],
        client_secret: str,
        bot_token: str | None,
    ) -> None:
        self.api_base = api_base.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=DISCORD_TIMEOUT)
        return self._http

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            async with self._session().request(method, self.api_base + path, **kwargs) as resp:
                if resp.status in (400, 401, 403, 404):  # refused: the caller says why
                    return None
                if resp.status >= 400:
                    raise AuthError(502, "auth", f"Discord answered {resp.status}")
                return await resp.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise AuthError(502, "auth", f"cannot reach Discord: {type(exc).__name__}") from None

    async def login(
        self,
        code: str,
        instance_id: str,
        guild_id: str | None = None,
        channel_id: str | None = None,
    ) -> DiscordLogin:
        """The access token and the ``Actor`` for an OAuth2 ``code`` given to
        the Activity ``instance_id``; ``AuthError`` when Discord does not
        vouch for all of it."""
        client_id = self.client_id()
        if not client_id or not self.bot_token:
            raise AuthError(503, "auth", "the Activity is not configured on this bot")
        token = await self._json(
            "POST",
            "/oauth2/token",
            data={
                "client_id": client_id,
                "client_secret": self.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        access = token.get("access_token") if isinstance(token, dict) else None
        if not isinstance(access, str) or not access:
            raise AuthError(401, "auth", "Discord did not accept the authorization code")
        user = await self._json("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
        user_id = _snowflake(user.get("id")) if isinstance(user, dict) else None
        if user_id is None:
            raise AuthError(401, "auth", "Discord did not say who you are")
        bot = {"Authorization": f"Bot {self.bot_token}"}
        instance = await self._json(
            "GET", f"/applications/{client_id}/activity-instances/{instance_id}", headers=bot
        )
        if not isinstance(instance, dict):
            raise AuthError(403, "forbidden", "this Activity instance is not running")
        users = {_snowflake(u) for u in instance.get("users") or ()}
        location = instance.get("location") or {}
        where_guild = _snowflake(location.get("guild_id"))
        where_channel = _snowflake(location.get("channel_id"))
        if user_id not in users or where_channel is None:
            raise AuthError(403, "forbidden", "you are not in this Activity")
        if (guild_id is not None and _snowflake(guild_id) != where_guild) or (
            channel_id is not None and _snowflake(channel_id) != where_channel
        ):
            raise AuthError(403, "forbidden", "this Activity runs somewhere else")
        name = str(user.get("global_name") or user.get("username") or f"Player {user_id}")
        roles: frozenset[int] = frozenset()
        if where_guild is not None:
            member = await self._json(
                "GET", f"/guilds/{where_guild}/members/{user_id}", headers=bot
            )
            if not isinstance(member, dict):
                raise AuthError(403, "forbidden", "you are not a member of this server")
            roles = frozenset(r for r in map(_snowflake, member.get("roles") or ()) if r)
            name = str(member.get("nick") or name)
        actor = Actor(user_id, where_guild, where_channel, name[:80], role_ids=roles)
        return DiscordLogin(access, actor)

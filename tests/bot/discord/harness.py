"""Offline Discord: real discord.py parses our interaction payloads and
serialises what it would send; only its two network edges are faked
(``HTTPClient.request`` and ``AsyncWebhookAdapter.request``), per
shared/TESTING-DISCORD.md.  Every request is recorded; an unmodelled route
raises.

Beyond recording, the fake models what the flow depends on:

* **latency**: ``fake.latency = 1.0`` makes every request take a second
  (``rest_latency`` / ``hook_latency`` override it per transport); each
  ``Sent`` carries the order and loop time at which it started and finished,
  so tests compare event order, not wall-clock thresholds;
* **failures**: ``fake.fail("PATCH", "/channels/{channel_id}/messages/{message_id}")``
  answers that route with 403 Missing Permissions (or another status);
* **messages**: channel posts, edits and deletes; DMs; interaction replies
  with their ``@original`` message (a deferred update's original is the
  message the component is on); webhook edits and deletes by id or
  ``@original``; multipart uploads (the JSON part is parsed, file names kept
  as attachments); expired interaction tokens.
"""

from __future__ import annotations

import asyncio
import itertools
import json as _json
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD = 800000000000000001
CHANNEL = 700000000000000001
#: a second server, for cross-server refusals
OTHER_GUILD = 800000000000000002
OTHER_CHANNEL = 700000000000000002
_ids = itertools.count(600000000000000001)

LIMITS = {
    "content": 2000,
    "embed_total": 6000,
    "rows": 5,
    "per_row": 5,
    "options": 25,
    "custom_id": 100,
    "label": 80,
}
EPHEMERAL = 64
#: the bot's permissions in the channel: everything a table needs
BOT_PERMISSIONS = str(
    sum(
        1 << bit
        # view, send, embed, attach, history, public and private threads, send in threads
        for bit in (10, 11, 14, 15, 16, 35, 36, 38)
    )
)
PRIVATE_THREAD = 12
LOADING = 128
MESSAGE_PATH = "/channels/{channel_id}/messages/{message_id}"
POST_PATH = "/channels/{channel_id}/messages"
HOOK_MESSAGE = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
HOOK_ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def snowflake() -> str:
    return str(next(_ids))


def user_payload(user_id: int) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": f"user{user_id}",
        "discriminator": "0",
        "avatar": None,
        "global_name": f"User {user_id}",
    }


@dataclass
class Sent:
    """One request the bot made."""

    transport: str
    method: str
    path: str
    params: dict[str, Any]
    json: dict[str, Any] | list[Any] | None
    route_params: dict[str, Any]
    #: who may read it: "public", or a user id for an ephemeral reply or a DM
    audience: Any = "public"
    #: names of uploaded files (multipart)
    files: list[str] = field(default_factory=list)
    #: order of events across all requests: when it started and when it finished
    started: int = 0
    finished: int | None = None
    t_start: float = 0.0
    t_end: float | None = None
    #: the status it was answered with
    status: int = 200
    #: the id of the message it created, edited or deleted (when known)
    target: str | None = None


@dataclass
class Failure:
    method: str
    path: str
    status: int
    code: int
    message: str
    #: only requests whose route ids match these (e.g. {"channel_id": "7"})
    where: dict[str, str]
    times: int | None


@dataclass
class FakeDiscord:
    sent: list[Sent] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: interaction token -> the user who clicked
    tokens: dict[str, int] = field(default_factory=dict)
    ephemeral_tokens: set[str] = field(default_factory=set)
    #: interaction token -> its @original message id
    original: dict[str, str] = field(default_factory=dict)
    #: interaction token -> the id of the message its component is on
    component_message: dict[str, str] = field(default_factory=dict)
    #: interaction token -> ids of the follow-up messages it created
    followups: dict[str, set[str]] = field(default_factory=dict)
    expired_tokens: set[str] = field(default_factory=set)
    #: DM channel id -> its user
    dm_channels: dict[str, int] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    #: thread id -> {"parent": channel id, "type": 11 public / 12 private, "members": user ids}
    threads: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: called with every recorded request, as it is made (hidden-information checks)
    on_send: Any = None
    latency: float = 0.0
    #: the Discord client language of each user (``locale``), default en-US
    user_locales: dict[int, str] = field(default_factory=dict)
    #: the server's Discord language (``guild_locale``)
    guild_locale: str = "en-US"
    rest_latency: float | None = None
    hook_latency: float | None = None
    failures: list[Failure] = field(default_factory=list)
    _order: Any = field(default_factory=itertools.count)

    # -- the two seams ---------------------------------------------------------------
    def install(self, monkeypatch: Any) -> None:
        fake = self

        async def http_request(
            self_http: HTTPClient, route: Any, *, files: Any = None, form: Any = None, **kw: Any
        ) -> Any:
            body = kw.get("json")
            names: list[str] = []
            if form:
                body, names = _multipart(form)
            return await fake._timed(
                "rest", route, body, kw.get("params") or {}, names, fake.rest_latency
            )

        async def hook_request(
            self_adapter: Any,
            route: Any,
            session: Any = None,
            *,
            payload: Any = None,
            multipart: Any = None,
            files: Any = None,
            params: Any = None,
            **kw: Any,
        ) -> Any:
            names: list[str] = []
            if payload is None and multipart:
                payload, names = _multipart(multipart)
            return await fake._timed("hook", route, payload, params or {}, names, fake.hook_latency)

        monkeypatch.setattr(HTTPClient, "request", http_request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", hook_request)

    def fail(
        self,
        method: str,
        path: str,
        *,
        status: int = 403,
        code: int = 50013,
        message: str = "Missing Permissions",
        times: int | None = None,
        **where: Any,
    ) -> None:
        """Answer ``method path`` (a route template) with an error from now on
        (``times``: only that many times), e.g. 403 Missing Permissions."""
        self.failures.append(
            Failure(
                method, path, status, code, message, {k: str(v) for k, v in where.items()}, times
            )
        )

    def heal(self) -> None:
        self.failures.clear()

    async def _timed(
        self,
        kind: str,
        route: Any,
        body: Any,
        params: dict[str, Any],
        names: list[str],
        latency: float | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        start, t_start = next(self._order), loop.time()
        if kind == "rest":
            sent = self._record_rest(route, body, params)
        else:
            sent = self._record_hook(route, body, params)
        sent.files, sent.started, sent.t_start = names, start, t_start
        self._notify(sent)
        delay = self.latency if latency is None else latency
        if delay:
            await asyncio.sleep(delay)
        try:
            failure = self._failure_for(sent)
            if failure is not None:
                sent.status = failure.status
                raise _http_error(failure)
            if kind == "rest":
                return self.rest(route, body, sent)
            return self.webhook(route, body, sent)
        finally:
            sent.finished, sent.t_end = next(self._order), loop.time()

    def _failure_for(self, sent: Sent) -> Failure | None:
        for failure in self.failures:
            if (failure.method, failure.path) != (sent.method, sent.path):
                continue
            if any(str(sent.route_params.get(k)) != v for k, v in failure.where.items()):
                continue
            if failure.times is not None:
                if failure.times <= 0:
                    continue
                failure.times -= 1
            return failure
        token = sent.route_params.get("token")
        if sent.transport != "rest" and str(token) in self.expired_tokens:
            return Failure(sent.method, sent.path, 404, 10015, "Unknown Webhook", {}, None)
        return None

    def _record_rest(self, route: Any, body: Any, params: dict[str, Any]) -> Sent:
        rp = route_params(route)
        audience: Any = "public"
        if route.path == POST_PATH and str(rp.get("channel_id")) in self.dm_channels:
            audience = self.dm_channels[str(rp["channel_id"])]
        sent = Sent("rest", route.method, route.path, params, body, rp, audience)
        sent.target = rp.get("message_id")
        self.sent.append(sent)
        return sent

    def _record_hook(self, route: Any, body: Any, params: dict[str, Any]) -> Sent:
        token = str(getattr(route, "webhook_token", None))
        user = self.tokens.get(token)
        rp = {**route_params(route), "webhook_id": getattr(route, "webhook_id", None)}
        rp["token"] = token
        data = ((body or {}).get("data") if route.path == CALLBACK else body) or {}
        ephemeral = bool(data.get("flags", 0) & EPHEMERAL)
        if route.path == CALLBACK:
            kind = body["type"]
            if kind in (6, 7):  # a deferred update or an update of the component's message
                target = self.messages.get(self.component_message.get(token, ""), {})
                ephemeral = bool(target.get("flags", 0) & EPHEMERAL)
            audience = user if ephemeral else "public"
            sent = Sent("interaction", route.method, route.path, params, body, rp, audience)
            if kind in (6, 7):
                sent.target = self.component_message.get(token)
        else:
            target_id = self._hook_target(route, rp, token)
            target = self.messages.get(target_id or "", {})
            if route.method == "POST":
                audience = user if ephemeral else "public"
            else:
                audience = target.get("_audience", "public")
            sent = Sent("webhook", route.method, route.path, params, body, rp, audience)
            sent.target = target_id
        self.sent.append(sent)
        return sent

    def _hook_target(self, route: Any, rp: dict[str, Any], token: str) -> str | None:
        if route.path.endswith("/@original"):
            return self.original.get(token)
        return rp.get("message_id")

    # -- REST ---------------------------------------------------------------------------
    def message(
        self,
        channel_id: str,
        body: dict[str, Any],
        *,
        flags: int = 0,
        msg_id: str | None = None,
        attachments: list[str] | None = None,
    ) -> dict[str, Any]:
        msg = {
            "id": msg_id or snowflake(),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "author": {**user_payload(BOT_ID), "bot": True},
            "attachments": [_attachment(n) for n in attachments or []],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "timestamp": "2026-11-23T00:00:00+00:00",
            "edited_timestamp": None,
            "flags": body.get("flags", flags) or 0,
            "application_id": str(APP_ID),
        }
        if body.get("allowed_mentions") is not None:
            msg["_allowed_mentions"] = body["allowed_mentions"]
        self.messages[msg["id"]] = msg
        return msg

    def _edit(self, msg_id: str, body: dict[str, Any], files: list[str]) -> dict[str, Any]:
        if msg_id not in self.messages or msg_id in self.deleted:
            raise _http_error(Failure("", "", 404, 10008, "Unknown Message", {}, None))
        msg = self.messages[msg_id]
        msg.update({k: v for k, v in body.items() if k in ("content", "embeds", "components")})
        if "attachments" in body or files:
            kept = [
                a
                for a in msg["attachments"]
                if any(str(b.get("id")) == a["id"] for b in body.get("attachments") or [])
            ]
            msg["attachments"] = kept + [_attachment(n) for n in files]
        if msg.get("flags", 0) & LOADING:
            msg["flags"] = msg["flags"] & ~LOADING
        msg["edited_timestamp"] = "2026-11-23T00:00:01+00:00"
        return msg

    def rest(self, route: Any, body: Any, sent: Sent) -> Any:
        path, method, rp = route.path, route.method, sent.route_params
        if (method, path) == ("GET", "/users/@me"):
            return {
                **user_payload(BOT_ID),
                "bot": True,
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
            }
        if (method, path) == ("GET", "/oauth2/applications/@me"):
            return {
                "id": str(APP_ID),
                "name": "Card Table",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "00",
                "flags": 0,
                "owner": user_payload(1),
                "team": None,
                "summary": "",
                "rpc_origins": [],
                "interactions_endpoint_url": None,
            }
        if method == "PUT" and path.endswith("/commands"):
            return [
                {
                    **cmd,
                    "id": snowflake(),
                    "application_id": str(APP_ID),
                    "version": "1",
                    "default_member_permissions": cmd.get("default_member_permissions"),
                }
                for cmd in body
            ]
        if (method, path) == ("POST", POST_PATH):
            msg = self.message(str(rp["channel_id"]), body or {}, attachments=sent.files)
            sent.target = msg["id"]
            if sent.audience != "public":
                msg["_audience"] = sent.audience
            return msg
        if (method, path) == ("PATCH", MESSAGE_PATH):
            return self._edit(str(rp["message_id"]), body or {}, sent.files)
        if (method, path) == ("DELETE", MESSAGE_PATH):
            if str(rp["message_id"]) not in self.messages or str(rp["message_id"]) in self.deleted:
                raise _http_error(Failure("", "", 404, 10008, "Unknown Message", {}, None))
            self.deleted.add(str(rp["message_id"]))
            return None
        if (method, path) == ("POST", "/users/@me/channels"):
            user = int(body["recipient_id"])
            channel = next((c for c, u in self.dm_channels.items() if u == user), None)
            channel = channel or snowflake()
            self.dm_channels[channel] = user
            return {
                "id": channel,
                "type": 1,
                "last_message_id": None,
                "recipients": [user_payload(user)],
            }
        if (method, path) == ("POST", "/channels/{channel_id}/threads"):
            # a thread without a message: public (11) or private (12, only its
            # members and those who may manage threads read it)
            if str(rp["channel_id"]) in self.threads:
                raise _http_error(
                    Failure("", "", 400, 50024, "Cannot execute action on this channel type",
                            {}, None)
                )  # fmt: skip
            kind = int(body.get("type", PRIVATE_THREAD))
            return self._thread(str(rp["channel_id"]), body, kind)
        if (method, path) == ("PUT", "/channels/{channel_id}/thread-members/{user_id}"):
            found = self.threads.get(str(rp["channel_id"]))
            if found is None:
                raise _http_error(Failure("", "", 404, 10003, "Unknown Channel", {}, None))
            found["members"].add(int(rp["user_id"]))
            return None
        if (method, path) == ("POST", "/channels/{channel_id}/messages/{message_id}/threads"):
            return self._thread(str(rp["channel_id"]), body, 11)
        raise AssertionError(f"unmodelled REST route {method} {path}")

    def _thread(self, parent: str, body: Any, kind: int) -> dict[str, Any]:
        ident = snowflake()
        self.threads[ident] = {"parent": parent, "type": kind, "members": {BOT_ID}}
        metadata = {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2026-11-23T00:00:00+00:00",
            "locked": False,
        }
        if kind == PRIVATE_THREAD:
            metadata["invitable"] = bool(body.get("invitable", True))
        return {
            "id": ident,
            "type": kind,
            "name": body.get("name", "t"),
            "guild_id": str(GUILD),
            "parent_id": parent,
            "owner_id": str(BOT_ID),
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": metadata,
        }

    # -- interaction webhooks ----------------------------------------------------------------
    def webhook(self, route: Any, body: Any, sent: Sent) -> Any:
        path, method = route.path, route.method
        token = sent.route_params["token"]
        if path == CALLBACK:
            return self._callback(body, sent, token)
        if (method, path) == ("POST", "/webhooks/{webhook_id}/{webhook_token}"):
            flags = EPHEMERAL if sent.audience != "public" else 0
            msg = self.message(str(CHANNEL), body or {}, flags=flags, attachments=sent.files)
            sent.target = msg["id"]
            if flags:
                msg["_audience"] = sent.audience
            self.followups.setdefault(token, set()).add(msg["id"])
            return msg
        if path in (HOOK_ORIGINAL, HOOK_MESSAGE):
            target = self._hook_target(route, sent.route_params, token)
            allowed = {self.original.get(token), *self.followups.get(token, set())}
            if target is None or target not in allowed:
                raise _http_error(Failure("", "", 404, 10008, "Unknown Message", {}, None))
            if method == "PATCH":
                return self._edit(target, body or {}, sent.files)
            if method == "GET":
                return self.messages[target]
            if method == "DELETE":
                self.deleted.add(target)
                return None
        raise AssertionError(f"unmodelled webhook route {method} {path}")

    def _callback(self, body: Any, sent: Sent, token: str) -> Any:
        kind = body["type"]
        data = body.get("data") or {}
        ephemeral = sent.audience != "public"
        interaction: dict[str, Any] = {
            "id": str(sent.route_params["webhook_id"]),
            "type": 2,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": ephemeral,
        }
        if kind in (4, 5):  # a new message (5: "thinking..." until edited)
            flags = (EPHEMERAL if ephemeral else 0) | (LOADING if kind == 5 else 0)
            msg = self.message(str(CHANNEL), data, flags=flags, attachments=sent.files)
            if ephemeral:
                msg["_audience"] = sent.audience
                self.ephemeral_tokens.add(token)
            self.original[token] = sent.target = msg["id"]
            interaction["response_message_id"] = msg["id"]
            return {"interaction": interaction, "resource": {"type": kind, "message": msg}}
        if kind in (6, 7):  # the component's own message is the original
            target = self.component_message.get(token)
            if target is not None:
                self.original[token] = target
                interaction["response_message_id"] = target
            if kind == 7 and target is not None:
                msg = self._edit(target, data, sent.files)
                return {"interaction": interaction, "resource": {"type": 7, "message": msg}}
            return {"interaction": interaction}
        return {"interaction": interaction}

    def _notify(self, sent: Sent) -> None:
        if self.on_send is not None:
            self.on_send(sent)

    # -- building interactions ----------------------------------------------------------------
    def interaction(
        self,
        kind: int,
        data: dict[str, Any],
        user_id: int,
        *,
        message: dict[str, Any] | None = None,
        permissions: str = "0",
        roles: list[str] | None = None,
        guild_id: int = GUILD,
        channel_id: int | None = None,
        app_permissions: str = BOT_PERMISSIONS,
    ) -> dict[str, Any]:
        iid, token = snowflake(), f"token{snowflake()}"
        self.tokens[token] = user_id
        if channel_id is None:
            channel_id = CHANNEL if guild_id == GUILD else OTHER_CHANNEL
        payload = {
            "id": iid,
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8388608,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "name": "card-tables",
                "position": 0,
                "guild_id": str(guild_id),
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": {
                "user": user_payload(user_id),
                "roles": roles or [],
                "flags": 0,
                "permissions": permissions,
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
            },
            "data": data,
            "locale": self.user_locales.get(user_id, "en-US"),
            "guild_locale": self.guild_locale,
            "entitlements": [],
            "authorizing_integration_owners": {},
            "app_permissions": app_permissions,
            "context": 0,
        }
        if message is not None:
            payload["message"] = {k: v for k, v in message.items() if not k.startswith("_")}
            self.component_message[token] = str(message["id"])
            if message.get("flags", 0) & EPHEMERAL:
                self.ephemeral_tokens.add(token)
        return payload

    @staticmethod
    def slash(name: str, sub: str | None = None, **options: Any) -> dict[str, Any]:
        opts = [
            {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()
            if v is not None
        ]
        if sub is not None:
            opts = [{"name": sub, "type": 1, "options": opts}]
        return {"id": snowflake(), "name": name, "type": 1, "options": opts, "guild_id": str(GUILD)}

    def expire(self, token: str) -> None:
        """From now on, the interaction token is refused (404 Unknown Webhook)."""
        self.expired_tokens.add(token)

    # -- reading what was sent --------------------------------------------------------------------
    def readers(self, channel_id: Any) -> frozenset[int] | None:
        """Who may read a channel's messages: a private thread's members (the
        moderators aside: they may manage threads), None for everyone."""
        thread = self.threads.get(str(channel_id))
        if thread is None or thread["type"] != PRIVATE_THREAD:
            return None
        return frozenset(thread["members"] - {BOT_ID})

    def replies(self, since: int = 0) -> list[Sent]:
        return [s for s in self.sent[since:] if s.transport in ("interaction", "webhook")]

    def channel_requests(self, since: int = 0) -> list[Sent]:
        """Channel traffic (posts, edits, deletes, threads): not login or command sync."""
        return [
            s
            for s in self.sent[since:]
            if s.transport == "rest" and s.path.startswith("/channels/")
        ]

    def reply_message(self, sent: Sent) -> dict[str, Any]:
        """The message an interaction reply created or edited (its @original,
        or the follow-up / edited message)."""
        token = sent.route_params["token"]
        if sent.path == HOOK_MESSAGE:
            return self.messages[str(sent.route_params["message_id"])]
        if sent.method == "POST" and sent.transport == "webhook":
            return self.messages[max(self.followups[token], key=int)]
        return self.messages[self.original[token]]

    @staticmethod
    def body_of(sent: Sent) -> dict[str, Any]:
        body = sent.json if isinstance(sent.json, dict) else {}
        return body.get("data", body) if sent.transport == "interaction" else body


# -- playing through the fake ------------------------------------------------------------------------
def send(bot: Any, fake: FakeDiscord, kind: int, data: dict[str, Any], user: int, **kw: Any) -> str:
    """Feed an interaction to discord.py's own parser; returns its token."""
    payload = fake.interaction(kind, data, user, **kw)
    bot._connection.parsers["INTERACTION_CREATE"](payload)
    return str(payload["token"])


async def click(
    bot: Any,
    fake: FakeDiscord,
    message: dict[str, Any],
    pattern: str,
    user: int,
    values: list[str] | None = None,
    **kw: Any,
) -> list[Sent]:
    """Click a component of a message the bot really sent; the replies."""
    start = len(fake.sent)
    send(
        bot, fake, 3, click_data(find_button(message, pattern), values), user, message=message, **kw
    )
    await settle()
    return fake.replies(start)


def table_message(fake: FakeDiscord, bot: Any, table_id: int) -> dict[str, Any]:
    live = bot.service.tables.get(table_id) or bot.service.recent[table_id]
    return fake.messages[str(live.message_id)]


def answer_of(fake: FakeDiscord, replies: list[Sent]) -> dict[str, Any]:
    """The message that answers a click: its @original (the hand, the note)."""
    assert replies, "the bot did not answer"
    return fake.messages[fake.original[replies[0].route_params["token"]]]


def answer_text(fake: FakeDiscord, replies: list[Sent]) -> str:
    """The clicker-only answer's text (and check that it is ephemeral)."""
    message = answer_of(fake, replies)
    assert message.get("flags", 0) & EPHEMERAL, "the answer must be ephemeral"
    return str(message.get("content") or "")


def live_hand(fake: FakeDiscord, bot: Any, table_id: int, user: int) -> dict[str, Any] | None:
    """The user's live hand message, as the bot remembers it."""
    hand = bot.hands.current(table_id, user)
    if hand is None:
        return None
    return fake.messages.get(fake.original.get(hand.interaction.token, ""))


def choices_of(hand: dict[str, Any], seq: int) -> list[dict[str, Any]]:
    """The enabled choices of a hand at ``seq``: card/choice buttons first,
    then menus (``pick``, the Blot ``lvl`` menu)."""
    buttons, menus = [], []
    for comp in components_of(hand):
        cid = comp.get("custom_id", "")
        if f":{seq}:" not in cid or comp.get("disabled"):
            continue
        if comp["type"] == 2 and ":act:" in cid:
            buttons.append(comp)
        elif comp["type"] == 3 and (":pick:" in cid or ":lvl:" in cid):
            menus.append(comp)
    return buttons + menus


async def start_game(
    bot: Any,
    fake: FakeDiscord,
    humans: tuple[int, ...],
    *,
    game: str = "callbreak",
    options: str | None = "rounds=1",
    fill: str = "normal",
) -> int:
    """``/table new`` by the first person, the others join, the host starts
    and fills the empty seats with AI players."""
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game=game, options=options), humans[0])
    await settle()
    assert fake.replies(start), "no answer to /table new"
    table_id = max(bot.service.tables)
    for user in humans[1:]:
        await click(bot, fake, table_message(fake, bot, table_id), r":join:", user)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":start:", humans[0])
    if bot.service.tables[table_id].status == "lobby":
        await click(bot, fake, answer_of(fake, replies), f":fill:{fill}", humans[0])
    assert bot.service.tables[table_id].status == "playing"
    return table_id


def decider_user(bot: Any, table_id: int) -> int | None:
    live = bot.service.tables.get(table_id)
    if live is None or live.status != "playing" or live.state.decider is None:
        return None
    return live.seats[live.state.decider].user_id


async def play_turn(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> dict[str, Any]:
    """``user`` makes the first choice their hand offers: from their live
    hand, else after "Show my hand".  Returns the hand message."""
    seq = bot.service.tables[table_id].info().seq
    hand = live_hand(fake, bot, table_id, user)
    if hand is None or not choices_of(hand, seq):
        replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
        hand = answer_of(fake, replies)
    target = choices_of(hand, seq)[0]
    values = [target["options"][0]["value"]] if target["type"] == 3 else None
    await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
    return hand


def _multipart(form: Any) -> tuple[dict[str, Any] | None, list[str]]:
    body: dict[str, Any] | None = None
    names: list[str] = []
    for part in form:
        if part.get("name") == "payload_json":
            body = _json.loads(part["value"])
        elif part.get("filename"):
            names.append(str(part["filename"]))
    return body, names


def _attachment(name: str) -> dict[str, Any]:
    ident = snowflake()
    return {
        "id": ident,
        "filename": name,
        "size": 1,
        "url": f"https://cdn.example/{ident}/{name}",
        "proxy_url": f"https://media.example/{ident}/{name}",
    }


def _http_error(failure: Failure) -> discord.HTTPException:
    response = SimpleNamespace(status=failure.status, reason="fake", headers={})
    data = {"code": failure.code, "message": failure.message}
    if failure.status == 403:
        return discord.Forbidden(response, data)  # type: ignore[arg-type]
    if failure.status == 404:
        return discord.NotFound(response, data)  # type: ignore[arg-type]
    if failure.status >= 500:
        return discord.DiscordServerError(response, data)  # type: ignore[arg-type]
    return discord.HTTPException(response, data)  # type: ignore[arg-type]


def route_params(route: Any) -> dict[str, str]:
    """The ids in a route's URL, by the names of its path template."""
    names = re.findall(r"{(\w+)}", route.path)
    pattern = re.escape(route.path)
    for name in names:
        pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>[^/]+)")
    match = re.search(pattern + "$", route.url.split("?")[0])
    return match.groupdict() if match else {}


def components_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row.get("components", [])]


def find_button(message: dict[str, Any], pattern: str) -> dict[str, Any]:
    for comp in components_of(message):
        if re.search(pattern, comp.get("custom_id", "")) or re.search(
            pattern, comp.get("label", "") or ""
        ):
            return comp
    raise AssertionError(
        f"no component matching {pattern!r} in {[c.get('label') for c in components_of(message)]}"
    )


def click_data(component: dict[str, Any], values: list[str] | None = None) -> dict[str, Any]:
    data = {"custom_id": component["custom_id"], "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    return data


def assert_limits(sent: Sent) -> None:
    """Discord's limits on every message payload we produce."""
    body = FakeDiscord.body_of(sent)
    if not isinstance(body, dict):
        return
    assert len(body.get("content") or "") <= LIMITS["content"], "content too long"
    embeds = body.get("embeds") or []
    assert len(embeds) <= 10
    total = 0
    for embed in embeds:
        total += len(embed.get("title", "")) + len(embed.get("description", ""))
        assert len(embed.get("title", "")) <= 256
        assert len(embed.get("description", "")) <= 4096
        assert len(embed.get("fields", [])) <= 25
        for f in embed.get("fields", []):
            assert len(f["name"]) <= 256 and len(f["value"]) <= 1024
            total += len(f["name"]) + len(f["value"])
        footer = (embed.get("footer") or {}).get("text", "")
        assert len(footer) <= 2048
        total += len(footer)
    assert total <= LIMITS["embed_total"], "embeds too long"
    rows = body.get("components") or []
    assert len(rows) <= LIMITS["rows"]
    for row in rows:
        comps = row.get("components", [])
        assert len(comps) <= LIMITS["per_row"]
        for comp in comps:
            assert len(comp.get("custom_id", "")) <= LIMITS["custom_id"]
            assert len(comp.get("label", "") or "") <= LIMITS["label"]
            if comp.get("type") == 3:
                assert 1 <= len(comp.get("options", [])) <= LIMITS["options"]
                assert len(comps) == 1
                assert len(comp.get("placeholder", "") or "") <= 150
            for option in comp.get("options", []):
                assert len(option["label"]) <= 100 and len(option["value"]) <= 100
                assert len(option.get("description", "") or "") <= 100


def is_ours(task: asyncio.Task[Any]) -> bool:
    name = task.get_name()
    if name == "cardtable-deadlines" or "timeout" in name:
        return False
    return name.startswith(
        (
            "CommandTree-invoker",
            "discord-ui-view-dispatch-",
            "discord-ui-dynamic-item-",
            "discord.py: ",
            "cardtable-",
        )
    )


def pending_tasks() -> list[asyncio.Task[Any]]:
    return [
        t
        for t in asyncio.all_tasks()
        if t is not asyncio.current_task() and not t.done() and is_ours(t)
    ]


async def settle(rounds: int = 500) -> None:
    """Wait until every task discord.py or the bot started has finished.
    The bot never polls, so an idle bot has no task of ours left."""
    for _ in range(rounds):
        await asyncio.sleep(0)
        pending = pending_tasks()
        if not pending:
            await asyncio.sleep(0)
            if not pending_tasks():
                return
            continue
        await asyncio.wait(pending, timeout=30)
    raise AssertionError(f"tasks did not settle: {[t.get_name() for t in pending_tasks()]}")

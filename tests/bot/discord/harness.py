"""Offline Discord: real discord.py parses our interaction payloads and
serialises what it would send; only its two network edges are faked
(``HTTPClient.request`` and ``AsyncWebhookAdapter.request``), per
shared/TESTING-DISCORD.md.  Every request is recorded; an unmodelled route
raises."""

from __future__ import annotations

import asyncio
import itertools
import re
from dataclasses import dataclass, field
from typing import Any

from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD = 800000000000000001
CHANNEL = 700000000000000001
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
    #: who may read it: "public", or a user id for an ephemeral reply
    audience: Any = "public"


@dataclass
class FakeDiscord:
    sent: list[Sent] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: interaction token -> (user id, ephemeral original?)
    tokens: dict[str, int] = field(default_factory=dict)
    ephemeral_tokens: set[str] = field(default_factory=set)
    #: called with every recorded request, as it is made (hidden-information checks)
    on_send: Any = None

    # -- the two seams ---------------------------------------------------------------
    def install(self, monkeypatch: Any) -> None:
        fake = self

        async def http_request(
            self_http: HTTPClient, route: Any, *, files: Any = None, form: Any = None, **kw: Any
        ) -> Any:
            return fake.rest(route, kw.get("json"), kw.get("params") or {})

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
            if payload is None and multipart:
                import json as _json

                payload = _json.loads(multipart[0]["value"])
            return fake.webhook(route, payload, params or {})

        monkeypatch.setattr(HTTPClient, "request", http_request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", hook_request)

    def message(
        self, channel_id: str, body: dict[str, Any], *, flags: int = 0, msg_id: str | None = None
    ) -> dict[str, Any]:
        msg = {
            "id": msg_id or snowflake(),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "author": {**user_payload(BOT_ID), "bot": True},
            "attachments": [],
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
        self.messages[msg["id"]] = msg
        return msg

    def rest(self, route: Any, body: Any, params: dict[str, Any]) -> Any:
        path, method = route.path, route.method
        rp = route_params(route)
        self.sent.append(Sent("rest", method, path, params, body, rp))
        self._notify()
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
        if (method, path) == ("POST", "/channels/{channel_id}/messages"):
            return self.message(str(rp["channel_id"]), body)
        if (method, path) == ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
            msg = self.messages[str(rp["message_id"])]
            msg.update({k: v for k, v in body.items() if k in ("content", "embeds", "components")})
            return msg
        if (method, path) == ("POST", "/channels/{channel_id}/messages/{message_id}/threads"):
            return {
                "id": snowflake(),
                "type": 11,
                "name": body.get("name", "t"),
                "guild_id": str(GUILD),
                "parent_id": str(rp["channel_id"]),
                "owner_id": str(BOT_ID),
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2026-11-23T00:00:00+00:00",
                    "locked": False,
                },
            }
        raise AssertionError(f"unmodelled REST route {method} {path}")

    def webhook(self, route: Any, body: Any, params: dict[str, Any]) -> Any:
        path, method = route.path, route.method
        token = getattr(route, "webhook_token", None)
        user = self.tokens.get(str(token))
        rp = {"webhook_id": getattr(route, "webhook_id", None), "token": token}
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            kind = body["type"]
            data = body.get("data") or {}
            ephemeral = bool(data.get("flags", 0) & 64)
            audience = user if ephemeral else "public"
            self.sent.append(Sent("interaction", method, path, params, body, rp, audience))
            interaction = {
                "id": str(rp["webhook_id"]),
                "type": 2,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            }
            if kind != 7:
                self._notify()
            if kind in (4, 5):
                msg = self.message(str(CHANNEL), data, flags=64 if ephemeral else 0)
                if ephemeral:
                    msg["_audience"] = user
                    self.ephemeral_tokens.add(str(token))
                interaction["response_message_id"] = msg["id"]
                return {"interaction": interaction, "resource": {"type": kind, "message": msg}}
            if kind == 7:  # update the message the component is on
                if str(token) in self.ephemeral_tokens:
                    self.sent[-1].audience = user
                self._notify()
                return {
                    "interaction": interaction,
                    "resource": {
                        "type": 7,
                        "message": {**self.message(str(CHANNEL), data), "flags": 0},
                    },
                }
            return {"interaction": interaction}
        if path.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            ephemeral = (
                bool((body or {}).get("flags", 0) & 64) or str(token) in self.ephemeral_tokens
            )
            self.sent.append(
                Sent("webhook", method, path, params, body, rp, user if ephemeral else "public")
            )
            self._notify()
            msg = self.message(str(CHANNEL), body or {}, flags=64 if ephemeral else 0)
            return msg
        raise AssertionError(f"unmodelled webhook route {method} {path}")

    def _notify(self) -> None:
        if self.on_send is not None:
            self.on_send(self.sent[-1])

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
    ) -> dict[str, Any]:
        iid, token = snowflake(), f"token{snowflake()}"
        self.tokens[token] = user_id
        payload = {
            "id": iid,
            "application_id": str(APP_ID),
            "type": kind,
            "token": token,
            "version": 1,
            "attachment_size_limit": 8388608,
            "guild_id": str(GUILD),
            "channel_id": str(CHANNEL),
            "channel": {
                "id": str(CHANNEL),
                "type": 0,
                "name": "card-tables",
                "position": 0,
                "guild_id": str(GUILD),
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
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "app_permissions": "0",
            "context": 0,
        }
        if message is not None:
            payload["message"] = {k: v for k, v in message.items() if not k.startswith("_")}
            if message.get("flags", 0) & 64:
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

    # -- reading what was sent --------------------------------------------------------------------
    def replies(self, since: int = 0) -> list[Sent]:
        return [s for s in self.sent[since:] if s.transport in ("interaction", "webhook")]

    @staticmethod
    def body_of(sent: Sent) -> dict[str, Any]:
        body = sent.json if isinstance(sent.json, dict) else {}
        return body.get("data", body) if sent.transport == "interaction" else body


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
    total = 0
    for embed in embeds:
        total += len(embed.get("title", "")) + len(embed.get("description", ""))
        assert len(embed.get("description", "")) <= 4096
        for f in embed.get("fields", []):
            assert len(f["name"]) <= 256 and len(f["value"]) <= 1024
            total += len(f["name"]) + len(f["value"])
        total += len((embed.get("footer") or {}).get("text", ""))
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
            for option in comp.get("options", []):
                assert len(option["label"]) <= 100 and len(option["value"]) <= 100


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


async def settle(rounds: int = 500) -> None:
    """Wait until every task discord.py or the bot started has finished."""
    for _ in range(rounds):
        await asyncio.sleep(0)
        pending = [
            t
            for t in asyncio.all_tasks()
            if t is not asyncio.current_task() and not t.done() and is_ours(t)
        ]
        if not pending:
            await asyncio.sleep(0)
            if not [
                t
                for t in asyncio.all_tasks()
                if t is not asyncio.current_task() and not t.done() and is_ours(t)
            ]:
                return
            continue
        await asyncio.wait(pending, timeout=30)
    raise AssertionError("tasks did not settle")

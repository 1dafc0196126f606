"""Per-server settings: defaults for every variant option of every game, the
turn timer, and a few guild-wide switches.  Every value is validated (game
options by the engine's ``Variant``) before it is stored, and every change
is authorised here from the caller's ``Actor`` (moderators only), so no
front end can change a setting without the check.

The server's ``language`` (``auto``: the server's Discord language) and a
person's own language (``user_language``, set with ``/language``) live here
too: Discord has no Armenian or Nepali client locale, so those players and
servers choose theirs (``bot.i18n.locales`` says who gets which)."""

from __future__ import annotations

from typing import Any

from bot.db.repositories import Store
from bot.i18n.locales import AUTO, choices, normalize
from bot.services.actor import Actor
from bot.services.errors import InvalidSetting, NotModerator, ServiceError
from engine import get_game
from engine.core.game import Game

TURN_SECONDS = (0, 3600)  # 0 = no timer
#: a turn ping waits this long for the player to act first (bot.discord.pings)
PING_AFTER_DEFAULT = 10
PING_AFTER = (0, 600)  # 0 = ping as the turn starts
GUILD_DEFAULTS: dict[str, Any] = {
    "rated_with_ai": False,
    "use_threads": True,
    "turn_pings": True,
    "ping_after": PING_AFTER_DEFAULT,
    "moderator_role_id": None,
    "language": AUTO,
    #: hints at unrated tables (bot.services.hints); off by default
    "hints": False,
}
MAX_VALUE_LENGTH = 64
MAX_ROLE_ID = 2**63 - 1
TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


class GuildSettings:
    def __init__(self, store: Store, turn_seconds_default: int) -> None:
        self.store = store
        self.turn_seconds_default = turn_seconds_default

    # -- authority ------------------------------------------------------------------
    async def is_moderator(self, actor: Actor) -> bool:
        """Manage Server, or the role the server named as its moderators.
        Outside a server (DM, terminal) only ``can_manage_server`` counts."""
        if actor.can_manage_server:
            return True
        if actor.guild_id is None:
            return False
        role_id = (await self.guild_settings(actor.guild_id)).get("moderator_role_id")
        return role_id is not None and int(role_id) in actor.role_ids

    async def require_moderator(self, actor: Actor) -> int:
        """The actor's server id, or a clear refusal."""
        if actor.guild_id is None:
            raise ServiceError("settings belong to a server: use this in a server", "no_server")
        if not await self.is_moderator(actor):
            raise NotModerator(
                "only moderators (Manage Server, or the server's moderator role) "
                "can change settings"
            )
        return actor.guild_id

    @staticmethod
    def parse_turn_seconds(value: Any) -> int:
        text = str(value).strip()
        try:
            if not (text.isascii() and text.lstrip("+-").isdigit()) or len(text) > 8:
                raise ValueError(text)
            seconds = int(text)
        except ValueError:
            raise InvalidSetting(
                "{setting} must be a whole number of seconds (got {value})",
                setting="turn_seconds",
                value=repr(value),
            ) from None
        if not (seconds == 0 or 15 <= seconds <= TURN_SECONDS[1]):
            raise InvalidSetting(
                "{setting} must be 0 (no timer) or 15..3600 (got {value})",
                "out_of_range",
                setting="turn_seconds",
                value=seconds,
            )
        return seconds

    async def game_settings(self, guild_id: int | None, game: str) -> dict[str, Any]:
        spec = get_game(game)
        values: dict[str, Any] = {
            **spec.Variant().to_dict(),
            "turn_seconds": self.turn_seconds_default,
        }
        if guild_id is not None:
            values.update(await self.store.settings(guild_id, game))
        return values

    async def set_game_setting(
        self, actor: Actor, game: str, key: str, value_text: str
    ) -> dict[str, Any]:
        guild_id = await self.require_moderator(actor)
        spec = get_game(game)
        check_game_keys(spec, [key])
        value_text = _clipped(value_text)
        if key == "turn_seconds":
            value: Any = self.parse_turn_seconds(value_text)
        else:
            value = spec.Variant.parse_value(key, value_text)
            current = await self.game_settings(guild_id, game)
            current.pop("turn_seconds")
            variant = spec.Variant.from_options({**current, key: value})  # validates
            value = variant.to_dict()[key]
        await self.store.put_setting(guild_id, game, key, value)
        return await self.game_settings(guild_id, game)

    async def reset_game_settings(
        self, actor: Actor, game: str, key: str | None = None
    ) -> dict[str, Any]:
        guild_id = await self.require_moderator(actor)
        spec = get_game(game)
        if key is not None:
            check_game_keys(spec, [key])  # unknown key -> clear error
        await self.store.delete_settings(guild_id, game, key)
        return await self.game_settings(guild_id, game)

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        values = dict(GUILD_DEFAULTS)
        if guild_id is not None:
            values.update(await self.store.settings(guild_id, ""))
        return values

    async def set_guild_setting(self, actor: Actor, key: str, value_text: str) -> dict[str, Any]:
        guild_id = await self.require_moderator(actor)
        if key not in GUILD_DEFAULTS:
            raise ServiceError(
                "unknown server setting {setting}; known: {known}",
                "unknown_setting",
                setting=repr(_clipped(key)),
                known=tuple(GUILD_DEFAULTS),
            )
        text = _clipped(value_text).strip().lower()
        if key == "moderator_role_id":
            if text in ("", "none", "0"):
                value: Any = None
            elif text.isascii() and text.isdigit() and 0 < int(text) <= MAX_ROLE_ID:
                value = int(text)
            else:
                raise ServiceError(
                    "{setting} must be a role (or 'none')", "bad_setting", setting=key
                )
        elif key == "language":
            value = self.parse_language(text)
        elif key == "ping_after":
            value = self.parse_ping_after(text)
        elif text in TRUE:
            value = True
        elif text in FALSE:
            value = False
        else:
            raise ServiceError(
                "{setting} must be true or false (got {value})",
                "bad_setting",
                setting=key,
                value=repr(_clipped(value_text)),
            )
        await self.store.put_setting(guild_id, "", key, value)
        return await self.guild_settings(guild_id)

    @staticmethod
    def parse_ping_after(text: str) -> int:
        """Whole seconds in 0..600 (0: ping as soon as the turn starts)."""
        low, high = PING_AFTER
        if text.isascii() and text.isdigit() and len(text) <= 4 and low <= int(text) <= high:
            return int(text)
        raise InvalidSetting(
            "{setting} must be {range} (got {value})",
            "out_of_range",
            setting="ping_after",
            range=(f"{low}..{high}",),
            value=repr(text),
        )

    @staticmethod
    def parse_language(text: str) -> str:
        """``auto`` or a language code we speak (``tr``, ``hy``, ``ne``, ``hi``, ``en``)."""
        value = text.strip().lower()
        if value == AUTO:
            return AUTO
        code = normalize(value)
        if code is None or code != value.split("-")[0]:
            raise ServiceError(
                "{setting} must be one of: {choices} (got {value})",
                "bad_setting",
                setting="language",
                choices=", ".join(choices()),
                value=repr(value),
            )
        return code

    # -- a person's own language ------------------------------------------------------
    async def user_language(self, user_id: int) -> str | None:
        """The language a person chose with ``/language`` (None: not chosen)."""
        value = (await self.store.user_settings(user_id)).get("language")
        return normalize(value) if isinstance(value, str) else None

    async def set_user_language(self, actor: Actor, text: str) -> str | None:
        """Store a person's language (``auto``: forget it, follow Discord)."""
        code = self.parse_language(_clipped(text))
        await self.store.put_user_setting(actor.user_id, "language", code)
        return None if code == AUTO else code

    async def set_moderator_role(self, actor: Actor, role_id: int | None) -> dict[str, Any]:
        """Name the server's moderator role (a role picked in Discord, not typed)."""
        return await self.set_guild_setting(actor, "moderator_role_id", str(role_id or "none"))


def game_keys(spec: Game) -> tuple[str, ...]:
    """Every setting a game's table takes: its variant's, and the turn timer."""
    return (*(s.name for s in spec.Variant.settings()), "turn_seconds")


def check_game_keys(spec: Game, keys: Any) -> None:
    """Refuse a key the game does not have, naming every one it has."""
    known = game_keys(spec)
    for key in keys:
        if key not in known:
            raise InvalidSetting(
                "{game} has no setting {setting}; its settings: {known}",
                "unknown_setting",
                game=spec.name,
                setting=repr(_clipped(key)),
                known=known,
            )


def parse_options(text: str | None) -> dict[str, str]:
    """``"rounds=3 max_bid=10"`` (or comma-separated) -> {"rounds": "3",
    "max_bid": "10"}: what every front end reads a table's options with.
    A part without ``key=value``, or a key given twice (``rounds=3
    rounds=4``: which one was meant?), is refused and nothing is made."""
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise InvalidSetting(
                "options look like 'rounds=3 max_bid=10' (got {value})",
                "bad_option",
                value=repr(_short(part)),
            )
        add_option(options, key, value)
    return options


def add_option(options: dict[str, str], key: str, value: str) -> None:
    """Add ``key=value``, refusing a key already given."""
    if key in options:
        raise InvalidSetting(
            "{setting} is given twice ({first} and {second}): give each setting once",
            "repeated_option",
            setting=_short(key),
            first=repr(_short(options[key])),
            second=repr(_short(value)),
        )
    options[key] = value


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clipped(value: Any) -> str:
    """Settings values are short: refuse anything long before parsing it."""
    text = str(value)
    if len(text) > MAX_VALUE_LENGTH:
        raise ServiceError(
            "that value is too long (at most {limit} characters)",
            "bad_setting",
            limit=MAX_VALUE_LENGTH,
        )
    return text

"""Per-server settings: defaults for every variant option of every game, the
turn timer, and a few guild-wide switches.  Every value is validated (game
options by the engine's ``Variant``) before it is stored."""

from __future__ import annotations

from typing import Any

from bot.db.repositories import Store
from bot.services.errors import ServiceError
from engine import InvalidVariant, get_game

TURN_SECONDS = (0, 3600)  # 0 = no timer
GUILD_DEFAULTS: dict[str, Any] = {
    "rated_with_ai": False,
    "use_threads": True,
    "moderator_role_id": None,
}
TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


class GuildSettings:
    def __init__(self, store: Store, turn_seconds_default: int) -> None:
        self.store = store
        self.turn_seconds_default = turn_seconds_default

    @staticmethod
    def parse_turn_seconds(value: Any) -> int:
        try:
            seconds = int(str(value).strip())
        except ValueError:
            raise InvalidVariant(
                f"turn_seconds must be a whole number of seconds (got {value!r})"
            ) from None
        if not (seconds == 0 or 15 <= seconds <= TURN_SECONDS[1]):
            raise InvalidVariant(
                f"turn_seconds must be 0 (no timer) or 15..3600 (got {seconds})", "out_of_range"
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
        self, guild_id: int, game: str, key: str, value_text: str
    ) -> dict[str, Any]:
        spec = get_game(game)
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
        self, guild_id: int, game: str, key: str | None = None
    ) -> dict[str, Any]:
        spec = get_game(game)
        if key is not None and key != "turn_seconds":
            spec.Variant.spec(key)  # unknown key -> clear error
        await self.store.delete_settings(guild_id, game, key)
        return await self.game_settings(guild_id, game)

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        values = dict(GUILD_DEFAULTS)
        if guild_id is not None:
            values.update(await self.store.settings(guild_id, ""))
        return values

    async def set_guild_setting(self, guild_id: int, key: str, value_text: str) -> dict[str, Any]:
        if key not in GUILD_DEFAULTS:
            raise ServiceError(
                f"unknown server setting {key!r}; known: {', '.join(GUILD_DEFAULTS)}",
                "unknown_setting",
            )
        text = str(value_text).strip().lower()
        if key == "moderator_role_id":
            if text in ("", "none", "0"):
                value: Any = None
            elif text.isdigit():
                value = int(text)
            else:
                raise ServiceError("moderator_role_id must be a role id (or 'none')", "bad_setting")
        elif text in TRUE:
            value = True
        elif text in FALSE:
            value = False
        else:
            raise ServiceError(f"{key} must be true or false (got {value_text!r})", "bad_setting")
        await self.store.put_setting(guild_id, "", key, value)
        return await self.guild_settings(guild_id)

"""/settings show|set|reset|role: per-server game defaults, the server's
switches and its moderator role; /pings: how a player is told it is their
turn.

Who may change settings is decided by the service (moderators: Manage
Server, or the server's moderator role); its ``NotModerator`` refusal
reaches the user as an ephemeral "⚠️ ..." through the app-command error
handler.  ``default_permissions(manage_guild=True)`` only asks Discord to
show /settings to managers by default (a server can widen that in its
Integrations settings).  That is also why the ping preference is a command
of its own: every player needs it, and a subcommand of /settings would be
hidden from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import SERVER, key_choices, settings_game_autocomplete, value_choices
from bot.ui import render
from bot.ui.actors import actor_of

if TYPE_CHECKING:
    from bot.client import CardBot

PING_MODES = [
    app_commands.Choice(name="in the table's channel (or its thread)", value="channel"),
    app_commands.Choice(name="by direct message", value="dm"),
    app_commands.Choice(name="off", value="off"),
]
NO_MENTIONS = discord.AllowedMentions.none()


def server_text(values: dict[str, Any]) -> str:
    role = values.get("moderator_role_id")
    lines = ["**Server settings**"]
    for key, value in values.items():
        if key == "moderator_role_id":
            continue
        lines.append(f"`{key}` = {str(value).lower() if isinstance(value, bool) else value}")
    who = f"<@&{int(role)}>" if role else "none (Manage Server only)"
    lines.append(f"Moderator role: {who} — change it with `/settings role`")
    return render.clip("\n".join(lines))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog, group_name="settings", group_description="Server defaults for each game"
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        return self.bot.service

    async def _show(self, game: str, guild_id: int | None) -> str:
        if game == SERVER:
            return server_text(await self.service.get_guild_settings(guild_id))
        values = await self.service.get_settings(guild_id, game)
        return render.settings_text(game, values)

    async def _reply(self, interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.send_message(
            render.clip(text), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    # -- autocomplete --------------------------------------------------------------------------
    async def _keys(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return key_choices(getattr(interaction.namespace, "game", None), current)

    async def _values(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        namespace = interaction.namespace
        return value_choices(
            getattr(namespace, "game", None), getattr(namespace, "key", None), current
        )

    # -- commands --------------------------------------------------------------------------------
    @app_commands.command(name="show", description="Show the settings for a game (or 'server')")
    @app_commands.autocomplete(game=settings_game_autocomplete)
    async def show(self, interaction: discord.Interaction[Any], game: str) -> None:
        await self._reply(interaction, await self._show(game, interaction.guild_id))

    @app_commands.command(name="set", description="Change a setting (moderators)")
    @app_commands.describe(
        game="A game, or 'server' for the server's switches",
        key="The setting to change",
        value="Its new value",
    )
    @app_commands.autocomplete(game=settings_game_autocomplete, key=_keys, value=_values)
    async def set_(
        self, interaction: discord.Interaction[Any], game: str, key: str, value: str
    ) -> None:
        actor = actor_of(interaction)
        if game == SERVER and key == "moderator_role_id":
            await self._reply(interaction, "Pick the moderator role with `/settings role`.")
            return
        if game == SERVER:
            await self.service.set_guild_setting(actor, key, value)
        else:
            await self.service.set_setting(actor, game, key, value)
        await self._reply(interaction, "Saved.\n" + await self._show(game, interaction.guild_id))

    @app_commands.command(name="reset", description="Back to the defaults (moderators)")
    @app_commands.describe(key="One setting (leave empty to reset them all)")
    @app_commands.autocomplete(game=settings_game_autocomplete, key=_keys)
    async def reset(
        self, interaction: discord.Interaction[Any], game: str, key: str | None = None
    ) -> None:
        await self.service.reset_settings(actor_of(interaction), game, key)
        await self._reply(interaction, "Reset.\n" + await self._show(game, interaction.guild_id))

    @app_commands.command(
        name="role", description="The role whose members are moderators here (empty: none)"
    )
    @app_commands.describe(role="Members with this role may change settings and end tables")
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        await self.service.set_moderator_role(
            actor_of(interaction), role.id if role is not None else None
        )
        if role is None:
            text = "No moderator role any more: only members with Manage Server are moderators."
        else:
            text = f"Moderators here: members with Manage Server, and members with {role.mention}."
        await self._reply(interaction, text)


class Pings(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="pings", description="How Card Table tells you it is your turn")
    @app_commands.describe(mode="channel (default), direct message, or off")
    @app_commands.choices(mode=PING_MODES)
    async def pings(
        self, interaction: discord.Interaction[Any], mode: app_commands.Choice[str]
    ) -> None:
        await self.bot.service.set_ping_preference(actor_of(interaction), mode.value)
        text = {
            "channel": "I'll mention you in the table's channel (or thread) when it is your turn.",
            "dm": "I'll send you a direct message when it is your turn.",
            "off": "No more turn pings: open your hand with **Show my hand** when you like.",
        }.get(mode.value, "Saved.")
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(SettingsCog(bot))
    await bot.add_cog(Pings(bot))

"""/settings show|set|reset: per-server game defaults, for moderators
(Manage Server, or the role the server names in ``moderator_role_id``).
Use the game ``server`` for the server-wide switches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_autocomplete
from bot.services.errors import NotModerator
from bot.ui import render

if TYPE_CHECKING:
    from bot.client import CardBot

SERVER = "server"


class ModeratorOnly(app_commands.CheckFailure):
    """A settings change by someone who is not a moderator."""


async def moderator_only(interaction: discord.Interaction[Any]) -> bool:
    """The bot-side guard (Discord's default_permissions is only a hint to
    clients): Manage Server, or the server's moderator role."""
    bot: CardBot = interaction.client  # type: ignore[assignment]
    if await bot.is_moderator(interaction):
        return True
    message = "only moderators (Manage Server, or the server's moderator role) can change settings"
    raise ModeratorOnly(str(NotModerator(message)))


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog, group_name="settings", group_description="Server defaults for each game"
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    async def _show(self, game: str, guild_id: int) -> str:
        if game == SERVER:
            values = await self.bot.service.get_guild_settings(guild_id)
            return "**Server settings**\n" + "\n".join(f"`{k}` = {v}" for k, v in values.items())
        values = await self.bot.service.get_settings(guild_id, game)
        return render.settings_text(game, values)

    @app_commands.command(name="show", description="Show the settings for a game (or 'server')")
    @app_commands.autocomplete(game=game_autocomplete)
    async def show(self, interaction: discord.Interaction[Any], game: str) -> None:
        await interaction.response.send_message(
            await self._show(game, interaction.guild_id or 0), ephemeral=True
        )

    @app_commands.command(name="set", description="Change a setting (moderators)")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.check(moderator_only)
    async def set_(
        self, interaction: discord.Interaction[Any], game: str, key: str, value: str
    ) -> None:
        guild = interaction.guild_id or 0
        if game == SERVER:
            await self.bot.service.set_guild_setting(guild, key, value)
        else:
            await self.bot.service.set_setting(guild, game, key, value)
        await interaction.response.send_message(
            "Saved.\n" + await self._show(game, guild), ephemeral=True
        )

    @app_commands.command(name="reset", description="Back to the defaults (moderators)")
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.check(moderator_only)
    async def reset(
        self, interaction: discord.Interaction[Any], game: str, key: str | None = None
    ) -> None:
        guild = interaction.guild_id or 0
        await self.bot.service.reset_settings(guild, game, key)
        await interaction.response.send_message(
            "Reset.\n" + await self._show(game, guild), ephemeral=True
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(SettingsCog(bot))

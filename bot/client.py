"""``CardBot``: the discord.py bot, built from a ``Settings`` object so a test
can give it a temporary database and no token (RoboDanny's shape: a thin
launcher, a Bot subclass whose setup_hook loads one extension per feature,
a broken extension logged and not fatal)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.db.repositories import Store
from bot.services.tables import TableService
from bot.settings import Settings
from bot.ui import custom_ids
from bot.ui.handler import ComponentHandler
from bot.ui.items import TableButton, TableSelect
from bot.ui.presenter import Presenter
from engine import EngineError

log = logging.getLogger(__name__)
EXTENSIONS = ("bot.cogs.tables", "bot.cogs.stats", "bot.cogs.settings")


class CardBot(commands.Bot):
    def __init__(
        self, settings: Settings, *, turn_seconds_default: int = 90, ai_budget_ms: int = 300
    ) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.settings = settings
        self.store = Store(settings.database_url)
        self.service = TableService(
            self.store, turn_seconds_default=turn_seconds_default, ai_budget_ms=ai_budget_ms
        )
        self.components = ComponentHandler(self)
        self.presenter = Presenter(self, settings.edit_interval)
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def setup_hook(self) -> None:
        await self.store.migrate()
        self.service.subscribe(self.presenter.on_update)
        self.add_dynamic_items(TableButton, TableSelect)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("extension %s failed to load", extension)
        await self.service.start()
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        await self.presenter.close()
        await self.service.close()
        await self.store.close()
        await super().close()

    async def is_moderator(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the role the server named as its moderators."""
        perms = interaction.permissions
        if perms.manage_guild or perms.administrator:
            return True
        if interaction.guild_id is None:
            return False
        role_id = (await self.service.get_guild_settings(interaction.guild_id)).get(
            "moderator_role_id"
        )
        roles = getattr(interaction.user, "_roles", None) or []
        return role_id is not None and int(role_id) in {int(r) for r in roles}

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component that is not one of ours (or is malformed) gets a clear
        answer instead of Discord's 'This interaction failed'."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if custom_ids.parse(custom_id) is None:
            await interaction.response.send_message(
                "⚠️ That button is not one Card Table knows (it may be from an old version).",
                ephemeral=True,
            )

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.CheckFailure) and isinstance(
            cause.__cause__, EngineError
        ):
            cause = cause.__cause__
        if isinstance(cause, EngineError):
            text = f"⚠️ {cause}"
        elif isinstance(cause, app_commands.CheckFailure):
            text = f"⚠️ {cause}" if str(cause) else "⚠️ You are not allowed to do that."
        else:
            log.error("command failed", exc_info=cause)
            text = "⚠️ Something went wrong; the table is unchanged."
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

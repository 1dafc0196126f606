"""/table new|join|leave|hand|status|abandon."""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_autocomplete, parse_options
from bot.services.errors import TableNotFound
from bot.ui import render
from bot.ui.image import render_table_png
from bot.ui.items import lobby_view, table_view

if TYPE_CHECKING:
    from bot.client import CardBot


class Tables(
    commands.GroupCog, group_name="table", group_description="Card tables: create, join and play"
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    async def _pick_table(self, interaction: discord.Interaction[Any], table: int | None) -> int:
        if table is not None:
            return table
        mine = await self.bot.service.tables_for_user(interaction.guild_id, interaction.user.id)
        if not mine:
            raise TableNotFound("you are not seated at any table here: give the table number")
        return mine[-1].id

    @app_commands.command(name="new", description="Open a table for a game and post its lobby")
    @app_commands.describe(
        game="The game to play", options="Settings for this table, e.g. rounds=3 max_bid=10"
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def new(
        self, interaction: discord.Interaction[Any], game: str, options: str | None = None
    ) -> None:
        info = await self.bot.service.create_table(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            game=game,
            options=parse_options(options),
        )
        response = await interaction.response.send_message(
            embed=render.lobby_embed(info), view=lobby_view(info)
        )
        await self.bot.service.set_message(
            info.id, channel_id=interaction.channel_id, message_id=response.message_id
        )

    @app_commands.command(name="join", description="Take a seat at a table")
    async def join(self, interaction: discord.Interaction[Any], table: int) -> None:
        info = await self.bot.service.join(
            table, interaction.user.id, interaction.user.display_name
        )
        await interaction.response.send_message(f"You joined table #{info.id}.", ephemeral=True)

    @app_commands.command(name="leave", description="Leave a table's lobby")
    async def leave(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        table_id = await self._pick_table(interaction, table)
        await self.bot.service.leave(table_id, interaction.user.id)
        await interaction.response.send_message(f"You left table #{table_id}.", ephemeral=True)

    @app_commands.command(name="hand", description="Show your hand (only you can see it)")
    async def hand(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        table_id = await self._pick_table(interaction, table)
        await self.bot.components.send_hand(interaction, table_id)

    @app_commands.command(name="status", description="Show a table")
    async def status(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        table_id = await self._pick_table(interaction, table)
        info, view = await self.bot.service.public_view(table_id)
        if view is None:
            await interaction.response.send_message(embed=render.lobby_embed(info), ephemeral=True)
        else:
            names = render.seat_names(info)
            png = await asyncio.to_thread(render_table_png, view, names)
            embed = render.table_embed(info, view)
            embed.set_image(url="attachment://table.png")
            await interaction.response.send_message(
                embed=embed,
                view=table_view(info),
                file=discord.File(io.BytesIO(png), filename="table.png"),
                ephemeral=True,
            )

    @app_commands.command(name="abandon", description="End a table (host or moderator)")
    async def abandon(
        self, interaction: discord.Interaction[Any], table: int | None = None
    ) -> None:
        table_id = await self._pick_table(interaction, table)
        moderator = await self.bot.is_moderator(interaction)
        await self.bot.service.abandon(table_id, interaction.user.id, is_moderator=moderator)
        await interaction.response.send_message(f"Table #{table_id} was abandoned.", ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Tables(bot))

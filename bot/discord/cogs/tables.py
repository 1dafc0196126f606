"""/table new|join|leave|hand|status|abandon.

Every call goes to the service with the caller's ``Actor`` (built from the
interaction only); the service decides who may do what and its refusals
(``EngineError``) reach the user as "⚠️ ..." through the app-command
error handler.  This cog checks only what the service cannot know: that
the bot may show a table in this channel at all.  Replies to the caller are
in their language (set for the command by ``CardBot.in_their_language``);
what the channel sees (the lobby) is in the server's.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord import embeds
from bot.discord.actors import actor_of
from bot.discord.cogs.common import game_autocomplete, option_choices, table_choices
from bot.discord.handler import joined_text
from bot.discord.items import lobby_view, resign_confirm_view, table_view
from bot.i18n import N_, t, using
from bot.render import messages
from bot.render.picture.table import render_table_png
from bot.services.errors import TableNotFound
from bot.services.settings import parse_options

if TYPE_CHECKING:
    from bot.discord.client import CardBot

#: what the bot needs in a channel to show a table there
# i18n: the names of Discord's permissions, as your language's Discord client shows them
NEEDED = (
    ("view_channel", N_("View Channel")),
    ("send_messages", N_("Send Messages")),
    ("embed_links", N_("Embed Links")),
    ("attach_files", N_("Attach Files")),
    ("read_message_history", N_("Read Message History")),
)
#: and, when the server keeps each table's deal summaries in a thread
NEEDED_FOR_THREADS = (
    ("create_public_threads", N_("Create Public Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)

#: and, for a tournament: each board table plays in a private thread of the
#: channel, which the bot opens and adds the table's players to
NEEDED_FOR_BOARDS = (
    ("create_private_threads", N_("Create Private Threads")),
    ("send_messages_in_threads", N_("Send Messages in Threads")),
)


def missing_permissions(
    perms: discord.Permissions, *, threads: bool, in_thread: bool = False, boards: bool = False
) -> list[str]:
    """The permissions the bot lacks to show a table here, by their names
    in Discord's settings.  Inside a thread, posting needs "Send Messages in
    Threads" and no thread of its own is opened.  ``boards``: a tournament's
    tables, each in a private thread."""
    if perms.administrator:
        return []
    if in_thread:
        needed = tuple(
            ("send_messages_in_threads", N_("Send Messages in Threads"))
            if n == "send_messages"
            else (n, label)
            for n, label in NEEDED
        )
    else:
        needed = NEEDED + (NEEDED_FOR_THREADS if threads else ())
    if boards:
        needed += tuple(p for p in NEEDED_FOR_BOARDS if p not in needed)
    return [label for name, label in needed if not getattr(perms, name)]


def missing_text(missing: list[str], *, threads: bool) -> str:
    names = ", ".join(f"**{t(m)}**" for m in missing)
    text = "⚠️ " + t(
        "I can't show a table in this channel: I'm missing {permissions} here. A server "
        "admin can grant them in the channel's settings (Edit Channel → Permissions → Card "
        "Table), or start the table in another channel.",
        permissions=names,
    )
    if threads and all(m in dict(NEEDED_FOR_THREADS).values() for m in missing):
        text += " " + t(
            "Or turn tables' threads off: `/settings set game:server key:use_threads value:false`."
        )
    return messages.clip(text)


class Tables(
    commands.GroupCog,
    group_name="table",
    group_description=_("Card tables: create, join and play"),
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self) -> Any:
        return self.bot.service

    async def _pick_table(self, interaction: discord.Interaction[Any], table: int | None) -> int:
        """The table given, else the caller's newest table on this server."""
        if table is not None:
            return table
        mine = await self.service.tables_for_user(actor_of(interaction))
        if not mine:
            raise TableNotFound("you are not seated at any table here: give the table number")
        return int(mine[0].id)

    # -- autocomplete -------------------------------------------------------------------------
    async def _lobbies(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        tables = await self.service.open_tables(actor_of(interaction))
        return table_choices([t for t in tables if t.status == "lobby"], current)

    async def _mine(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return table_choices(await self.service.tables_for_user(actor_of(interaction)), current)

    async def _any(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return table_choices(await self.service.open_tables(actor_of(interaction)), current)

    async def _options(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return option_choices(getattr(interaction.namespace, "game", None), current)

    # -- commands ------------------------------------------------------------------------------
    @app_commands.command(name="new", description=_("Open a table for a game and post its lobby"))
    @app_commands.describe(
        game=_("The game to play"), options=_("Settings for this table, e.g. rounds=3 max_bid=10")
    )
    @app_commands.autocomplete(game=game_autocomplete, options=_options)
    async def new(
        self, interaction: discord.Interaction[Any], game: str, options: str | None = None
    ) -> None:
        actor = actor_of(interaction)
        if interaction.guild_id is not None:
            guild = await self.service.get_guild_settings(interaction.guild_id)
            in_thread = isinstance(interaction.channel, discord.Thread)
            threads = bool(guild.get("use_threads", True)) and not in_thread
            missing = missing_permissions(
                interaction.app_permissions, threads=threads, in_thread=in_thread
            )
            if missing:
                await interaction.response.send_message(
                    missing_text(missing, threads=threads), ephemeral=True
                )
                return
        info = await self.service.create_table(
            actor, game=game, channel_id=interaction.channel_id, options=parse_options(options)
        )
        with using(await self.bot.languages.for_channel(interaction)):
            embed, view = embeds.lobby_embed(info), lobby_view(info)
        response = await interaction.response.send_message(embed=embed, view=view)
        await self.service.set_message(
            info.id, channel_id=interaction.channel_id, message_id=response.message_id
        )

    @app_commands.command(name="join", description=_("Take a seat at a table"))
    @app_commands.describe(table=_("An open table of this server"))
    @app_commands.autocomplete(table=_lobbies)
    async def join(self, interaction: discord.Interaction[Any], table: int) -> None:
        actor = actor_of(interaction)
        info = await self.service.join(table, actor)
        await interaction.response.send_message(
            joined_text(info.id, info.seat_of(actor.user_id)), ephemeral=True
        )

    @app_commands.command(
        name="leave", description=_("Leave a lobby, or resign a game (an AI takes your seat)")
    )
    @app_commands.describe(table=_("One of your tables (default: your newest)"))
    @app_commands.autocomplete(table=_mine)
    async def leave(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        actor = actor_of(interaction)
        table_id = await self._pick_table(interaction, table)
        info = await self.service.get_table(table_id, actor)
        if info.status == "playing" and info.seat_of(actor.user_id) is not None:
            await interaction.response.send_message(
                t(
                    "Leave table #{table}? An AI plays your seat from now on and the game "
                    "counts as a **loss** for you.",
                    table=table_id,
                ),
                view=resign_confirm_view(info),
                ephemeral=True,
            )
            return
        await self.service.leave(table_id, actor)
        await interaction.response.send_message(
            t("You left table #{table}.", table=table_id), ephemeral=True
        )

    @app_commands.command(name="hand", description=_("Show your hand (only you can see it)"))
    @app_commands.describe(table=_("One of your tables (default: your newest)"))
    @app_commands.autocomplete(table=_mine)
    async def hand(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        table_id = await self._pick_table(interaction, table)
        await self.bot.components.send_hand(interaction, table_id)

    @app_commands.command(name="status", description=_("Show a table (only to you)"))
    @app_commands.describe(table=_("A table of this server (default: your newest)"))
    @app_commands.autocomplete(table=_any)
    async def status(self, interaction: discord.Interaction[Any], table: int | None = None) -> None:
        actor = actor_of(interaction)
        table_id = await self._pick_table(interaction, table)
        info, view = await self.service.public_view(table_id, actor)
        if view is None:
            await interaction.response.send_message(embed=embeds.lobby_embed(info), ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        png = await asyncio.to_thread(
            render_table_png,
            view,
            messages.seat_names(info),
            away=[s.away for s in info.seats],
            title=messages.table_title(info),
        )
        embed = embeds.table_embed(info, view)
        embed.set_image(url="attachment://table.png")
        await interaction.edit_original_response(
            embed=embed,
            view=table_view(info, activity=self.bot.activity_enabled),
            attachments=[discord.File(io.BytesIO(png), filename="table.png")],
        )

    @app_commands.command(name="abandon", description=_("End a table (host or moderator)"))
    @app_commands.describe(table=_("A table of this server (default: your newest)"))
    @app_commands.autocomplete(table=_any)
    async def abandon(
        self, interaction: discord.Interaction[Any], table: int | None = None
    ) -> None:
        table_id = await self._pick_table(interaction, table)
        await self.service.abandon(table_id, actor_of(interaction))
        await interaction.response.send_message(
            t("Table #{table} was abandoned.", table=table_id), ephemeral=True
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Tables(bot))

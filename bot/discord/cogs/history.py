"""/history, /table history and /replay (issue 16).

The cog holds no rules and decides nothing: the history service
(``bot.services.history``) checks, from the caller's ``Actor``, that the
table is of this server and (for a replay) that its match is over; this
cog renders what it returns.  Every answer is the caller's alone
(ephemeral, in their language).  Interactions are acknowledged first: a
replay is rebuilt from the stored log and drawn before the reply.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actors import actor_of
from bot.discord.cogs.common import game_autocomplete
from bot.discord.history_items import ReplayButton, replay_view
from bot.i18n import set_current, t
from bot.i18n.errors import error_text
from bot.i18n.terms import game_title
from bot.render import messages
from bot.render.history_text import (
    deal_lines,
    history_lines,
    reader_names,
    replay_lines,
    trend_points,
)
from bot.render.picture.history import rating_trend_png
from bot.render.picture.table import render_table_png
from bot.services import history
from engine import EngineError, get_game

if TYPE_CHECKING:
    from bot.discord.client import CardBot

PICTURE = "replay.png"
TREND_PICTURE = "rating.png"


def _replay_message(
    table_id: int, replayed: history.ReplayedMatch, deal: int, trick: int
) -> tuple[str, discord.File, discord.ui.View]:
    """The text, the table picture and the buttons of one replay step
    (CPU work: run in a thread)."""
    pos = history.position(replayed.replay, deal, trick)
    text = messages.clip("\n".join(replay_lines(replayed.match, replayed.replay, pos)))
    view_at = history.public_view_at(replayed.match, history.actions_until(pos))
    names = list(reader_names(replayed.match))  # the program's words in the reader's language
    png = render_table_png(view_at, names, title=f"#{table_id}")
    picture = discord.File(io.BytesIO(png), filename=PICTURE)
    return text, picture, replay_view(table_id, replayed.replay, pos)


class History(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description=_("A player's recent matches on this server"))
    @app_commands.describe(user=_("The player (default: you)"), game=_("Only this game"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def history_command(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = user or interaction.user
        matches = await history.player_history(self.bot.store, actor_of(interaction), who.id, game)
        name = messages.plain_name(who.display_name)
        if not matches:
            text = t("{name} has no finished games here yet.", name=name)
        else:
            text = "\n".join(history_lines(name, matches))
        points = trend_points(matches)
        extra: dict[str, Any] = {}
        if points:
            title = f"{name} — {game_title(matches[0].game, get_game(matches[0].game).title)}"
            png = await asyncio.to_thread(rating_trend_png, points, title)
            extra["file"] = discord.File(io.BytesIO(png), filename=TREND_PICTURE)
        await interaction.followup.send(
            messages.clip(text),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
            **extra,
        )

    @app_commands.command(
        name="replay", description=_("Step through a finished match with every hand shown")
    )
    @app_commands.describe(table=_("The table number"), deal=_("Start at this deal"))
    async def replay_command(
        self, interaction: discord.Interaction[Any], table: int, deal: int = 1
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        replayed = await history.match_replay(self.bot.store, actor_of(interaction), table)
        text, picture, view = await asyncio.to_thread(_replay_message, table, replayed, deal, 0)
        await interaction.followup.send(text, file=picture, view=view, ephemeral=True)

    async def step(
        self, interaction: discord.Interaction[Any], table: int, deal: int, trick: int
    ) -> None:
        """A step button: the same message moves to (deal, trick)."""
        set_current(await self.bot.languages.for_person(interaction))
        await interaction.response.defer()
        try:
            replayed = await history.match_replay(self.bot.store, actor_of(interaction), table)
            text, picture, view = await asyncio.to_thread(
                _replay_message, table, replayed, deal, trick
            )
        except EngineError as exc:
            await interaction.followup.send(messages.clip("⚠️ " + error_text(exc)), ephemeral=True)
            return
        await interaction.edit_original_response(content=text, attachments=[picture], view=view)


@app_commands.describe(table=_("The table number"))
async def table_history(interaction: discord.Interaction[Any], table: int) -> None:
    """``/table history``: the deals of a match, public facts only."""
    bot: CardBot = interaction.client
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await history.table_deals(bot.store, actor_of(interaction), table)
    text = messages.clip("\n".join(deal_lines(found.match, found.deals)))
    await interaction.followup.send(text, ephemeral=True)


def _table_history_command() -> app_commands.Command[Any, Any, None]:
    return app_commands.Command(
        name="history",
        description=_("The deals of a table: calls, contract, tricks and scores"),
        callback=table_history,
    )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(History(bot))
    bot.add_dynamic_items(ReplayButton)
    group = bot.tree.get_command("table")
    if isinstance(group, app_commands.Group) and group.get_command("history") is None:
        group.add_command(_table_history_command())

"""/leaderboard, /stats and /rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.common import game_autocomplete
from bot.ui import render
from bot.ui.text import fmt_score
from engine import get_game

if TYPE_CHECKING:
    from bot.client import CardBot


def _unit(game: str) -> str:
    return "tenths" if game == "callbreak" else "points"


class Stats(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="leaderboard", description="The best players of a game on this server"
    )
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        spec = get_game(game)
        rows = await self.bot.service.leaderboard(interaction.guild_id, spec.name)
        if not rows:
            await interaction.response.send_message(f"No {spec.title} games finished here yet.")
            return
        lines = [f"**{spec.title} leaderboard**"]
        for i, r in enumerate(rows, 1):
            lines.append(
                f"{i}. <@{r.user_id}> — rating {r.rating:.1f}, {r.won}/{r.played} won, "
                f"{fmt_score(r.points, _unit(spec.name))} points"
            )
        await interaction.response.send_message(
            render.clip("\n".join(lines)), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description="A player's games on this server")
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        who = user or interaction.user
        rows = await self.bot.service.stats(interaction.guild_id, who.id)
        if not rows:
            await interaction.response.send_message(
                render.clip(
                    f"{render.plain_name(who.display_name)} has no finished games here yet."
                ),
                ephemeral=True,
            )
            return
        lines = [f"**{render.plain_name(who.display_name)}**"]
        for game, r in rows.items():
            lines.append(f"{get_game(game).title}: {r.won}/{r.played} won, rating {r.rating:.1f}")
        await interaction.response.send_message(render.clip("\n".join(lines)), ephemeral=True)

    @app_commands.command(
        name="rules", description="A game's rules in short and the settings in force here"
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        spec = get_game(game)
        values = await self.bot.service.get_settings(interaction.guild_id, spec.name)
        text = f"**{spec.title}** — {spec.summary}\n" + "\n".join(
            f"• {line}" for line in spec.rules_lines
        )
        text += "\n\n" + render.settings_text(spec.name, values)
        await interaction.response.send_message(render.clip(text), ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Stats(bot))

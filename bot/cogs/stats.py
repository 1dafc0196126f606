"""/leaderboard, /stats and /rules (the rule book: ``bot/rulebook``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import rulebook
from bot.cogs.common import game_autocomplete
from bot.ui import render
from bot.ui.actors import actor_of
from bot.ui.text import fmt_score
from engine import EngineError, get_game
from engine.errors import quote

if TYPE_CHECKING:
    from bot.client import CardBot


def _unit(game: str) -> str:
    return "tenths" if game == "callbreak" else "points"


# -- /rules: the rule book as embeds -------------------------------------------------------------
EMBEDS_MAX = 10
EMBED_TOTAL = 6000
DESCRIPTION_MAX = 4096
TITLE_MAX = 256
RULES_COLOUR = discord.Colour.dark_green()


def _for_discord(body: str) -> str:
    """Markdown tables do not render in Discord: set them in code blocks."""
    out: list[str] = []
    in_table = False
    for line in body.splitlines():
        is_row = line.lstrip().startswith("|")
        if is_row != in_table:
            out.append("```")
            in_table = is_row
        out.append(line)
    if in_table:
        out.append("```")
    return "\n".join(out)


def rules_embeds(game: str, pages: list[rulebook.Section]) -> list[discord.Embed]:
    """Embeds for ``pages`` in order, as many as one message holds (10
    embeds, 6000 characters); the last one's footer names every section and
    how to open one."""
    title = rulebook.title(game)
    every = [s.title for s in rulebook.sections(game)]
    footer = render.clip(
        f"Sections: {' · '.join(every)}. Open one with /rules game:{game} section:", 2048
    )
    embeds: list[discord.Embed] = []
    used = len(footer) + 24 + sum(len(t) + 3 for t in every)  # room for "Not shown here"
    for page in pages:
        head = render.clip(f"{title} — {page.title}", TITLE_MAX)
        body = render.clip(_for_discord(page.body), DESCRIPTION_MAX)
        if len(embeds) == EMBEDS_MAX or used + len(head) + len(body) > EMBED_TOTAL:
            break
        used += len(head) + len(body)
        embeds.append(discord.Embed(title=head, description=body, colour=RULES_COLOUR))
    if not embeds:  # a page too long to share a message with the footer: shorten it
        page = pages[0]
        head = render.clip(f"{title} — {page.title}", TITLE_MAX)
        room = EMBED_TOTAL - len(footer) - len(head)
        body = render.clip(_for_discord(page.body), min(DESCRIPTION_MAX, room))
        embeds.append(discord.Embed(title=head, description=body, colour=RULES_COLOUR))
    shown = {page.title for page in pages[: len(embeds)]}
    rest = [t for t in every if t not in shown]
    if len(pages) > len(embeds):  # the rest of the book: named first
        footer = render.clip(f"Not shown here: {' · '.join(rest)}. {footer}", 2048)
    embeds[-1].set_footer(text=footer)
    return embeds


async def section_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    """The sections of the rule book of the game already chosen."""
    try:
        game = get_game(str(getattr(interaction.namespace, "game", "") or "")).name
    except EngineError:
        return []
    low = (current or "").strip().lower()
    titles = [s.title for s in rulebook.sections(game) if low in s.title.lower()]
    return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:25]]


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

    async def _phase(self, interaction: discord.Interaction[Any], game: str) -> str:
        """The phase of the caller's newest running table of ``game`` here ("" if none)."""
        actor = actor_of(interaction)
        for info in await self.bot.service.tables_for_user(actor):
            if info.game == game and info.status == "playing":
                _, view = await self.bot.service.public_view(info.id, actor)
                return view.phase if view is not None else ""
        return ""

    @app_commands.command(
        name="rules", description="A game's rule book and the settings in force here"
    )
    @app_commands.describe(
        game="the game", section="one section of the rule book (names complete as you type)"
    )
    @app_commands.autocomplete(game=game_autocomplete, section=section_autocomplete)
    async def rules(
        self, interaction: discord.Interaction[Any], game: str, section: str | None = None
    ) -> None:
        """The settings in force here (the message text) and the rule book as
        embeds, one per section: from the top as far as one message holds,
        or the section asked for.  No components: a slash option with
        autocomplete works the same after a restart."""
        spec = get_game(game)
        title = rulebook.title(spec.name)
        if section is not None and section.strip():
            found = rulebook.section(spec.name, section)
            if found is None:
                names = ", ".join(s.title for s in rulebook.sections(spec.name))
                text = f"⚠️ The {title} rule book has no section {quote(section)}; try: {names}."
                await interaction.response.send_message(render.clip(text), ephemeral=True)
                return
            pages = [found]
        else:
            pages = rulebook.for_phase(spec.name, await self._phase(interaction, spec.name))
        values = await self.bot.service.get_settings(interaction.guild_id, spec.name)
        await interaction.response.send_message(
            render.settings_text(spec.name, values),
            embeds=rules_embeds(spec.name, pages),
            ephemeral=True,
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Stats(bot))

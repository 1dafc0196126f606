"""/leaderboard, /stats and /rules (the rule book: ``bot/rulebook``, in the
caller's language when it is translated: ``bot/rulebook/<lang>/<game>.md``).

/leaderboard is public (the server's language); /stats and /rules answer
the caller alone (their language)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import rulebook
from bot.discord.actors import actor_of
from bot.discord.cogs.common import game_autocomplete
from bot.i18n import current, t, using
from bot.i18n.terms import game_title
from bot.render import messages, tournament_help
from bot.render.text import points_text
from engine import EngineError, get_game
from engine.errors import quote

if TYPE_CHECKING:
    from bot.discord.client import CardBot


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


def rules_embeds(
    game: str, pages: list[rulebook.Section], lang: str | None = None
) -> list[discord.Embed]:
    """Embeds for ``pages`` in order, as many as one message holds (10
    embeds, 6000 characters); the last one's footer names every section and
    how to open one."""
    title = rulebook.title(game, lang)
    every = [s.title for s in rulebook.sections(game, lang)]
    every.append(tournament_help.section_title())
    footer = messages.clip(
        t(
            "Sections: {sections}. Open one with /rules game:{game} section:",
            sections=" · ".join(every),
            game=game,
        ),
        2048,
    )
    embeds: list[discord.Embed] = []
    used = len(footer) + 24 + sum(len(t) + 3 for t in every)  # room for "Not shown here"
    for page in pages:
        head = messages.clip(f"{title} — {page.title}", TITLE_MAX)
        body = messages.clip(_for_discord(page.body), DESCRIPTION_MAX)
        if len(embeds) == EMBEDS_MAX or used + len(head) + len(body) > EMBED_TOTAL:
            break
        used += len(head) + len(body)
        embeds.append(discord.Embed(title=head, description=body, colour=RULES_COLOUR))
    if not embeds:  # a page too long to share a message with the footer: shorten it
        page = pages[0]
        head = messages.clip(f"{title} — {page.title}", TITLE_MAX)
        room = EMBED_TOTAL - len(footer) - len(head)
        body = messages.clip(_for_discord(page.body), min(DESCRIPTION_MAX, room))
        embeds.append(discord.Embed(title=head, description=body, colour=RULES_COLOUR))
    shown = {page.title for page in pages[: len(embeds)]}
    rest = [t for t in every if t not in shown]
    if len(pages) > len(embeds):  # the rest of the book: named first
        footer = messages.clip(
            t("Not shown here: {sections}.", sections=" · ".join(rest)) + " " + footer, 2048
        )
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
    every = [s.title for s in rulebook.sections(game, _book_language())]
    every.append(tournament_help.section_title())
    titles = [title for title in every if low in title.lower()]
    return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:25]]


def _is_tournaments(section: str) -> bool:
    """The tournaments section, asked for in the reader's words or in English."""
    asked = " ".join(section.split()).casefold()
    return asked in {tournament_help.section_title().casefold(), "tournaments", "tournament"}


def _book_language() -> str:
    """The rule book's language: the caller's (set for the command)."""
    return current().code


class Stats(commands.Cog):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="leaderboard", description=_("The best players of a game on this server")
    )
    @app_commands.describe(game=_("The game"))
    @app_commands.autocomplete(game=game_autocomplete)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction[Any], game: str) -> None:
        spec = get_game(game)
        rows = await self.bot.service.leaderboard(interaction.guild_id, spec.name)
        with using(await self.bot.languages.for_channel(interaction)):
            title = game_title(spec.name, spec.title)
            if not rows:
                text = t("No {game} games finished here yet.", game=title)
                await interaction.response.send_message(text)
                return
            lines = ["**" + t("{game} leaderboard", game=title) + "**"]
            for i, r in enumerate(rows, 1):
                row = t(
                    "{who} — rating {rating}, {won}/{played} won, {points}",
                    who=f"<@{r.user_id}>",
                    rating=f"{r.rating:.1f}",
                    won=r.won,
                    played=r.played,
                    points=points_text(r.points, _unit(spec.name)),
                )
                lines.append(f"{i}. {row}")
        await interaction.response.send_message(
            messages.clip("\n".join(lines)), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(name="stats", description=_("A player's games on this server"))
    @app_commands.describe(user=_("The player (default: you)"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        who = user or interaction.user
        rows = await self.bot.service.stats(interaction.guild_id, who.id)
        if not rows:
            await interaction.response.send_message(
                messages.clip(
                    t(
                        "{name} has no finished games here yet.",
                        name=messages.plain_name(who.display_name),
                    )
                ),
                ephemeral=True,
            )
            return
        lines = [f"**{messages.plain_name(who.display_name)}**"]
        for game, r in rows.items():
            row = t(
                "{won}/{played} won, rating {rating}",
                won=r.won,
                played=r.played,
                rating=f"{r.rating:.1f}",
            )
            lines.append(f"{game_title(game, get_game(game).title)}: {row}")
        await interaction.response.send_message(messages.clip("\n".join(lines)), ephemeral=True)

    async def _phase(self, interaction: discord.Interaction[Any], game: str) -> str:
        """The phase of the caller's newest running table of ``game`` here ("" if none)."""
        actor = actor_of(interaction)
        for info in await self.bot.service.tables_for_user(actor):
            if info.game == game and info.status == "playing":
                _, view = await self.bot.service.public_view(info.id, actor)
                return view.phase if view is not None else ""
        return ""

    @app_commands.command(
        name="rules", description=_("A game's rule book and the settings in force here")
    )
    @app_commands.describe(
        game=_("the game"), section=_("one section of the rule book (names complete as you type)")
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
        lang = _book_language()
        title = rulebook.title(spec.name, lang)
        if section is not None and section.strip():
            found = rulebook.section(spec.name, section, lang) or rulebook.section(
                spec.name, section
            )
            if found is None and _is_tournaments(section):
                found = rulebook.Section(
                    tournament_help.section_title(), tournament_help.help_text()
                )
            if found is None:
                names = ", ".join(s.title for s in rulebook.sections(spec.name, lang))
                text = "⚠️ " + t(
                    "The {book} rule book has no section {section}; try: {names}.",
                    book=title,
                    section=quote(section),
                    names=names,
                )
                await interaction.response.send_message(messages.clip(text), ephemeral=True)
                return
            pages = [found]
        else:
            phase = await self._phase(interaction, spec.name)
            pages = rulebook.for_phase(spec.name, phase, lang)
        values = await self.bot.service.get_settings(interaction.guild_id, spec.name)
        await interaction.response.send_message(
            messages.settings_text(spec.name, values),
            embeds=rules_embeds(spec.name, pages, lang),
            ephemeral=True,
        )


async def setup(bot: CardBot) -> None:
    await bot.add_cog(Stats(bot))

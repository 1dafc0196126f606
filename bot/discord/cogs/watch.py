"""/table watch|hint|analyse: spectating, hints and post-game analysis.

These three commands join the ``/table`` group of ``bot.discord.cogs.tables``
(``setup`` adds them to that cog's group before the commands are synced),
so the group's cog needs no change.  Every decision is the service's:
``LiveWatchers`` renders only the spectator view (``services.watching``),
``services.hints.hint`` decides whether a hint may be given and computes it
from the seat's own view, ``AnalysisJobs`` refuses a live table and runs
the analysis in a worker thread.  Replies are ephemeral, in the caller's
language; refusals replace the "thinking" note with a "⚠️" line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.discord.actors import actor_of
from bot.discord.cogs.common import table_choices
from bot.discord.live_watch import LiveWatchers
from bot.discord.replies import clip
from bot.i18n import t, tn
from bot.i18n.errors import error_text
from bot.render.text import label_for
from bot.services.analysis_jobs import AnalysisJobs
from bot.services.errors import TableNotFound
from bot.services.hints import hint as service_hint
from engine import EngineError, parse_action
from engine.ai.analysis import Analysis

if TYPE_CHECKING:
    from bot.discord.client import CardBot

log = logging.getLogger(__name__)
#: flagged decisions listed in the answer (the message must stay under 2000 characters)
MAX_FLAGGED = 8
#: how often the "Analysing..." note shows how far the analysis got
PROGRESS_SECONDS = 5.0


def action_label(text: str) -> str:
    """A stored action as a player reads it (``KC`` -> ``K♣``)."""
    try:
        return label_for(parse_action(text))
    except EngineError:
        return text


def analysis_text(table_id: int, name: str, analysis: Analysis) -> str:
    """Per-deal accuracy and the flagged decisions, in the current language."""
    unit = t("points") if analysis.unit == "points" else t("winning chance")
    lines = [
        "🔎 "
        + t("Analysis of {name} at table #{table}", name=name, table=table_id)
        + (
            ""
            if analysis.complete
            else " "
            + t(
                "(time ran out: {done} of {total} decisions analysed)",
                done=analysis.analysed,
                total=analysis.total,
            )
        )
    ]
    for deal in analysis.deals:
        accuracy = "—" if deal.accuracy is None else f"{deal.accuracy:.0f}%"
        lines.append(
            t("Deal {deal}: accuracy {accuracy}", deal=deal.deal, accuracy=accuracy)
            + " · "
            + tn(
                "{count} decision flagged",
                "{count} decisions flagged",
                deal.flagged,
                count=deal.flagged,
            )
        )
    for verdict in analysis.flagged[:MAX_FLAGGED]:
        amount = f"{verdict.loss:.0f}" if verdict.loss >= 10 else f"{verdict.loss:.2g}"
        lines.append(
            "• "
            + t(
                "Deal {deal}: {chosen} here cost about {amount} {unit}: {best} was better",
                deal=verdict.deal,
                chosen=action_label(verdict.chosen),
                amount=amount,
                unit=unit,
                best=action_label(verdict.best),
            )
        )
    if not analysis.flagged and analysis.analysed:
        lines.append(t("No decision cost enough to flag. Well played!"))
    return clip("\n".join(lines))


@dataclass
class Features:
    """What the three commands use, kept on the bot as ``bot.watching``."""

    watchers: LiveWatchers
    analysis: AnalysisJobs


#: the attribute of the bot that holds the ``Features``
ATTRIBUTE = "watching"


def features_of(bot: Any) -> Features:
    found = getattr(bot, ATTRIBUTE)
    assert isinstance(found, Features)
    return found


class Progress:
    """``(done, total)`` as the analysis thread reports it (read by the loop)."""

    def __init__(self) -> None:
        self.seen: tuple[int, int] = (0, 0)

    def __call__(self, done: int, total: int) -> None:
        self.seen = (done, total)  # one tuple assignment: atomic under the GIL


def add_commands(bot: CardBot, group: app_commands.Group) -> None:
    """Add watch, hint and analyse to the ``/table`` group."""
    service = bot.service

    async def any_table(
        interaction: discord.Interaction[Any], current_text: str
    ) -> list[app_commands.Choice[int]]:
        return table_choices(await service.open_tables(actor_of(interaction)), current_text)

    async def mine(
        interaction: discord.Interaction[Any], current_text: str
    ) -> list[app_commands.Choice[int]]:
        return table_choices(await service.tables_for_user(actor_of(interaction)), current_text)

    async def refuse(interaction: discord.Interaction[Any], exc: EngineError) -> None:
        await interaction.edit_original_response(content=clip(f"⚠️ {error_text(exc)}"))

    @app_commands.command(name="watch", description=_("Watch a table: a view only you see"))
    @app_commands.describe(table=_("A table of this server"))
    @app_commands.autocomplete(table=any_table)
    async def watch(interaction: discord.Interaction[Any], table: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await features_of(bot).watchers.show(interaction, table)
        except EngineError as exc:
            await refuse(interaction, exc)

    @app_commands.command(name="hint", description=_("Ask the AI for a hint (casual tables)"))
    @app_commands.describe(table=_("One of your tables (default: your newest)"))
    @app_commands.autocomplete(table=mine)
    async def hint(interaction: discord.Interaction[Any], table: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = actor_of(interaction)
        try:
            if table is None:
                tables = await service.tables_for_user(actor)
                if not tables:
                    raise TableNotFound(
                        "you are not seated at any table here: give the table number"
                    )
                table = int(tables[0].id)
            found = await service_hint(service, table, actor)
        except EngineError as exc:
            await refuse(interaction, exc)
            return
        await interaction.edit_original_response(
            content=t(
                "💡 Table #{table}: the hard AI would choose **{action}** (only you see this).",
                table=found.table.id,
                action=label_for(found.action),
            )
        )

    @app_commands.command(
        name="analyse", description=_("Analyse a finished match: each deal's accuracy")
    )
    @app_commands.describe(
        table=_("A finished table of this server"), user=_("The player (default: you)")
    )
    async def analyse(
        interaction: discord.Interaction[Any], table: int, user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        actor = actor_of(interaction)
        who = user or interaction.user
        jobs = features_of(bot).analysis
        try:
            await jobs.check(table, actor, who.id)

            def note(done: int | None = None, total: int | None = None) -> str:
                text = "⏳ " + t(
                    "Analysing {name}'s decisions at table #{table} (up to {seconds} s)…",
                    name=who.display_name,
                    table=table,
                    seconds=round(jobs.budget),
                )
                if total:
                    text += " " + t("{done} of {total} done", done=done, total=total)
                return text

            await interaction.edit_original_response(content=note())
            progress = Progress()
            job = asyncio.create_task(
                jobs.run(table, actor, who.id, progress=progress),
                name=f"cardtable-analysis-{table}",
            )
            try:
                shown = progress.seen
                while not job.done():
                    await asyncio.wait({job}, timeout=PROGRESS_SECONDS)
                    if not job.done() and progress.seen != shown:
                        shown = progress.seen
                        with contextlib.suppress(discord.HTTPException):
                            await interaction.edit_original_response(content=note(*shown))
            finally:
                job.cancel()  # nothing if it is done; the caller went away otherwise
            info, _seat, result = job.result()
        except EngineError as exc:
            await refuse(interaction, exc)
            return
        text = analysis_text(info.id, who.display_name, result)
        await interaction.edit_original_response(content=text)

    group.add_command(watch)
    group.add_command(hint)
    group.add_command(analyse)


async def setup(bot: CardBot) -> None:
    """Needs ``bot.discord.cogs.tables`` loaded first (it owns the ``/table`` group)."""
    tables = bot.get_cog("Tables")
    if tables is None:
        raise RuntimeError("bot.discord.cogs.watch needs bot.discord.cogs.tables")
    group = tables.app_command
    assert group is not None
    watchers = LiveWatchers(
        bot.service, language=bot.languages.for_person, edit_interval=bot.settings.edit_interval
    )
    setattr(bot, ATTRIBUTE, Features(watchers, AnalysisJobs(bot.service)))
    bot.service.subscribe(watchers.on_update)
    add_commands(bot, group)


async def teardown(bot: CardBot) -> None:
    await features_of(bot).watchers.close()

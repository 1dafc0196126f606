"""/tournament new|join|start|standings|leaderboard|help: duplicate
tournaments (issue 16, ``bot.services.tournaments``).

The service decides everything (moderators only for ``new``, the host or a
moderator for ``start``) from the caller's ``Actor``; its refusals reach the
user as "⚠️ ..." through the app-command error handler.  The channel gets
one standings message per tournament, posted by ``new`` and edited as
players join and boards finish (in the server's language).  A standings
message never shows a card: only entrants and scores of boards played at
every table.  Each board table with people at it plays in a private thread
of the channel whose members are its players (``_on_table``), where the
presenter shows it: every table of a board holds the same hands, so nothing
of a board may reach the channel (docs/history-and-tournaments.md, "How
tournament tables are kept apart").
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.discord.actors import actor_of
from bot.discord.cogs.common import game_autocomplete
from bot.discord.cogs.tables import NEEDED_FOR_BOARDS, missing_permissions, missing_text
from bot.i18n import t, tn, using
from bot.i18n.terms import game_title
from bot.render import messages
from bot.render.tournament_help import help_text
from bot.services.tournaments import FINISHED, LOBBY, TournamentInfo, TournamentService
from engine import get_game

if TYPE_CHECKING:
    from bot.discord.client import CardBot

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()
SHOWN_ROWS = 32


def standings_text(info: TournamentInfo) -> str:
    """The standings message: what is played, who is in, the standings of
    the boards played at every table (no card is ever shown)."""
    spec = get_game(info.game)
    lines = [
        "**"
        + t(
            "Duplicate tournament #{id}: {game}, {boards} at {tables}",
            id=info.id,
            game=game_title(spec.name, spec.title),
            # i18n: in "Duplicate tournament #1: Callbreak, 4 boards at 2 tables"
            boards=tn("{n} board", "{n} boards", info.boards),
            # i18n: in "Duplicate tournament #1: Callbreak, 4 boards at 2 tables"
            tables=tn("{n} table", "{n} tables", info.tables),
        )
        + "**"
    ]
    if info.status == LOBBY:
        joined = [", ".join(f"<@{p}>" for p in people) for people in info.people if people]
        lines.append(
            t(
                "Join with /tournament join; a moderator starts it with /tournament start. "
                "Empty places are played by AI."
            )
        )
        lines.append(t("Joined: {people}", people=" · ".join(joined) if joined else "—"))
        return messages.clip("\n".join(lines))
    if info.status == FINISHED:
        lines.append(t("Final standings"))
    elif info.round is not None:
        lines.append(
            t(
                "Board {board} of {boards} is being played.",
                board=info.round + 1,
                boards=info.boards,
            )
        )
    for row in info.standings[:SHOWN_ROWS]:
        if row.imps is not None:
            text = t(
                "{rank}. {name}: {imps} IMPs, {percent}% of the matchpoints",
                rank=row.rank,
                name=row.name,
                imps=f"{row.imps:+.1f}",
                percent=f"{row.percentage:.1f}",
            )
        else:
            text = t(
                "{rank}. {name}: {percent}% of the matchpoints",
                rank=row.rank,
                name=row.name,
                percent=f"{row.percentage:.1f}",
            )
        lines.append(text)
    return messages.clip("\n".join(lines))


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog,
    group_name="tournament",
    group_description=_("Duplicate tournaments: the same deals at every table"),
):
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.service = TournamentService(bot.service)
        self.service.listeners.append(self._on_change)
        self.service.table_listeners.append(self._on_table)
        self._resume: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        # follow the tables before the table service resumes them, then
        # reload the unfinished tournaments once it has
        self.service.subscribe()
        self._resume = asyncio.create_task(self._resume_later(), name="cardtable-tournaments")

    async def cog_unload(self) -> None:
        if self._resume is not None:
            self._resume.cancel()
            await asyncio.gather(self._resume, return_exceptions=True)
        await self.service.close()

    async def _resume_later(self) -> None:
        """Once the table service has started and resumed its tables (its
        public awaitable: no polling), reload the unfinished tournaments.
        A service that fails to start raises here instead of leaving this
        task waiting for ever."""
        try:
            await self.bot.service.resumed()
        except Exception:
            log.exception("the table service did not start: tournaments are not resumed")
            return
        try:
            await self.service.resume()
        except Exception:
            log.exception("tournaments could not be resumed")

    # -- the channel ------------------------------------------------------------------------
    async def _on_change(self, info: TournamentInfo) -> None:
        """Edit the standings message (the server's language)."""
        if info.message is None:
            return
        channel_id, message_id = info.message
        with using(await self.bot.languages.for_server(info.guild_id)):
            content = standings_text(info)
        try:
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(
                content=content, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException as exc:
            log.warning("tournament %s: standings not edited (%s)", info.id, exc)

    async def _on_table(self, table_id: int) -> None:
        """A board table with people at it, seated and not yet started, gets
        a private thread of the tournament's channel that only its players
        (and those who may manage threads: the moderators) read, and its
        table message there.  Every table of a board holds the same hands:
        nothing of it may reach the channel, where the other tables' players
        read.  If no thread can be made the table is shown nowhere (its
        players play with /table hand) and the channel is told why."""
        info = await self.bot.service.get_table(table_id)
        people = [s.user_id for s in info.seats if s.human and s.user_id is not None]
        where = self.service.boards.get(table_id)
        if not people or where is None or info.channel_id is None:
            return
        tournament_id, table_no, board = where
        with using(await self.bot.languages.for_server(info.guild_id)):
            name = t(
                "Tournament #{id}, board {board}, table {table}",
                id=tournament_id,
                board=board + 1,
                table=table_no + 1,
            )
        try:
            thread = await self.bot.http.start_thread_without_message(
                info.channel_id,
                name=name[:100],
                auto_archive_duration=1440,
                type=discord.ChannelType.private_thread.value,
                invitable=False,
            )
            thread_id = int(thread["id"])
            for user_id in people:
                await self.bot.http.add_user_to_thread(thread_id, user_id)
        except discord.HTTPException as exc:
            log.warning("tournament %s: no private thread for table %s (%s)", tournament_id,
                        table_id, exc)  # fmt: skip
            await self._no_thread(info, exc)
            return
        await self.bot.service.set_message(table_id, channel_id=thread_id, thread_id=thread_id)
        self.bot.presenter.show_in_thread(await self.bot.service.get_table(table_id), thread_id)

    async def _no_thread(self, info: Any, exc: discord.HTTPException) -> None:
        """Tell the tournament's channel (no card: just the table and the fix)."""
        with using(await self.bot.languages.for_server(info.guild_id)):
            text = "⚠️ " + t(
                "I could not open a private thread for table #{table} (Discord said: {said}). "
                "Its players play with /table hand. A server admin can give me {permissions} "
                "in this channel.",
                table=info.id,
                said=exc.text or exc.status,
                permissions=", ".join(t(label) for _, label in NEEDED_FOR_BOARDS),
            )
        try:
            await self.bot.get_partial_messageable(info.channel_id).send(
                messages.clip(text), allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException:
            return

    # -- commands ---------------------------------------------------------------------------
    @app_commands.command(name="new", description=_("Open a duplicate tournament (moderators)"))
    @app_commands.describe(
        game=_("The game"),
        boards=_("How many boards (deals) every table plays, 1 to 36"),
        tables=_("How many tables, 2 to 16"),
    )
    @app_commands.autocomplete(game=game_autocomplete)
    async def new(
        self, interaction: discord.Interaction[Any], game: str, boards: int, tables: int
    ) -> None:
        if isinstance(interaction.channel, discord.Thread):
            await interaction.response.send_message(
                "⚠️ "
                + t(
                    "Open a tournament in a text channel: its tables play in private threads "
                    "of that channel, and a thread cannot hold threads."
                ),
                ephemeral=True,
            )
            return
        missing = missing_permissions(interaction.app_permissions, threads=False, boards=True)
        if missing:
            await interaction.response.send_message(
                missing_text(missing, threads=False), ephemeral=True
            )
            return
        info = await self.service.new(
            actor_of(interaction), game=game, boards=boards, tables=tables
        )
        with using(await self.bot.languages.for_channel(interaction)):
            content = standings_text(info)
        await interaction.response.send_message(content, allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response()
        await self.service.set_message(info.id, message.channel.id, message.id)

    @app_commands.command(name="join", description=_("Join the tournament of this channel"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        info = await self.service.join(actor_of(interaction))
        text = t("You joined tournament #{id}.", id=info.id)
        perms = interaction.permissions
        if perms.manage_threads or perms.administrator:
            # Discord lets them read every private thread: the service cannot stop that
            text += " " + t(
                "You may manage threads here, so Discord lets you open the other tables' "
                "private threads: please don't until your own table has finished the board."
            )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="start", description=_("Start the tournament of this channel (host or moderators)")
    )
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        # making the first round's tables takes a moment: acknowledge first
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.service.start(actor_of(interaction))
        await interaction.edit_original_response(
            content=t("Tournament #{id} has started: board 1 is being played.", id=info.id)
        )

    @app_commands.command(
        name="standings", description=_("The standings of this channel's tournament")
    )
    async def standings(self, interaction: discord.Interaction[Any]) -> None:
        info = await self.service.get(actor_of(interaction))
        await interaction.response.send_message(
            standings_text(info), ephemeral=True, allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(
        name="leaderboard", description=_("The best tournament players of this server")
    )
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        rows = await self.service.leaderboard(interaction.guild_id)
        with using(await self.bot.languages.for_channel(interaction)):
            if not rows:
                text = t("No tournaments finished here yet.")
            else:
                lines = ["**" + t("Tournament leaderboard") + "**"]
                for i, r in enumerate(rows, 1):
                    row = t(
                        "{who}: {won} won of {played}, {percent}% of the matchpoints on average",
                        who=f"<@{r.user_id}>",
                        won=r.won,
                        played=r.played,
                        percent=f"{r.percentage:.1f}",
                    )
                    lines.append(f"{i}. {row}")
                text = "\n".join(lines)
        await interaction.response.send_message(messages.clip(text), allowed_mentions=NO_MENTIONS)

    @app_commands.command(name="help", description=_("How duplicate tournaments work"))
    async def help_(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(messages.clip(help_text()), ephemeral=True)


async def setup(bot: CardBot) -> None:
    await bot.add_cog(TournamentCog(bot))

"""``CardBot``: the discord.py bot, built from a ``Settings`` object so a test
can give it a temporary database and no token (RoboDanny's shape: a thin
launcher, a Bot subclass whose setup_hook loads one extension per feature,
a broken extension logged and not fatal).

The flow it wires together: the ``ComponentHandler`` answers clicks, the
``Presenter`` (with ``LiveHands`` and ``TurnPings``) keeps the channel up
to date from service updates.  Authority is the service's: every call
carries the clicker's ``Actor`` (``bot.discord.actors.actor_of``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.db.repositories import Store
from bot.discord import custom_ids
from bot.discord.activity import ActivityButton, is_activity_id, web_server
from bot.discord.actors import actor_of
from bot.discord.command_names import CommandTranslator
from bot.discord.handler import ComponentHandler
from bot.discord.health import Health, HealthServer
from bot.discord.history_items import is_replay_id
from bot.discord.items import TableButton, TableSelect
from bot.discord.languages import Languages
from bot.discord.live_hands import LiveHands
from bot.discord.metrics import Metrics
from bot.discord.pings import TurnPings
from bot.discord.presenter import Presenter
from bot.discord.replies import clip
from bot.i18n import N_, set_current, t, using
from bot.i18n.errors import error_text
from bot.i18n.locales import pick
from bot.services.policy import discord_tables
from bot.services.tables import TableService
from bot.services.thinking import Thinker
from bot.settings import Settings
from bot.web.launches import Launches
from engine import EngineError

log = logging.getLogger(__name__)
EXTENSIONS = (
    "bot.discord.cogs.tables",
    "bot.discord.cogs.watch",
    "bot.discord.cogs.stats",
    "bot.discord.cogs.settings",
    "bot.discord.cogs.history",
    "bot.discord.cogs.tournaments",
)
UNKNOWN_COMPONENT = N_("That button is not one Card Table knows (it may be from an old version).")
RESTARTING = N_("Card Table is restarting: nothing was changed. Try again in a minute.")
#: interaction types answered while shutting down (a command, a component, a modal);
#: an autocomplete (4) cannot carry a message and is left unanswered
ANSWERED_WHILE_CLOSING = frozenset({2, 3, 5})


class CardBot(commands.Bot):
    """The bot.  With ``SHARD_COUNT`` > 1, ``CardBot(settings)`` is a
    ``ShardedCardBot``: discord.py's ``AutoShardedBot`` running the shards
    of ``SHARD_IDS`` (all by default) in this process, whose service resumes
    and drives only those shards' tables (README, "Running several
    processes")."""

    def __new__(cls, settings: Settings, *args: Any, **kwargs: Any) -> CardBot:
        if cls is CardBot and settings.shard_count > 1:
            cls = ShardedCardBot
        return super().__new__(cls)

    def __init__(
        self,
        settings: Settings,
        *,
        turn_seconds_default: int = 90,
        ai_budget_ms: int | None = None,
        clock: Callable[[], float] = time.time,
        hand_clock: Callable[[], float] = time.monotonic,
        ping_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        shard_options: dict[str, Any] = {}
        if isinstance(self, commands.AutoShardedBot):
            shard_options = {
                "shard_count": settings.shard_count,
                "shard_ids": sorted(settings.shards.ids),
            }
        #: this bot's Prometheus metrics (its own registry: tests make many bots)
        self.metrics = Metrics()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            http_trace=self.metrics.trace,  # REST requests and 429s by route
            **shard_options,
        )
        self.settings = settings
        self.store = Store(
            settings.database_url,
            shards=settings.shards,
            synchronous=settings.sqlite_synchronous,
        )
        self.service = TableService(
            self.store,
            clock=clock,
            turn_seconds_default=turn_seconds_default,
            ai_budget_ms=settings.ai_budget_ms if ai_budget_ms is None else ai_budget_ms,
            thinker=Thinker(settings.ai_workers, max_queue_wait_ms=settings.ai_queue_wait_ms),
            owns=discord_tables,
        )
        self.languages = Languages(self.service, self)
        self.components = ComponentHandler(self)
        self.hands = LiveHands(self.service, clock=hand_clock, language=self.languages.for_person)
        self.pings = TurnPings(self, clock=ping_clock)
        #: the web table (the Discord Activity), when WEB_PORT is set (bot/discord/activity.py)
        self.launches = Launches()
        self.web_server = web_server(
            settings, self.service, self.launches, lambda: self.application_id
        )
        self.presenter = Presenter(
            self,
            settings.edit_interval,
            self.hands,
            self.pings,
            activity=self.activity_enabled,
        )
        self.metrics.attach(self)
        self.health = Health(self)
        #: /healthz and /metrics (bot/discord/health.py), when HEALTH_PORT is set
        self.health_server: HealthServer | None = None
        if settings.health_port is not None:
            self.health_server = HealthServer(
                self.health, self.metrics, settings.health_host, settings.health_port
            )
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = self.in_their_language  # type: ignore[method-assign]
        self._shutdown: asyncio.Future[None] | None = None
        self._refusals: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        if self.health_server is not None:  # answers "not connected yet" meanwhile
            await self.health_server.start()
        await self.store.migrate()
        self.service.subscribe(self.presenter.on_update)
        self.add_dynamic_items(TableButton, TableSelect, ActivityButton)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("extension %s failed to load", extension)
        await self.tree.set_translator(CommandTranslator())  # commands in tr and hi
        # people are served while the rest is replayed (a table asked for is resumed first)
        await self.service.start(wait=False)
        if self.web_server is not None:  # the Activity: same service, same tables
            await self.web_server.start()
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def close(self) -> None:
        """discord.py's ``close`` (and ``async with bot``): the whole
        ``shutdown``, so no path closes the gateway before the moves are
        stored."""
        await self.shutdown()

    async def shutdown(self) -> None:
        """Stop the bot cleanly; SIGTERM and SIGINT end here (``bot.discord.run``).

        Runs once: a second call waits for the first.  The order matters,
        and a component that needs stopping adds its step at its place:

        1. ``stop_taking_clicks``: every interaction from now on is answered
           "restarting, nothing was changed" and reaches no handler; the
           web table (``WEB_PORT``) stops: its WebSockets are closed (1001,
           the client reconnects to the next start) and it takes no move;
        2. ``service.close``: the services working through it stop first
           (tournaments: a board being recorded is finished by the next
           start), then resuming, deadlines and the AI drivers stop,
           the AI worker pool is closed, and the group-commit queue is
           drained -- every move a player was told about is stored;
        3. ``presenter.close``: pending table-message edits are flushed
           within each channel's edit budget for at most 5 s, then dropped
           (the next start redraws every live table);
        4. the "restarting" answers still in flight are sent;
        5. the health endpoint stops (``/healthz`` reads the store);
        6. ``store.close``: the writer thread and the database connections;
        7. discord.py's ``close``: the gateway and the HTTP session, last,
           because steps 2-4 may still answer interactions.
        """
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._shutdown)

    @property
    def activity_enabled(self) -> bool:
        """The Activity is configured: table messages offer "Open the table"."""
        return self.web_server is not None and self.settings.activity_configured

    @property
    def shutting_down(self) -> bool:
        """True from the first step of ``shutdown`` on."""
        return self._shutdown is not None

    async def _shut_down(self) -> None:
        log.debug("shutting down: storing the last moves")
        self.stop_taking_clicks()
        if self.web_server is not None:
            await self.web_server.stop()
        await self.service.close()
        await self.presenter.close()
        if self._refusals:
            await asyncio.wait(self._refusals, timeout=3)
        if self.health_server is not None:
            await self.health_server.stop()
        await self.store.close()
        await super().close()
        log.debug("shut down")

    def stop_taking_clicks(self) -> None:
        """From now on every interaction is refused in one ephemeral line
        before any handler sees it (discord.py's own parser for
        INTERACTION_CREATE is replaced)."""
        self._connection.parsers["INTERACTION_CREATE"] = self._refuse_interaction

    def _refuse_interaction(self, data: Any) -> None:
        if data.get("type") not in ANSWERED_WHILE_CLOSING:
            return
        interaction: discord.Interaction[Any] = discord.Interaction(
            data=data, state=self._connection
        )
        task = asyncio.get_running_loop().create_task(self._answer_restarting(interaction))
        self._refusals.add(task)
        task.add_done_callback(self._refusals.discard)

    async def _answer_restarting(self, interaction: discord.Interaction[Any]) -> None:
        with using(pick(interaction.locale.value)):
            text = "⏳ " + t(RESTARTING)
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not answer an interaction while shutting down (%s)", exc)

    async def is_moderator(self, interaction: discord.Interaction[Any]) -> bool:
        """Delegates to the service, which decides (kept for callers that
        have an interaction rather than an ``Actor``)."""
        return await self.service.is_moderator(actor_of(interaction))

    async def in_their_language(self, interaction: discord.Interaction[Any]) -> bool:
        """Every slash command and autocomplete answers in its person's
        language (``Languages``): set for the rest of the command's task."""
        set_current(await self.languages.for_person(interaction))
        return True

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A component that is not one of ours (or is malformed) gets a clear
        answer instead of Discord's 'This interaction failed'."""
        if interaction.type is not discord.InteractionType.component:
            return
        cid = interaction.custom_id or ""
        if custom_ids.parse(cid) is None and not is_replay_id(cid) and not is_activity_id(cid):
            set_current(await self.languages.for_person(interaction))
            await interaction.response.send_message("⚠️ " + t(UNKNOWN_COMPONENT), ephemeral=True)

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.CheckFailure) and isinstance(
            cause.__cause__, EngineError
        ):
            cause = cause.__cause__
        if isinstance(cause, EngineError):
            text = f"⚠️ {error_text(cause)}"
        elif isinstance(cause, app_commands.NoPrivateMessage):
            text = "⚠️ " + t("This command can only be used in a server.")
        elif isinstance(cause, app_commands.CheckFailure):
            text = "⚠️ " + t("You are not allowed to do that.")
        else:
            log.error("command failed", exc_info=cause)
            text = "⚠️ " + t("Something went wrong; the table is unchanged.")
        text = clip(text)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not report a command error (%s)", exc)


class ShardedCardBot(CardBot, commands.AutoShardedBot):
    """``CardBot`` on discord.py's ``AutoShardedBot`` (several shards in one
    process, each with its own gateway connection)."""

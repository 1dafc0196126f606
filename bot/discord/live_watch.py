"""The live spectator view: a watcher's ephemeral table, kept up to date in
place.

``/table watch`` answers with an ephemeral picture of the table rendered
from the spectator view ``state.view(None)`` only (``services.watching``);
a seated player who watches gets that same public view, never their hand.
Like the live hand (``live_hands.py``), the message can be edited only
through the interaction that produced it, for 15 minutes: we remember it
per (table, watcher) and re-render it from each service update's own
spectator view (``TableUpdate.view`` is ``view(None)``).  After 14 minutes
(a minute of margin) the watcher is dropped and must ask again.

``on_update`` is a service subscriber: it only records the newest update
(no I/O, the service awaits it) and makes sure the table's task runs; the
task coalesces many updates into one edit per watcher, at most once per
``edit_interval``, and always lands the last one.  A watcher whose message
cannot be edited (dismissed, token gone) is dropped quietly.  Each watcher
sees the table in their own language.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import embeds
from bot.discord.actors import actor_of
from bot.discord.live_hands import TOKEN_LIFETIME
from bot.discord.tasks import detached
from bot.i18n import Lang, current, t, using
from bot.render import messages
from bot.render.picture.table import render_table_png
from bot.services.models import TableInfo, TableUpdate
from bot.services.watching import spectator_view
from engine import Observation

if TYPE_CHECKING:
    from bot.services.tables import TableService

log = logging.getLogger(__name__)
ENDED = ("finished", "abandoned")


@dataclass
class Watcher:
    #: the interaction whose @original is the watcher's view
    interaction: discord.Interaction[Any]
    #: when its token was issued (``LiveWatchers.clock``)
    issued: float
    #: the table's seq the message shows
    seq: int


def watch_png(info: TableInfo, view: Observation) -> bytes:
    """The table picture, from the spectator view only (runs in a thread)."""
    assert view.seat is None
    return render_table_png(
        view,
        messages.seat_names(info),
        away=[s.away for s in info.seats],
        title=messages.table_title(info),
    )


def watch_content(info: TableInfo, view: Observation | None) -> dict[str, Any]:
    """The watcher's message (in the current language), picture aside."""
    if view is None:
        return {"embed": embeds.lobby_embed(info), "attachments": []}
    if info.status in ENDED:
        note = t("👁 Table #{table} has ended: this is its last position.", table=info.id)
    else:
        note = t("👁 You are watching table #{table}: this view follows the game.", table=info.id)
    return {"embed": embeds.table_embed(info, view, note=note)}


class LiveWatchers:
    def __init__(
        self,
        service: TableService,
        *,
        clock: Callable[[], float] = time.monotonic,
        lifetime: float = TOKEN_LIFETIME,
        language: Callable[[discord.Interaction[Any]], Awaitable[Lang]] | None = None,
        edit_interval: float = 0.0,
    ) -> None:
        self.service = service
        self.clock = clock
        self.lifetime = lifetime
        self.language = language
        self.edit_interval = edit_interval
        self.watchers: dict[int, dict[int, Watcher]] = {}
        self.latest: dict[int, TableUpdate] = {}
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    def current(self, table_id: int) -> dict[int, Watcher]:
        """The table's watchers whose token is still good (others dropped)."""
        table = self.watchers.get(table_id, {})
        now = self.clock()
        for user in [u for u, w in table.items() if now - w.issued >= self.lifetime]:
            del table[user]
        if not table:
            self.watchers.pop(table_id, None)
        return dict(table)

    async def show(self, interaction: discord.Interaction[Any], table_id: int) -> TableInfo:
        """Render the spectator view into the interaction's (deferred)
        ``@original`` and remember it; the service decides whether the
        caller may see this table at all (``services.watching``)."""
        info, view = await spectator_view(self.service, table_id, actor_of(interaction))
        async with self._lock(table_id):
            await self._render(interaction, info, view, {})
            if info.status not in ENDED:
                self.watchers.setdefault(table_id, {})[interaction.user.id] = Watcher(
                    interaction, self.clock(), info.seq
                )
        return info

    # -- the service subscriber (no I/O) -----------------------------------------------------------
    async def on_update(self, update: TableUpdate) -> None:
        table_id = update.table.id
        if table_id not in self.watchers:
            return
        self.latest[table_id] = update
        task = self.tasks.get(table_id)
        if task is None or task.done():
            self.tasks[table_id] = detached(self._run(table_id), f"cardtable-watch-{table_id}")

    async def close(self) -> None:
        """Forget every watcher and stop the tasks (the bot is closing)."""
        self.watchers.clear()
        tasks = [task for task in self.tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()

    # -- the per-table task ---------------------------------------------------------------------
    async def _run(self, table_id: int) -> None:
        loop = asyncio.get_running_loop()
        last = float("-inf")
        try:
            while table_id in self.latest:
                wait = last + self.edit_interval - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                update = self.latest.pop(table_id)
                last = loop.time()
                await self._refresh(update)
        except Exception:
            log.exception("table %s: refreshing watchers failed", table_id)

    async def _refresh(self, update: TableUpdate) -> None:
        info, view = update.table, update.view
        if view is not None and view.seat is not None:
            return  # never a seat's view (the service publishes view(None))
        pictures: dict[Any, bytes] = {}
        async with self._lock(info.id):
            for user, watcher in self.current(info.id).items():
                if watcher.seq > info.seq:
                    continue  # already shows a newer state
                try:
                    await self._render(watcher.interaction, info, view, pictures)
                except discord.HTTPException as exc:
                    log.info("table %s: watcher %s dropped (%s)", info.id, user, exc)
                    self.watchers.get(info.id, {}).pop(user, None)
                    continue
                watcher.seq = info.seq
            if info.status in ENDED:
                self.watchers.pop(info.id, None)
                self._locks.pop(info.id, None)

    async def _render(
        self,
        interaction: discord.Interaction[Any],
        info: TableInfo,
        view: Observation | None,
        pictures: dict[Any, bytes],
    ) -> None:
        lang = await self.language(interaction) if self.language is not None else current()
        with using(lang):
            content = watch_content(info, view)
            if view is not None:
                key = (info.seq, lang.code)
                png = pictures.get(key)
                if png is None:
                    png = pictures[key] = await asyncio.to_thread(watch_png, info, view)
                content["embed"].set_image(url="attachment://table.png")
                content["attachments"] = [discord.File(io.BytesIO(png), filename="table.png")]
        await interaction.edit_original_response(view=None, **content)

"""Keeps each table's one channel message up to date, from service updates.

Edits are batched per table: an update schedules one edit after
``edit_interval`` seconds and later updates only replace what it will show,
so a table of AI players cannot hit Discord's rate limits.  Deal summaries
and results are posted as messages in the table's thread (or channel).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.services.models import TableUpdate
from bot.ui import render
from bot.ui.items import lobby_view, table_view

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)


class Presenter:
    def __init__(self, bot: CardBot, edit_interval: float) -> None:
        self.bot = bot
        self.edit_interval = edit_interval
        self.latest: dict[int, TableUpdate] = {}
        self.flushes: dict[int, asyncio.Task[None]] = {}

    async def on_update(self, update: TableUpdate) -> None:
        info = update.table
        if info.message_id is None or info.channel_id is None:
            return
        self.latest[info.id] = update
        if update.kind == "action" and info.status == "playing" and update.table.seq == 0:
            await self._open_thread(update)
        if update.kind in ("deal_end", "finished", "abandoned") or update.table.status != "playing":
            await self._flush(info.id)  # milestones go out at once, in order
        elif info.id not in self.flushes or self.flushes[info.id].done():
            self.flushes[info.id] = asyncio.create_task(
                self._later(info.id), name=f"cardtable-edit-{info.id}"
            )
        if update.kind == "deal_end" and update.view is not None:
            await self._post(update, render.deal_summary(info, update.view))
        if update.kind == "finished" and update.view is not None:
            if update.view.last_deal is not None:
                await self._post(update, render.deal_summary(info, update.view))
            await self._post(update, render.result_text(info, update.view, update.results))

    async def _later(self, table_id: int) -> None:
        await asyncio.sleep(self.edit_interval)
        await self._flush(table_id)

    async def _flush(self, table_id: int) -> None:
        update = self.latest.pop(table_id, None)
        if update is None:
            return
        info = update.table
        channel = self.bot.get_partial_messageable(info.channel_id or 0)
        message = channel.get_partial_message(info.message_id or 0)
        try:
            if info.status == "lobby" or update.view is None:
                await message.edit(embed=render.lobby_embed(info), view=lobby_view(info))
            else:
                note = {
                    "resumed": "♻️ The bot restarted: this table was resumed.",
                    "abandoned": "This table was abandoned.",
                    "finished": "The game is over.",
                }.get(update.kind, "")
                if info.status == "abandoned":
                    note = "This table was abandoned."
                embed = render.table_embed(info, update.view, note=note)
                await message.edit(embed=embed, view=table_view(info))
        except discord.HTTPException:
            log.warning("could not edit the message of table %s", table_id, exc_info=True)

    async def _open_thread(self, update: TableUpdate) -> None:
        info = update.table
        if info.guild_id is None or info.thread_id is not None:
            return
        guild = await self.bot.service.get_guild_settings(info.guild_id)
        if not guild.get("use_threads", True):
            return
        try:
            thread = await self.bot.http.start_thread_with_message(
                info.channel_id or 0,
                info.message_id or 0,
                name=f"table-{info.id}",
                auto_archive_duration=1440,
            )
        except discord.HTTPException:
            log.warning("could not open a thread for table %s", info.id, exc_info=True)
            return
        await self.bot.service.set_message(info.id, thread_id=int(thread["id"]))

    async def _post(self, update: TableUpdate, text: str) -> None:
        info = await self.bot.service.get_table(update.table.id)
        target = info.thread_id or info.channel_id
        if not target or not text:
            return
        try:
            await self.bot.get_partial_messageable(target).send(text)
        except discord.HTTPException:
            log.warning("could not post to table %s", info.id, exc_info=True)

    async def close(self) -> None:
        for task in self.flushes.values():
            task.cancel()
        await asyncio.gather(*self.flushes.values(), return_exceptions=True)

    def pending(self) -> list[Any]:
        return [t for t in self.flushes.values() if not t.done()]

"""What a click does: turn a component id into a service call and answer
the clicker -- always within Discord's 3 seconds, always ephemerally for
refusals, and never changing anything on a refusal."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.services.errors import StaleAction
from bot.ui import render
from bot.ui.custom_ids import ComponentId
from bot.ui.items import hand_view
from engine import EngineError

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)


class ComponentHandler:
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Any:
        return self.bot.service

    async def handle(
        self, interaction: discord.Interaction[Any], cid: ComponentId, value: str | None
    ) -> None:
        try:
            await self._dispatch(interaction, cid, value)
        except StaleAction as exc:
            await self._stale(interaction, cid, str(exc))
        except EngineError as exc:
            await self.reply(interaction, f"⚠️ {exc}")

    async def reply(self, interaction: discord.Interaction[Any], text: str, **kw: Any) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, **kw)
        else:
            await interaction.response.send_message(text, ephemeral=True, **kw)

    async def _dispatch(
        self, interaction: discord.Interaction[Any], cid: ComponentId, value: str | None
    ) -> None:
        user = interaction.user
        svc = self.service
        if cid.verb == "join":
            info = await svc.join(cid.table, user.id, user.display_name)
            await self.reply(
                interaction, f"You joined table #{info.id} (seat {info.seat_of(user.id) + 1})."
            )
        elif cid.verb == "leave":
            await svc.leave(cid.table, user.id)
            await self.reply(interaction, f"You left table #{cid.table}.")
        elif cid.verb == "ai":
            await svc.add_ai(cid.table, user.id, cid.arg or "normal")
            await self.reply(interaction, f"An AI player ({cid.arg}) took a seat.")
        elif cid.verb == "start":
            await svc.start_table(cid.table, user.id)
            await self.reply(
                interaction, "The game has started: press **Show my hand** to see your cards."
            )
        elif cid.verb == "cancel":
            await svc.abandon(
                cid.table, user.id, is_moderator=await self.bot.is_moderator(interaction)
            )
            await self.reply(interaction, f"Table #{cid.table} was cancelled.")
        elif cid.verb == "hand":
            await self.send_hand(interaction, cid.table)
        elif cid.verb == "page":
            await self.edit_hand(interaction, cid.table, int(cid.arg or 0))
        elif cid.verb in ("act", "pick"):
            await self._act(interaction, cid, cid.arg if cid.verb == "act" else value)

    async def _act(
        self, interaction: discord.Interaction[Any], cid: ComponentId, index: str | None
    ) -> None:
        if index is None or not index.isdigit():
            await self.reply(interaction, "⚠️ That card cannot be played now.")
            return
        private = await self.service.private_view(cid.table, interaction.user.id)
        if private.table.seq != cid.seq:
            raise StaleAction("this hand is out of date")
        legal = private.view.legal_actions
        if not legal:
            await self.reply(interaction, "⚠️ It is not your turn.")
            return
        if int(index) >= len(legal):
            raise StaleAction("this hand is out of date")
        await self.service.act(
            cid.table, interaction.user.id, str(legal[int(index)]), expected_seq=cid.seq
        )
        await self.edit_hand(interaction, cid.table, 0)

    async def _stale(
        self, interaction: discord.Interaction[Any], cid: ComponentId, why: str
    ) -> None:
        """A stale click: say so and offer a fresh hand."""
        try:
            private = await self.service.private_view(cid.table, interaction.user.id)
        except EngineError as exc:
            await self.reply(interaction, f"⚠️ {exc}")
            return
        view, pages = hand_view(private.table, private.view)
        text = f"⏳ {why}. Here is your hand as it is now:\n" + render.hand_text(
            private.table, private.view, 0, pages
        )
        await self.reply(interaction, text[:2000], view=view)

    async def send_hand(
        self, interaction: discord.Interaction[Any], table_id: int, page: int = 0
    ) -> None:
        private = await self.service.private_view(table_id, interaction.user.id)
        view, pages = hand_view(private.table, private.view, page)
        await interaction.response.send_message(
            render.hand_text(private.table, private.view, page, pages), view=view, ephemeral=True
        )

    async def edit_hand(
        self, interaction: discord.Interaction[Any], table_id: int, page: int
    ) -> None:
        private = await self.service.private_view(table_id, interaction.user.id)
        view, pages = hand_view(private.table, private.view, page)
        await interaction.response.edit_message(
            content=render.hand_text(private.table, private.view, page, pages), view=view
        )

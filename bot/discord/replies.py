"""How the bot answers a component click: acknowledge at once, work, then
put the answer in the interaction's own ``@original`` message.

One pattern, chosen by where the click happened:

* on an **ephemeral** message (a hand, a confirmation, the "fill with AI"
  offer): ``defer()`` -- a deferred *update* of that message -- and the
  answer replaces the message in place (``edit_original_response``), so a
  hand stays one message however many cards are played;
* on a **public** message (the lobby, the table): ``defer(ephemeral=True,
  thinking=True)`` and the answer replaces the "thinking..." note, visible
  only to the clicker.

Either way Discord has its acknowledgement before any slow work starts,
every answer goes to the clicker only, and nothing here touches a channel:
channel edits and posts belong to the presenter's per-table task.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import items
from bot.render import messages
from bot.services.models import PrivateView

log = logging.getLogger(__name__)
CONTENT_LIMIT = 2000


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Discord's content limit (the one helper, ``messages.clip``)."""
    return messages.clip(text, limit)


def on_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    """True when the clicked component sits on an ephemeral message."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def acknowledge(interaction: discord.Interaction[Any]) -> bool:
    """Defer at once (see the module docstring); True when the answer will
    replace the clicked (ephemeral) message itself."""
    in_place = on_ephemeral(interaction)
    if not interaction.response.is_done():
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    return in_place


async def answer(
    interaction: discord.Interaction[Any], text: str, *, view: discord.ui.View | None = None
) -> None:
    """The clicker's answer, in the interaction's own message (the deferred
    "thinking" note, or the ephemeral message clicked)."""
    if not interaction.response.is_done():
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        await interaction.response.send_message(clip(text), ephemeral=True, **extra)
        return
    await interaction.edit_original_response(content=clip(text), view=view)


async def whisper(interaction: discord.Interaction[Any], text: str) -> None:
    """An extra ephemeral note to the clicker (after the answer)."""
    await interaction.followup.send(clip(text), ephemeral=True)


def hand_message(
    private: PrivateView, *, page: int = 0, level: int | None = None, note: str = ""
) -> tuple[str, discord.ui.View]:
    """The content and components of a player's hand (their own view only)."""
    info, view = private.table, private.view
    ui, pages = items.hand_view(info, view, page=page, level=level)
    page = max(0, min(page, pages - 1))
    text = messages.hand_text(info, view, page, pages)
    if note:
        text = f"{note}\n{text}"
    return clip(text), ui

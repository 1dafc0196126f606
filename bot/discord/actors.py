"""The Discord adapter for the service's ``Actor``: who clicked, from where,
with which permissions -- taken from the interaction Discord sent, never
from anything the user typed."""

from __future__ import annotations

from typing import Any

import discord

from bot.services.actor import Actor


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    user = interaction.user
    perms = interaction.permissions
    in_guild = interaction.guild_id is not None
    roles = getattr(user, "_roles", None) or []
    return Actor(
        user_id=user.id,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        name=user.display_name,
        can_manage_server=in_guild and bool(perms.manage_guild or perms.administrator),
        role_ids=frozenset(int(r) for r in roles),
    )

"""Shared pieces of the cogs: game autocomplete and option parsing."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from engine import GAMES, InvalidVariant, get_game


async def game_autocomplete(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    low = current.lower()
    return [
        app_commands.Choice(name=get_game(name).title, value=name)
        for name in GAMES
        if low in name or low in get_game(name).title.lower()
    ][:25]


def parse_options(text: str | None) -> dict[str, str]:
    """``"rounds=3 max_bid=10"`` -> {"rounds": "3", "max_bid": "10"}."""
    options: dict[str, str] = {}
    for part in (text or "").replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise InvalidVariant(
                f"options look like 'rounds=3 max_bid=10' (got {part!r})", "bad_option"
            )
        options[key.strip()] = value.strip()
    return options

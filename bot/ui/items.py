"""Restart-proof components: one DynamicItem for buttons and one for selects,
both parsed from ``ct:<table>:<seq>:<verb>:<arg>`` (``custom_ids.py``).
They hold no state: every click loads what it needs from the service, so
buttons keep working after a restart and after the 15-minute view timeout.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.services.models import TableInfo
from bot.ui import custom_ids
from bot.ui.custom_ids import ComponentId
from engine import EngineError, Observation
from engine.core.cards import pretty, sort_hand

if TYPE_CHECKING:
    from bot.client import CardBot

log = logging.getLogger(__name__)
CARDS_PER_PAGE = 15
CHOICES_PER_PAGE = 25
SUIT_STYLE = {"H": discord.ButtonStyle.danger, "D": discord.ButtonStyle.danger}


def lobby_view(info: TableInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    open_ = info.status == "lobby"
    for verb, label, style in (
        ("join", "Join", discord.ButtonStyle.success),
        ("leave", "Leave", discord.ButtonStyle.secondary),
        ("start", "Start", discord.ButtonStyle.primary),
        ("cancel", "Cancel", discord.ButtonStyle.danger),
    ):
        view.add_item(
            TableButton(
                ComponentId(info.id, 0, verb), label=label, style=style, disabled=not open_, row=0
            )
        )
    for level in ("easy", "normal", "hard"):
        view.add_item(
            TableButton(
                ComponentId(info.id, 0, "ai", level),
                label=f"Add AI ({level})",
                disabled=not open_,
                row=1,
            )
        )
    return view


def table_view(info: TableInfo) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    playing = info.status == "playing"
    view.add_item(
        TableButton(
            ComponentId(info.id, 0, "hand"),
            label="Show my hand",
            style=discord.ButtonStyle.primary,
            disabled=not playing,
        )
    )
    return view


def hand_view(info: TableInfo, view: Observation, page: int = 0) -> tuple[discord.ui.View, int]:
    """Card buttons (legal ones enabled) and a select of the other choices,
    paged; returns the view and the number of pages."""
    seq = info.seq
    legal = list(view.legal_actions)
    index = {str(a): i for i, a in enumerate(legal)}
    dummy_turn = (
        view.dummy is not None
        and view.to_act is not None
        and view.to_act != view.seat
        and bool(legal)
    )
    cards = sort_hand(view.dummy if dummy_turn and view.dummy is not None else view.hand)
    on_buttons = {f"play {c}" for c in cards}
    choices = [(i, a) for i, a in enumerate(legal) if str(a) not in on_buttons]
    pages = max(1, -(-len(cards) // CARDS_PER_PAGE), -(-len(choices) // CHOICES_PER_PAGE))
    page = max(0, min(page, pages - 1))
    ui = discord.ui.View(timeout=None)
    for n, card in enumerate(cards[page * CARDS_PER_PAGE : (page + 1) * CARDS_PER_PAGE]):
        i = index.get(f"play {card}")
        cid = (
            ComponentId(info.id, seq, "act", str(i))
            if i is not None
            else ComponentId(info.id, seq, "act", f"x{n}")
        )
        ui.add_item(
            TableButton(
                cid,
                label=pretty(card),
                style=SUIT_STYLE.get(card.suit, discord.ButtonStyle.secondary),
                disabled=i is None,
                row=n // 5,
            )
        )
    shown = choices[page * CHOICES_PER_PAGE : (page + 1) * CHOICES_PER_PAGE]
    if shown:
        ui.add_item(
            TableSelect(
                ComponentId(info.id, seq, "pick", str(page)),
                options=[discord.SelectOption(label=str(a)[:80], value=str(i)) for i, a in shown],
                placeholder="Choose…",
            )
        )
    if pages > 1:
        for target, label in ((page - 1, "◀ Previous"), (page + 1, "Next ▶")):
            ui.add_item(
                TableButton(
                    ComponentId(info.id, seq, "page", str(max(0, target))),
                    label=label,
                    disabled=not 0 <= target < pages,
                    row=4,
                )
            )
    return ui, pages


def _parsed(match: re.Match[str]) -> ComponentId:
    parsed = custom_ids.parse(match.string)
    if parsed is None:
        raise ValueError("not a Card Table id")
    return parsed


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.BUTTON_PATTERN
):
    def __init__(self, cid: ComponentId, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=str(cid), **button))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> TableButton:
        return cls(_parsed(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: CardBot = interaction.client  # type: ignore[assignment]
        await bot.components.handle(interaction, self.cid, None)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.SELECT_PATTERN
):
    def __init__(self, cid: ComponentId, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=str(cid), **select))
        self.cid = cid

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Select[Any],
        match: re.Match[str],
        /,
    ) -> TableSelect:
        return cls(_parsed(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: CardBot = interaction.client  # type: ignore[assignment]
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        await bot.components.handle(interaction, self.cid, values[0] if values else None)


def friendly(exc: EngineError) -> str:
    return f"⚠️ {exc}"

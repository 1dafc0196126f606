"""The replay's step buttons: ``rp:<table>:<deal>:<trick>``.

A button names the position it opens and nothing else -- the table id, a
deal number and a trick number (0 = the deal as dealt) -- never a card.
Clicks are restart-proof (a ``DynamicItem``: the replay is rebuilt from the
store on every click) and every number is checked by the history service,
so a stale or forged id gets a friendly refusal and changes nothing.  Only
positions that exist get a button, so a message never holds two buttons
with the same custom_id.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.replays import MatchReplay

if TYPE_CHECKING:
    from bot.services.history import Position

TEMPLATE = r"rp:(?P<table>[0-9]{1,12}):(?P<deal>[0-9]{1,4}):(?P<trick>[0-9]{1,3})"
REGEX = re.compile(TEMPLATE)


def replay_id(table: int, deal: int, trick: int) -> str:
    text = f"rp:{table}:{deal}:{trick}"
    assert REGEX.fullmatch(text) and len(text) <= 100, text
    return text


def is_replay_id(custom_id: str) -> bool:
    """True for an id this module answers (the client leaves it alone)."""
    return REGEX.fullmatch(custom_id or "") is not None


def steps(replay: MatchReplay, pos: Position) -> list[tuple[str, int, int]]:
    """(label, deal, trick) of each step button that leads somewhere."""
    deal, trick = pos.deal.number, pos.trick
    out: list[tuple[str, int, int]] = []
    if deal > 1:
        out.append(("⏮ " + t("Previous deal"), deal - 1, 0))
    if trick > 0:
        out.append(("◀ " + t("Previous trick"), deal, trick - 1))
    if trick < pos.last:
        out.append((t("Next trick") + " ▶", deal, trick + 1))
    if deal < len(replay.deals):
        out.append((t("Next deal") + " ⏭", deal + 1, 0))
    return out


def replay_view(table: int, replay: MatchReplay, pos: Position) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for label, deal, trick in steps(replay, pos):
        view.add_item(ReplayButton(table, deal, trick, label=label[:80]))
    return view


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, table: int, deal: int, trick: int, *, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=replay_id(table, deal, trick),
                label=label or "…",
                style=discord.ButtonStyle.secondary,
            )
        )
        self.table, self.deal, self.trick = table, deal, trick

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        return cls(int(match["table"]), int(match["deal"]), int(match["trick"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("History")
        if cog is None:  # pragma: no cover - the cog registers this item
            return
        await cog.step(interaction, self.table, self.deal, self.trick)

"""The live hand: each player's last ephemeral hand message, kept up to date
in place.

Discord lets the bot edit an ephemeral message only through the interaction
that produced it, for 15 minutes after that interaction was created.  So for
every (table, player) we remember the last interaction whose ``@original``
*is* their hand -- the "Show my hand" click (its deferred reply became the
hand), or any later click on the hand itself (a deferred update of that
message) -- and when it becomes their turn the presenter re-renders the hand
through it (``Interaction.edit_original_response``: the public API, and the
``@original`` route works for both cases).  Every click on the hand renews
the token; after 14 minutes without one (a minute of margin) the record is
dropped and the turn ping asks the player to press "Show my hand" instead.

All renders of one hand go through one lock and always render the newest
private view, so a click's own re-render and the presenter's turn refresh
can never leave an older state on screen.  Hands are rendered only from the
player's own ``private_view`` (hidden information), in the player's own
language (``language``: ``Languages.for_person`` of the interaction).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.actors import actor_of
from bot.discord.replies import hand_message
from bot.i18n import Lang, current, using
from bot.services.models import PrivateView
from engine import EngineError

if TYPE_CHECKING:
    from bot.services.tables import TableService

log = logging.getLogger(__name__)
#: Discord's interaction tokens last 15 minutes; keep a minute of margin
TOKEN_LIFETIME = 14 * 60.0

Key = tuple[int, int]


@dataclass
class LiveHand:
    #: the interaction whose @original is the hand message
    interaction: discord.Interaction[Any]
    #: when its token was issued (``LiveHands.clock``)
    issued: float
    #: the table's seq the message shows
    seq: int
    #: it shows choices the player may click
    actionable: bool


class LiveHands:
    def __init__(
        self,
        service: TableService,
        *,
        clock: Callable[[], float] = time.monotonic,
        lifetime: float = TOKEN_LIFETIME,
        language: Callable[[discord.Interaction[Any]], Awaitable[Lang]] | None = None,
    ) -> None:
        self.service = service
        self.language = language
        self.clock = clock
        self.lifetime = lifetime
        self.hands: dict[Key, LiveHand] = {}
        self._locks: dict[Key, asyncio.Lock] = {}

    def _lock(self, key: Key) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def current(self, table_id: int, user_id: int) -> LiveHand | None:
        """The player's live hand, if its token is still good."""
        key = (table_id, user_id)
        hand = self.hands.get(key)
        if hand is not None and self.clock() - hand.issued >= self.lifetime:
            del self.hands[key]
            return None
        return hand

    def stale(self, table_id: int, decider: int | None) -> list[int]:
        """Players (other than ``decider``) whose hand still offers choices."""
        return [
            user
            for (table, user), hand in list(self.hands.items())
            if table == table_id and user != decider and hand.actionable
        ]

    def hold(self, table_id: int, user_id: int) -> None:
        """The player just clicked a choice on their hand: the click's own
        answer re-renders it, so the presenter need not (one edit, not two)."""
        hand = self.hands.get((table_id, user_id))
        if hand is not None:
            hand.actionable = False

    def forget(self, table_id: int, user_id: int | None = None) -> None:
        for key in [k for k in self.hands if k[0] == table_id and user_id in (None, k[1])]:
            del self.hands[key]
            lock = self._locks.get(key)
            if lock is not None and not lock.locked():
                del self._locks[key]

    async def show(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        *,
        page: int = 0,
        level: int | None = None,
        note: str = "",
        issued: float | None = None,
    ) -> PrivateView:
        """Render the clicker's hand into the interaction's (deferred)
        ``@original`` message and remember it as their live hand."""
        key = (table_id, interaction.user.id)
        async with self._lock(key):
            return await self._render(
                interaction,
                table_id,
                page=page,
                level=level,
                note=note,
                issued=self.clock() if issued is None else issued,
            )

    async def refresh(self, table_id: int, user_id: int) -> bool:
        """Re-render a player's live hand for the table as it is now; False
        when there is none (or its token is too old, or Discord refused)."""
        key = (table_id, user_id)
        if self.current(table_id, user_id) is None:
            return False
        async with self._lock(key):
            hand = self.current(table_id, user_id)
            if hand is None:
                return False
            try:
                await self._render(hand.interaction, table_id, issued=hand.issued)
            except (discord.HTTPException, EngineError) as exc:
                # dismissed, expired early, or the seat is gone: a ping says what to do
                log.info("table %s: live hand of %s not refreshed (%s)", table_id, user_id, exc)
                self.hands.pop(key, None)
                return False
        return True

    async def _render(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        *,
        issued: float,
        page: int = 0,
        level: int | None = None,
        note: str = "",
    ) -> PrivateView:
        private = await self.service.private_view(table_id, actor_of(interaction))
        lang = await self.language(interaction) if self.language is not None else current()
        with using(lang):
            content, view = hand_message(private, page=page, level=level, note=note)
        await interaction.edit_original_response(content=content, view=view)
        self.hands[(table_id, interaction.user.id)] = LiveHand(
            interaction, issued, private.table.seq, bool(private.view.legal_actions)
        )
        return private

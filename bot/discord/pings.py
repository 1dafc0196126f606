"""Turn pings: "it's your turn" for the person who must decide now -- when
they seem to have looked away, not while they are playing.

Policy (the presenter calls this only when the *decider changes*, so a
player who decides twice in a row -- Batak's declarer for the dummy, Ladder's
extra turn -- is not pinged twice):

* a grace time first: the ping is posted only if the player has not acted
  within the server's ``ping_after`` seconds (default 10; 0 pings at once)
  of their turn starting, and within half the time their turn timer leaves
  when that is shorter.  A player who plays from their live hand acts well
  inside it and is never pinged; one who looks away is, once per turn.  The
  wait is a deadline (``DeadlineScheduler`` on the pings' own clock, never
  a poll), cancelled when the turn passes -- to them again after an AI's
  turn, the grace starts again -- and pushed back when the player acts and
  decides again.  The pending pings live in memory: after a restart the
  resumed table announces its decider again and the grace starts afresh
  (a timer shorter than the grace: half of what is left; an AI's turn in
  between: that AI's turn cancels the wait);
* one short message per table: a ping is deleted as soon as the turn it
  announced passes (and when the game ends), so a busy table never floods
  its channel;
* it mentions only that person (``AllowedMentions(users=[them])``, never
  everyone or a role) and says when their time runs out (``<t:..:R>``);
* it goes to the table's thread (or channel), by DM for a player who asked
  for DMs (falling back to the channel when their DMs are closed), and not
  at all for a player who turned pings off or on a server whose
  ``turn_pings`` switch is off;
* an AI seat, a resigned seat or a player marked away is never pinged on
  each turn (an away player gets one notice when they are marked away).

Channel errors (missing permissions) propagate to the presenter, which
tells the players once.  A ping in a channel is in the server's language,
a DM in the player's own (``Languages``).
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.discord.replies import clip
from bot.i18n import t, using
from bot.i18n.terms import game_title
from bot.services.deadlines import DeadlineScheduler
from bot.services.models import TableInfo
from bot.services.settings import PING_AFTER_DEFAULT

if TYPE_CHECKING:
    from bot.discord.host import ChannelHost

log = logging.getLogger(__name__)
MODES = ("channel", "dm", "off")


def jump_url(info: TableInfo) -> str:
    """A link to the table message."""
    if info.channel_id is None or info.message_id is None:
        return ""
    where = info.guild_id if info.guild_id is not None else "@me"
    return f"https://discord.com/channels/{where}/{info.channel_id}/{info.message_id}"


def turn_text(info: TableInfo, user_id: int, *, hand_ready: bool, dm: bool = False) -> str:
    title = game_title(info.game)
    who = f"<@{user_id}>"
    if info.deadline:
        text = t(
            "{who} it's your turn at {game} table #{table} (time runs out {when}).",
            who=who,
            game=title,
            table=info.id,
            when=f"<t:{int(info.deadline)}:R>",
        )
    else:
        text = t(
            "{who} it's your turn at {game} table #{table}.", who=who, game=title, table=info.id
        )
    if hand_ready:
        text += " " + t("Your hand above is up to date.")
    else:
        text += " " + t("Press **Show my hand** on the table message to play.")
    if dm and jump_url(info):
        text += f"\n{jump_url(info)}"
    return clip(text)


def away_text(info: TableInfo, user_id: int) -> str:
    return clip(
        t(
            "{who} you missed your last turns at table #{table}, so you are marked away: from "
            "now on the AI plays for you when your (short) timer runs out. Press **I'm back** "
            "on the table message to play again.",
            who=f"<@{user_id}>",
            table=info.id,
        )
    )


def mention_only(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(
        users=[discord.Object(id=user_id)], everyone=False, roles=False, replied_user=False
    )


@dataclass
class Pending:
    """A ping to post at ``when`` (the pings' clock) unless the turn passes."""

    user_id: int
    when: float
    #: the grace it was given (acting and deciding again starts it over)
    grace: float


class TurnPings:
    def __init__(self, bot: ChannelHost, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.clock = clock
        #: table -> (channel id, message id) of its current ping
        self.last: dict[int, tuple[int, int]] = {}
        self._dm_channels: dict[int, int] = {}
        #: table -> the ping waiting for its grace time to run out
        self.pending: dict[int, Pending] = {}
        #: called with (table id, user id) when a pending ping is due (the
        #: presenter posts it from the table's own task)
        self.on_due: Callable[[int, int], None] | None = None
        self.deadlines = DeadlineScheduler(
            clock=clock, next_deadline=self._next_due, fire=self.send_due
        )

    async def wanted(self, info: TableInfo) -> bool:
        """The server's ``turn_pings`` switch."""
        settings = await self.bot.service.get_guild_settings(info.guild_id)
        return bool(settings.get("turn_pings", True))

    # -- the grace time ------------------------------------------------------------------------
    async def grace(self, info: TableInfo) -> float:
        """Seconds to wait before pinging: the server's ``ping_after``, or
        half of what the turn timer leaves when that is shorter."""
        settings = await self.bot.service.get_guild_settings(info.guild_id)
        grace = float(settings.get("ping_after", PING_AFTER_DEFAULT))
        if info.deadline is not None and grace > 0:
            left = info.deadline - self.bot.service.clock()
            grace = min(grace, max(0.0, left / 2))
        return grace

    def schedule(self, table_id: int, user_id: int, grace: float) -> None:
        """Ping ``user_id`` after ``grace`` seconds unless the turn passes first."""
        self.pending[table_id] = Pending(user_id, self.clock() + grace, grace)
        self.deadlines.start()
        self.deadlines.poke()

    def cancel(self, table_id: int) -> None:
        """The turn passed (or the game ended): no ping for it."""
        if self.pending.pop(table_id, None) is not None:
            self.deadlines.poke()

    def postpone(self, table_id: int) -> None:
        """The decider acted and decides again: they are here, so the grace
        starts over."""
        pending = self.pending.get(table_id)
        if pending is not None:
            pending.when = self.clock() + pending.grace
            self.deadlines.poke()

    def _next_due(self) -> float | None:
        return min((p.when for p in self.pending.values()), default=None)

    async def send_due(self) -> int:
        """Hand every ping whose grace ran out to ``on_due`` (the deadline
        task calls this; tests with a fake clock call it directly)."""
        now = self.clock()
        due = [(table, p) for table, p in self.pending.items() if p.when <= now]
        for table_id, pending in due:
            del self.pending[table_id]
            if self.on_due is not None:
                self.on_due(table_id, pending.user_id)
        return len(due)

    async def close(self) -> None:
        self.pending.clear()
        await self.deadlines.close()

    async def preference(self, user_id: int) -> str:
        """The player's choice: channel, dm or off (the service's, when it has one)."""
        method = getattr(self.bot.service, "ping_preference", None)
        if method is None:
            return "channel"
        mode = method(user_id)
        if inspect.isawaitable(mode):
            mode = await mode
        return mode if mode in MODES else "channel"

    async def clear(self, table_id: int) -> None:
        """Delete the table's current ping, if any."""
        last = self.last.pop(table_id, None)
        if last is None:
            return
        channel_id, message_id = last
        try:
            await self.bot.http.delete_message(channel_id, message_id)
        except discord.NotFound:
            pass  # someone deleted it already
        except discord.HTTPException as exc:
            log.warning("table %s: could not delete the last ping (%s)", table_id, exc)

    async def ping(self, info: TableInfo, user_id: int, target: int, *, hand_ready: bool) -> None:
        """Replace the table's ping with one for ``user_id`` (in ``target``,
        the thread or channel, or by DM), as the player prefers."""
        await self.clear(info.id)
        mode = await self.preference(user_id)
        if mode == "off":
            return
        if mode == "dm" and await self._dm(info, user_id, hand_ready):
            return
        with using(await self.bot.languages.for_server(info.guild_id)):
            text = turn_text(info, user_id, hand_ready=hand_ready)
        message = await self.bot.get_partial_messageable(target).send(
            text, allowed_mentions=mention_only(user_id)
        )
        self.last[info.id] = (target, message.id)

    async def _dm(self, info: TableInfo, user_id: int, hand_ready: bool) -> bool:
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                channel = await self.bot.http.start_private_message(user_id)
                channel_id = self._dm_channels[user_id] = int(channel["id"])
            with using(await self.bot.languages.for_user(user_id, info.guild_id)):
                text = turn_text(info, user_id, hand_ready=hand_ready, dm=True)
            message = await self.bot.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            ).send(text, allowed_mentions=mention_only(user_id))
        except discord.HTTPException as exc:  # DMs closed: the channel it is
            log.info("table %s: DM ping to %s failed (%s)", info.id, user_id, exc)
            return False
        self.last[info.id] = (channel_id, message.id)
        return True

    async def notice(self, user_id: int, target: int, text: str) -> None:
        """A one-off mention that stays (e.g. "you are marked away")."""
        await self.bot.get_partial_messageable(target).send(
            text, allowed_mentions=mention_only(user_id)
        )

"""Turn pings: "it's your turn" for the person who must decide now.

Policy (the presenter calls this only when the *decider changes*, so a
player who decides twice in a row -- Batak's declarer for the dummy, Ladder's
extra turn -- is not pinged twice):

* one short message per table: posting the next ping deletes the previous
  one, and the last one is deleted when the game ends, so a busy table
  never floods its channel;
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
from typing import TYPE_CHECKING

import discord

from bot.i18n import t, using
from bot.i18n.terms import game_title
from bot.services.models import TableInfo
from bot.ui.replies import clip

if TYPE_CHECKING:
    from bot.client import CardBot

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


class TurnPings:
    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        #: table -> (channel id, message id) of its current ping
        self.last: dict[int, tuple[int, int]] = {}
        self._dm_channels: dict[int, int] = {}

    async def wanted(self, info: TableInfo) -> bool:
        """The server's ``turn_pings`` switch."""
        settings = await self.bot.service.get_guild_settings(info.guild_id)
        return bool(settings.get("turn_pings", True))

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

"""Everything the channel sees, from service updates: one task per table
that always delivers the latest state.

``on_update`` only records the update in the table's ``TableFeed`` (no I/O:
the service awaits it) and makes sure the table's task runs.  The task
loops until nothing is waiting, so an update that arrives while a request
is in flight is picked up by the next turn of the loop, never lost; it
stops when the table is idle (no polling anywhere).  Each turn of the loop:

1. posts a rematch's lobby message, opens the game's thread (once);
2. announces a change of decider: the new decider's live hand is edited in
   place, hands that still offer a passed turn are refreshed, the previous
   turn's ping goes and the new decider's ping waits for its grace time
   (``pings.py``), posted by this task when it is due;
3. posts milestones (deal summaries, results), in order;
4. hands the table message's newest state to its channel's edit queue.

Edits of table messages are budgeted **per channel** (the channel the
table message is in; a thread is a channel of its own), because that is
how Discord counts them: about 5 edits per 5 s, after which it answers 429
and every table of the channel lags.  One task per channel with tables
waiting (``_pump``) serves them round-robin (``channel_budget.py``): at
most ``LIMIT`` edits in any ``LIMIT * edit_interval`` seconds, paced one per
``edit_interval``, each edit showing the table's newest state (coalesced),
the table's last state always shown (an ended table's too).  While an AI
seat is to act, a table waits up to ``SETTLE`` of an interval after its
oldest unshown change, so the edit shows the AI's answer (milliseconds
later) too instead of costing another edit a slot later.  The task
sleeps until the next slot or retry (a deadline, never a poll) and stops
when its queue is empty.  ``edit_interval`` 0 turns the budget off (tests).

The picture (``render_table_png`` of the spectator view, drawn off the
event loop) is attached only when it differs from the one the message
already shows; otherwise the edit keeps the message's attachment.  Every
edit is reported to ``edit_listeners`` (an ``EditRecord``) and counted per
channel (``channel_edits()``), for metrics and the bench.

A channel request that fails (missing permissions) is logged and told to
the players once per table: in the channel if posting still works, else
to the next person who clicks (``take_problem``); the table goes on.

Everything the channel sees is in the server's language
(``Languages.for_server``); the tasks run in a copy of the context that woke
them with the language reset (``detached``), so they never inherit the
language of the click, yet keep what a library or test framework keeps in
context.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import io
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import embeds, items
from bot.discord.channel_budget import LIMIT, ChannelBudget
from bot.discord.feed import TableFeed
from bot.discord.live_hands import LiveHands
from bot.discord.pings import TurnPings, away_text
from bot.discord.replies import clip
from bot.discord.tasks import detached
from bot.i18n import N_, Lang, t, using
from bot.render import messages
from bot.render.picture.table import render_table_png
from bot.services.models import BOARD_RECORDED, TableInfo, TableUpdate

if TYPE_CHECKING:
    from bot.discord.host import ChannelHost

log = logging.getLogger(__name__)
#: transient errors (5xx) retried before telling the players
MAX_RETRIES = 3
RETRY_SECONDS = 2.0
#: while an AI seat is to act, a table's edit waits this fraction of
#: ``edit_interval`` after its oldest unshown change (0.15 s in production),
#: so the edit shows the AI's answer too instead of costing a second edit
SETTLE = 0.15
#: seconds ``close`` waits for the pending edits to land (within the budget)
FLUSH_SECONDS = 5.0
#: a note on the table message, by table status (an ended table) or update kind
NOTES = {
    "resumed": N_("♻️ The bot restarted: this table was resumed."),
    "abandoned": N_("This table was abandoned."),
    "finished": N_("The game is over."),
}
#: what the bot could not do, for the problem report
DOING = {
    "edit": N_("edit the table message"),
    "repost": N_("post the table message"),
    "lobby": N_("post the lobby"),
    "pings": N_("post turn pings"),
    "post": N_("post in the table's channel"),
}
# i18n: the names of Discord's permissions, as Discord's own settings show them (your
# language's Discord client shows them translated: use its words)
PERMISSIONS = N_(
    "View Channel, Send Messages, Embed Links, Attach Files, Read Message History "
    "and Create Public Threads"
)
_PICTURE_KW = set(inspect.signature(render_table_png).parameters) & {"away", "title"}


def picture(info: TableInfo, update: TableUpdate) -> bytes:
    """The table as a PNG, from the spectator view (runs in a thread)."""
    assert update.view is not None and update.view.seat is None
    extra: dict[str, Any] = {}
    if "away" in _PICTURE_KW:
        extra["away"] = tuple(s.away for s in info.seats)  # one flag per seat
    if "title" in _PICTURE_KW:
        extra["title"] = messages.table_title(info)
    return render_table_png(update.view, messages.seat_names(info), **extra)


def board_recorded_message(info: TableInfo) -> dict[str, Any]:
    """The last table message of a tournament's board table, once its board
    is recorded (in the current language): the board is done, not the table
    abandoned, and no later deal or turn is shown (the board's summary was
    posted just before, in the table's private thread)."""
    embed = discord.Embed(
        title=messages.table_title(info),
        description="✅ "
        + t(
            "The board is recorded: this table has finished its work. Its score counts in "
            "the tournament's standings once every table has played the board."
        ),
        colour=embeds.COLOUR,
    )
    return {"embed": embed, "view": None, "attachments": []}


@dataclass(frozen=True)
class EditRecord:
    """One edit of a table message, as it finished (for metrics, the bench)."""

    channel_id: int
    table_id: int
    #: the table's ``seq`` the edit shows
    seq: int
    #: loop time the request started and finished
    started: float
    finished: float
    #: bytes of picture uploaded (0: the message kept its picture)
    picture_bytes: int
    ok: bool


class Presenter:
    def __init__(
        self,
        bot: ChannelHost,
        edit_interval: float,
        hands: LiveHands,
        pings: TurnPings,
        *,
        limit: int = LIMIT,
        activity: bool = False,
    ) -> None:
        self.bot = bot
        #: table messages offer "Open the table" (the Activity is configured)
        self.activity = activity
        #: seconds per edit of one channel, on average (0: no budget)
        self.edit_interval = edit_interval
        self.limit = limit
        self.hands = hands
        self.pings = pings
        self.feeds: dict[int, TableFeed] = {}
        pings.on_due = self._ping_due
        #: the edit budget and queue of each channel with a table message
        self.channels: dict[int, ChannelBudget] = {}
        self._pumps: dict[int, asyncio.Task[None]] = {}
        self._pump_wake: dict[int, asyncio.Event] = {}
        #: tables whose edit is in flight
        self._editing: set[int] = set()
        #: called with every finished table-message edit (must not block)
        self.edit_listeners: list[Callable[[EditRecord], None]] = []
        self._edits: Counter[int] = Counter()

    def channel_edits(self) -> dict[int, int]:
        """Table-message edit requests made per channel since start (only
        ever grows: a counter for metrics)."""
        return dict(self._edits)

    # -- entry points (no I/O) ------------------------------------------------------------
    async def on_update(self, update: TableUpdate) -> None:
        feed = self._feed(update.table.id)
        if feed.latest is None:
            feed.since = asyncio.get_running_loop().time()
        before = feed.decider
        feed.absorb(update)
        if update.kind == "action" and before is not None and feed.decider == before:
            self.pings.postpone(feed.table_id)  # they acted and decide again: still here
        self._run_soon(feed)

    def _ping_due(self, table_id: int, user_id: int) -> None:
        """A turn ping's grace ran out: the table's task posts it."""
        feed = self.feeds.get(table_id)
        if feed is not None:
            feed.ping_for = user_id
            feed.wake.set()
            self._run_soon(feed)

    def post_lobby(self, info: TableInfo) -> None:
        """Post a lobby message for a table that has none yet (a rematch)."""
        feed = self._feed(info.id)
        if feed.message_id is None and info.message_id is None:
            feed.channel_id = feed.channel_id or info.channel_id
            feed.lobby_post = info
            feed.wake.set()
            self._run_soon(feed)

    def show_in_thread(self, info: TableInfo, thread_id: int) -> None:
        """Post a private table's message in its private thread (a board of a
        tournament: ``TableInfo.private``), where its posts and pings go too."""
        feed = self._feed(info.id)
        feed.private = info.private
        feed.channel_id = feed.thread_id = thread_id
        if feed.message_id is None:
            feed.lobby_post = info
            feed.wake.set()
            self._run_soon(feed)

    def take_problem(self, table_id: int) -> str | None:
        """A channel problem the players were not told about yet (once)."""
        feed = self.feeds.get(table_id)
        if feed is None or feed.problem is None or feed.problem_reported:
            return None
        feed.problem_reported = True
        return feed.problem

    async def close(self, flush_seconds: float = FLUSH_SECONDS) -> None:
        """Flush: let the tables' tasks finish and the channels edit what is
        waiting, within the budget, for at most ``flush_seconds``; then stop
        whatever is left (pings waiting for their grace time are dropped)."""
        await self.pings.close()
        try:
            async with asyncio.timeout(flush_seconds):
                while True:
                    tasks = [f.task for f in self.feeds.values() if f.task and not f.task.done()]
                    tasks += [p for p in self._pumps.values() if not p.done()]
                    if not tasks:
                        break
                    await asyncio.wait(tasks)
        except TimeoutError:
            log.warning("presenter: stopped with edits still waiting")
        tasks = [f.task for f in self.feeds.values() if f.task is not None]
        tasks += list(self._pumps.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _feed(self, table_id: int) -> TableFeed:
        feed = self.feeds.get(table_id)
        if feed is None:
            feed = self.feeds[table_id] = TableFeed(table_id)
        return feed

    def _run_soon(self, feed: TableFeed) -> None:
        if feed.task is None or feed.task.done():
            feed.task = detached(self._run(feed), f"cardtable-present-{feed.table_id}")

    async def _lang(self, feed: TableFeed) -> Lang:
        return await self.bot.languages.for_server(feed.guild_id)

    # -- the per-table task -------------------------------------------------------------------
    async def _run(self, feed: TableFeed) -> None:
        try:
            while True:
                feed.wake.clear()
                if feed.lobby_post is not None:
                    await self._post_lobby(feed)
                if self._wants_thread(feed):
                    await self._open_thread(feed)
                if feed.turn is not None or feed.away_notices:
                    await self._announce(feed)
                if feed.ping_for is not None:
                    await self._ping(feed)
                while feed.posts:
                    await self._post_milestone(feed, feed.posts.popleft())
                self._queue_edit(feed)
                if not feed.work_pending():
                    break
        except Exception:
            log.exception("table %s: presenting failed", feed.table_id)
        finally:
            self._forget_if_done(feed)

    def _forget_if_done(self, feed: TableFeed) -> None:
        """An ended table whose last state is shown (and problem told) is
        forgotten; ``_run`` and ``_pump`` both ask, whichever ends last."""
        told = feed.problem is None or feed.problem_reported
        running = feed.task is not None and not feed.task.done()
        if running and feed.task is not asyncio.current_task():
            return
        if (
            feed.ended
            and told
            and not feed.pending()
            and feed.table_id not in self._editing
            and self.feeds.get(feed.table_id) is feed
        ):
            del self.feeds[feed.table_id]

    # -- the per-channel edit queue ---------------------------------------------------------------
    def _queue_edit(self, feed: TableFeed) -> None:
        """Give the table's newest state to its channel's queue (no I/O)."""
        if feed.latest is None:
            return
        if feed.message_id is None or feed.channel_id is None:
            feed.latest = None  # the front end has not posted it yet
            return
        channel = feed.channel_id
        budget = self.channels.get(channel)
        if budget is None:
            budget = self.channels[channel] = ChannelBudget(self.limit)
        budget.window = self.limit * self.edit_interval
        budget.want(feed.table_id)
        wake = self._pump_wake.setdefault(channel, asyncio.Event())
        wake.set()
        pump = self._pumps.get(channel)
        if pump is None or pump.done():
            self._pumps[channel] = detached(self._pump(channel), f"cardtable-channel-{channel}")

    async def _pump(self, channel: int) -> None:
        """Edit the channel's table messages, one table at a time, within
        the channel's budget; sleep until the next slot (or retry) only."""
        loop = asyncio.get_running_loop()
        budget, wake = self.channels[channel], self._pump_wake[channel]
        try:
            while budget.queue:
                wake.clear()
                now = loop.time()
                ready, retry_at = self._ready(channel, budget, now)
                if not budget.queue:
                    break
                slot = budget.next_slot(now)
                when = slot if ready else max(slot, retry_at)
                if when > now:
                    try:
                        async with asyncio.timeout(when - now):
                            await wake.wait()
                    except TimeoutError:
                        pass
                    continue
                table_id = budget.take(ready)
                feed = self.feeds.get(table_id) if table_id is not None else None
                if feed is None or feed.latest is None:
                    continue
                update, feed.latest = feed.latest, None
                self._editing.add(feed.table_id)
                try:
                    await self._edit(feed, update, budget)
                finally:
                    self._editing.discard(feed.table_id)
                self._queue_edit(feed)  # a newer state (or a retry): back of the queue
                self._forget_if_done(feed)
        except Exception:
            log.exception("channel %s: editing table messages failed", channel)
        finally:
            if self._pumps.get(channel) is asyncio.current_task():
                del self._pumps[channel]
            for key in [k for k, b in self.channels.items() if b.idle(loop.time())]:
                if key not in self._pumps:
                    del self.channels[key]
                    self._pump_wake.pop(key, None)

    def _ready(self, channel: int, budget: ChannelBudget, now: float) -> tuple[set[int], float]:
        """The queued tables that may be edited now, and the earliest retry
        of the others (a failed edit, or a table settling while its AI
        answers: ``SETTLE``); tables with nothing left to show, or whose message
        moved to another channel (a thread), leave this queue."""
        ready: set[int] = set()
        retry_at = float("inf")
        for table_id in list(budget.queue):
            feed = self.feeds.get(table_id)
            if feed is None or feed.latest is None or feed.message_id is None:
                budget.drop(table_id)
            elif feed.channel_id != channel:
                budget.drop(table_id)
                self._queue_edit(feed)
            elif feed.retry_at > now:
                retry_at = min(retry_at, feed.retry_at)
            elif feed.ai_to_act and feed.since + SETTLE * self.edit_interval > now:
                retry_at = min(retry_at, feed.since + SETTLE * self.edit_interval)
            else:
                ready.add(table_id)
        return ready, retry_at

    # -- the table message ------------------------------------------------------------------
    async def _table_message(
        self, update: TableUpdate, shown: str | None = None
    ) -> tuple[dict[str, Any], str | None, int]:
        """The message for ``update``; the picture is attached only when its
        digest differs from ``shown`` (the one the message has).  Returns
        the content, the picture's digest and the bytes attached."""
        info = update.table
        with using(await self.bot.languages.for_server(info.guild_id)):
            return await self._table_message_in_language(update, shown)

    async def _table_message_in_language(
        self, update: TableUpdate, shown: str | None
    ) -> tuple[dict[str, Any], str | None, int]:
        info = update.table
        if info.status == "lobby" or update.view is None:
            content = {
                "embed": embeds.lobby_embed(info),
                "view": items.lobby_view(info),
                "attachments": [],
            }
            return content, None, 0
        if update.kind == BOARD_RECORDED or (info.private and info.status == "finished"):
            # a board table whose match was the board (a one-deal match) ends
            # like any other board table: recorded, no Rematch
            return board_recorded_message(info), None, 0
        msgid = NOTES.get(info.status) or NOTES.get(update.kind)
        note = t(msgid) if msgid else ""
        embed = embeds.table_embed(info, update.view, note=note)
        png = await asyncio.to_thread(picture, info, update)
        digest = hashlib.blake2b(png, digest_size=16).hexdigest()
        embed.set_image(url="attachment://table.png")
        content: dict[str, Any] = {
            "embed": embed,
            "view": items.table_view(info, activity=self.activity),
        }
        if digest == shown:
            return content, digest, 0  # no "attachments": the message keeps its picture
        content["attachments"] = [discord.File(io.BytesIO(png), filename="table.png")]
        return content, digest, len(png)

    async def _edit(
        self, feed: TableFeed, update: TableUpdate, budget: ChannelBudget | None = None
    ) -> None:
        """Edit the table message to ``update``; the request's start is what
        ``budget`` counts (after the picture is drawn, never before its slot)."""
        loop = asyncio.get_running_loop()
        content, digest, size = await self._table_message(update, feed.picture)
        channel_id = feed.channel_id or 0
        channel = self.bot.get_partial_messageable(channel_id)
        ok = False
        started = loop.time()
        if budget is not None:
            budget.record(started)
        self._edits[channel_id] += 1
        try:
            await channel.get_partial_message(feed.message_id or 0).edit(**content)
        except discord.NotFound:
            await self._repost(feed, update)
        except discord.Forbidden as exc:
            await self._problem(feed, "edit", exc, post_works=True)
        except discord.HTTPException as exc:
            feed.retries += 1
            if feed.retries > MAX_RETRIES:
                await self._problem(feed, "edit", exc, post_works=False)
                return
            log.warning("table %s: edit failed (%s); retrying", feed.table_id, exc)
            if feed.latest is None:
                feed.latest = update
            feed.retry_at = loop.time() + RETRY_SECONDS * feed.retries
        else:
            ok = True
            feed.retries = 0
            feed.picture = digest
        finally:
            record = EditRecord(
                channel_id, feed.table_id, update.table.seq, started, loop.time(), size, ok
            )
            for listener in self.edit_listeners:
                listener(record)

    async def _repost(self, feed: TableFeed, update: TableUpdate) -> None:
        """The table message was deleted: post it again and remember where."""
        content, digest, _size = await self._table_message(update)
        files = content.pop("attachments")
        if files:
            content["files"] = files
        try:
            message = await self.bot.get_partial_messageable(feed.channel_id or 0).send(**content)
        except discord.HTTPException as exc:
            await self._problem(feed, "repost", exc, post_works=False)
            return
        feed.message_id = message.id
        feed.picture = digest
        await self.bot.service.set_message(feed.table_id, message_id=message.id)

    async def _post_lobby(self, feed: TableFeed) -> None:
        info, feed.lobby_post = feed.lobby_post, None
        if info is None or feed.message_id is not None or feed.channel_id is None:
            return
        if feed.private and feed.thread_id is None:
            return  # a private table is shown in its private thread only
        if feed.latest is not None and feed.latest.table.status == "lobby":
            info, feed.latest = feed.latest.table, None
        with using(await self._lang(feed)):
            embed, view = embeds.lobby_embed(info), items.lobby_view(info)
        try:
            message = await self.bot.get_partial_messageable(feed.channel_id).send(
                embed=embed, view=view
            )
        except discord.HTTPException as exc:
            await self._problem(feed, "lobby", exc, post_works=False)
            return
        feed.message_id = message.id
        await self.bot.service.set_message(
            feed.table_id, channel_id=feed.channel_id, message_id=message.id
        )

    # -- thread, turns, milestones -------------------------------------------------------------
    def _wants_thread(self, feed: TableFeed) -> bool:
        return (
            not feed.thread_tried
            and feed.thread_id is None
            and feed.guild_id is not None
            and not feed.private
            and feed.message_id is not None
            and feed.status == "playing"
        )

    async def _open_thread(self, feed: TableFeed) -> None:
        feed.thread_tried = True
        settings = await self.bot.service.get_guild_settings(feed.guild_id)
        if not settings.get("use_threads", True):
            return
        try:
            thread = await self.bot.http.start_thread_with_message(
                feed.channel_id or 0,
                feed.message_id or 0,
                name=f"table-{feed.table_id}",
                auto_archive_duration=1440,
            )
        except discord.HTTPException as exc:  # no thread: posts go to the channel
            log.warning("table %s: no thread (%s); using the channel", feed.table_id, exc)
            return
        feed.thread_id = int(thread["id"])
        await self.bot.service.set_message(feed.table_id, thread_id=feed.thread_id)

    async def _announce(self, feed: TableFeed) -> None:
        turn, feed.turn = feed.turn, None
        notices, feed.away_notices = feed.away_notices, []
        if turn is not None:
            info = turn.info
            ready = False
            if turn.user_id is not None:
                ready = await self.hands.refresh(feed.table_id, turn.user_id)
            for user in self.hands.stale(feed.table_id, turn.user_id):
                await self.hands.refresh(feed.table_id, user)
            if info.status in ("finished", "abandoned"):
                self.hands.forget(feed.table_id)
            target = feed.target
            feed.ping_for = None
            self.pings.cancel(feed.table_id)
            try:
                await self.pings.clear(feed.table_id)  # the turn it announced passed
                if (
                    turn.user_id is not None
                    and target is not None
                    and await self.pings.wanted(info)
                ):
                    grace = await self.pings.grace(info)
                    if grace > 0:
                        self.pings.schedule(feed.table_id, turn.user_id, grace)
                    else:
                        await self.pings.ping(info, turn.user_id, target, hand_ready=ready)
            except discord.HTTPException as exc:
                await self._problem(feed, "pings", exc, post_works=False)
        for _seat, user in notices:
            if feed.target is None or feed.info is None:
                continue
            with using(await self._lang(feed)):
                text = away_text(feed.info, user)
            try:
                await self.pings.notice(user, feed.target, text)
            except discord.HTTPException as exc:
                await self._problem(feed, "post", exc, post_works=False)

    async def _ping(self, feed: TableFeed) -> None:
        """Post a ping whose grace ran out, if that person still decides."""
        user, feed.ping_for = feed.ping_for, None
        info, target = feed.info, feed.target
        if (
            user is None
            or info is None
            or target is None
            or feed.status != "playing"
            or feed.decider is None
            or feed.decider[1] != user
            or feed.decider[0] in feed.away
        ):
            return
        ready = self.hands.current(feed.table_id, user) is not None
        try:
            await self.pings.ping(info, user, target, hand_ready=ready)
        except discord.HTTPException as exc:
            await self._problem(feed, "pings", exc, post_works=False)

    async def _post_milestone(self, feed: TableFeed, update: TableUpdate) -> None:
        info, view = update.table, update.view
        if view is None or feed.target is None:
            return
        texts = []
        with using(await self._lang(feed)):
            if view.last_deal is not None:
                texts.append(messages.deal_summary(info, view))
            if update.kind == "finished":
                texts.append(messages.result_text(info, view, update.results))
        channel = self.bot.get_partial_messageable(feed.target)
        for text in texts:
            if not text:
                continue
            try:
                await channel.send(clip(text), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                await self._problem(feed, "post", exc, post_works=False)
                return

    # -- problems ---------------------------------------------------------------------------------
    async def _problem(
        self, feed: TableFeed, doing: str, exc: discord.HTTPException, *, post_works: bool
    ) -> None:
        """Log it; tell the players once (in the channel if posting may still
        work, else the next person who clicks gets it)."""
        log.warning("table %s: could not %s (%s)", feed.table_id, DOING[doing], exc)
        if feed.problem is not None:
            return
        with using(await self._lang(feed)):
            where = f"<#{feed.channel_id}>" if feed.channel_id else t("this channel")
            feed.problem = clip(
                "⚠️ "
                + t(
                    "I could not {doing} for table #{table} in {where} (Discord said: {said}). "
                    "A server admin can fix this by giving me {permissions} there. The game "
                    "goes on: press **Show my hand** (or use `/table hand`) to play.",
                    doing=t(DOING[doing]),
                    table=feed.table_id,
                    where=where,
                    said=exc.text or exc.status,
                    permissions=t(PERMISSIONS),
                )
            )
        if post_works and feed.channel_id is not None:
            try:
                await self.bot.get_partial_messageable(feed.channel_id).send(
                    feed.problem, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                return
            feed.problem_reported = True

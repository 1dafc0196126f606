"""Per-table bookkeeping of the presenter: what is waiting to be shown.

``TableFeed.absorb`` is called for *every* service update, synchronously
and without I/O (the service awaits its subscribers), so nothing is ever
missed even when the presenter's task coalesces many updates into one
edit: the newest state replaces the one waiting, milestones queue up in
order, and a change of the deciding person is noticed on the update where
it happens (a quick A -> AI -> AI -> A round still gives A a new turn).
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field

from bot.services.models import TableInfo, TableUpdate

#: update kinds posted as messages of their own, in order
MILESTONES = ("deal_end", "finished")
ENDED = ("finished", "abandoned")


@dataclass
class Turn:
    """The decider changed: announce it (``user_id`` None: nobody to ping,
    e.g. an AI's turn or the end of the game -- the old ping goes)."""

    seat: int | None
    user_id: int | None
    info: TableInfo


@dataclass
class TableFeed:
    table_id: int
    guild_id: int | None = None
    channel_id: int | None = None
    message_id: int | None = None
    thread_id: int | None = None
    status: str = "lobby"
    #: a tournament's board table (``TableInfo.private``): shown only in its
    #: private thread, never in the channel
    private: bool = False
    #: the table as of the last update absorbed
    info: TableInfo | None = None
    #: the newest state not yet on the table message
    latest: TableUpdate | None = None
    #: deal summaries and results to post, oldest first
    posts: deque[TableUpdate] = field(default_factory=deque)
    #: a lobby message to post (a rematch), until the table has a message
    lobby_post: TableInfo | None = None
    turn: Turn | None = None
    #: a person whose turn ping is due (its grace ran out), to post
    ping_for: int | None = None
    #: (seat, user) just marked away, to tell once
    away_notices: list[tuple[int, int]] = field(default_factory=list)
    #: (seat, person or None) deciding now, as of the last update absorbed
    decider: tuple[int, int | None] | None = None
    away: frozenset[int] = frozenset()
    thread_tried: bool = False
    #: loop time the oldest change not yet on the table message arrived
    since: float = 0.0
    #: loop time before which a failed edit is not retried
    retry_at: float = float("-inf")
    retries: int = 0
    #: digest of the picture the table message shows (None: no picture)
    picture: str | None = None
    #: a channel error to tell the players about, once
    problem: str | None = None
    problem_reported: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    @property
    def target(self) -> int | None:
        """Where posts and pings go: the table's thread, else its channel (a
        private table: its thread only, nowhere before it has one)."""
        if self.private:
            return self.thread_id
        return self.thread_id or self.channel_id

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    @property
    def ai_to_act(self) -> bool:
        """An AI seat decides now: its move follows within milliseconds."""
        return self.status == "playing" and self.decider is not None and self.decider[1] is None

    def pending(self) -> bool:
        """Anything left to show, the table message's newest state included."""
        return self.latest is not None or self.work_pending()

    def work_pending(self) -> bool:
        """Work for the table's own task (the table message's edits are its
        channel's: ``Presenter._pump``)."""
        return bool(
            self.posts
            or self.turn is not None
            or self.away_notices
            or self.ping_for is not None
            or self.lobby_post is not None
        )

    def absorb(self, update: TableUpdate) -> None:
        info = update.table
        self.info = info
        self.guild_id = info.guild_id
        self.status = info.status
        self.private = info.private
        for name in ("channel_id", "message_id", "thread_id"):
            value = getattr(info, name)
            if value is not None:
                setattr(self, name, value)
        self.latest = update
        if update.kind in MILESTONES and update.view is not None:
            self.posts.append(update)
        self._track_turn(update)
        self._track_away(info)
        self.wake.set()

    def _track_turn(self, update: TableUpdate) -> None:
        info, view = update.table, update.view
        key: tuple[int, int | None] | None = None
        person: int | None = None
        if (
            info.status == "playing"
            and view is not None
            and not view.is_over
            and view.decider is not None
        ):
            seat = info.seats[view.decider]
            key = (seat.seat, seat.user_id if seat.human else None)
            person = seat.user_id if seat.human and not seat.away else None
        if key != self.decider:
            self.decider = key
            self.turn = Turn(key[0] if key else None, person, info)
        elif self.turn is not None:
            self.turn = Turn(self.turn.seat, self.turn.user_id, info)  # newer deadline

    def _track_away(self, info: TableInfo) -> None:
        now = frozenset(s.seat for s in info.seats if s.human and s.away)
        for seat in sorted(now - self.away):
            user = info.seats[seat].user_id
            if user is not None:
                self.away_notices.append((seat, user))
        self.away = now

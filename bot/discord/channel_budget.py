"""Discord's edit budget of one channel: when may the next table message be
edited, and whose turn is it.

Discord lets a bot edit about 5 messages per 5 s in one channel (a thread
is a channel of its own); past that it answers 429 and discord.py queues
every later edit of the channel behind the wait, so every table there lags.
``ChannelBudget`` is the bookkeeping of one channel, with no I/O and no
clock of its own (the caller passes ``now``, so tests drive it by hand):

* **the window**: never more than ``limit`` edits started in any ``window``
  seconds (a sliding window over the start times of the last ``limit``);
* **the pace**: two edits of the channel at least ``window / limit`` apart.
  Without it, 3 busy tables would spend the 5 edits in the first second and
  then all wait 4 s; paced, each of them is shown every 3 s;
* **the queue**: the tables that have a state waiting, in the order they
  got it; the head is served and a table with more waiting goes to the back
  (round-robin: a busy table never starves a quiet one, and each table's
  newest state is the only one edited, so coalescing is the presenter's).

``next_slot(now)`` is the moment the next edit is allowed: the presenter's
channel task sleeps until then (a deadline, never a poll).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

#: Discord's edit budget of a channel: this many edits per window
LIMIT = 5


@dataclass
class ChannelBudget:
    #: edits allowed per ``window``
    limit: int = LIMIT
    #: seconds; 0 means no budget (tests, a private test server)
    window: float = 5.0
    #: start times of the latest edits (at most ``limit``)
    started: deque[float] = field(default_factory=deque)
    #: tables with a state waiting, the next to serve first
    queue: deque[int] = field(default_factory=deque)

    @property
    def pace(self) -> float:
        """Seconds between two edits of the channel."""
        return self.window / self.limit if self.limit else 0.0

    def want(self, table_id: int) -> None:
        """The table has a new state to show (idempotent: its place in the
        queue is kept, so waiting again never sends a table to the back)."""
        if table_id not in self.queue:
            self.queue.append(table_id)

    def drop(self, table_id: int) -> None:
        if table_id in self.queue:
            self.queue.remove(table_id)

    def next_slot(self, now: float) -> float:
        """The earliest time (>= ``now``) an edit may start."""
        if self.window <= 0 or not self.started:
            return now
        slot = self.started[-1] + self.pace
        if len(self.started) >= self.limit:
            slot = max(slot, self.started[-self.limit] + self.window)
        return max(now, slot)

    def record(self, now: float) -> None:
        """An edit of the channel starts now."""
        self.started.append(now)
        while len(self.started) > self.limit:
            self.started.popleft()

    def idle(self, now: float) -> bool:
        """Nothing queued and no edit in the window: forgetting this budget
        changes nothing."""
        return not self.queue and (not self.started or self.started[-1] + self.window <= now)

    def take(self, ready: set[int] | None = None) -> int | None:
        """The next table to edit: the first in the queue (among ``ready``
        ones, when given: a table waiting out a retry keeps its place)."""
        for table_id in self.queue:
            if ready is None or table_id in ready:
                self.queue.remove(table_id)
                return table_id
        return None

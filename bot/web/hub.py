"""Fan-out: the table service's updates to the connections watching each table.

One subscriber on ``TableService.subscribe`` -- the same events that drive
the channel message -- marks every connection of the updated table as
*stale*; nothing else happens in the service's publish (it awaits its
subscribers one by one, so this one must cost next to nothing: a dict
look-up and a flag per connection).  Each connection's own writer then
asks the service for *its* view (``private_view`` / ``public_view``) and
sends it.  Two updates that arrive before the writer runs become one frame
with the newest state (the client always gets the latest ``seq``).  No
polling anywhere: a writer sleeps on its event.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Protocol

from bot.services.models import ResultInfo, TableUpdate

RESULTS_KEPT = 1000


class Watcher(Protocol):
    """A connection as the hub sees it."""

    def table_changed(self, update: TableUpdate) -> None:
        """The table changed: send a fresh state soon (must not block)."""


class Hub:
    """table id -> the connections showing it."""

    def __init__(self) -> None:
        self._watchers: dict[int, set[Watcher]] = {}
        #: the result of each recently finished table (a late reader shows its
        #: places too; older ones are read from the final view alone)
        self.results: OrderedDict[int, ResultInfo] = OrderedDict()
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self, subscribe: Callable[..., Callable[[], None]]) -> None:
        """Listen to a service (``TableService.subscribe``)."""
        if self._unsubscribe is None:
            self._unsubscribe = subscribe(self.on_update)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def watch(self, table_id: int, watcher: Watcher) -> None:
        self._watchers.setdefault(table_id, set()).add(watcher)

    def unwatch(self, table_id: int, watcher: Watcher) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[table_id]

    def count(self, table_id: int | None = None) -> int:
        if table_id is not None:
            return len(self._watchers.get(table_id, ()))
        return sum(len(w) for w in self._watchers.values())

    async def on_update(self, update: TableUpdate) -> None:
        table_id = update.table.id
        if update.results is not None:
            self.results[table_id] = update.results
            while len(self.results) > RESULTS_KEPT:
                self.results.popitem(last=False)
        for watcher in list(self._watchers.get(table_id, ())):
            watcher.table_changed(update)

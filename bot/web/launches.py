"""Which table an Activity should open: "Open the table" on a table message
launches the Activity, and Discord's launch carries no parameter of ours,
so the bot notes here (in memory) that this person asked for that table in
that server; ``GET /api/tables`` then lists it first, marked ``launch``.
A note is good for ``LAUNCH_SECONDS``, and only for the person who
clicked."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

LAUNCH_SECONDS = 600.0
MAX_LAUNCHES = 10_000


class Launches:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._asked: OrderedDict[tuple[int, int | None], tuple[int, float]] = OrderedDict()

    def note(self, user_id: int, guild_id: int | None, table_id: int) -> None:
        key = (user_id, guild_id)
        self._asked.pop(key, None)
        self._asked[key] = (table_id, self.clock() + LAUNCH_SECONDS)
        while len(self._asked) > MAX_LAUNCHES:
            self._asked.popitem(last=False)

    def wanted(self, user_id: int, guild_id: int | None) -> int | None:
        """The table this person last asked to open here, if recent."""
        found = self._asked.get((user_id, guild_id))
        if found is None:
            return None
        table_id, until = found
        if until < self.clock():
            self._asked.pop((user_id, guild_id), None)
            return None
        return table_id

"""Which process owns which table: Discord's sharding, applied to the store.

Discord splits a bot's servers into shards by ``(guild_id >> 22) %
shard_count`` (https://discord.com/developers/docs/events/gateway#sharding)
and sends each server's interactions to its shard only; direct messages
always arrive on shard 0.  A table belongs to its server's shard, and a DM
or terminal table (no server) to shard 0, so the process that receives a
table's clicks is the one that holds it in memory and writes its moves.

The database enforces it (migration ``0003_shards``): ``tables`` carries
its ``shard`` with ``(id, shard)`` unique, and every action row carries the
writer's shard under a foreign key ``(table_id, shard) -> tables(id,
shard)``.  A process only ever writes a shard it owns (``Shards.check``),
so a move for another process's table is refused by that constraint, not
by luck.  When the shard count changes, a process takes over the
unfinished tables that are now its own (``Store.claim``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: the bits of a Discord snowflake below the timestamp
SNOWFLAKE_SHIFT = 22


class NotOurShard(ValueError):
    """A write for a shard this process does not own (a bug in the caller)."""


@dataclass(frozen=True)
class Shards:
    """``count`` shards in all, of which this process owns ``ids``."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be 1 or more, not {self.count}")
        if not self.ids:
            raise ValueError("a process must own at least one shard")
        wrong = sorted(i for i in self.ids if not 0 <= i < self.count)
        if wrong:
            raise ValueError(f"shard ids {wrong} are outside 0..{self.count - 1}")

    @classmethod
    def of_settings(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """``ids`` None: every shard (one process runs them all)."""
        chosen = frozenset(range(count)) if ids is None else frozenset(ids)
        return cls(count, chosen)

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a server's tables; 0 for DM and terminal tables."""
        if guild_id is None:
            return 0
        return (guild_id >> SNOWFLAKE_SHIFT) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

    def check(self, shard: int) -> int:
        """``shard`` if this process may write it; ``NotOurShard`` otherwise."""
        if shard not in self.ids:
            raise NotOurShard(f"shard {shard} is not one of this process's {sorted(self.ids)}")
        return shard

    @property
    def single(self) -> int | None:
        """The one shard this process owns, or None when it owns several."""
        return next(iter(self.ids)) if len(self.ids) == 1 else None

    def __str__(self) -> str:
        if len(self.ids) == self.count:
            return f"all {self.count} shard(s)"
        return f"shard(s) {','.join(map(str, sorted(self.ids)))} of {self.count}"

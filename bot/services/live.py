"""A table in memory: its row, its seats and (once started) the engine state.

Only the ``TableService`` mutates a ``LiveTable``, always under its lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.services.models import SeatInfo, TableInfo
from engine import MatchState

ACTIVE = ("lobby", "playing")


@dataclass
class LiveTable:
    id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    host_id: int
    game: str
    variant: dict[str, Any]
    seed: int
    status: str
    turn_seconds: int
    #: in play: when the person to act is replaced by the AI; in the lobby:
    #: when the idle lobby closes
    deadline: float | None
    seats: list[SeatInfo]
    expiries: dict[int, int] = field(default_factory=dict)
    state: MatchState | None = None
    #: the seat each logged action was for (public: every action is public)
    actors: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None
    #: the rematch table made from this one (a second click reuses it)
    rematch_id: int | None = None
    #: set when the store may hold more than memory (an ambiguous write)
    needs_reload: bool = False
    finishing: bool = False
    #: the shard this process writes the table's moves under (``bot.db.shards``)
    shard: int = 0
    #: told whenever ``deadline`` changes (the service's index of deadlines)
    on_deadline: Callable[[LiveTable], None] | None = field(default=None, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "deadline":
            hook = self.__dict__.get("on_deadline")
            if hook is not None:
                hook(self)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            message_id=self.message_id,
            thread_id=self.thread_id,
            host_id=self.host_id,
            game=self.game,
            variant=dict(self.variant),
            status=self.status,
            seats=tuple(self.seats),
            num_seats=len(self.seats),
            seq=len(self.state.log) if self.state else 0,
            deadline=self.deadline,
            turn_seconds=self.turn_seconds,
        )

    def robot_for(self, seat: int) -> str | None:
        """The AI that decides for ``seat`` at once: an AI seat, or the AI
        that took over from a player who resigned.  A player marked away is
        *not* replaced at once: the AI only plays for them when their
        (shortened) timer runs out, so they can always come back."""
        return self.seats[seat].ai

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def humans(self) -> list[SeatInfo]:
        """Seats a person still decides for."""
        return [s for s in self.seats if s.human]

    def set_seat(self, seat: int, **changes: Any) -> SeatInfo:
        old = self.seats[seat]
        new = SeatInfo(
            seat,
            changes.get("user_id", old.user_id),
            changes.get("name", old.name),
            changes.get("ai", old.ai),
            changes.get("away", old.away),
        )
        self.seats[seat] = new
        return new

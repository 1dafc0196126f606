"""Value objects the service hands to front ends (frozen: front ends render
them and never mutate them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import Event, Observation

#: the update kind of a tournament's board table ended because its board is
#: recorded (``TournamentService``): not abandoned, its work is done
BOARD_RECORDED = "board_recorded"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int | None
    name: str
    ai: str | None
    away: bool = False

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.ai is None

    @property
    def resigned(self) -> bool:
        """A person who left a running game: an AI plays the seat for them."""
        return self.user_id is not None and self.ai is not None

    @property
    def human(self) -> bool:
        """A person decides for this seat (present or away)."""
        return self.user_id is not None and self.ai is None


@dataclass(frozen=True, slots=True)
class TableInfo:
    id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    host_id: int
    game: str
    variant: dict[str, Any]
    status: str  # lobby | playing | finished | abandoned
    seats: tuple[SeatInfo, ...]
    num_seats: int
    seq: int
    deadline: float | None
    turn_seconds: int

    @property
    def private(self) -> bool:
        """A board of a duplicate tournament (hosted by a "director", a
        negative id no person has): every table of the board holds the same
        hands, so its public view is secret from the tournament's other
        tables until the board is complete.  A front end shows it only where
        its own players read (the bot: a private thread), never in a channel."""
        return self.host_id < 0

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    @property
    def is_full(self) -> bool:
        return all(not s.empty for s in self.seats)


@dataclass(frozen=True, slots=True)
class PrivateView:
    table: TableInfo
    seat: int
    view: Observation


@dataclass(frozen=True, slots=True)
class ResultInfo:
    #: per seat: place (a resigned seat after every seat that stayed), points,
    #: rating before/after of the rated seats (empty when unrated)
    ranks: tuple[int, ...]
    points: tuple[int, ...]
    rating_changes: dict[int, tuple[float, float]] = field(default_factory=dict)
    #: seats whose player resigned (counted as a loss)
    resigned: tuple[int, ...] = ()
    #: why the match was not rated (``bot.services.results.UNRATED``); None: rated
    unrated: str | None = None

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first (a team's seats in partnership games)."""
        return tuple(s for s, rank in enumerate(self.ranks) if rank == 1)


@dataclass(frozen=True, slots=True)
class TableUpdate:
    table: TableInfo
    view: Observation | None
    events: tuple[Event, ...]
    #: lobby | action | deal_end | finished | resumed | abandoned | away | back |
    #: board_recorded (``BOARD_RECORDED``)
    kind: str
    results: ResultInfo | None = None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user_id: int
    name: str
    played: int
    won: int
    points: int
    rating: float

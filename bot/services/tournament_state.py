"""A duplicate tournament as the service holds it while it runs
(``LiveTournament``), what a front end is shown of it (``TournamentInfo``),
and its statuses: shared by ``bot.services.tournaments`` (the lobby, the
reading side) and ``bot.services.tournament_runner`` (the rounds)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.db.tournaments import TournamentRecord
from bot.services.duplicate import Standing, Tournament

LOBBY, PLAYING, FINISHED, ABANDONED = "lobby", "playing", "finished", "abandoned"
ACTIVE = (LOBBY, PLAYING)
#: table hosts are "directors": id -(tournament * DIRECTOR_SPAN + table number + 1)
DIRECTOR_SPAN = 1000


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What a front end shows: no card of a board still in play."""

    id: int
    guild_id: int | None
    channel_id: int | None
    host_id: int
    game: str
    status: str
    tables: int
    boards: int
    scoring: str
    #: the board being played (0-based), or None before the start / at the end
    round: int | None
    entrants: tuple[str, ...]
    #: the people of each entrant (user ids), AI places left out
    people: tuple[tuple[int, ...], ...]
    standings: tuple[Standing, ...]
    #: where the standings message is (channel, message), if posted
    message: tuple[int, int] | None
    table_ids: tuple[int, ...] = ()


@dataclass
class LiveTournament:
    id: int
    guild_id: int | None
    channel_id: int | None
    host_id: int
    status: str
    duplicate: Tournament
    #: per entrant, its places: [user_id, name] or None (an AI)
    places: list[list[list[Any] | None]]
    turn_seconds: int | None = None
    message: list[int] | None = None
    #: (table number, board) -> table id
    tables: dict[tuple[int, int], int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def members(self) -> int:
        return 2 if self.duplicate.partnership else 1

    @property
    def round(self) -> int | None:
        if self.status != PLAYING:
            return None
        d = self.duplicate
        return next((b for b in range(d.boards) if not d.board_complete(b)), None)

    def to_state(self) -> dict[str, Any]:
        return {
            "duplicate": self.duplicate.to_dict(),
            "places": self.places,
            "turn_seconds": self.turn_seconds,
            "message": self.message,
        }

    @classmethod
    def of(cls, record: TournamentRecord) -> LiveTournament:
        state = record.state
        return cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            status=record.status,
            duplicate=Tournament.from_dict(state["duplicate"]),
            places=[list(p) for p in state["places"]],
            turn_seconds=state.get("turn_seconds"),
            message=state.get("message"),
        )

    def info(self) -> TournamentInfo:
        d = self.duplicate
        return TournamentInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            host_id=self.host_id,
            game=d.game,
            status=self.status,
            tables=d.tables,
            boards=d.boards,
            scoring=d.scoring,
            round=self.round,
            entrants=tuple(d.entrants),
            people=tuple(tuple(int(p[0]) for p in e if p is not None) for e in self.places),
            standings=tuple(d.standings()) if self.status != LOBBY else (),
            message=(self.message[0], self.message[1]) if self.message else None,
            table_ids=tuple(v for _, v in sorted(self.tables.items())),
        )

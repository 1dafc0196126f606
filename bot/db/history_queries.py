"""Read-only queries for ``/history`` (issue 16): a player's finished
matches on one server, newest first, with everybody who sat at each table;
and whether a table is a board of a duplicate tournament (whose deals stay
hidden until the tournament is over).

Kept apart from ``repositories`` (one reader, no writes); errors leave as
``StoreUnavailable`` / ``StoreDamaged`` like every ``Store`` method.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from bot.db.models import ResultRow, SeatRow, TableRow
from bot.db.repositories import Store, _reported
from bot.db.tournament_models import TournamentRow, TournamentTableRow


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One finished match of one player (the results row the finish wrote)."""

    table_id: int
    game: str
    finished_at: datetime
    seat: int
    rank: int
    points: int
    won: bool
    rating_before: float | None
    rating_after: float | None
    #: every seat's name, by seat
    names: tuple[str, ...]
    #: why the match was not rated (``bot.services.results.UNRATED``); None:
    #: rated, or recorded before reasons were kept
    unrated: str | None = None


@_reported
async def played_matches(
    store: Store, guild_id: int, user_id: int, game: str | None = None, limit: int = 10
) -> list[PlayedMatch]:
    """The newest ``limit`` finished matches of ``user_id`` on ``guild_id``."""
    async with store.sessions() as session:
        query = (
            select(ResultRow, TableRow.game, TableRow.updated_at)
            .join(TableRow, TableRow.id == ResultRow.table_id)
            .where(
                TableRow.guild_id == guild_id,
                TableRow.status == "finished",
                ResultRow.user_id == user_id,
            )
            .order_by(TableRow.updated_at.desc(), TableRow.id.desc())
            .limit(limit)
        )
        if game is not None:
            query = query.where(TableRow.game == game)
        rows = list(await session.execute(query))
        ids = [r[0].table_id for r in rows]
        names: dict[int, dict[int, str]] = {i: {} for i in ids}
        if ids:
            for seat in await session.scalars(select(SeatRow).where(SeatRow.table_id.in_(ids))):
                names[seat.table_id][seat.seat] = seat.name
    return [
        PlayedMatch(
            table_id=result.table_id,
            game=game_name,
            finished_at=finished,
            seat=result.seat,
            rank=result.rank,
            points=result.points,
            won=result.won,
            rating_before=result.rating_before,
            rating_after=result.rating_after,
            names=tuple(names[result.table_id].get(s, "") for s in sorted(names[result.table_id])),
            unrated=result.unrated,
        )
        for result, game_name, finished in rows
    ]


@_reported
async def tournament_status(store: Store, table_id: int) -> str | None:
    """The status of the duplicate tournament whose board table ``table_id``
    is (None: not a tournament table)."""
    async with store.sessions() as session:
        status = await session.scalar(
            select(TournamentRow.status)
            .join(TournamentTableRow, TournamentTableRow.tournament_id == TournamentRow.id)
            .where(TournamentTableRow.table_id == table_id)
        )
    return None if status is None else str(status)

"""The store of duplicate tournaments (issue 16): a small repository on the
``Store``'s own engine, sessions and group-commit writer, so a tournament's
writes are ordered with the moves of its tables and a driver error leaves
as ``StoreUnavailable`` exactly like the store's own.

Rows: ``tournaments`` (one per tournament, its state as JSON) and
``tournament_tables`` (which ordinary table plays which board), see
``bot.db.tournament_models``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from bot.db.errors import StoreUnavailable, is_unavailable, translate
from bot.db.models import utcnow
from bot.db.repositories import Store
from bot.db.tournament_models import TournamentRow, TournamentTableRow

P = ParamSpec("P")
R = TypeVar("R")


def _reported(
    method: Callable[Concatenate[TournamentStore, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[TournamentStore, P], Coroutine[Any, Any, R]]:
    """Driver errors leave as ``StoreUnavailable`` / ``StoreDamaged`` (as in
    ``bot.db.repositories``)."""

    @functools.wraps(method)
    async def wrapper(self: TournamentStore, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, *args, **kwargs)
        except Exception as exc:
            if isinstance(exc, StoreUnavailable) or not is_unavailable(exc):
                raise
            raise translate(exc, self.store.where) from exc

    return wrapper


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    guild_id: int | None
    channel_id: int | None
    host_id: int
    game: str
    status: str
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BoardTable:
    tournament_id: int
    table_id: int
    table_no: int
    board: int


def _record(row: TournamentRow) -> TournamentRecord:
    return TournamentRecord(
        row.id, row.guild_id, row.channel_id, row.host_id, row.game, row.status,
        json.loads(row.state),
    )  # fmt: skip


class TournamentStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    @_reported
    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        game: str,
        state: dict[str, Any],
        status: str = "lobby",
    ) -> int:
        def job(conn: Connection) -> int:
            now = utcnow()
            new = insert(TournamentRow).values(
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                game=game,
                status=status,
                state=json.dumps(state),
                created_at=now,
                updated_at=now,
            )
            return int(conn.execute(new.returning(TournamentRow.id)).scalar_one())

        return int(await self.store.write(job))

    @_reported
    async def save(
        self, tournament_id: int, *, state: dict[str, Any], status: str | None = None
    ) -> None:
        fields: dict[str, Any] = {"state": json.dumps(state), "updated_at": utcnow()}
        if status is not None:
            fields["status"] = status
        statement = update(TournamentRow).where(TournamentRow.id == tournament_id).values(**fields)

        def job(conn: Connection) -> None:
            conn.execute(statement)

        await self.store.write(job)

    @_reported
    async def get(self, tournament_id: int) -> TournamentRecord | None:
        async with self.store.sessions() as session:
            row = await session.get(TournamentRow, tournament_id)
            return None if row is None else _record(row)

    @_reported
    async def with_status(
        self, statuses: Sequence[str], guild_id: int | None = None
    ) -> list[TournamentRecord]:
        query = select(TournamentRow).where(TournamentRow.status.in_(list(statuses)))
        if guild_id is not None:
            query = query.where(TournamentRow.guild_id == guild_id)
        async with self.store.sessions() as session:
            rows = await session.scalars(query.order_by(TournamentRow.id))
            return [_record(r) for r in rows]

    @_reported
    async def link(self, tournament_id: int, table_id: int, table_no: int, board: int) -> None:
        """Table ``table_id`` plays ``board`` as table ``table_no`` (replacing
        a link left by an interrupted start of the same board)."""

        def job(conn: Connection) -> None:
            conn.execute(
                delete(TournamentTableRow).where(
                    TournamentTableRow.tournament_id == tournament_id,
                    TournamentTableRow.table_no == table_no,
                    TournamentTableRow.board == board,
                )
            )
            conn.execute(
                insert(TournamentTableRow).values(
                    tournament_id=tournament_id, table_id=table_id, table_no=table_no, board=board
                )
            )

        await self.store.write(job)

    @_reported
    async def links(self, tournament_ids: Sequence[int]) -> list[BoardTable]:
        query = select(TournamentTableRow).where(
            TournamentTableRow.tournament_id.in_(list(tournament_ids))
        )
        async with self.store.sessions() as session:
            rows = await session.scalars(query.order_by(TournamentTableRow.id))
            return [BoardTable(r.tournament_id, r.table_id, r.table_no, r.board) for r in rows]

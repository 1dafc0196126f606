"""The store's operations, one short method each.  Every write commits
before it returns, so a move the service acknowledges is on disk."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from bot.db.errors import DuplicateAction, StoreDamaged, StoreUnavailable
from bot.db.models import ActionRow, GuildSetting, RatingRow, ResultRow, SeatRow, TableRow, utcnow
from bot.db.session import make_engine, make_sessionmaker, upgrade_to_head

__all__ = ["DuplicateAction", "Store", "StoreDamaged", "StoreUnavailable"]


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = make_sessionmaker(self.engine)

    async def migrate(self) -> None:
        await upgrade_to_head(self.url)

    async def close(self) -> None:
        await self.engine.dispose()

    # -- tables and seats -----------------------------------------------------------
    async def create_table(self, seats: int, **fields: Any) -> int:
        async with self.sessions() as session:
            row = TableRow(**fields)
            session.add(row)
            await session.flush()
            for seat in range(seats):
                session.add(SeatRow(table_id=row.id, seat=seat, user_id=None, name="", ai=None))
            await session.commit()
            return row.id

    async def table(self, table_id: int) -> tuple[TableRow, list[SeatRow]] | None:
        async with self.sessions() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                return None
            seats = (
                await session.scalars(
                    select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                )
            ).all()
            return row, list(seats)

    async def tables_with_status(self, statuses: Sequence[str]) -> list[int]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(TableRow.id).where(TableRow.status.in_(statuses)).order_by(TableRow.id)
            )
            return list(rows)

    async def update_table(self, table_id: int, **fields: Any) -> None:
        async with self.sessions() as session:
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(**fields, updated_at=utcnow())
            )
            await session.commit()

    async def update_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        async with self.sessions() as session:
            await session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(**fields)
            )
            await session.commit()

    # -- the action log ---------------------------------------------------------------
    async def append_action(
        self,
        table_id: int,
        seq: int,
        notation: str,
        seat: int,
        actor_id: int | None,
        by_ai: bool,
        *,
        deadline: float | None = None,
        seat_fields: dict[str, Any] | None = None,
        fields_seat: int | None = None,
    ) -> None:
        """Persist one move (and the next deadline) in one transaction;
        ``DuplicateAction`` when the slot is taken."""
        async with self.sessions() as session:
            session.add(
                ActionRow(
                    table_id=table_id,
                    seq=seq,
                    notation=notation,
                    seat=seat,
                    actor_id=actor_id,
                    by_ai=by_ai,
                )
            )
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(deadline=deadline, updated_at=utcnow())
            )
            if seat_fields:
                await session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(**seat_fields)
                )
            try:
                await session.commit()
            except IntegrityError as exc:
                await session.rollback()
                raise DuplicateAction(str(exc)) from exc

    async def actions(self, table_id: int) -> list[ActionRow]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            )
            return list(rows)

    # -- settings ---------------------------------------------------------------------------
    async def settings(self, guild_id: int, game: str) -> dict[str, Any]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GuildSetting).where(
                    GuildSetting.guild_id == guild_id, GuildSetting.game == game
                )
            )
            return {r.key: json.loads(r.value) for r in rows}

    async def put_setting(self, guild_id: int, game: str, key: str, value: Any) -> None:
        async with self.sessions() as session:
            await session.execute(
                delete(GuildSetting).where(
                    GuildSetting.guild_id == guild_id,
                    GuildSetting.game == game,
                    GuildSetting.key == key,
                )
            )
            session.add(
                GuildSetting(guild_id=guild_id, game=game, key=key, value=json.dumps(value))
            )
            await session.commit()

    async def delete_settings(self, guild_id: int, game: str, key: str | None = None) -> None:
        async with self.sessions() as session:
            query = delete(GuildSetting).where(
                GuildSetting.guild_id == guild_id, GuildSetting.game == game
            )
            if key is not None:
                query = query.where(GuildSetting.key == key)
            await session.execute(query)
            await session.commit()

    # -- results and ratings ---------------------------------------------------------------
    async def record_results(
        self,
        table_id: int,
        results: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
        guild_id: int | None,
        game: str,
    ) -> None:
        """Results and rating rows of a finished table, in one transaction."""
        async with self.sessions() as session:
            for result in results:
                session.add(ResultRow(table_id=table_id, **result))
            if guild_id is not None:
                for r in ratings:
                    existing = await session.scalar(
                        select(RatingRow).where(
                            RatingRow.guild_id == guild_id,
                            RatingRow.game == game,
                            RatingRow.user_id == r["user_id"],
                        )
                    )
                    if existing is None:
                        session.add(RatingRow(guild_id=guild_id, game=game, **r))
                    else:
                        for key, value in r.items():
                            setattr(existing, key, value)
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="finished", deadline=None, updated_at=utcnow())
            )
            await session.commit()

    async def rating_rows(
        self, guild_id: int, game: str | None = None, user_id: int | None = None
    ) -> list[RatingRow]:
        async with self.sessions() as session:
            query = select(RatingRow).where(RatingRow.guild_id == guild_id)
            if game is not None:
                query = query.where(RatingRow.game == game)
            if user_id is not None:
                query = query.where(RatingRow.user_id == user_id)
            return list(await session.scalars(query))

"""The store's operations, one short method each.

Every write commits before it returns, so a move the service acknowledges
survives a crash of the process (see ``bot.db.session`` for what SQLite's
``synchronous=NORMAL`` promises on a power loss).  Every method reports
database trouble as ``StoreUnavailable`` (``StoreDamaged`` when the data is
damaged), never as a driver exception; a duplicate action as
``DuplicateAction``.  On SQLite, write transactions run one at a time in
this process (an ``asyncio.Lock``); reads run alongside them.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.errors import (
    DuplicateAction,
    StoreDamaged,
    StoreUnavailable,
    describe_database,
    is_unavailable,
    translate,
)
from bot.db.models import (
    ActionRow,
    GuildSetting,
    RatingRow,
    ResultRow,
    SeatRow,
    TableRow,
    UserSetting,
    utcnow,
)
from bot.db.schema import upgrade_to_head
from bot.db.session import BUSY_TIMEOUT_MS, is_sqlite, make_engine, make_sessionmaker, writer

__all__ = ["DuplicateAction", "Store", "StoreDamaged", "StoreUnavailable"]

P = ParamSpec("P")
R = TypeVar("R")

# How long a write waits for this process's other writes before giving up
# with StoreUnavailable (the busy timeout then covers other processes).
WRITE_WAIT_SECONDS = 15.0


def _reported(
    method: Callable[Concatenate[Store, P], Awaitable[R]],
) -> Callable[Concatenate[Store, P], Awaitable[R]]:
    """Driver errors leave a Store method as ``StoreUnavailable`` or
    ``StoreDamaged``, the driver's exception as ``__cause__``."""

    @functools.wraps(method)
    async def wrapper(self: Store, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, *args, **kwargs)
        except Exception as exc:
            if isinstance(exc, StoreUnavailable) or not is_unavailable(exc):
                raise
            raise translate(exc, self.where) from exc

    return wrapper


def _is_foreign_key_error(exc: IntegrityError) -> bool:
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23503":
        return True
    return "foreign key" in str(orig).lower()


class Store:
    def __init__(
        self,
        url: str,
        *,
        write_wait: float = WRITE_WAIT_SECONDS,
        busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
    ) -> None:
        """``write_wait``: how long a write may queue behind this process's
        other writes (SQLite); ``busy_timeout``: how long SQLite waits for
        another process's write lock.  Both end in ``StoreUnavailable``."""
        self.url = url
        self.where = describe_database(url)
        self.engine = make_engine(url, busy_timeout=busy_timeout)
        self.sessions = make_sessionmaker(self.engine)
        self._writes = make_sessionmaker(writer(self.engine))
        self._write_lock = asyncio.Lock() if is_sqlite(url) else None
        self.write_wait = write_wait

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncSession]:
        """A session for one write transaction (``BEGIN IMMEDIATE`` on
        SQLite, after this process's earlier writes have finished)."""
        if self._write_lock is None:
            async with self._writes() as session:
                yield session
            return
        try:
            async with asyncio.timeout(self.write_wait):
                await self._write_lock.acquire()
        except TimeoutError as exc:
            raise StoreUnavailable(
                detail=f"{self.where}: waited {self.write_wait:g} s for earlier writes"
            ) from exc
        released = False
        try:
            async with self._writes() as session:
                try:
                    yield session
                except BaseException:
                    await session.rollback()
                    raise
                finally:
                    # the transaction is over: let the next write begin while
                    # this session returns its connection to the pool
                    self._write_lock.release()
                    released = True
        finally:
            if not released:
                self._write_lock.release()

    @_reported
    async def migrate(self) -> None:
        """Check the database, repair a half-made first migration and bring
        the schema to the newest migration (``bot.db.schema``)."""
        await upgrade_to_head(self.url)

    @_reported
    async def close(self) -> None:
        await self.engine.dispose()

    # -- tables and seats -----------------------------------------------------------
    @_reported
    async def create_table(self, seats: int, **fields: Any) -> int:
        async with self._writing() as session:
            row = TableRow(**fields)
            session.add(row)
            await session.flush()
            for seat in range(seats):
                session.add(SeatRow(table_id=row.id, seat=seat, user_id=None, name="", ai=None))
            await session.commit()
            return row.id

    @_reported
    async def table(self, table_id: int) -> tuple[TableRow, list[SeatRow]] | None:
        """The table and its seats, or None.  ``StoreDamaged`` (naming the
        table, ``table_id`` set) when its seat rows are not 0..n-1 with at
        least two seats: every game has two seats or more and
        ``create_table`` writes them all, so anything else is damage (the
        store does not know the game's seat count; the service checks that)."""
        async with self.sessions() as session:
            row = await session.get(TableRow, table_id)
            if row is None:
                return None
            seats = list(
                (
                    await session.scalars(
                        select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
                    )
                ).all()
            )
        numbers = [s.seat for s in seats]
        if len(numbers) < 2 or numbers != list(range(len(numbers))):
            raise StoreDamaged(
                f"table #{table_id} is damaged: its seats in the store are {numbers or 'missing'} "
                "(expected seats 0 to n-1, at least two); abandon it or restore a backup",
                detail=f"{self.where}: table {table_id} seat rows {numbers}",
                table_id=table_id,
            )
        return row, seats

    @_reported
    async def unfinished(
        self, statuses: Sequence[str]
    ) -> list[tuple[TableRow, list[SeatRow], list[tuple[int, str, int]]]]:
        """Every table in ``statuses`` with its seats and its action log as
        (seq, notation, seat) tuples, in three queries whatever their number
        (resuming a thousand tables at start).  A table whose seat rows are
        damaged is returned with an empty seat list (``table()`` names it)."""
        async with self.sessions() as session:
            tables = list(
                await session.scalars(
                    select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.id)
                )
            )
            ids = [t.id for t in tables]
            seats: dict[int, list[SeatRow]] = {i: [] for i in ids}
            moves: dict[int, list[tuple[int, str, int]]] = {i: [] for i in ids}
            wanted = select(TableRow.id).where(TableRow.status.in_(statuses)).scalar_subquery()
            for seat in await session.scalars(
                select(SeatRow).where(SeatRow.table_id.in_(wanted)).order_by(SeatRow.seat)
            ):
                if seat.table_id in seats:
                    seats[seat.table_id].append(seat)
            rows = await session.execute(
                select(ActionRow.table_id, ActionRow.seq, ActionRow.notation, ActionRow.seat)
                .where(ActionRow.table_id.in_(wanted))
                .order_by(ActionRow.table_id, ActionRow.seq)
            )
            for table_id, seq, notation, seat_no in rows:
                if table_id in moves:
                    moves[table_id].append((seq, notation, seat_no))
        out = []
        for table in tables:
            numbers = [s.seat for s in seats[table.id]]
            ok = len(numbers) >= 2 and numbers == list(range(len(numbers)))
            out.append((table, seats[table.id] if ok else [], moves[table.id]))
        return out

    @_reported
    async def tables_with_status(self, statuses: Sequence[str]) -> list[int]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(TableRow.id).where(TableRow.status.in_(statuses)).order_by(TableRow.id)
            )
            return list(rows)

    @_reported
    async def update_table(self, table_id: int, **fields: Any) -> None:
        async with self._writing() as session:
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(**fields, updated_at=utcnow())
            )
            await session.commit()

    @_reported
    async def update_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        async with self._writing() as session:
            await session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(**fields)
            )
            await session.commit()

    # -- the action log ---------------------------------------------------------------
    @_reported
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
        """Persist one move (and the next deadline) in one transaction.

        ``seat`` is the seat the action was for (Batak's dummy, say);
        ``seat_fields`` are written to ``fields_seat`` (the seat that
        decided) when given, else to ``seat``.  ``DuplicateAction`` when the
        (table, seq) slot is taken; then nothing of this call is written.
        The INSERT runs first and explicitly, so its conflict is met here and
        not in an autoflush or at commit."""
        async with self._writing() as session:
            try:
                await session.execute(
                    insert(ActionRow).values(
                        table_id=table_id,
                        seq=seq,
                        notation=notation,
                        seat=seat,
                        actor_id=actor_id,
                        by_ai=by_ai,
                        created_at=utcnow(),
                    )
                )
            except IntegrityError as exc:
                if _is_foreign_key_error(exc):
                    raise
                raise DuplicateAction(
                    f"table {table_id} already has an action number {seq}"
                ) from exc
            await session.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(deadline=deadline, updated_at=utcnow())
            )
            if seat_fields:
                target = seat if fields_seat is None else fields_seat
                await session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == target)
                    .values(**seat_fields)
                )
            await session.commit()

    @_reported
    async def actions(self, table_id: int) -> list[ActionRow]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            )
            return list(rows)

    # -- settings ---------------------------------------------------------------------------
    @_reported
    async def settings(self, guild_id: int, game: str) -> dict[str, Any]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GuildSetting).where(
                    GuildSetting.guild_id == guild_id, GuildSetting.game == game
                )
            )
            return {r.key: json.loads(r.value) for r in rows}

    @_reported
    async def put_setting(self, guild_id: int, game: str, key: str, value: Any) -> None:
        async with self._writing() as session:
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

    @_reported
    async def delete_settings(self, guild_id: int, game: str, key: str | None = None) -> None:
        async with self._writing() as session:
            query = delete(GuildSetting).where(
                GuildSetting.guild_id == guild_id, GuildSetting.game == game
            )
            if key is not None:
                query = query.where(GuildSetting.key == key)
            await session.execute(query)
            await session.commit()

    # -- results and ratings ---------------------------------------------------------------
    @_reported
    async def record_results(
        self,
        table_id: int,
        results: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
        guild_id: int | None,
        game: str,
    ) -> None:
        """Results and rating rows of a finished table, in one transaction."""
        async with self._writing() as session:
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

    @_reported
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

    # -- a person's own preferences ---------------------------------------------------------
    @_reported
    async def user_settings(self, user_id: int) -> dict[str, Any]:
        async with self.sessions() as session:
            rows = await session.scalars(select(UserSetting).where(UserSetting.user_id == user_id))
            return {r.key: json.loads(r.value) for r in rows}

    @_reported
    async def put_user_setting(self, user_id: int, key: str, value: Any) -> None:
        async with self._writing() as session:
            await session.execute(
                delete(UserSetting).where(UserSetting.user_id == user_id, UserSetting.key == key)
            )
            session.add(UserSetting(user_id=user_id, key=key, value=json.dumps(value)))
            await session.commit()

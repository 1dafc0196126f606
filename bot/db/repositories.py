"""The store's operations, one short method each.

Every write commits before it returns, so a move the service acknowledges
survives a crash of the process (see ``bot.db.session`` for what SQLite's
``synchronous`` setting promises on a power loss).  Moves are committed in
groups (``bot.db.group_commit``): the moves that arrive while one
transaction is written go together into the next, each still its own row
under the unique (table, seq), each acknowledged only after its commit.
Every method reports database trouble as ``StoreUnavailable``
(``StoreDamaged`` when the data is damaged), never as a driver exception; a
duplicate action as ``DuplicateAction``; a move for a table of another
shard as ``TableNotOwned`` (``bot.db.shards``).  On SQLite, write
transactions run one at a time in this process on one writer connection
(an ``asyncio.Lock``); reads run alongside them on other connections.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Row, bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Executable

from bot.db.errors import (
    DuplicateAction,
    StoreDamaged,
    StoreUnavailable,
    TableNotOwned,
    describe_database,
    is_unavailable,
    translate,
)
from bot.db.group_commit import PendingMove
from bot.db.lost_log import CLOSED, OPEN, mark
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
from bot.db.schema import (
    check_known_version,
    check_sqlite_wal,
    current_version,
    migrations_script,
    sqlite_file,
    upgrade_to_head,
)
from bot.db.session import (
    BUSY_TIMEOUT_MS,
    DEFAULT_SYNCHRONOUS,
    bulk_reader_engine,
    is_sqlite,
    make_engine,
    make_sessionmaker,
    writer,
    writer_engine,
)
from bot.db.shards import Shards
from bot.db.writer import Writer

__all__ = [
    "DuplicateAction",
    "Store",
    "StoreDamaged",
    "StoreUnavailable",
    "TableHead",
    "TableNotOwned",
]

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

# How long a write waits for this process's other writes before giving up
# with StoreUnavailable (the busy timeout then covers other processes).
WRITE_WAIT_SECONDS = 15.0
#: rows of a big read (resume) fetched at once
READ_ROWS_AT_ONCE = 2000


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


#: the highest row id of a table or a tournament: their ids are 32-bit
#: ``INTEGER`` columns on PostgreSQL (SQLite takes the same range, so both
#: databases answer alike); a larger id names no row, and is never sent to
#: the database (PostgreSQL refused it as a driver error, SQLite overflowed)
MAX_ROW_ID = 2**31 - 1


def row_id_in_range(row_id: object) -> bool:
    return type(row_id) is int and 1 <= row_id <= MAX_ROW_ID


TableHead = Row[tuple[int, int | None, int | None, int]]
Resumable = tuple[Row[Any], list[Row[Any]], list[tuple[int, str, int]]]


class Store:
    def __init__(
        self,
        url: str,
        *,
        write_wait: float = WRITE_WAIT_SECONDS,
        busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
        synchronous: str = DEFAULT_SYNCHRONOUS,
        shards: Shards | None = None,
    ) -> None:
        """``write_wait``: how long a write may queue behind this process's
        other writes; ``busy_timeout``: how long SQLite waits for another
        process's write lock.  Both end in ``StoreUnavailable``.
        ``synchronous``: SQLite's ``FULL`` or ``NORMAL`` (``bot.db.session``).
        ``shards``: the shards this process owns (default: the only one)."""
        self.url = url
        self.where = describe_database(url)
        self.busy_timeout = busy_timeout
        #: the SQLite file this store marked as open (``bot.db.lost_log``)
        self._marked: str | None = None
        self.shards = shards or Shards()
        self.engine = make_engine(url, busy_timeout=busy_timeout, synchronous=synchronous)
        self.sessions = make_sessionmaker(self.engine)
        self.bulk_engine: Engine | None = None
        if is_sqlite(url):
            self.bulk_engine = bulk_reader_engine(url, busy_timeout=busy_timeout)
            self.writer = Writer(
                where=self.where,
                write_wait=write_wait,
                sqlite_engine=writer_engine(
                    url, busy_timeout=busy_timeout, synchronous=synchronous
                ),
                checkpoint=self.checkpoint,
            )
        else:
            self.writer = Writer(
                where=self.where, write_wait=write_wait, async_engine=writer(self.engine)
            )

    async def write(self, job: Callable[[Connection], Any]) -> Any:
        """Run ``job(connection)`` in the next group transaction and return
        its result once committed (``bot.db.writer``): the one way other
        stores of the database (``bot.db.tournaments``) write."""
        return await self.writer.job(job)

    _write = write  # the name the store's own methods use

    async def _execute(self, statement: Executable) -> None:
        """One statement, written with the next group transaction."""

        def job(conn: Connection) -> None:
            conn.execute(statement)

        await self._write(job)

    @_reported
    async def migrate(self) -> None:
        """Check the database, repair a half-made first migration and bring
        the schema to the newest migration (``bot.db.schema``).  On SQLite
        the file is then marked as open until ``close`` (``bot.db.lost_log``:
        how a missing log of a killed run is noticed at the next start)."""
        await upgrade_to_head(self.url)
        path = sqlite_file(self.url)
        if path is not None:
            await asyncio.to_thread(mark, path, OPEN, busy_timeout=self.busy_timeout)
            self._marked = path

    @_reported
    async def check_readable(self) -> None:
        """For tools that read without migrating (``python -m bot replay``):
        what the start refuses before it migrates -- a damaged write-ahead
        log (``StoreDamaged``, checked before SQLite replays it) and a schema
        from a newer Card Table (``StoreTooNew``)."""
        await asyncio.to_thread(check_sqlite_wal, self.url)
        async with self.engine.connect() as conn:
            version = await conn.run_sync(current_version)
        check_known_version(version, migrations_script(), self.where)

    @_reported
    async def close(self) -> None:
        await self.writer.close()
        if self._marked is not None:
            path, self._marked = self._marked, None
            try:
                await asyncio.to_thread(mark, path, CLOSED, busy_timeout=self.busy_timeout)
            except Exception as exc:  # the next start then warns about the log, if it is gone
                log.warning("%s: not marked as closed (%s)", self.where, exc)
        await self.engine.dispose()
        if self.bulk_engine is not None:
            await asyncio.to_thread(self.bulk_engine.dispose)

    def checkpoint(self) -> tuple[int, int, int]:
        """SQLite: copy what the write-ahead log holds into the database file
        (PASSIVE: never waits for, nor holds up, readers or the writer).  The
        writer does not do it itself (``writer_engine``); it runs this in a
        worker thread now and then.  SQLite's answer: (busy, frames in the
        log, frames copied)."""
        assert self.bulk_engine is not None
        raw = self.bulk_engine.raw_connection()
        try:
            busy, logged, copied = raw.driver_connection.execute(
                "PRAGMA wal_checkpoint(PASSIVE)"
            ).fetchone()
            return int(busy), int(logged), int(copied)
        finally:
            raw.close()

    @_reported
    async def ping(self) -> None:
        """One light read on a fresh or pooled connection: the database
        answers and holds the store's tables (the health check)."""
        async with self.engine.connect() as conn:
            await conn.execute(select(TableRow.id).limit(1))

    def commit_stats(self) -> dict[str, float]:
        """Transactions, writes and moves written by the group commit so far."""
        return self.writer.stats()

    # -- tables and seats -----------------------------------------------------------
    @_reported
    async def create_table(self, seats: int, **fields: Any) -> int:
        """A new table of the shard of its server (``NotOurShard`` when this
        process does not own that shard), with its empty seats."""
        shard = self.shards.check(self.shards.shard_of(fields.get("guild_id")))

        def job(conn: Connection) -> int:
            now = utcnow()
            new = insert(TableRow).values(shard=shard, created_at=now, updated_at=now, **fields)
            table_id = int(conn.execute(new.returning(TableRow.id)).scalar_one())
            conn.execute(
                insert(SeatRow),
                [
                    {"table_id": table_id, "seat": seat, "user_id": None, "name": "", "ai": None}
                    for seat in range(seats)
                ],
            )
            return table_id

        return int(await self._write(job))

    @_reported
    async def table(self, table_id: int) -> tuple[TableRow, list[SeatRow]] | None:
        """The table and its seats, or None.  ``StoreDamaged`` (naming the
        table, ``table_id`` set) when its seat rows are not 0..n-1 with at
        least two seats: every game has two seats or more and
        ``create_table`` writes them all, so anything else is damage (the
        store does not know the game's seat count; the service checks that).
        None for an id out of range (``MAX_ROW_ID``)."""
        if not row_id_in_range(table_id):
            return None
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
    async def table_heads(self, statuses: Sequence[str]) -> list[TableHead]:
        """(id, guild_id, channel_id, shard) of every table in ``statuses``
        (one light query: who owns what, before anything is loaded)."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(TableRow.id, TableRow.guild_id, TableRow.channel_id, TableRow.shard)
                .where(TableRow.status.in_(statuses))
                .order_by(TableRow.id)
            )
            return list(rows)

    @_reported
    async def claim(self, tables: dict[int, int]) -> int:
        """Move tables ``{table_id: shard}`` to shards this process owns (the
        shard count changed since they were made); their action rows follow
        (ON UPDATE CASCADE).  One statement; the number of tables moved."""
        if not tables:
            return 0
        for shard in set(tables.values()):
            self.shards.check(shard)

        def job(conn: Connection) -> int:
            result = conn.execute(
                update(TableRow)
                .where(TableRow.id == bindparam("t_id"))
                .values(shard=bindparam("t_shard")),
                [{"t_id": t, "t_shard": shard} for t, shard in sorted(tables.items())],
            )
            return int(result.rowcount or 0)

        return int(await self._write(job))

    @_reported
    async def resumable(self, table_ids: Sequence[int]) -> list[Resumable]:
        """The given tables (in this process's shards), each with its seats
        and its action log as (seq, notation, seat) tuples, in three queries
        whatever their number (resuming a thousand tables at start reads
        140,000 moves).  Plain rows, no ORM objects, built off the event
        loop on SQLite (a worker thread; ``bulk_reader_engine``).  A table
        whose seat rows are damaged comes with an empty seat list
        (``table()`` names it)."""
        ids = sorted(set(table_ids))
        if not ids:
            return []
        shard_ids = sorted(self.shards.ids)
        if self.bulk_engine is not None:
            bulk = self.bulk_engine

            def read() -> list[Resumable]:
                with bulk.connect() as conn:
                    return read_resumable(conn, ids, shard_ids)

            return await asyncio.to_thread(read)
        async with self.engine.connect() as conn:
            return await conn.run_sync(read_resumable, ids, shard_ids)

    @_reported
    async def hosted_tables(
        self, guild_id: int | None, host_id: int, statuses: Sequence[str]
    ) -> list[int]:
        """Ids of the tables in ``statuses`` that ``host_id`` hosts in the
        server ``guild_id`` (None: outside any server), resumed or not: the
        open-table limit counts them all."""
        where = TableRow.guild_id.is_(None) if guild_id is None else TableRow.guild_id == guild_id
        async with self.sessions() as session:
            rows = await session.scalars(
                select(TableRow.id)
                .where(where, TableRow.host_id == host_id, TableRow.status.in_(statuses))
                .order_by(TableRow.id)
            )
            return list(rows)

    @_reported
    async def tables_with_status(self, statuses: Sequence[str]) -> list[int]:
        async with self.sessions() as session:
            rows = await session.scalars(
                select(TableRow.id).where(TableRow.status.in_(statuses)).order_by(TableRow.id)
            )
            return list(rows)

    @_reported
    async def update_table(self, table_id: int, **fields: Any) -> None:
        await self._execute(
            update(TableRow).where(TableRow.id == table_id).values(**fields, updated_at=utcnow())
        )

    @_reported
    async def update_seat(self, table_id: int, seat: int, **fields: Any) -> None:
        await self._execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(**fields)
        )

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
        shard: int | None = None,
    ) -> None:
        """Persist one move (and the next deadline); returns once the
        transaction holding it has committed (group commit, see the module).

        ``seat`` is the seat the action was for (Batak's dummy, say);
        ``seat_fields`` are written to ``fields_seat`` (the seat that
        decided) when given, else to ``seat``.  ``shard`` is the table's
        shard, always one this process owns (default: its only shard).
        ``DuplicateAction`` when the (table, seq) slot is taken and
        ``TableNotOwned`` when the table is not of that shard; then nothing
        of this move is written, and the other moves of its group are."""
        if shard is None:
            shard = self.shards.single
            if shard is None:
                raise ValueError("this process owns several shards: say which one")
        move = PendingMove(
            table_id=table_id,
            seq=seq,
            notation=notation,
            seat=seat,
            actor_id=actor_id,
            by_ai=by_ai,
            shard=self.shards.check(shard),
            deadline=deadline,
            seat_fields=seat_fields,
            fields_seat=fields_seat,
        )
        await self.writer.submit(move)

    @_reported
    async def actions(self, table_id: int) -> list[ActionRow]:
        if not row_id_in_range(table_id):
            return []
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
        def job(conn: Connection) -> None:
            conn.execute(
                delete(GuildSetting).where(
                    GuildSetting.guild_id == guild_id,
                    GuildSetting.game == game,
                    GuildSetting.key == key,
                )
            )
            conn.execute(
                insert(GuildSetting).values(
                    guild_id=guild_id, game=game, key=key, value=json.dumps(value)
                )
            )

        await self._write(job)

    @_reported
    async def delete_settings(self, guild_id: int, game: str, key: str | None = None) -> None:
        query = delete(GuildSetting).where(
            GuildSetting.guild_id == guild_id, GuildSetting.game == game
        )
        if key is not None:
            query = query.where(GuildSetting.key == key)
        await self._execute(query)

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

        def job(conn: Connection) -> None:
            if results:
                conn.execute(
                    insert(ResultRow), [{"table_id": table_id, **result} for result in results]
                )
            if guild_id is not None:
                for r in ratings:
                    mine = (
                        RatingRow.guild_id == guild_id,
                        RatingRow.game == game,
                        RatingRow.user_id == r["user_id"],
                    )
                    existing = conn.scalar(select(RatingRow.id).where(*mine))
                    if existing is None:
                        conn.execute(insert(RatingRow).values(guild_id=guild_id, game=game, **r))
                    else:
                        conn.execute(update(RatingRow).where(RatingRow.id == existing).values(**r))
            conn.execute(
                update(TableRow)
                .where(TableRow.id == table_id)
                .values(status="finished", deadline=None, updated_at=utcnow())
            )

        await self._write(job)

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
        def job(conn: Connection) -> None:
            conn.execute(
                delete(UserSetting).where(UserSetting.user_id == user_id, UserSetting.key == key)
            )
            conn.execute(
                insert(UserSetting).values(user_id=user_id, key=key, value=json.dumps(value))
            )

        await self._write(job)


def read_resumable(conn: Connection, ids: list[int], shard_ids: list[int]) -> list[Resumable]:
    """``Store.resumable``'s three queries (synchronous: a worker thread on
    SQLite, ``run_sync`` on PostgreSQL)."""
    tables = list(
        conn.execute(
            select(*TableRow.__table__.columns)
            .where(TableRow.id.in_(ids), TableRow.shard.in_(shard_ids))
            .order_by(TableRow.id)
        )
    )
    seats: dict[int, list[Row[Any]]] = {t.id: [] for t in tables}
    moves: dict[int, list[tuple[int, str, int]]] = {t.id: [] for t in tables}
    for seat in conn.execute(
        select(*SeatRow.__table__.columns)
        .where(SeatRow.table_id.in_(ids))
        .order_by(SeatRow.table_id, SeatRow.seat)
    ):
        if seat.table_id in seats:
            seats[seat.table_id].append(seat)
    # fetched a few thousand rows at a time: on PostgreSQL (run_sync on the
    # event loop) each fetch gives the loop back, instead of one long stall
    rows = conn.execution_options(yield_per=READ_ROWS_AT_ONCE).execute(
        select(ActionRow.table_id, ActionRow.seq, ActionRow.notation, ActionRow.seat)
        .where(ActionRow.table_id.in_(ids))
        .order_by(ActionRow.table_id, ActionRow.seq)
    )
    for part in rows.partitions():
        for table_id, seq, notation, seat_no in part:
            if table_id in moves:
                moves[table_id].append((seq, notation, seat_no))
    out: list[Resumable] = []
    for table in tables:
        numbers = [s.seat for s in seats[table.id]]
        ok = len(numbers) >= 2 and numbers == list(range(len(numbers)))
        out.append((table, seats[table.id] if ok else [], moves[table.id]))
    return out

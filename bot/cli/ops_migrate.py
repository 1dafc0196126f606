"""``python -m bot migrate-data --from URL --to URL``: one database's rows into another.

Moving from SQLite to PostgreSQL (or back, or to a new file):

1. the source must be at the schema this code knows as newest (an older one
   is migrated by starting the bot on it once; a newer one needs the newer
   Card Table): anything else is refused before the target is touched;
2. the target is brought to the newest schema (the ordinary migrations) and
   must hold no rows, unless ``--force``, which empties it first;
3. every row of every table is copied with its id, parents before children,
   in batches, read from one consistent snapshot of the source and written in
   ONE transaction on the target; PostgreSQL's id sequences are then set past
   the copied ids (explicit ids do not advance them);
4. the row counts of the target are compared with the source's inside that
   transaction, which commits only when every table matches; they are printed.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Table, delete, func, insert, inspect, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.cli.ops import TABLES, VERSION_TABLE, Refusal, Revisions, counts_text, one_line, revisions
from bot.db.errors import too_new_message


def migrate_data(source: str, target: str, *, force: bool = False, batch: int = 1000) -> int:
    if batch < 1:
        raise Refusal(f"--batch must be 1 or more (got {batch})")
    for name, url in (("--from", source), ("--to", target)):
        _check_url(name, url)
    if _same_database(source, target):
        raise Refusal("--from and --to are the same database")
    counts = asyncio.run(_migrate(source, target, force=force, batch=batch))
    print(f"Copied {_safe(source)} to {_safe(target)}: {counts_text(counts)}.")
    return 0


def _safe(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _check_url(name: str, url: str) -> None:
    try:
        parsed = make_url(url)
    except Exception:
        raise Refusal(f"{name} is not a database URL: {one_line(url, 80)!r}") from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise Refusal(f"{name}: only SQLite and PostgreSQL URLs are supported (got {backend})")
    if backend == "sqlite":
        path = parsed.database
        if not path or path == ":memory:" or path.startswith("file:"):
            raise Refusal(f"{name} must name a SQLite file (sqlite+aiosqlite:///path/to/file.db)")
        if name == "--from" and not Path(path).is_file():
            raise Refusal(f"--from: there is no database at {path}")
        if name == "--to" and not Path(path).resolve().parent.is_dir():
            raise Refusal(f"--to: the folder {Path(path).resolve().parent} does not exist")


def _same_database(a: str, b: str) -> bool:
    ua, ub = make_url(a), make_url(b)
    if ua.get_backend_name() == ub.get_backend_name() == "sqlite":
        return Path(str(ua.database)).resolve() == Path(str(ub.database)).resolve()
    keys = ("host", "port", "database")
    return ua.get_backend_name() == ub.get_backend_name() and all(
        getattr(ua, k) == getattr(ub, k) for k in keys
    )


def _version(sync: Connection) -> tuple[str | None, dict[str, int]]:
    """The schema version and the row count of each store table present."""
    names = set(inspect(sync).get_table_names())
    version = None
    if VERSION_TABLE in names:
        version = sync.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    counts = {
        t: int(sync.execute(text(f"SELECT count(*) FROM {t}")).scalar_one())
        for t in TABLES
        if t in names
    }
    return version, counts


def _normalise(row: dict[str, Any]) -> dict[str, Any]:
    """Times as UTC-aware datetimes: SQLite keeps them naive (written as
    UTC), PostgreSQL returns them in the session's time zone."""
    for key, value in row.items():
        if isinstance(value, datetime):
            row[key] = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return row


async def _migrate(source: str, target: str, *, force: bool, batch: int) -> dict[str, int]:
    from bot.db.models import Base
    from bot.db.session import make_engine, writer

    known = revisions()
    src = make_engine(source)
    dst = make_engine(target)
    try:
        _check_logs(source, target)
        await _check_source(src, source, known)
        await _check_target(dst, target, known, force=force)
        from bot.db.schema import upgrade_to_head

        await upgrade_to_head(target)
        tables = [Base.metadata.tables[name] for name in TABLES]
        async with src.connect() as sconn:
            if src.dialect.name == "postgresql":
                await sconn.execution_options(isolation_level="REPEATABLE READ")
            async with sconn.begin(), writer(dst).begin() as tconn:
                return await _copy(sconn, tconn, tables, force=force, batch=batch)
    except Refusal:
        raise
    except Exception as exc:
        raise Refusal(f"the copy failed and nothing was committed: {one_line(exc, 240)}") from None
    finally:
        await src.dispose()
        await dst.dispose()


def _check_logs(*urls: str) -> None:
    """A SQLite file whose write-ahead log is damaged is refused before
    anything opens it (opening would replay the log only in part, and the
    last connection to close would delete it: see ``bot.db.wal``)."""
    from bot.db.errors import StoreDamaged
    from bot.db.schema import check_sqlite_wal

    for url in urls:
        try:
            check_sqlite_wal(url)
        except StoreDamaged as exc:
            raise Refusal(str(exc)) from None


async def _check_source(engine: AsyncEngine, url: str, known: Revisions) -> None:
    try:
        async with engine.connect() as conn:
            version, _ = await conn.run_sync(_version)
    except Exception as exc:
        raise Refusal(f"cannot read --from {_safe(url)}: {one_line(exc, 200)}") from None
    state = known.compare(version)
    if version is None:
        raise Refusal(f"--from {_safe(url)} is not a Card Table database (no schema version)")
    if state == "older":
        raise Refusal(
            f"--from is at schema {version}, older than this Card Table's {known.head}: "
            "start the bot on it once (migrations run at start), then copy"
        )
    if state == "unknown":
        raise Refusal(too_new_message(f"--from {_safe(url)}", version, known.head))


async def _check_target(engine: AsyncEngine, url: str, known: Revisions, *, force: bool) -> None:
    try:
        async with engine.connect() as conn:
            version, counts = await conn.run_sync(_version)
    except Exception as exc:
        raise Refusal(f"cannot open --to {_safe(url)}: {one_line(exc, 200)}") from None
    if version is not None and known.compare(version) == "unknown":
        raise Refusal(
            too_new_message(f"--to {_safe(url)}", version, known.head) + " (nothing was touched)"
        )
    holding = {name: n for name, n in counts.items() if n}
    if holding and not force:
        raise Refusal(
            f"--to already holds rows ({counts_text(holding)}): add --force to replace them"
        )


async def _copy(
    sconn: AsyncConnection,
    tconn: AsyncConnection,
    tables: list[Table],
    *,
    force: bool,
    batch: int,
) -> dict[str, int]:
    if force:
        for table in reversed(tables):
            await tconn.execute(delete(table))
    copied: dict[str, int] = {}
    for table in tables:
        copied[table.name] = 0
        last: int | None = None
        while True:
            query = select(table).order_by(table.c.id).limit(batch)
            if last is not None:
                query = query.where(table.c.id > last)
            rows = [_normalise(dict(r._mapping)) for r in await sconn.execute(query)]
            if not rows:
                break
            await tconn.execute(insert(table), rows)
            copied[table.name] += len(rows)
            last = rows[-1]["id"]
    if tconn.dialect.name == "postgresql":
        for table in tables:
            await tconn.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table.name}), 0) + 1, false)"
                )
            )
    for table in tables:
        source_count = (await sconn.execute(select(func.count()).select_from(table))).scalar_one()
        target_count = (await tconn.execute(select(func.count()).select_from(table))).scalar_one()
        if not source_count == target_count == copied[table.name]:
            raise Refusal(
                f"{table.name}: {source_count} rows in --from, {copied[table.name]} copied, "
                f"{target_count} in --to; rolled back, nothing was committed"
            )
    return copied

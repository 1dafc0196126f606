"""Operating a server's bot: ``backup``, ``restore``, ``migrate-data``, ``doctor``.

python -m bot backup FILE [--force]            # SQLite: an online copy; PostgreSQL: pg_dump advice
python -m bot restore FILE [--force]           # SQLite only, into DATABASE_URL's file
python -m bot migrate-data --from URL --to URL [--force] [--batch N]
python -m bot doctor [--quick]                 # one line per check; exit 0 when all pass

Each command works on ``DATABASE_URL`` (from the environment or ``.env``)
unless ``--db-url`` says otherwise.  Every refusal is one line on stderr
with exit code 2; nothing is changed before a refusal.

Backups use SQLite's online backup API (``sqlite3.Connection.backup``): a
consistent copy of the database as one committed state, the write-ahead log
included, taken while the bot runs (readers never block the writer in WAL
mode).  The copy is written next to FILE and renamed into place, so FILE is
never half-written, and is left in the ordinary rollback-journal mode: one
self-contained file.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.db.lost_log import CLOSED
from bot.db.readonly import read_sqlite

#: the subcommands this module runs
COMMANDS = frozenset({"backup", "restore", "migrate-data", "doctor"})
#: the tables of the store, parents before children (foreign keys)
TABLES = ("guild_settings", "user_settings", "tables", "seats", "actions", "results", "ratings")
SQLITE_MAGIC = b"SQLite format 3\x00"
VERSION_TABLE = "alembic_version"


class Refusal(Exception):
    """A command refuses: one line on stderr, exit code 2, nothing changed."""


def one_line(text: object, limit: int = 400) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def database_url(given: str | None) -> str:
    """``given`` (with its async driver, ``bot.settings.async_database_url``),
    or the configured DATABASE_URL (a bad setting is a refusal)."""
    if given:
        from bot.settings import async_database_url

        try:
            return async_database_url(given)
        except ValueError as exc:
            raise Refusal(f"--db-url: {exc}") from None
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        return Settings().database_url
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        )
        raise Refusal(f"the settings are not valid ({problems}): fix .env") from None


def require_database(url: str, what: str = "DATABASE_URL") -> None:
    """A command that reads a database refuses one that is not there
    instead of letting SQLite create an empty file: ``Refusal`` when
    ``url`` names a SQLite file that does not exist."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise Refusal(f"{what} is not a database URL: {one_line(url, 80)!r}") from None
    path = parsed.database
    if parsed.get_backend_name() != "sqlite" or not path or path == ":memory:":
        return
    if path.startswith("file:"):
        return
    if not Path(path).is_file():
        raise Refusal(f"there is no database {path} ({what}): check the path")
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            version = sqlite_version(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise Refusal(f"{path} ({what}) is not a readable SQLite database ({exc})") from None
    if version is None:
        raise Refusal(f"{path} ({what}) is not a Card Table database (no schema version in it)")


# -- schema versions -----------------------------------------------------------------------
@dataclass(frozen=True)
class Revisions:
    """The migrations this code knows, oldest first."""

    order: tuple[str, ...]

    @property
    def head(self) -> str:
        return self.order[-1]

    def known(self, version: str | None) -> bool:
        return version in self.order

    def compare(self, version: str | None) -> str:
        """Where ``version`` stands: "current", "older" (migrations bring it to head) or "unknown"
        (a newer Card Table, or not Card Table at all)."""
        if version == self.head:
            return "current"
        return "older" if version in self.order else "unknown"


def revisions() -> Revisions:
    from alembic.script import ScriptDirectory

    from bot.db.schema import alembic_config

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    order = tuple(reversed([r.revision for r in script.walk_revisions()]))
    return Revisions(order)


def sqlite_version(conn: sqlite3.Connection) -> str | None:
    """The migration a SQLite database is at; None when it has none."""
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if VERSION_TABLE not in names:
        return None
    row = conn.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
    return str(row[0]) if row else None


def sqlite_counts(conn: sqlite3.Connection) -> dict[str, int]:
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {
        t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES if t in names
    }


def counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


def _sqlite_path(url: str, what: str) -> Path:
    from sqlalchemy.exc import ArgumentError

    from bot.db.schema import sqlite_file
    from bot.db.session import is_sqlite

    try:
        sqlite = is_sqlite(url)
    except ArgumentError:
        raise Refusal(f"{what} is not a database URL: {url!r}") from None
    path = sqlite_file(url) if sqlite else None
    if path is None:
        raise Refusal(f"{what} is not a SQLite file (an in-memory database cannot be copied)")
    return Path(path)


def _check_card_table(conn: sqlite3.Connection, path: Path, known: Revisions) -> str:
    """The schema version of a SQLite Card Table database, or a refusal."""
    try:
        check = [r[0] for r in conn.execute("PRAGMA quick_check")]
        version = sqlite_version(conn)
    except sqlite3.DatabaseError as exc:
        raise Refusal(f"{path} is not a readable SQLite database ({exc})") from None
    if check != ["ok"]:
        raise Refusal(f"{path} is damaged (quick_check: {'; '.join(check[:3])})")
    if version is None:
        raise Refusal(f"{path} is not a Card Table database (no schema version in it)")
    if not known.known(version):
        from bot.db.errors import too_new_message

        raise Refusal(too_new_message(f"the database file {path}", version, known.head))
    return version


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


# -- backup --------------------------------------------------------------------------------
def backup(url: str, file: Path, *, force: bool = False) -> int:
    from bot.db.session import is_sqlite

    try:
        sqlite = is_sqlite(url)
    except Exception:
        raise Refusal(f"DATABASE_URL is not a database URL: {url!r}") from None
    if not sqlite:
        print(postgres_backup_advice(url, file))
        return 0
    source = _sqlite_path(url, "DATABASE_URL")
    if not source.is_file():
        raise Refusal(f"there is no database at {source} (DATABASE_URL): nothing to back up")
    if file.exists() and not force:
        raise Refusal(f"{file} exists: add --force to replace it, or choose another file")
    if file.exists() and file.resolve() == source.resolve():
        raise Refusal(f"{file} is the database itself: choose another file")
    if file.parent.exists() and not file.parent.is_dir():
        raise Refusal(f"{file.parent} is not a folder")
    known = revisions()
    _refuse_a_damaged_log(url)
    partial = file.with_name(file.name + ".partial")

    made: list[bool] = []

    def copy(src: sqlite3.Connection) -> tuple[str, list[str], dict[str, int]]:
        version = _check_card_table(src, source, known)
        made.append(_make_folder(file.parent))
        partial.unlink(missing_ok=True)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # one step: one consistent snapshot, WAL included
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            dst.execute(f"PRAGMA user_version = {CLOSED}")  # no log belongs to it
            return version, [r[0] for r in dst.execute("PRAGMA quick_check")], sqlite_counts(dst)
        finally:
            dst.close()

    try:
        # read-only: the database's files stay as they are (bot.db.readonly)
        version, check, counts = read_sqlite(source, copy)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise Refusal(f"the backup of {source} failed: {exc}") from None
    if check != ["ok"]:
        partial.unlink(missing_ok=True)
        raise Refusal(f"the copy failed its check ({'; '.join(check[:3])}): nothing written")
    os.replace(partial, file)
    folder = f" (made the folder {file.parent})" if any(made) else ""
    print(f"Backed up {source} to {file}{folder} (schema {version}; {counts_text(counts)}).")
    return 0


def _make_folder(folder: Path) -> bool:
    """Make the backup's folder (``backups/`` in the hosting guide's
    command) when it is missing; True when it was made."""
    if folder.is_dir():
        return False
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        raise Refusal(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    return True


def _refuse_a_damaged_log(url: str) -> None:
    """The start's check of the write-ahead log, before anything reads it
    (a damaged log is evidence: it is neither copied in part nor touched)."""
    from bot.db.errors import StoreDamaged
    from bot.db.schema import check_sqlite_wal

    try:
        check_sqlite_wal(url)
    except StoreDamaged as exc:
        raise Refusal(str(exc)) from None


def postgres_backup_advice(url: str, file: Path) -> str:
    """The pg_dump (and pg_restore) commands for a PostgreSQL URL, without
    its password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    parts = ["pg_dump", "--format=custom", f"--file={file}"]
    if parsed.host:
        parts += ["--host", parsed.host]
    if parsed.port:
        parts += ["--port", str(parsed.port)]
    if parsed.username:
        parts += ["--username", parsed.username]
    parts.append(parsed.database or "postgres")
    dump = shlex.join(parts)
    restore = shlex.join(
        ["pg_restore", "--clean", "--if-exists", "--no-owner"]
        + [p for p in parts[3:-1]]
        + ["--dbname", parsed.database or "postgres", str(file)]
    )
    password = (
        "The password in DATABASE_URL is not shown: give it in PGPASSWORD or ~/.pgpass."
        if parsed.password
        else "Give the password, if any, in PGPASSWORD or ~/.pgpass."
    )
    return (
        "DATABASE_URL is PostgreSQL: back it up with PostgreSQL's own pg_dump (it is safe "
        "while the bot runs):\n"
        f"  {dump}\n"
        f"{password}\n"
        f"To restore it (with the bot stopped):\n  {restore}\n"
        "Nothing was done."
    )


# -- restore -------------------------------------------------------------------------------
def restore(url: str, file: Path, *, force: bool = False) -> int:
    from bot.db.session import is_sqlite

    try:
        sqlite = is_sqlite(url)
    except Exception:
        raise Refusal(f"DATABASE_URL is not a database URL: {url!r}") from None
    if not sqlite:
        raise Refusal(
            "restore handles SQLite only: restore a PostgreSQL dump with pg_restore "
            "(`python -m bot backup FILE` shows the command)"
        )
    target = _sqlite_path(url, "DATABASE_URL")
    if not file.is_file():
        raise Refusal(f"there is no backup file {file}")
    if not _looks_like_sqlite(file):
        raise Refusal(f"{file} is not a SQLite database, so not a Card Table backup")
    known = revisions()
    src = sqlite3.connect(f"file:{file.resolve()}?mode=ro", uri=True)
    try:
        version = _check_card_table(src, file, known)
        if target.exists():
            if target.resolve() == file.resolve():
                raise Refusal(f"{file} is the database itself: nothing to restore")
            if not force:
                raise Refusal(
                    f"{target} exists: add --force to replace it with {file} "
                    "(stop the bot first; back the database up if unsure)"
                )
            _refuse_if_in_use(target)
        elif not target.parent.is_dir():
            raise Refusal(f"the folder {target.parent} does not exist")
        partial = target.with_name(target.name + ".restoring")
        partial.unlink(missing_ok=True)
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")
            dst.execute(f"PRAGMA user_version = {CLOSED}")  # a whole file, no log of its own
            counts = sqlite_counts(dst)
        finally:
            dst.close()
    finally:
        src.close()
    for stale in (Path(f"{target}-wal"), Path(f"{target}-shm"), Path(f"{target}-journal")):
        stale.unlink(missing_ok=True)
    os.replace(partial, target)
    later = (
        ""
        if known.compare(version) == "current"
        else f" The bot migrates it from {version} to {known.head} when it starts."
    )
    print(f"Restored {file} into {target} (schema {version}; {counts_text(counts)}).{later}")
    return 0


def _refuse_if_in_use(target: Path) -> None:
    """Refuse when another connection (a running bot) holds ``target``:
    leaving WAL mode needs every other connection closed, so it fails at
    once with "database is locked" while the bot has the file open.  A
    file that is not a database at all may be replaced (``--force``)."""
    conn = sqlite3.connect(target, timeout=0)
    try:
        conn.execute("PRAGMA journal_mode=DELETE").fetchall()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise Refusal(
                f"{target} is in use (is the bot running?): stop the bot, then restore"
            ) from None
    except sqlite3.DatabaseError:
        pass  # not a database: replaced as asked
    finally:
        conn.close()

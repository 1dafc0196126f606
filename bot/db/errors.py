"""The store's errors: what a caller may catch instead of driver exceptions.

* ``DuplicateAction``: the (table, seq) slot of the action log is taken (a
  double click or a stale submission); nothing of that write landed.
* ``TableNotOwned``: the database refused a move because its table is not
  this process's to write (the foreign key (table, shard) of migration
  ``0003_shards``: another shard owns it, or it is gone); nothing landed.
* ``StoreUnavailable``: the database could not be used right now (locked,
  unreachable, I/O error).  Nothing was written; ``retryable`` says whether
  the same request may simply be tried again (see ``bot.db.retry``).  The
  driver's exception is kept as ``__cause__``.
* ``StoreDamaged`` (a ``StoreUnavailable`` that is not retryable): the
  database file, or one table's rows, are damaged.  Trying again will not
  help; the message names the file or the table and says what to do.
* ``StoreTooNew`` (not retryable either): the database is at a schema
  version this code does not know, written by a newer Card Table; the
  message (``too_new_message``, the same one line in every command) says
  which schema the database is at, which version this program is, and what
  to do.

``str(exc)`` is always a sentence a player or an operator can read;
``detail`` carries the technical reason for the log.
"""

from __future__ import annotations

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout

BUSY_MESSAGE = "the table is busy, try again in a moment"

# SQLite result codes (https://sqlite.org/rescode.html) that mean the file
# itself is damaged, as opposed to busy or unreachable.
SQLITE_CORRUPT = 11
SQLITE_NOTADB = 26
DAMAGE_PHRASES = ("malformed", "not a database", "file is encrypted", "corrupt")
# PostgreSQL SQLSTATEs for damaged data (class XX, internal error).
PG_DAMAGE_STATES = ("XX001", "XX002")


class DuplicateAction(Exception):
    """The (table, seq) slot is taken: a duplicate or stale submission."""


class TableNotOwned(Exception):
    """The move's (table, shard) is not a table this process owns."""


class StoreUnavailable(Exception):
    """The database cannot be used right now; nothing was written."""

    retryable = True
    reason = "busy"

    def __init__(self, message: str = BUSY_MESSAGE, *, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message

    def __str__(self) -> str:
        return self.message


class StoreDamaged(StoreUnavailable):
    """The database file, or one table's rows, are damaged: retrying will
    not help, a backup has to be restored (or the table abandoned)."""

    retryable = False
    reason = "damaged"

    def __init__(self, message: str, *, detail: str = "", table_id: int | None = None) -> None:
        super().__init__(message, detail=detail)
        self.table_id = table_id


class StoreTooNew(StoreUnavailable):
    """The database was written by a newer Card Table (its schema version
    is unknown here): this code must not touch it."""

    retryable = False
    reason = "newer"

    def __init__(self, message: str, *, version: str) -> None:
        super().__init__(message, detail=message)
        self.version = version


def program_version() -> str:
    """This Card Table's version (the installed package's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("card-table")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "(not installed)"


def too_new_message(where: str, version: str, head: str) -> str:
    """The one line every command gives for a database from a newer Card
    Table: which schema it is at, which version this program is, what to do."""
    this = program_version()
    return (
        f"{where} is at schema {version!r}, newer than this Card Table {this} (schema "
        f"{head}): upgrade Card Table, or restore a backup made with {this}"
    )


def describe_database(url: str) -> str:
    """``the database file /path/x.db`` or ``the database test on host``:
    how error messages name the store, without a password."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return "the database"
    if parsed.get_backend_name() == "sqlite":
        return f"the database file {parsed.database or ':memory:'}"
    name = f"the database {parsed.database}" if parsed.database else "the database"
    return f"{name} on {parsed.host or 'localhost'}"


def damage_message(where: str) -> str:
    return (
        f"{where} is damaged: restore a backup (or move the file aside to start "
        "with an empty store) and start again"
    )


def is_damage(exc: BaseException) -> bool:
    """Whether a driver error says the data itself is damaged."""
    orig = getattr(exc, "orig", None) or exc
    code = getattr(orig, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return True
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state in PG_DAMAGE_STATES:
        return True
    text = str(orig).lower()
    return any(phrase in text for phrase in DAMAGE_PHRASES)


def is_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` is a database failure to report as ``StoreUnavailable``
    (integrity errors are the caller's business, not the store's health)."""
    if isinstance(exc, IntegrityError):
        return False
    return isinstance(exc, DBAPIError | PoolTimeout | OSError)


def is_foreign_key_error(exc: IntegrityError) -> bool:
    """Whether an integrity error is a foreign key's refusal (not a unique one)."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "23503":
        return True
    return "foreign key" in str(orig).lower()


def translate(exc: BaseException, where: str) -> StoreUnavailable:
    """The ``StoreUnavailable`` (or ``StoreDamaged``) to raise for a driver
    error met while using the database named by ``where``."""
    orig = getattr(exc, "orig", None) or exc
    detail = f"{where}: {type(orig).__name__}: {orig}".strip()
    if is_damage(exc):
        return StoreDamaged(damage_message(where), detail=detail)
    return StoreUnavailable(detail=detail)

"""Log lines that say which table they are about.

``python -m bot run`` puts ``TableFilter`` and one of the two formatters on
its one stderr handler (``bot.discord.run.configure_logging``):

* ``TableFilter`` gives every record a ``table`` attribute: the table id
  given explicitly (``log.info(..., extra={"table": 12})``), else the one set
  for the current task with ``table_context(12)``, else the one the message
  names -- the service and the UI write "table %s: ..." or "table #%s ..." --,
  else None;
* ``TextFormatter``: ``2026-01-02 10:11:12,345 WARNING bot.discord.presenter table=12: edit failed``
  (no ``table=`` part when the line is about no table);
* ``JsonFormatter`` (``LOG_FORMAT=json``): one JSON object per line with
  ``time``, ``level``, ``logger``, ``message``, ``table`` (when known) and
  ``exception`` (a traceback, when there is one), for log collectors.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

#: "table 12", "table #12", "Table 12" in a rendered message
TABLE_IN_MESSAGE = re.compile(r"\btable #?(\d+)\b", re.IGNORECASE)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(table_part)s: %(message)s"
FORMATS = ("text", "json")

current_table: ContextVar[int | None] = ContextVar("cardtable_log_table", default=None)


@contextmanager
def table_context(table_id: int | None) -> Iterator[None]:
    """Every record logged inside (in this task) is about ``table_id``."""
    token = current_table.set(table_id)
    try:
        yield
    finally:
        current_table.reset(token)


def table_of(record: logging.LogRecord) -> int | None:
    explicit = getattr(record, "table", None)
    if explicit is not None:
        return int(explicit) if str(explicit).isdecimal() else explicit
    ambient = current_table.get()
    if ambient is not None:
        return ambient
    try:
        message = record.getMessage()
    except Exception:  # a bad format string is logging's own error to report
        message = str(record.msg)
    found = TABLE_IN_MESSAGE.search(message)
    return int(found.group(1)) if found else None


class TableFilter(logging.Filter):
    """Sets ``record.table`` (never drops a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.table = table_of(record)
        return True


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        table = getattr(record, "table", None)
        if table is None and not hasattr(record, "table"):
            table = table_of(record)
        record.table_part = "" if table is None else f" table={table}"
        return super().format(record)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        table = getattr(record, "table", None) if hasattr(record, "table") else table_of(record)
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if table is not None:
            entry["table"] = table
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def formatter(log_format: str = "text") -> logging.Formatter:
    """The formatter for ``LOG_FORMAT`` ("text" when it is anything else)."""
    if str(log_format).strip().lower() == "json":
        return JsonFormatter()
    return TextFormatter()


def set_up_handler(handler: logging.Handler, log_format: str = "text") -> logging.Handler:
    """Give ``handler`` the table filter and the formatter for ``log_format``."""
    handler.setFormatter(formatter(log_format))
    if not any(isinstance(f, TableFilter) for f in handler.filters):
        handler.addFilter(TableFilter())
    return handler

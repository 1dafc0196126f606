"""Service errors: friendly messages with machine-readable reasons.  Every
one of them leaves everything unchanged.

A service error is raised with an English *message id* and the values it
names, never a finished sentence::

    raise TableNotFound("there is no table #{table}", table=12)

``str(exc)`` is the English text (logs, tests); a front end shows it in the
reader's language with ``bot.i18n.errors.error_text`` (the message ids are
extracted into the catalogues by ``pybabel extract``: babel.cfg names
these classes as keywords).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import N_
from bot.i18n.catalog import fill
from engine.errors import EngineError, InvalidVariant


class ServiceError(EngineError):
    default_reason = "service_error"

    def __init__(self, msgid: str, reason: str | None = None, **params: Any) -> None:
        super().__init__(fill(msgid, params), reason, params)
        self.msgid = msgid


class TableNotFound(ServiceError):
    default_reason = "unknown_table"


class NotSeated(ServiceError):
    default_reason = "not_seated"


class TableFull(ServiceError):
    default_reason = "table_full"


class AlreadySeated(ServiceError):
    default_reason = "already_seated"


class NotHost(ServiceError):
    default_reason = "not_host"


class WrongStatus(ServiceError):
    default_reason = "wrong_status"


class StaleAction(ServiceError):
    default_reason = "stale"


class NotModerator(ServiceError):
    default_reason = "not_moderator"


#: the one message of ``TableBusy`` (``bot.services.tables.BUSY`` is this text)
BUSY = N_("the table is busy, try again in a moment")


class TableBusy(ServiceError):
    """The store could not take the move right now; nothing changed and the
    same request may simply be tried again."""

    default_reason = "busy"
    retryable = True

    def __init__(self, msgid: str = BUSY, reason: str | None = None, **params: Any) -> None:
        super().__init__(msgid, reason, **params)


class TooManyTables(ServiceError):
    default_reason = "too_many_tables"


class Resuming(ServiceError):
    """The bot has just restarted and this table is not replayed yet."""

    default_reason = "resuming"
    retryable = True


class InvalidSetting(ServiceError, InvalidVariant):
    """A server setting's value is not allowed (an ``InvalidVariant`` too)."""

    default_reason = "bad_setting"

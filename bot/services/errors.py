"""Service errors: friendly messages with machine-readable reasons.  Every
one of them leaves everything unchanged."""

from __future__ import annotations

from engine.errors import EngineError


class ServiceError(EngineError):
    default_reason = "service_error"


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


class TableBusy(ServiceError):
    """The store could not take the move right now; nothing changed and the
    same request may simply be tried again."""

    default_reason = "busy"
    retryable = True


class TooManyTables(ServiceError):
    default_reason = "too_many_tables"


class Resuming(ServiceError):
    """The bot has just restarted and this table is not replayed yet."""

    default_reason = "resuming"
    retryable = True

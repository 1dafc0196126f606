"""The web table's refusals: an error frame's code and its sentence in the
reader's language (docs/web.md, "Errors").  Every refusal leaves the table
as it was.

Refusals of the service and the engine keep their own sentences
(``bot.i18n.errors.error_text``, the same words as in Discord and the
terminal); the frame's ``code`` is one of the few the client knows.  The
refusals of the connection itself (a frame that is no frame, too big, too
many) have their messages here.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import N_, t
from bot.i18n.errors import error_text
from bot.services.errors import (
    BUSY,
    NotHost,
    NotSeated,
    Resuming,
    StaleAction,
    TableBusy,
    TableNotFound,
    WrongStatus,
)
from bot.web.protocol import JsonDict, error_frame
from engine import EngineError, NotYourTurn

#: the connection's own refusals: code -> message
MESSAGES: Mapping[str, str] = {
    # i18n: the web table (browser and Discord Activity) refusing a message from the page
    "bad_frame": N_("The page sent something the table cannot read: nothing was changed."),
    "too_big": N_("That message is too long: nothing was changed."),
    "rate_limited": N_("Too many messages at once: wait a second and try again."),
    "auth": N_("Your session has ended: open the table again."),
    "no_table": N_("Open a table first."),
    "not_replay": N_("Open a replay first."),
    "lobby": N_("The game has not started yet."),
    "busy": BUSY,
}


def refusal(code: str) -> JsonDict:
    """An error frame of the connection's own (``MESSAGES``), in the current language."""
    wire = "not_found" if code in ("no_table", "not_replay") else code
    wire = "not_started" if code == "lobby" else wire
    return error_frame(wire, t(MESSAGES[code]))


def code_of(exc: EngineError) -> str:
    """The error frame code of a service or engine refusal."""
    if isinstance(exc, StaleAction):
        return "stale"
    if isinstance(exc, NotYourTurn):
        return "not_your_turn"
    if isinstance(exc, TableNotFound):
        return "not_found"
    if isinstance(exc, NotSeated | NotHost):
        return "forbidden"
    if isinstance(exc, TableBusy | Resuming):
        return "busy"
    if isinstance(exc, WrongStatus) and exc.reason == "not_started":
        return "not_started"
    if exc.reason in ("match_not_over", "tournament_running"):
        return "forbidden"
    return "illegal"


def service_refusal(exc: EngineError) -> JsonDict:
    """The error frame for a refusal of the service or the engine, in the current language."""
    return error_frame(code_of(exc), error_text(exc))

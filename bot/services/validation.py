"""The service's boundary: every argument of a public method checked once.

Front ends (Discord, the terminal, tests, another process some day) call the
services with whatever they were given.  A value of the wrong type or range
must get the same friendly refusal as any other bad input and change
nothing -- never a raw ``TypeError``, ``OverflowError`` or driver error,
never a float silently meaning the int it rounds to (``1.5`` was table #1),
never a text id loading a second copy of a table under the key ``"1"``.

``@validated`` (a class decorator, like ``_store_errors_as_service_errors``)
wraps every public coroutine of a service: its arguments are bound to the
signature and each one whose *name* is in ``CHECKS`` goes through that
check, which returns the value to use or raises the service's own domain
error with a translatable message.  So a new public method with a
``table_id`` or an ``actor`` is checked without anybody remembering to; the
functions of ``history.py`` call ``require_table_id`` themselves.  Checks
of meaning (is this seat free, is this the host) stay in the methods.

Ranges: table and tournament ids are the store's row ids, 1 to
``MAX_ROW_ID`` (PostgreSQL's ``INTEGER``; SQLite takes the same range so
both databases answer alike); Discord ids (servers, channels, users,
roles) are positive and fit a signed 64-bit ``BIGINT``; a user id may be
negative only for the service's own tournament directors.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from bot.db.repositories import MAX_ROW_ID
from bot.services.actor import Actor
from bot.services.errors import ServiceError, StaleAction, TableNotFound
from bot.services.models import TableInfo
from bot.services.policy import DIFFICULTIES, MAX_ACTION_TEXT, checked_seed
from engine import GAMES
from engine.errors import UnknownGame, quote

#: Discord snowflakes and the other BIGINT columns
MAX_BIGINT = 2**63 - 1
#: the longest text argument (a setting value, a key, a mode)
MAX_TEXT = 200
#: the most rows a leaderboard call may ask for
MAX_LIMIT = 1000

C = TypeVar("C", bound=type)


def _is_int(value: Any) -> bool:
    return type(value) is int  # never a bool, a float or a text


def require_table_id(value: Any) -> int:
    """A table id: an int from 1 to ``MAX_ROW_ID``, else "there is no table"."""
    if _is_int(value) and 1 <= value <= MAX_ROW_ID:
        return int(value)
    shown = value if _is_int(value) else quote(value)
    raise TableNotFound("there is no table #{table}", table=shown)


def require_table_info(value: Any) -> TableInfo:
    """A table's facts handed to a view check (``TournamentService.check_view``)."""
    if isinstance(value, TableInfo):
        return value
    raise TableNotFound("there is no table #{table}", table=quote(value))


def require_tournament_id(value: Any) -> int:
    if _is_int(value) and 1 <= value <= MAX_ROW_ID:
        return int(value)
    shown = value if _is_int(value) else quote(value)
    raise ServiceError("there is no running tournament #{id} here", "no_tournament", id=shown)


def require_discord_id(value: Any) -> int:
    """A server, channel, message, thread or role id."""
    if _is_int(value) and 0 < value <= MAX_BIGINT:
        return int(value)
    raise ServiceError("{value} is not a valid id", "bad_id", value=quote(value))


def require_user_id(value: Any) -> int:
    """A person (positive) or a tournament director (negative): any BIGINT
    but zero."""
    if _is_int(value) and value != 0 and abs(value) <= MAX_BIGINT:
        return int(value)
    raise ServiceError("{value} is not a valid id", "bad_id", value=quote(value))


def require_seat(value: Any) -> int:
    """A seat number (0-based; the methods check it is a seat of the table)."""
    if _is_int(value) and 0 <= value < 64:
        return int(value)
    shown = value + 1 if _is_int(value) else quote(value)
    raise ServiceError("seat {seat} is not a seat of this table", "bad_seat", seat=shown)


def require_actor(value: Any) -> Actor:
    """The caller: an ``Actor`` whose every field has its type and range (a
    text user id saved into a tournament made it unreadable)."""
    bad = ServiceError("the caller could not be identified", "bad_actor")
    if not isinstance(value, Actor):
        raise bad
    try:
        require_user_id(value.user_id)
        for place in (value.guild_id, value.channel_id):
            if place is not None:
                require_discord_id(place)
        roles = value.role_ids
        if not isinstance(roles, frozenset | set) or len(roles) > 1000:
            raise bad
        for role in roles:
            require_discord_id(role)
    except ServiceError:
        raise bad from None
    if not isinstance(value.name, str) or len(value.name) > MAX_TEXT:
        raise bad
    if type(value.can_manage_server) is not bool:
        raise bad
    return value


def require_text(value: Any, limit: int = MAX_TEXT) -> str:
    if isinstance(value, str) and len(value) <= limit:
        return value
    raise ServiceError("that is not a valid value: {value}", "bad_value", value=quote(value))


def require_game(value: Any) -> str:
    """A game's name (the registry refuses an unknown one with its own
    ``UnknownGame``); anything but short text is unknown too."""
    if isinstance(value, str) and len(value) <= 64:
        return value
    known = ", ".join(GAMES)
    raise UnknownGame(
        f"unknown game {quote(value)}; choose one of: {known}",
        params={"game": quote(value), "known": known},
    )


def require_difficulty(value: Any) -> str:
    if isinstance(value, str) and value in DIFFICULTIES:
        return value
    raise ServiceError(
        "unknown difficulty {value}: choose easy, normal or hard",
        "bad_difficulty",
        value=quote(value),
    )


def require_action_text(value: Any) -> str:
    if isinstance(value, str) and len(value) <= MAX_ACTION_TEXT:
        return value
    raise ServiceError("that is not a move of this game", "invalid_syntax")


def require_options(value: Any) -> Mapping[str, Any]:
    """Table options: a mapping of setting names (text) to values."""
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return value
    raise ServiceError(
        "options are settings like {example}", "bad_variant", example="target_score=100"
    )


def require_count(value: Any, low: int = 0, high: int = MAX_BIGINT) -> int:
    if _is_int(value) and low <= value <= high:
        return int(value)
    raise ServiceError(
        "{value} is not a whole number from {low} to {high}",
        "bad_number",
        value=quote(value),
        low=low,
        high=high,
    )


def require_expected_seq(value: Any) -> int:
    if _is_int(value) and 0 <= value <= MAX_BIGINT:
        return int(value)
    raise StaleAction("that button is from an earlier turn: open a fresh hand", "stale")


def require_limit(value: Any) -> int:
    return require_count(value, 1, MAX_LIMIT)


#: parameter name -> its check (a parameter whose default is None, or whose
#: annotation admits None, may be None)
CHECKS: dict[str, Callable[[Any], Any]] = {
    "table_id": require_table_id,
    "info": require_table_info,
    "tournament_id": require_tournament_id,
    "actor": require_actor,
    "seat": require_seat,
    "host_seat": require_seat,
    "guild_id": require_discord_id,
    "channel_id": require_discord_id,
    "message_id": require_discord_id,
    "thread_id": require_discord_id,
    "role_id": require_discord_id,
    "user_id": require_user_id,
    "game": require_game,
    "difficulty": require_difficulty,
    "fill_ai": require_difficulty,
    "action_text": require_action_text,
    "expected_seq": require_expected_seq,
    "options": require_options,
    "seed": checked_seed,
    "since": require_count,
    "limit": require_limit,
    "key": require_text,
    "value_text": require_text,
    "mode": require_text,
}


def validate_arguments(
    method: Callable[..., Awaitable[Any]],
) -> Callable[..., Awaitable[Any]]:
    """``method`` with its named arguments checked (see the module)."""
    signature = inspect.signature(method)
    checked = {
        name: (CHECKS[name], param.default is None or "None" in str(param.annotation))
        for name, param in signature.parameters.items()
        if name in CHECKS
    }
    if not checked:
        return method

    @functools.wraps(method)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            raise ServiceError("that request is missing something", "bad_request") from None
        arguments = bound.arguments
        for name, (check, optional) in checked.items():
            if name in arguments and not (optional and arguments[name] is None):
                arguments[name] = check(arguments[name])
        return await method(*bound.args, **bound.kwargs)

    return guarded


def validated(cls: C) -> C:
    """Check the arguments of every public coroutine method of ``cls``
    (inherited ones too) at the boundary."""
    for name in dir(cls):
        method = getattr(cls, name)
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            setattr(cls, name, validate_arguments(method))
    return cls

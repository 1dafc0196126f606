"""Trying a store operation again after a transient failure.

``retrying`` is for callers (the service) that would rather wait a moment
than refuse a player: it repeats an operation that raised a retryable
``StoreUnavailable`` ("database is locked", a dropped connection) with
exponential backoff and jitter, a bounded number of attempts and a bounded
total time, and then lets the last error through.  Anything else -- a
``DuplicateAction``, a ``StoreDamaged``, a bug -- is raised at once.

Only retry what is safe to repeat: a write that failed with
``StoreUnavailable`` was rolled back, except in the rare case of a
connection lost during COMMIT itself; a repeated ``append_action`` then
meets ``DuplicateAction``, which the service already treats as "already
made".
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.db.errors import StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")


def is_transient(exc: BaseException) -> bool:
    """Whether the same request may simply be tried again."""
    return isinstance(exc, StoreUnavailable) and exc.retryable


def backoff_delay(attempt: int, first: float, cap: float, rng: random.Random) -> float:
    """The pause after failed attempt number ``attempt`` (1, 2, ...):
    ``first * 2**(attempt-1)`` capped at ``cap``, of which a random half is
    taken off ("equal jitter"), so that callers who failed together do not
    come back together."""
    ceiling = min(cap, first * 2 ** (attempt - 1))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


async def retrying(
    operation: Callable[[], Awaitable[T]],
    *,
    attempts: int = 4,
    first_delay: float = 0.05,
    max_delay: float = 1.0,
    total: float = 3.0,
    retry_if: Callable[[BaseException], bool] = is_transient,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    rng: random.Random | None = None,
) -> T:
    """``await operation()``, again after a pause while it raises an error
    ``retry_if`` accepts, at most ``attempts`` times in all and never
    starting a pause that would end more than ``total`` seconds after the
    first attempt began.  The last error is raised as it was.

    Example: ``await retrying(lambda: store.append_action(...))``.
    """
    if attempts < 1:
        raise ValueError(f"attempts must be at least 1, not {attempts}")
    rng = rng or random.Random()
    start = clock()
    attempt = 0
    while True:
        attempt += 1
        try:
            return await operation()
        except Exception as exc:
            if not retry_if(exc) or attempt >= attempts:
                raise
            delay = backoff_delay(attempt, first_delay, max_delay, rng)
            if clock() - start + delay > total:
                raise
            log.info(
                "store busy (%s); attempt %d in %.2f s",
                getattr(exc, "detail", exc),
                attempt + 1,
                delay,
            )
            await sleep(delay)

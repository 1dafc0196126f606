"""Background tasks of the Discord front end that a click starts but must
outlive it (the presenter's per-table and per-channel tasks, the watchers'
refresh).

They run in a *copy* of the context that started them, with the language
reset: they must not speak the language of the click that woke them (they
choose the server's or each person's), but whatever else a library or a
test framework keeps in context stays (an empty ``contextvars.Context()``
lost it, e.g. discord.py's webhook adapter context).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Coroutine
from typing import Any

from bot.i18n import set_current


def detached(coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
    """``coro`` as a task named ``name``, in a copy of the current context
    with the language reset to the default."""
    context = contextvars.copy_context()
    context.run(set_current, None)
    return asyncio.create_task(coro, name=name, context=context)

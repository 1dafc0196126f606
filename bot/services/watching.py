"""Spectating a table: what a watcher may see, decided from the ``Actor``.

A spectator sees exactly the spectator view ``state.view(None)`` (DESIGN.md,
hidden information): the public table, never a hand.  A seated player who
asks to *watch* gets the same spectator view, not more (their own hand has
its own message).  Only tables of the server (or DM channel) the call
comes from can be watched: ``TableService.public_view`` refuses any other
exactly as if the table did not exist.
"""

from __future__ import annotations

from typing import Any

from bot.services.actor import Actor
from bot.services.models import TableInfo
from engine import Observation


async def spectator_view(
    service: Any, table_id: int, actor: Actor
) -> tuple[TableInfo, Observation | None]:
    """The table's public facts and its spectator view (None in the lobby)."""
    info, view = await service.public_view(table_id, actor)
    if view is not None and view.seat is not None:  # defence in depth: never a seat's view
        raise AssertionError("a spectator view must be state.view(None)")
    return info, view

"""The table service of a front end on this machine (the terminal and
``python -m bot web``): no turn timer, the AI at a short budget, no limit
on one host's open tables, and only the local tables of its own database
(``policy.terminal_tables``).  One place, so the two local front ends
cannot drift apart."""

from __future__ import annotations

from bot.db.repositories import Store
from bot.services.policy import terminal_tables
from bot.services.tables import TableService


def local_table_service(store: Store) -> TableService:
    return TableService(
        store,
        turn_seconds_default=0,
        ai_budget_ms=200,
        max_open_per_host=None,
        owns=terminal_tables,
    )

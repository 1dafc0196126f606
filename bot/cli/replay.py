"""``python -m bot replay TABLE``: a finished match, trick by trick, with
every hand shown, printed from a database (issue 16).

The person at the terminal runs the database (``--db FILE``, else the
bot's ``DATABASE_URL``), so they may replay any of its tables; the history
service still refuses a match that is not over (a replay never opens on a
live table).  A refusal is one line on stderr with exit code 2 -- a
database file that does not exist included, which is never created.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any, TextIO

from bot.db.repositories import Store
from bot.i18n import using
from bot.render.history_text import match_lines
from bot.services.history import match_replay
from engine import EngineError


def add_parser(sub: Any) -> None:
    """Register ``replay`` on ``python -m bot``'s subparsers."""
    from bot.cli.args import lang_arg, table_arg

    replay = sub.add_parser("replay", help="print a finished match trick by trick")
    replay.add_argument("table", type=table_arg, help="the table number")
    replay.add_argument("--db", default=None, help="SQLite file (default: the bot's DATABASE_URL)")
    replay.add_argument("--lang", default=None, type=lang_arg, help="language: en, tr, hy, ne, hi")


def _database_url(db: str | None) -> str:
    """``--db FILE``, else DATABASE_URL (environment or ``.env``); a
    ``Refusal`` when it names a SQLite file that does not exist."""
    from bot.cli.ops import database_url, require_database

    url = f"sqlite+aiosqlite:///{db}" if db else database_url(None)
    require_database(url, "--db" if db else "DATABASE_URL")
    return url


async def _lines(url: str, table: int) -> list[str]:
    store = Store(url)
    try:
        await store.check_readable()  # a newer Card Table's file: one line, untouched
        replayed = await match_replay(store, None, table)
        return match_lines(replayed.match, replayed.replay)
    finally:
        await store.close()


def cli_replay(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    lang = args.lang
    if lang is None:
        from bot.i18n.locales import from_environment

        lang = from_environment(os.environ)
    from bot.cli.ops import Refusal, one_line
    from bot.db.repositories import StoreUnavailable

    with using(lang):
        try:
            lines = asyncio.run(_lines(_database_url(args.db), args.table))
        except EngineError as exc:
            from bot.i18n.errors import error_text

            print(f"python -m bot replay: {error_text(exc)}", file=err)
            return 2
        except (Refusal, StoreUnavailable) as exc:
            print(one_line(f"python -m bot replay: {exc}"), file=err)
            return 2
    print("\n".join(lines).rstrip(), file=out)
    return 0

"""``python -m bot web``: the browser table on this computer (local mode).

The same client as the Discord Activity, served at http://127.0.0.1:PORT/
for the person at this computer: a game against AI players in any of the
five games, watching a local table, the replay of a finished one.  It
plays through the same ``TableService`` as the terminal, as
``Actor.local()``, and like the terminal keeps its games in a SQLite file
of its own (``WEB_DB`` in the working directory, or ``--db``) -- never the
bot's ``DATABASE_URL``.  Ctrl-C or SIGTERM stops it cleanly: every stored
move is kept and an unfinished game goes on at the next start.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from typing import Any

#: the web table's own database file (in the working directory) when --db is not given
WEB_DB = "cardtable-web.db"
DEFAULT_PORT = 8765


def add_parser(sub: Any) -> None:
    """Register ``web`` on ``python -m bot``'s subparsers."""
    from bot.cli.args import lang_arg

    web = sub.add_parser("web", help="play in the browser on this computer (local mode)")
    web.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"(default {DEFAULT_PORT})")
    web.add_argument("--db", default=None, help=f"SQLite file (default: {WEB_DB})")
    web.add_argument(
        "--lang", default=None, type=lang_arg, help="language: en, tr, hy, ne, hi (default: LANG)"
    )


def _port(text: str) -> int:
    if not text.strip().isdecimal() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be 0..65535 (got {text[:20]!r})")
    return int(text)


async def serve(
    db_url: str,
    port: int,
    lang: str,
    *,
    started: asyncio.Future[str] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Run the local web table until ``stop`` is set (or SIGINT/SIGTERM);
    ``started`` gets the address once it listens (tests)."""
    from bot.cli.local_service import local_table_service
    from bot.db.repositories import Store
    from bot.web.app import WebConfig, WebServer, make_app

    store = Store(db_url)
    await store.migrate()
    service = local_table_service(store)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop.set)
            handled.append(signum)
    server = WebServer(make_app(service, WebConfig("local", default_lang=lang)), "127.0.0.1", port)
    try:
        await service.start(dispatch_deadlines=False)
        await server.start()
        address = f"http://127.0.0.1:{server.port}/"
        if started is not None:
            started.set_result(address)
        else:
            print(f"Card Table in your browser: {address}  (Ctrl-C stops it)", flush=True)
        await stop.wait()
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        await server.stop()
        await service.close()
        await store.close()


def cli_web(args: argparse.Namespace) -> int:
    from bot.db.repositories import StoreUnavailable
    from bot.i18n.locales import from_environment

    lang = args.lang or from_environment(os.environ)
    db_url = f"sqlite+aiosqlite:///{args.db or WEB_DB}"
    try:
        asyncio.run(serve(db_url, args.port, lang))
    except OSError as exc:
        print(
            f"python -m bot web: cannot listen on port {args.port}: {exc.strerror}", file=sys.stderr
        )
        return 2
    except StoreUnavailable as exc:
        print(f"python -m bot web: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0

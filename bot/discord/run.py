"""``python -m bot run``: start the Discord bot (a thin launcher).

The usual ways this fails before the bot is up -- settings that do not
parse, a token that cannot be one (exit 2, before any network), a token
Discord refuses, no network -- are told in one line with a non-zero exit
code, not as a chain of tracebacks.  Logging is configured here once (one
handler on the root logger; discord.py's ``run`` would add its own, so the
bot is started with ``start`` inside our own ``asyncio.run``).

SIGTERM (``docker stop``, systemd) and SIGINT (Ctrl-C) end the bot through
``CardBot.shutdown`` -- clicks refused, the last moves stored, the AI pool,
the database and the gateway closed -- and exit 0.  Python as a container's
PID 1 gets no default handler for SIGTERM, so without ours ``docker stop``
would wait out its timeout and kill the process.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.logs import set_up_handler
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.discord.client import CardBot

log = logging.getLogger(__name__)
EXIT_LOGIN_FAILED = 1
EXIT_BAD_SETTINGS = 2
#: the signals that stop the bot cleanly
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
MAX_ERROR = 200
#: chatty loggers kept to warnings whatever LOG_LEVEL says (alembic tells
#: every plugin it sets up on each start)
QUIET_LOGGERS = ("alembic",)


def _clip(text: object) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    return flat if len(flat) <= MAX_ERROR else flat[: MAX_ERROR - 1] + "…"


def configure_logging(level_name: str, log_format: str = "text") -> None:
    """One handler on the root logger (stderr); the library loggers
    propagate to it and have none of their own, so nothing prints twice."""
    level = logging.getLevelName(str(level_name).upper())
    if not isinstance(level, int):
        level = logging.INFO
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        set_up_handler(handler, log_format)  # table=<id> on lines about a table; text or JSON
        root.addHandler(handler)
    root.setLevel(level)
    for name in ("discord", "aiohttp"):
        library = logging.getLogger(name)
        for extra in list(library.handlers):
            library.removeHandler(extra)
        library.propagate = True
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.WARNING))


def failure_line(exc: BaseException) -> str | None:
    """One line for the ways the bot cannot get online; None for anything
    else (a bug, which keeps its traceback)."""
    import aiohttp
    import discord

    from bot.db.repositories import StoreUnavailable
    from bot.discord.health import HealthServerError

    if isinstance(exc, StoreUnavailable | HealthServerError):  # says what and where
        return _clip(exc)
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN in .env"
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return "Discord refused the bot's intents: enable them in the Developer Portal"
    if isinstance(exc, discord.GatewayNotFound | discord.ConnectionClosed):
        return f"Discord closed the connection: {_clip(exc)}"
    if isinstance(exc, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return f"cannot reach Discord: {_clip(exc) or type(exc).__name__}"
    if isinstance(exc, discord.HTTPException):
        return f"Discord refused to connect: {_clip(exc)}"
    return None


def settings_or_line() -> Settings | str:
    """The settings, or one line saying what in them is wrong."""
    from pydantic import ValidationError

    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        )
        return _clip(f"the settings are not valid ({problems}): fix .env or the environment")


def run_bot() -> int:
    settings = settings_or_line()
    if isinstance(settings, str):
        print(settings, file=sys.stderr)
        return EXIT_BAD_SETTINGS
    configure_logging(settings.log_level, settings.log_format)
    if not settings.has_token:
        print(
            "No DISCORD_TOKEN is set. Copy .env.example to .env and put your bot token in it,\n"
            "or play offline in the terminal: python -m bot play callbreak"
        )
        return 2
    from bot.discord.token import token_shape

    assert settings.discord_token is not None
    token = settings.discord_token.get_secret_value()
    ok, said = token_shape(token)
    if not ok:  # Discord would only refuse it, after a round trip
        print(_clip(said), file=sys.stderr)
        return EXIT_BAD_SETTINGS
    import discord

    from bot.discord.client import CardBot

    # the bot has no voice: discord.py's two "voice will NOT be supported"
    # warnings on every start are noise
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    bot = CardBot(settings)
    try:
        asyncio.run(serve(bot, token))
    except KeyboardInterrupt:  # before the signal handlers were in place
        return 0
    except Exception as exc:
        line = failure_line(exc)
        if line is None:
            raise
        print(line, file=sys.stderr, flush=True)
        return EXIT_LOGIN_FAILED
    return 0


async def serve(bot: CardBot, token: str) -> None:
    """Run ``bot`` until it fails to connect (raised) or a stop signal
    comes; then ``bot.shutdown()`` and return."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, _on_signal, signum, stop)
    try:
        async with bot:  # its exit is bot.shutdown() too, whatever ends the block
            running = asyncio.create_task(bot.start(token), name="bot.discord.run: gateway")
            stopping = asyncio.create_task(stop.wait(), name="bot.discord.run: stop signal")
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                stopping.cancel()
                running.result()  # a failed login is raised here
                return
            await bot.shutdown()
            # the gateway task returns once discord.py sees the closed socket
            running.cancel()
            await asyncio.gather(running, return_exceptions=True)
            log.info("stopped: every acknowledged move is stored")
    finally:
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


def _on_signal(signum: int, stop: asyncio.Event) -> None:
    name = signal.Signals(signum).name
    if stop.is_set():
        log.info("%s again: already shutting down", name)
        return
    log.info("%s: shutting down", name)
    stop.set()

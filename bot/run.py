"""``python -m bot run``: start the Discord bot (a thin launcher).

The usual ways this fails before the bot is up -- a token Discord refuses,
no network -- are told in one line with a non-zero exit code, not as a
chain of tracebacks.  Logging is configured here once (one handler on the
root logger; discord.py's ``run`` would add its own, so the bot is started
with ``start`` inside our own ``asyncio.run``).
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.logs import set_up_handler
from bot.settings import Settings

log = logging.getLogger(__name__)
EXIT_LOGIN_FAILED = 1
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

    if isinstance(exc, StoreUnavailable):  # says which database and what to do
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


def run_bot() -> int:
    settings = Settings()
    configure_logging(settings.log_level, settings.log_format)
    if not settings.has_token:
        print(
            "No DISCORD_TOKEN is set. Copy .env.example to .env and put your bot token in it,\n"
            "or play offline in the terminal: python -m bot play callbreak"
        )
        return 2
    import discord

    from bot.client import CardBot

    # the bot has no voice: discord.py's two "voice will NOT be supported"
    # warnings on every start are noise
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    bot = CardBot(settings)
    assert settings.discord_token is not None
    token = settings.discord_token.get_secret_value()

    async def runner() -> None:
        async with bot:
            await bot.start(token)

    try:
        asyncio.run(runner())
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        line = failure_line(exc)
        if line is None:
            raise
        print(line, file=sys.stderr, flush=True)
        return EXIT_LOGIN_FAILED
    return 0

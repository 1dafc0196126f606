"""The service's policies in one place: AI difficulty names, timers, limits.

Rulings where the issues were silent (README "On Discord" repeats them):
a player who misses two turns in a row is marked away and from then on
gets a short turn (``AWAY_TURN_SECONDS``) before the AI plays for them --
never an instant replacement, so "I'm back" or simply playing always
works; a deadline that passed while the bot was down gets a grace period;
an idle lobby closes after two hours; a host may keep three open tables
per server.
"""

from __future__ import annotations

from typing import Any

from bot.services.actor import Actor
from bot.services.errors import ServiceError

DIFFICULTIES = {"easy": "random", "normal": "heuristic", "hard": "search"}
AI_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana")
#: missed timers in a row before a seat is marked away
AWAY_AFTER_EXPIRIES = 2
#: an away player's turn lasts this long (at most) before the AI plays it
AWAY_TURN_SECONDS = 20
#: after a restart, a deadline that passed (or nearly) while the bot was
#: down moves this far into the future: nobody is replaced for our downtime
RESUME_GRACE_SECONDS = 60
#: resume at start: tables read per query (the first chunk is small, so
#: the first tables are live at once), the event loop is given back every
#: slice of replaying, and a store that cannot be read is tried again after
#: this long, doubling up to the cap
RESUME_FIRST_CHUNK = 16
RESUME_CHUNK = 100
RESUME_SLICE_SECONDS = 0.002
RESUME_RETRY = (0.1, 5.0)
#: a resume of this many tables or more pauses the cyclic garbage collector
#: (resume.py, ``_settle_memory``)
RESUME_GC_PAUSE_TABLES = 100
#: an idle lobby closes after this long
LOBBY_SECONDS = 2 * 3600
#: ended tables kept in memory for late clicks and posts
RECENT_ENDED = 64
MAX_ACTION_TEXT = 100
#: a broken AI driver retries after this long, doubling up to the cap
DRIVER_BACKOFF = (0.05, 5.0)
MAX_OPEN_PER_HOST = 3
#: how a person is told it is their turn (the first is the default)
PING_MODES = ("channel", "dm", "off")


def seat_name(actor: Actor) -> str:
    name = " ".join((actor.name or f"Player {actor.user_id}").split())
    return name[:40] or f"Player {actor.user_id}"


def checked_seed(seed: Any) -> int:
    """A table's seed: an int, or its plain digits as text (the terminal's
    ``--seed``); never a bool, a float (``inf`` crashed, ``1.5`` meant 1)."""
    text = seed.strip() if isinstance(seed, str) else None
    if type(seed) is int:
        value = seed
    elif text is not None and text.isascii() and text.isdigit() and len(text) <= 19:
        value = int(text)
    else:
        raise ServiceError("the seed must be a whole number", "bad_seed")
    if not 0 <= value < 2**63:
        raise ServiceError("the seed must be between 0 and 2^63 - 1", "bad_seed")
    return value


def terminal_tables(guild_id: int | None, channel_id: int | None) -> bool:
    """The tables the terminal owns: made outside Discord."""
    return guild_id is None and channel_id is None


def discord_tables(guild_id: int | None, channel_id: int | None) -> bool:
    """The tables the Discord bot owns: each was made in a channel."""
    return channel_id is not None

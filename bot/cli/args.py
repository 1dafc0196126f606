"""The argument types of ``python -m bot``'s command line: each reads one
value or refuses it in one clear line (argparse's ``ArgumentTypeError``).

Shared by the entry point (``bot.__main__``) and the subcommands that
register their own parsers (``bot.cli.replay``), which therefore import
this module rather than the entry point (no import circle).
"""

from __future__ import annotations

import argparse
from typing import NoReturn

SEED_MAX = 2**63 - 1
AGENTS = ("random", "heuristic", "search")
MAX_ERROR = 200


def clip(text: object, limit: int = MAX_ERROR) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class CliParser(argparse.ArgumentParser):
    """An argparse parser whose errors are one clear line."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, clip(f"{self.prog}: {message} (see {self.prog} --help)") + "\n")


def _whole_number(text: str, what: str, low: int, high: int | None = None) -> int:
    """A whole number in low..high, or argparse's one-line refusal (a number
    too long to read is out of range, not a traceback)."""
    raw = text.strip()
    shown = clip(text, 40)
    if not raw.lstrip("+-").isdecimal():
        raise argparse.ArgumentTypeError(f"{what} must be a whole number (got {shown!r})")
    value = int(raw) if len(raw) <= 30 else (low - 1 if raw.startswith("-") else None)
    wanted = f"{low} or more" if high is None else f"{low}..{high}"
    if value is None or value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"{what} must be {wanted} (got {shown})")
    return value


def seed_arg(text: str) -> int:
    return _whole_number(text, "the seed", 0, SEED_MAX)


def agent_arg(text: str) -> str:
    agent = text.strip().lower()
    if agent not in AGENTS:
        raise argparse.ArgumentTypeError(
            f"choose random, heuristic or search (got {clip(text, 40)!r})"
        )
    return agent


def seat_arg(text: str) -> int:
    return _whole_number(text, "the seat (0 = the first)", 0)


def players_arg(text: str) -> int:
    return _whole_number(text, "the number of players", 0)


def table_arg(text: str) -> int:
    return _whole_number(text, "the table number", 1)


def lang_arg(text: str) -> str:
    from bot.i18n import LOCALES, normalize

    code = normalize(text)
    if code is None:
        raise argparse.ArgumentTypeError(
            f"choose one of {', '.join(LOCALES)} (got {clip(text, 40)!r})"
        )
    return code

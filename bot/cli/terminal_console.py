"""The terminal's console: typed lines read without a thread (``loop.add_reader``),
refused in one line when they are no move at all, and turned into the engine's
actions; what is printed goes through ``Console.say``."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from bot.i18n import N_, t
from engine import Action, EngineError, get_game

#: characters of one typed line; anything longer is no move of any game
MAX_LINE = 200


#: characters of one printed error line
MAX_ERROR = 200


#: bytes kept of a line still being typed before it is known to be too long
_MAX_PENDING = 4 * MAX_LINE + 2


NOT_UTF8 = N_("that line is not UTF-8 text")


TOO_LONG = N_("that line is too long ({limit} characters at most)")


def one_line(text: object, limit: int = MAX_ERROR) -> str:
    """An error message fit for one terminal line: no line breaks or control
    characters, at most ``limit`` characters."""
    flat = "".join(ch if ch.isprintable() else " " for ch in str(text))
    flat = " ".join(flat.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class BadInput(Exception):
    """A typed line that is no move at all: refused, and asked again."""


# -- input ------------------------------------------------------------------------------------
@dataclass
class Console:
    """Input and output streams.  ``ask`` returns the typed text, None at the
    end of input, and raises ``BadInput`` for a line that is no text at all."""

    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    _pending: bytearray = field(default_factory=bytearray, repr=False)
    _eof: bool = field(default=False, repr=False)
    _too_long: bool = field(default=False, repr=False)
    _pollable: bool | None = field(default=None, repr=False)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def refuse(self, text: object) -> None:
        """A refusal of the command line: one line on stderr."""
        print(f"python -m bot play: {one_line(text)}", file=self.stderr, flush=True)

    async def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = await self._readline()
        return None if line is None else clean_line(line)

    @property
    def interactive(self) -> bool:
        try:
            return self.stdin.isatty()
        except (AttributeError, OSError, ValueError):
            return False

    def _fd(self) -> int | None:
        try:
            return self.stdin.fileno()
        except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation too
            return None

    async def _readline(self) -> str | None:
        fd = self._fd()
        if fd is None:  # an in-memory stream (tests): it never blocks
            try:
                text = self.stdin.readline()
            except UnicodeDecodeError:
                raise BadInput(t(NOT_UTF8)) from None
            return text or None
        while True:
            end = self._pending.find(b"\n")
            if end >= 0 or (self._eof and (self._pending or self._too_long)):
                cut = end + 1 if end >= 0 else len(self._pending)
                raw = bytes(self._pending[:cut])
                del self._pending[:cut]
                if self._too_long:
                    self._too_long = False
                    raise BadInput(t(TOO_LONG, limit=MAX_LINE))
                try:
                    return raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise BadInput(t(NOT_UTF8)) from None
            if self._eof:
                return None
            chunk = await self._read_chunk(fd)
            if not chunk:
                self._eof = True
                continue
            self._pending += chunk
            if len(self._pending) > _MAX_PENDING and b"\n" not in self._pending:
                self._pending.clear()  # keep reading, and refuse the line at its end
                self._too_long = True

    async def _read_chunk(self, fd: int) -> bytes:
        """The next bytes of input.  The wait is on the event loop, so a
        Ctrl-C (which cancels the main task) ends it at once; a regular
        file cannot be watched and never blocks, so it is read directly."""
        while True:
            if self._pollable is not False:
                self._pollable = await _wait_readable(fd)
            try:
                return os.read(fd, 4096)
            except BlockingIOError:
                continue
            except OSError:  # a terminal that went away: the end of input
                return b""


async def _wait_readable(fd: int) -> bool:
    """Wait until ``fd`` has input; False (at once) when the event loop
    cannot watch it (a regular file, or no ``add_reader`` on Windows)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    try:
        loop.add_reader(fd, wake)
    except (NotImplementedError, OSError, ValueError):
        return False
    try:
        await ready
    finally:
        loop.remove_reader(fd)
    return True


def clean_line(text: str) -> str:
    """The typed text, or ``BadInput`` with what is wrong with it."""
    text = text.rstrip("\r\n")
    if len(text) > MAX_LINE:
        raise BadInput(t(TOO_LONG, limit=MAX_LINE))
    text = text.replace("\t", " ")
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text):
        raise BadInput(
            t("that line has control characters (an arrow key?): type a move like AS or 3")
        )
    text = text.strip()
    if not text:
        raise BadInput(t("type a move, ? for help or q to quit"))
    return text


#: a bid typed short: a level and a strain ("8h", "10 nt", "25 s capot")
_SHORT_BID = re.compile(r"^(\d{1,3})\s*(s|h|d|c|nt)(\s+capot)?$")


def resolve_input(text: str, legal: Sequence[Action], state_game: str) -> Action:
    """Read what the human typed: full notation, a bare card, a bare number,
    a short bid ("8h" for 'bid 8 H'), or a unique shorthand of a legal action
    ('h' for 'trump H').  During an auction a short text is read as a bid
    first ("8h" is 'bid 8 H', not the eight of hearts)."""
    game = get_game(state_game)
    try:
        return game.parse_action(text)
    except EngineError as first_error:
        low = text.strip().lower()
        matches = [a for a in legal if str(a).lower().endswith(" " + low) or str(a).lower() == low]
        if len(matches) == 1:
            return matches[0]
        bidding = any(a.verb == "bid" for a in legal)
        short = _SHORT_BID.match(low)
        if short and "bid" in game.verbs and "strain" in game.bid_forms and bidding:
            level, strain, capot = short.groups()
            return game.parse_action(f"bid {level} {strain}{' capot' if capot else ''}")
        # a bare card ("10h", "as") or number ("3"): the engine reads only
        # full notation, shorthand is the terminal's; an illegal one is then
        # refused by the rules with their reason
        verbs = ("bid", "play") if bidding else ("play", "bid")
        for verb in verbs:
            if verb not in game.verbs:
                continue
            try:
                return game.parse_action(f"{verb} {low}")
            except EngineError:
                continue
        raise first_error

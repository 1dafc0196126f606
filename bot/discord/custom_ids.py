"""Component custom_ids, in one place: ``ct:<table>:<seq>:<verb>:<arg>``.

The table id and the sequence number make every click restart-proof and let
the service refuse a stale one; ``arg`` is an index into the clicking
seat's own legal actions at that sequence (or a lobby argument) -- never a
card, so no custom_id can reveal a hidden card.

Verbs -- lobby: ``join``, ``leave``, ``start``, ``fill:<level>`` (fill the
empty seats with AI players and start), ``cancel``, ``ai:<level>``,
``kick`` (a select; value = seat index); table: ``hand``, ``back``,
``resign``, ``resignok`` (the confirmation), ``rematch``; hand: ``act:<i>``
(index into the clicker's legal actions at ``seq``; ``x<n>`` for a disabled
button), ``pick`` (a select; value = index), ``page:<n>``, ``lvl`` (a
select; value = a Blot bid level).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEAD = r"ct:(?P<table>[0-9]{1,12}):(?P<seq>[0-9]{1,7}):"
_ARG = r":(?P<arg>[a-z0-9]{0,16})"
PATTERN = _HEAD + r"(?P<verb>[a-z]{2,8})" + _ARG
BUTTON_VERBS = (
    "join",
    "leave",
    "start",
    "fill",
    "cancel",
    "ai",
    "hand",
    "back",
    "resignok",
    "resign",
    "rematch",
    "act",
    "page",
)
SELECT_VERBS = ("pick", "kick", "lvl")
#: buttons and selects need distinct templates (discord.py keys dynamic items by template)
BUTTON_PATTERN = _HEAD + "(?P<verb>" + "|".join(BUTTON_VERBS) + ")" + _ARG
SELECT_PATTERN = _HEAD + "(?P<verb>" + "|".join(SELECT_VERBS) + ")" + _ARG
REGEX = re.compile(PATTERN)
VERBS = frozenset((*BUTTON_VERBS, *SELECT_VERBS))
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class ComponentId:
    table: int
    seq: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        text = f"ct:{self.table}:{self.seq}:{self.verb}:{self.arg}"
        assert len(text) <= MAX_LENGTH and REGEX.fullmatch(text), text
        return text


def parse(custom_id: str) -> ComponentId | None:
    """The parsed id, or None for anything that is not one of ours."""
    match = REGEX.fullmatch(custom_id or "")
    if match is None or match["verb"] not in VERBS:
        return None
    return ComponentId(int(match["table"]), int(match["seq"]), match["verb"], match["arg"])

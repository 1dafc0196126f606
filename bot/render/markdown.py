"""Names made safe inside Discord markdown, without discord.py: the same
escapes as ``discord.utils.escape_mentions`` and ``escape_markdown`` (with
their defaults), so pure rendering needs no Discord import.  A test checks
that both give the same text as discord.py's."""

from __future__ import annotations

import re

#: ``@everyone``, ``@here`` and user or role mentions (``<@id>`` keeps its ``<``)
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
#: quote, link, heading and list marks that start a line, and ``[text](url)``
_COMMON = r"^>(?:>>)?\s|\[.+\]\(.+\)|^#{1,3}|^\s*-"
#: a link is left as it is (its ``_`` and ``*`` are part of the address)
_URL = r"(?P<url><[^: >]+:\/[^ >]+>|(?:https?|steam):\/\/[^\s<]+[^<.,:;\"\'\]\s])"
_MARKDOWN = re.compile(rf"(?:{_URL}|(?P<markdown>[_\\~|\*`]|{_COMMON}))", re.MULTILINE)


def escape_mentions(text: str) -> str:
    """``@everyone`` -> ``@\u200beveryone``: shown, never a ping."""
    return _MENTION.sub("@\u200b\\1", text)


def escape_markdown(text: str) -> str:
    """Every markdown character preceded by a backslash; links left alone."""

    def replacement(match: re.Match[str]) -> str:
        url = match.group("url")
        return url if url else "\\" + match.group("markdown")

    return _MARKDOWN.sub(replacement, text)

"""Discord's own localisation of the slash commands (``app_commands.Translator``).

discord.py hands every command, group and option name, description and
choice name to ``CommandTranslator.translate`` when it syncs the commands;
what it returns goes to Discord as ``name_localizations`` /
``description_localizations``, so the command picker shows the user's
language.  Discord has client locales for Turkish and Hindi only (no
Armenian, no Nepali): those two get localisations here, the others use
``/language`` (``bot.discord.languages``).

Descriptions and choice names are the catalogues' ordinary messages (marked
``locale_str`` = ``_`` in the cogs).  Names are short words in the
"command name" context, listed in ``command_names`` so that ``pybabel``
extracts them; Discord accepts a name only in lower case, without spaces,
at most 32 characters, so a translation that is not such a word is not sent
(the English name stays).
"""

from __future__ import annotations

import unicodedata

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import get_lang, normalize, tp

NAME_MAX = 32
NAME_PLACES = {Where.command_name, Where.group_name, Where.parameter_name}
DESCRIPTION_MAX = 100


def command_names() -> list[str]:
    """Every command, group and option name, marked for extraction (the
    test ``test_every_command_name_is_listed`` keeps this list whole)."""
    # i18n: slash command and option names: one lower-case word (letters, digits, - or _),
    # at most 32 characters, no spaces; keep the English word if players type it anyway
    return [
        tp("command name", "table"),
        tp("command name", "new"),
        tp("command name", "join"),
        tp("command name", "leave"),
        tp("command name", "hand"),
        tp("command name", "status"),
        tp("command name", "abandon"),
        tp("command name", "settings"),
        tp("command name", "show"),
        tp("command name", "set"),
        tp("command name", "reset"),
        tp("command name", "role"),
        tp("command name", "pings"),
        tp("command name", "language"),
        tp("command name", "leaderboard"),
        tp("command name", "stats"),
        tp("command name", "rules"),
        tp("command name", "game"),
        tp("command name", "options"),
        tp("command name", "key"),
        tp("command name", "value"),
        tp("command name", "mode"),
        tp("command name", "user"),
        tp("command name", "section"),
        tp("command name", "history"),
        tp("command name", "replay"),
        tp("command name", "deal"),
        tp("command name", "watch"),
        tp("command name", "hint"),
        tp("command name", "analyse"),
        tp("command name", "tournament"),
        tp("command name", "start"),
        tp("command name", "standings"),
        tp("command name", "help"),
        tp("command name", "boards"),
        tp("command name", "tables"),
    ]


def is_command_name(text: str) -> bool:
    """Discord's rule for names: 1-32 letters, digits (any script, with their
    combining marks), ``-`` or ``_``, in lower case."""
    return (
        0 < len(text) <= NAME_MAX
        and text == text.lower()
        and all(
            ch in "-_" or ch.isalnum() or unicodedata.category(ch).startswith("M") for ch in text
        )
    )


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        code = normalize(locale)
        if code is None or code == "en":
            return None
        lang = get_lang(code)
        if context.location in NAME_PLACES:
            name = lang.lookup(string.message, "command name")
            return name if name is not None and is_command_name(name) else None
        text = lang.lookup(string.message)
        if text is None or len(text) > DESCRIPTION_MAX:
            return None
        return text

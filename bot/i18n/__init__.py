"""The translation layer: every text a player or moderator reads goes through here.

Usage, everywhere in ``bot/discord``, ``bot/render``, ``bot/cli/terminal.py`` and the
service's refusals::

    from bot.i18n import N_, t, tn, tp

    t("You joined table #{table}.", table=12)
    tn("{n} card", "{n} cards", count)          # plural forms from the catalogue
    tp("card rank", "K")                        # a short word in a context
    RESIGN = N_("Leave the game?")              # marked for extraction, translated later
    t(RESIGN)

The language is the *current* one: a context variable set by the front end
at its edge (``with using("tr"): ...`` or ``set_current``) -- the
interaction's language for an ephemeral reply, the server's for a public
message, ``--lang`` in the terminal.  asyncio tasks and ``to_thread`` copy
the context, so a render started in a scope stays in its language.
Without a scope the language is English.

Message ids are the English texts themselves (gettext style); catalogues,
plural forms and placeholders: ``bot.i18n.catalog``.  Which language a
person or a server gets: ``bot.i18n.locales``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from bot.i18n.catalog import (
    DEFAULT_LOCALE,
    LOCALES,
    NATIVE_NAMES,
    Lang,
    fill,
    get_lang,
    placeholders,
)
from bot.i18n.locales import normalize, pick

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "NATIVE_NAMES",
    "N_",
    "Lang",
    "current",
    "fill",
    "get_lang",
    "normalize",
    "pick",
    "placeholders",
    "set_current",
    "t",
    "tn",
    "tp",
    "using",
]

_CURRENT: ContextVar[Lang | None] = ContextVar("cardtable_lang", default=None)


def current() -> Lang:
    """The language of the text being built now (English by default)."""
    return _CURRENT.get() or get_lang(DEFAULT_LOCALE)


def set_current(lang: Lang | str | None) -> None:
    """Set the language for the rest of this task (an interaction's handler)."""
    _CURRENT.set(lang if isinstance(lang, Lang) else get_lang(lang))


@contextlib.contextmanager
def using(lang: Lang | str | None) -> Iterator[Lang]:
    """Build the texts of this block in ``lang`` (a code, or a ``Lang``)."""
    chosen = lang if isinstance(lang, Lang) else get_lang(lang)
    token = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(token)


def N_(msgid: str) -> str:
    """Mark a module-level text for extraction; translate it where it is shown
    (``t(CONSTANT)``)."""
    return msgid


def t(msgid: str, /, **params: Any) -> str:
    """``msgid`` in the current language, placeholders filled."""
    return current().t(msgid, **params)


def tn(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` in the current language (``{n}`` is filled too)."""
    return current().tn(singular, plural, n, **params)


def tp(context: str, msgid: str, /, **params: Any) -> str:
    """``msgid`` in a context (``tp("card rank", "K")``), in the current language."""
    return current().tp(context, msgid, **params)

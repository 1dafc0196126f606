"""Message catalogues: one gettext ``.po`` file per locale, loaded at run time.

English is the source language: a message id *is* the English text, so
English needs no catalogue and a message missing from a catalogue reads in
English rather than as an id.  The catalogues live in
``bot/i18n/locales/<lang>/LC_MESSAGES/messages.po`` (the template is
``locales/messages.pot``; CONTRIBUTING.md "Translations" says how to update
both).  They are read with Babel (``read_po``) and compiled in memory
(``write_mo``) into a ``babel.support.Translations``, so a fresh checkout or
wheel needs no compile step; plural forms come from each catalogue's own
``Plural-Forms`` header through gettext's ``ngettext``.

Texts carry python-brace placeholders (``{table}``), filled by ``fill``:
only plain names are replaced, so a catalogue can never reach an
attribute or an index of a value (``{x.__class__}`` stays text).
"""

from __future__ import annotations

import gettext
import io
import logging
import re
import threading
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

log = logging.getLogger(__name__)

DEFAULT_LOCALE = "en"
#: every locale the bot speaks, English (the source) first
LOCALES: tuple[str, ...] = ("en", "tr", "hy", "ne", "hi")
#: each language in its own words (for pickers and /language)
NATIVE_NAMES: Mapping[str, str] = {
    "en": "English",
    "tr": "Türkçe",
    "hy": "Հայերեն",
    "ne": "नेपाली",
    "hi": "हिन्दी",
}
#: each catalogue's ``Plural-Forms`` header (gettext's usual rules for these languages;
#: ``python -m bot.i18n.update`` keeps the headers so and a test checks them)
PLURAL_FORMS: Mapping[str, str] = {
    "tr": "nplurals=2; plural=(n != 1);",
    "hy": "nplurals=2; plural=(n != 1);",
    "ne": "nplurals=2; plural=(n != 1);",
    "hi": "nplurals=2; plural=(n > 1);",
}
DOMAIN = "messages"
_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}")


def placeholders(text: str) -> set[str]:
    """The placeholder names in a message (``{{`` and ``}}`` are literal braces)."""
    return {m[1] for m in _PLACEHOLDER.finditer(text) if m[1]}


def fill(text: str, params: Mapping[str, Any]) -> str:
    """Replace ``{name}`` by ``str(params[name])``; an unknown name stays as
    written (a catalogue mistake shows, it never raises)."""

    def one(match: re.Match[str]) -> str:
        name = match[1]
        if name is None:
            return match[0][0]
        return str(params[name]) if name in params else match[0]

    return _PLACEHOLDER.sub(one, text) if "{" in text or "}" in text else text


class _Misses(gettext.NullTranslations):
    """The last fallback of a catalogue: answers in English (the id itself)
    and remembers which ids the catalogue lacked (tests read ``Lang.missing``)."""

    def __init__(self, missing: set[str]) -> None:
        super().__init__()
        self.missing = missing

    def gettext(self, message: str) -> str:
        self.missing.add(message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.missing.add(msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        self.missing.add(f"{context}\x04{message}")
        return message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        self.missing.add(f"{context}\x04{msgid1}")
        return msgid1 if n == 1 else msgid2


def catalogue_path(code: str) -> Any:
    """The ``.po`` file of a locale (a ``Traversable``; it may not exist)."""
    return resources.files(__package__).joinpath("locales", code, "LC_MESSAGES", f"{DOMAIN}.po")


def template_path() -> Any:
    return resources.files(__package__).joinpath("locales", f"{DOMAIN}.pot")


def _compile(code: str) -> Translations | None:
    """The locale's ``.po`` compiled in memory; None when there is none."""
    path = catalogue_path(code)
    if not path.is_file():
        return None
    with path.open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    for message in list(catalog)[1:]:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            # untranslated (a plural even half), or fuzzy: read in English, whole, and
            # noticed as missing (``write_mo`` would copy the English in as a translation)
            catalog.delete(message.id, message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


class Lang:
    """One locale's texts: ``t`` (a message), ``tn`` (a message with plural
    forms, chosen by the catalogue's ``Plural-Forms``), ``tp`` (a message in
    a context, for short words that mean different things)."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.missing: set[str] = set()
        compiled = _compile(code) if code != DEFAULT_LOCALE else None
        self._tr: gettext.NullTranslations
        if compiled is None:
            self._tr = _Misses(self.missing) if code != DEFAULT_LOCALE else _English()
        else:
            compiled.add_fallback(_Misses(self.missing))
            self._tr = compiled

    def __repr__(self) -> str:
        return f"Lang({self.code!r})"

    @property
    def name(self) -> str:
        return NATIVE_NAMES.get(self.code, self.code)

    def t(self, msgid: str, /, **params: Any) -> str:
        return fill(self._tr.gettext(msgid), params)

    def tn(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        params.setdefault("n", n)
        return fill(self._tr.ngettext(singular, plural, n), params)

    def tp(self, context: str, msgid: str, /, **params: Any) -> str:
        return fill(self._tr.pgettext(context, msgid), params)

    def lookup(self, msgid: str, context: str | None = None) -> str | None:
        """The catalogue's own translation of ``msgid``, or None when it has
        none (nothing is recorded as missing: for callers with a fallback of
        their own, like Discord's command localisations)."""
        if self.code == DEFAULT_LOCALE:
            return None
        key = msgid if context is None else f"{context}\x04{msgid}"
        found = getattr(self._tr, "_catalog", {}).get(key)
        return found if isinstance(found, str) and found else None


class _English(gettext.NullTranslations):
    """The source language: every id is its own text."""


_LOCK = threading.Lock()


@cache
def _load(code: str) -> Lang:
    return Lang(code)


def get_lang(code: str | None) -> Lang:
    """The ``Lang`` of a supported locale code (English for anything else);
    catalogues are read once per process."""
    code = code if code in LOCALES else DEFAULT_LOCALE
    with _LOCK:
        return _load(code)


def reload() -> None:
    """Forget the loaded catalogues (tests that rewrite one, translators' tools)."""
    with _LOCK:
        _load.cache_clear()

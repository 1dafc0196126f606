"""Which language a person or a server gets.

Discord's client locales include Turkish (``tr``) and Hindi (``hi``) but
neither Armenian nor Nepali, so the language cannot always come from the
client.  The order (docs: README "Languages"):

* a reply only one person sees (ephemeral, a DM): their own choice
  (``/language``), else their Discord client's locale when we speak it,
  else as the server;
* a public message (lobby, table, results, pings): the server's
  ``language`` setting (moderators, ``/settings set game:server
  key:language``), else the server's Discord locale when we speak it,
  else English.

In the terminal: ``--lang``, else the environment (``LC_ALL``,
``LC_MESSAGES``, ``LANG``), else English.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.i18n.catalog import DEFAULT_LOCALE, LOCALES

#: the value of a language setting that means "decide for me"
AUTO = "auto"


def normalize(code: object) -> str | None:
    """A supported locale code from a Discord locale (``tr``, ``en-US``), a
    POSIX locale (``tr_TR.UTF-8``, ``hy_AM``) or a language name we know;
    None for anything else (``C``, ``POSIX``, ``ru``, ``auto``)."""
    text = str(getattr(code, "value", code) or "").strip().lower()
    if not text:
        return None
    primary = text.replace("_", "-").split(".")[0].split("@")[0].split("-")[0]
    if primary in LOCALES:
        return primary
    return None


def pick(*candidates: object) -> str:
    """The first candidate we speak, else English."""
    for candidate in candidates:
        code = normalize(candidate)
        if code is not None:
            return code
    return DEFAULT_LOCALE


def from_environment(environ: Mapping[str, str]) -> str:
    """The terminal's default: the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` and ``LANGUAGE`` (its first entry) that is set, as POSIX reads
    them; English when that one is not a language we speak."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return pick(value)
    language = environ.get("LANGUAGE", "")
    return pick(*language.split(":")) if language else DEFAULT_LOCALE


def choices() -> Iterable[str]:
    """Every value a language setting accepts."""
    return (AUTO, *LOCALES)

"""Which language the bot speaks to a person and in a server's channels.

The order (``bot.i18n.locales``; README "Languages"):

* to one person (an ephemeral reply, their hand, a DM): their ``/language``
  choice, else their Discord client's language when the bot speaks it,
  else the server's language;
* in a channel (lobby, table, results, pings): the server's ``language``
  setting, else the server's Discord language (``guild_locale``, remembered
  from the last interaction there, or the cached guild's
  ``preferred_locale``) when the bot speaks it, else English.

Discord has no Armenian or Nepali client locale: those players and servers
choose with ``/language`` and ``/settings set game:server key:language``.
Choices are cached in memory (a click must not wait for the database):
refreshed at once when changed through this process, and read again after
``CACHE_SECONDS`` (another process -- another shard -- may have changed them).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Lang, get_lang, normalize, pick
from bot.i18n.locales import AUTO

if TYPE_CHECKING:
    from bot.services.tables import TableService

log = logging.getLogger(__name__)
#: how long a person's or a server's choice is trusted before it is read again
CACHE_SECONDS = 300.0


class Languages:
    def __init__(
        self,
        service: TableService,
        client: discord.Client | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.client = client
        self.clock = clock
        #: id -> (choice, when it was read)
        self._people: dict[int, tuple[str | None, float]] = {}
        self._servers: dict[int, tuple[str | None, float]] = {}
        self._guild_locales: dict[int, str] = {}

    def _fresh(self, cache: dict[int, tuple[str | None, float]], key: int) -> bool:
        entry = cache.get(key)
        return entry is not None and self.clock() - entry[1] < CACHE_SECONDS

    # -- what is known ------------------------------------------------------------------
    def remember(self, interaction: discord.Interaction[Any]) -> None:
        """Note the server's Discord language from an interaction there."""
        guild_id, locale = interaction.guild_id, interaction.guild_locale
        if guild_id is not None and locale is not None:
            self._guild_locales[guild_id] = str(locale)

    async def person_choice(self, user_id: int) -> str | None:
        """The language a person chose with ``/language`` (None: Discord's)."""
        if self._fresh(self._people, user_id):
            return self._people[user_id][0]
        try:
            choice = await self.service.settings.user_language(user_id)
        except Exception as exc:  # the store is busy: Discord's language for now
            log.info("language of %s not read (%s)", user_id, exc)
            return self._people.get(user_id, (None, 0.0))[0]
        self._people[user_id] = (choice, self.clock())
        return choice

    def chose(self, user_id: int, code: str | None) -> None:
        """A person's new choice (``/language``)."""
        self._people[user_id] = (normalize(code), self.clock())

    async def server_choice(self, guild_id: int | None) -> str | None:
        """The server's ``language`` setting (None: ``auto``)."""
        if guild_id is None:
            return None
        if self._fresh(self._servers, guild_id):
            return self._servers[guild_id][0]
        try:
            settings = await self.service.get_guild_settings(guild_id)
        except Exception as exc:
            log.info("language of server %s not read (%s)", guild_id, exc)
            return self._servers.get(guild_id, (None, 0.0))[0]
        value = settings.get("language", AUTO)
        choice = None if value == AUTO else normalize(value)
        self._servers[guild_id] = (choice, self.clock())
        return choice

    def server_changed(self, guild_id: int | None) -> None:
        """The server's settings changed: read its language again next time."""
        if guild_id is not None:
            self._servers.pop(guild_id, None)

    def _discord_locale(self, guild_id: int) -> str | None:
        remembered = self._guild_locales.get(guild_id)
        if remembered is not None:
            return remembered
        guild = self.client.get_guild(guild_id) if self.client is not None else None
        return str(guild.preferred_locale) if guild is not None else None

    # -- who gets which ----------------------------------------------------------------
    async def for_server(self, guild_id: int | None) -> Lang:
        """The language of a server's channel messages."""
        if guild_id is None:
            return get_lang(None)
        choice = await self.server_choice(guild_id)
        return get_lang(pick(choice, self._discord_locale(guild_id)))

    async def for_user(self, user_id: int, guild_id: int | None) -> Lang:
        """A person's language when no interaction of theirs is at hand (a DM)."""
        choice = await self.person_choice(user_id)
        if choice is not None:
            return get_lang(choice)
        return await self.for_server(guild_id)

    async def for_person(self, interaction: discord.Interaction[Any]) -> Lang:
        """The language of a reply to this interaction's person alone."""
        self.remember(interaction)
        choice = await self.person_choice(interaction.user.id)
        if choice is not None:
            return get_lang(choice)
        client = normalize(interaction.locale)
        if client is not None:
            return get_lang(client)
        return await self.for_server(interaction.guild_id)

    async def for_channel(self, interaction: discord.Interaction[Any]) -> Lang:
        """The language of a public message posted in answer to an interaction."""
        self.remember(interaction)
        return await self.for_server(interaction.guild_id)

"""``Languages``: the order in which a person's and a server's language is
chosen, and how long a choice read from the store is trusted (fake clock)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.discord.languages import CACHE_SECONDS, Languages


class Store:
    """The two reads ``Languages`` makes, counted."""

    def __init__(self) -> None:
        self.people: dict[int, str | None] = {}
        self.servers: dict[int, str] = {}
        self.reads = 0
        self.settings = SimpleNamespace(user_language=self.user_language)

    async def user_language(self, user_id: int) -> str | None:
        self.reads += 1
        return self.people.get(user_id)

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        self.reads += 1
        return {"language": self.servers.get(guild_id, "auto")}


def interaction(user: int, locale: str, guild: int | None = 1, guild_locale: str = "en-US") -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=user), locale=locale, guild_id=guild, guild_locale=guild_locale
    )


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_reply_follows_the_person_then_discord_then_the_server() -> None:
    store = Store()
    languages = Languages(store, clock=Clock())  # type: ignore[arg-type]
    store.people[7] = "hy"
    assert (await languages.for_person(interaction(7, "tr"))).code == "hy"  # their choice
    assert (await languages.for_person(interaction(8, "tr"))).code == "tr"  # their Discord
    store.servers[1] = "ne"
    assert (await languages.for_person(interaction(9, "ru"))).code == "ne"  # the server's
    assert (await languages.for_person(interaction(9, "en-GB"))).code == "en"


async def test_a_channel_follows_the_server_setting_then_its_discord_language() -> None:
    store = Store()
    languages = Languages(store, clock=Clock())  # type: ignore[arg-type]
    languages.remember(interaction(1, "en-US", guild=5, guild_locale="hi"))
    assert (await languages.for_server(5)).code == "hi"
    store.servers[6] = "hy"
    languages.remember(interaction(1, "en-US", guild=6, guild_locale="tr"))
    assert (await languages.for_server(6)).code == "hy"
    assert (await languages.for_server(7)).code == "en"  # nothing known
    assert (await languages.for_server(None)).code == "en"  # a DM, the terminal


async def test_choices_are_read_once_then_again_after_a_while() -> None:
    store, clock = Store(), Clock()
    languages = Languages(store, clock=clock)  # type: ignore[arg-type]
    for _ in range(5):
        await languages.for_person(interaction(7, "ru", guild=None))
    assert store.reads == 1
    store.people[7] = "tr"  # changed by another process
    clock.now += CACHE_SECONDS - 1
    assert (await languages.for_person(interaction(7, "ru", guild=None))).code == "en"
    clock.now += 2
    assert (await languages.for_person(interaction(7, "ru", guild=None))).code == "tr"
    languages.chose(7, "hi")  # changed here: at once, no read
    reads = store.reads
    assert (await languages.for_person(interaction(7, "ru", guild=None))).code == "hi"
    assert store.reads == reads

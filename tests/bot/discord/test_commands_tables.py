"""/table through the offline harness: the permission check before a table
is created, autocomplete (this server's lobbies only, a game's settings
with their bounds), the lobby's remove menu and fill-and-start offer,
resigning with a confirmation, and /table status."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.cogs.tables import missing_permissions
from bot.services.actor import Actor
from tests.bot.discord.harness import (
    CHANNEL,
    GUILD,
    FakeDiscord,
    Sent,
    assert_limits,
    click_data,
    components_of,
    find_button,
    settle,
)

HOST, GUEST, STRANGER = 11, 12, 13
OTHER_GUILD, OTHER_CHANNEL = 800000000000000009, 700000000000000009
#: what the bot needs to show a table, threads included
SHOWS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


def payload(
    fake: FakeDiscord,
    kind: int,
    data: dict[str, Any],
    user: int,
    *,
    app: discord.Permissions = SHOWS,
    guild: int = GUILD,
    **kw: Any,
) -> dict[str, Any]:
    """An interaction from ``user`` in ``guild``, the bot holding ``app``
    permissions in the channel (Discord sends them as an integer string)."""
    body = fake.interaction(kind, data, user, **kw)
    body["app_permissions"] = str(app.value)
    if guild != GUILD:
        channel = OTHER_CHANNEL
        body["guild_id"] = str(guild)
        body["channel_id"] = str(channel)
        body["channel"] = {**body["channel"], "id": str(channel), "guild_id": str(guild)}
        data["guild_id"] = str(guild)
    return body


async def run(bot: Any, fake: FakeDiscord, body: dict[str, Any]) -> list[Sent]:
    start = len(fake.sent)
    bot._connection.parsers["INTERACTION_CREATE"](body)
    await settle()
    replies = fake.replies(start)
    for sent in replies:
        assert_limits(sent)
    return replies


def text_of(sent: Sent) -> str:
    return FakeDiscord.body_of(sent).get("content") or ""


def is_ephemeral(sent: Sent) -> bool:
    return sent.audience != "public"


def autocomplete(name: str, sub: str, focused: str, value: Any, **others: Any) -> dict[str, Any]:
    options = [
        {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in others.items()
    ]
    options.append(
        {
            "name": focused,
            "type": 4 if isinstance(value, int) else 3,
            "value": value,
            "focused": True,
        }
    )
    return {
        "id": "1",
        "name": name,
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": options}],
        "guild_id": str(GUILD),
    }


def choices_of(sent: Sent) -> list[dict[str, Any]]:
    body = sent.json if isinstance(sent.json, dict) else {}
    assert body.get("type") == 8, "an autocomplete answer"
    return body["data"]["choices"]


async def new_table(
    bot: Any, fake: FakeDiscord, game: str = "callbreak", options: str = "rounds=1"
) -> int:
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "new", game=game, options=options), HOST)
    )
    assert not is_ephemeral(reply), text_of(reply)
    return max(bot.service.tables)


def lobby_message(fake: FakeDiscord, bot: Any, table_id: int) -> dict[str, Any]:
    return fake.messages[str(bot.service.tables[table_id].message_id)]


async def click(
    bot: Any, fake: FakeDiscord, message: dict[str, Any], pattern: str, user: int, values=None
) -> list[Sent]:
    comp = find_button(message, pattern)
    return await run(bot, fake, payload(fake, 3, click_data(comp, values), user, message=message))


# -- /table new: the bot's permissions ---------------------------------------------------------------
async def test_table_new_names_exactly_the_missing_permissions_and_creates_nothing(fake, bot):
    few = discord.Permissions(view_channel=True, send_messages=True, read_message_history=True)
    body = payload(fake, 2, fake.slash("table", "new", game="callbreak"), HOST, app=few)
    (reply,) = await run(bot, fake, body)
    assert is_ephemeral(reply)
    text = text_of(reply)
    for name in (
        "Embed Links",
        "Attach Files",
        "Create Public Threads",
        "Send Messages in Threads",
    ):
        assert f"**{name}**" in text
    for name in ("View Channel", "Send Messages**", "Read Message History"):
        assert name not in text
    assert not bot.service.tables


async def test_without_threads_the_thread_permissions_are_not_needed(fake, bot):
    moderator = Actor(HOST, GUILD, CHANNEL, "Host", can_manage_server=True)
    await bot.service.set_guild_setting(moderator, "use_threads", "false")
    no_threads = discord.Permissions(SHOWS.value)
    no_threads.create_public_threads = no_threads.send_messages_in_threads = False
    body = payload(fake, 2, fake.slash("table", "new", game="callbreak"), HOST, app=no_threads)
    (reply,) = await run(bot, fake, body)
    assert not is_ephemeral(reply)
    assert "Callbreak" in FakeDiscord.body_of(reply)["embeds"][0]["title"]
    no_embeds = discord.Permissions(no_threads.value)
    no_embeds.embed_links = False
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "new", game="batak"), GUEST, app=no_embeds)
    )
    assert is_ephemeral(reply) and "**Embed Links**" in text_of(reply)
    assert "Threads" not in text_of(reply)


async def test_table_new_posts_a_lobby_with_its_buttons(fake, bot):
    table_id = await new_table(bot, fake)
    message = lobby_message(fake, bot, table_id)
    labels = [c.get("label") for c in components_of(message) if c["type"] == 2]
    assert labels[:4] == ["Join", "Leave", "Start", "Cancel"]
    assert not [c for c in components_of(message) if c["type"] == 3], "nobody to remove yet"


# -- autocomplete --------------------------------------------------------------------------------
async def test_join_autocomplete_lists_only_this_servers_lobbies(fake, bot):
    here = Actor(HOST, GUILD, CHANNEL, "Host")
    there = Actor(STRANGER, OTHER_GUILD, OTHER_CHANNEL, "Far")
    mine = await bot.service.create_table(here, game="callbreak")
    theirs = await bot.service.create_table(there, game="batak")
    started = await bot.service.create_table(here, game="callbreak")
    await bot.service.start_table(started.id, here, fill_ai="easy")
    (answer,) = await run(
        bot, fake, payload(fake, 4, autocomplete("table", "join", "table", ""), GUEST)
    )
    choices = choices_of(answer)
    assert [c["value"] for c in choices] == [mine.id]
    assert choices[0]["name"] == f"#{mine.id} Callbreak — 1/4 seated"
    (answer,) = await run(
        bot,
        fake,
        payload(fake, 4, autocomplete("table", "join", "table", ""), GUEST, guild=OTHER_GUILD),
    )
    assert [c["value"] for c in choices_of(answer)] == [theirs.id]


async def test_table_new_options_autocomplete_from_the_games_settings(fake, bot):
    data = autocomplete("table", "new", "options", "", game="blot")
    (answer,) = await run(bot, fake, payload(fake, 4, data, HOST))
    values = [c["value"] for c in choices_of(answer)]
    assert "target_score=" in values and "min_bid=" in values and "turn_seconds=" in values
    names = " ".join(c["name"] for c in choices_of(answer))
    assert "51..1001" in names and "8..16" in names
    data = autocomplete("table", "new", "options", "target_score=3", game="blot")
    (answer,) = await run(bot, fake, payload(fake, 4, data, HOST))
    values = [c["value"] for c in choices_of(answer)]
    assert values[0] == "target_score=301"  # the default first
    assert all(v.startswith("target_score=3") for v in values)
    data = autocomplete("table", "new", "options", "rounds=2 ", game="callbreak")
    (answer,) = await run(bot, fake, payload(fake, 4, data, HOST))
    values = [c["value"] for c in choices_of(answer)]
    assert values == ["rounds=2 max_bid=", "rounds=2 turn_seconds="]


# -- the lobby: remove a player, fill and start ----------------------------------------------------
async def test_only_the_host_can_remove_a_player_from_the_lobby(fake, bot):
    table_id = await new_table(bot, fake)
    await click(bot, fake, lobby_message(fake, bot, table_id), r":join:", GUEST)
    await click(bot, fake, lobby_message(fake, bot, table_id), r":ai:easy", HOST)
    message = lobby_message(fake, bot, table_id)
    menu = find_button(message, r":kick:")
    assert [o["label"] for o in menu["options"]] == ["Seat 2: User 12", "Seat 3: Cleo (AI, easy)"]
    replies = await click(bot, fake, message, r":kick:", GUEST, values=["2"])
    assert replies and all(is_ephemeral(r) for r in replies)
    assert "host" in text_of(replies[-1])
    assert not bot.service.tables[table_id].seats[2].empty
    await click(bot, fake, message, r":kick:", HOST, values=["1"])
    seats = bot.service.tables[table_id].seats
    assert seats[1].empty and not seats[2].empty
    menu = find_button(lobby_message(fake, bot, table_id), r":kick:")
    assert [o["value"] for o in menu["options"]] == ["2"]


async def test_start_with_empty_seats_offers_fill_buttons_that_start_the_game(fake, bot):
    table_id = await new_table(bot, fake)
    replies = await click(bot, fake, lobby_message(fake, bot, table_id), r":start:", HOST)
    body = fake.reply_message(replies[-1])  # the offer, as the host sees it
    assert body.get("_audience") == HOST or body["flags"] & 64
    labels = [c.get("label") for c in components_of(body)]
    assert labels == [
        "Fill with AI (easy) and start",
        "Fill with AI (normal) and start",
        "Fill with AI (hard) and start",
    ]
    assert bot.service.tables[table_id].status == "lobby"
    await run(
        bot,
        fake,
        payload(fake, 3, click_data(find_button(body, r":fill:easy")), HOST, message=body),
    )
    live = bot.service.tables[table_id]
    assert live.status == "playing"
    assert [s.ai for s in live.seats[1:]] == ["easy"] * 3


# -- leaving a game: a confirmation first ----------------------------------------------------------
async def test_table_leave_during_play_asks_first(fake, bot):
    host = Actor(HOST, GUILD, CHANNEL, "Host")
    info = await bot.service.create_table(host, game="callbreak", options={"rounds": "1"})
    await bot.service.start_table(info.id, host, fill_ai="easy")
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("table", "leave"), HOST))
    assert is_ephemeral(reply)
    assert "loss" in text_of(reply)
    (button,) = components_of(FakeDiscord.body_of(reply))
    assert button["label"] == "Yes, leave (AI takes my seat)"
    assert button["custom_id"] == f"ct:{info.id}:0:resignok:"
    assert bot.service.tables[info.id].seats[0].ai is None, (
        "nothing happens before the confirmation"
    )


async def test_table_leave_in_a_lobby_just_leaves(fake, bot):
    table_id = await new_table(bot, fake)
    await click(bot, fake, lobby_message(fake, bot, table_id), r":join:", GUEST)
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "leave", table=table_id), GUEST)
    )
    assert is_ephemeral(reply) and f"You left table #{table_id}" in text_of(reply)
    assert bot.service.tables[table_id].seats[1].empty


async def test_another_servers_table_is_unknown_here(fake, bot):
    there = Actor(STRANGER, OTHER_GUILD, OTHER_CHANNEL, "Far")
    theirs = await bot.service.create_table(there, game="batak")
    for sub in ("join", "status", "abandon"):
        (reply,) = await run(
            bot, fake, payload(fake, 2, fake.slash("table", sub, table=theirs.id), GUEST)
        )
        assert is_ephemeral(reply) and text_of(reply).startswith("⚠️")
        assert f"#{theirs.id}" in text_of(reply)
    assert bot.service.tables[theirs.id].status == "lobby"


async def test_table_status_is_private_with_a_picture(fake, bot):
    host = Actor(HOST, GUILD, CHANNEL, "Host")
    info = await bot.service.create_table(host, game="callbreak", options={"rounds": "1"})
    await bot.service.start_table(info.id, host, fill_ai="easy")
    replies = await run(bot, fake, payload(fake, 2, fake.slash("table", "status"), HOST))
    assert replies and all(is_ephemeral(r) for r in replies)
    final = replies[-1]
    assert "table.png" in final.files
    embed = FakeDiscord.body_of(final)["embeds"][0]
    assert embed["image"]["url"] == "attachment://table.png"
    assert embed["title"].startswith("Callbreak — table #")


async def test_abandon_is_for_the_host(fake, bot):
    table_id = await new_table(bot, fake)
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "abandon", table=table_id), GUEST)
    )
    assert is_ephemeral(reply) and text_of(reply).startswith("⚠️")
    assert bot.service.tables[table_id].status == "lobby"
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("table", "abandon", table=table_id), HOST)
    )
    assert text_of(reply) == f"Table #{table_id} was abandoned."


def test_inside_a_thread_posting_needs_the_thread_permission_only():
    perms = discord.Permissions(SHOWS.value)
    perms.send_messages = False
    assert missing_permissions(perms, threads=False, in_thread=True) == []
    perms.send_messages_in_threads = False
    assert missing_permissions(perms, threads=True, in_thread=True) == ["Send Messages in Threads"]
    assert missing_permissions(discord.Permissions(administrator=True), threads=True) == []


async def test_table_hand_answers_privately_with_the_hand(fake, bot):
    host = Actor(HOST, GUILD, CHANNEL, "Host")
    info = await bot.service.create_table(host, game="callbreak", options={"rounds": "1"})
    await bot.service.start_table(info.id, host, fill_ai="easy")
    await settle()
    replies = await run(bot, fake, payload(fake, 2, fake.slash("table", "hand"), HOST))
    assert replies and all(is_ephemeral(r) for r in replies)
    hand = fake.reply_message(replies[-1])
    assert hand["content"].startswith(f"**Your hand** — Callbreak, table #{info.id} (seat 1")
    assert components_of(hand)
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("table", "hand"), STRANGER))
    assert is_ephemeral(reply) and text_of(reply).startswith("⚠️")

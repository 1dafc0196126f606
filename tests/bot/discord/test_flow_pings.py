"""Turn pings: the person who must decide now is mentioned -- them only --
once per turn, in the table's thread; the previous ping is deleted so the
channel holds at most one; DM and off preferences; the server switch.

These tests set the server's ``ping_after`` to 0 (ping as the turn starts)
to see every turn's ping; the grace time itself: ``test_flow_ping_grace``."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.services.actor import Actor
from tests.bot.discord.harness import (
    GUILD,
    MESSAGE_PATH,
    POST_PATH,
    FakeDiscord,
    Sent,
    decider_user,
    play_turn,
    settle,
    start_game,
)

HOST, GUEST = 11, 12
ADMIN = Actor(HOST, GUILD, can_manage_server=True)


@pytest.fixture(autouse=True)
async def ping_at_once(bot: Any) -> None:
    await bot.service.set_guild_setting(ADMIN, "ping_after", "0")


def pings(fake: FakeDiscord, start: int = 0) -> list[Sent]:
    return [
        s
        for s in fake.sent[start:]
        if (s.method, s.path) == ("POST", POST_PATH)
        and (s.json or {}).get("allowed_mentions", {}).get("users")
        and "your turn" in str(s.json.get("content"))
    ]


def deleted(fake: FakeDiscord, start: int = 0) -> list[str]:
    return [
        str(s.target)
        for s in fake.sent[start:]
        if (s.method, s.path) == ("DELETE", MESSAGE_PATH) and s.status == 200
    ]


async def play_turns(
    bot: Any, fake: FakeDiscord, table_id: int, moves: int, *, check: bool = True
) -> None:
    for _ in range(moves):
        await settle()
        user = decider_user(bot, table_id)
        if user is None:
            return
        await play_turn(bot, fake, table_id, user)
        await settle()
        current = decider_user(bot, table_id)
        live = [p for p in pings(fake) if p.target not in deleted(fake)]
        if check and current is not None:  # the one ping left names the person to act now
            assert len(live) == 1 and f"<@{current}>" in live[0].json["content"]


async def test_pings_name_the_decider_only_and_replace_each_other(fake, bot):
    table_id = await start_game(bot, fake, (HOST, GUEST))
    await play_turns(bot, fake, table_id, 12)
    sent = pings(fake)
    assert len(sent) >= 6
    thread = bot.service.tables[table_id].thread_id
    assert thread is not None
    for ping in sent:
        body = ping.json
        (user,) = body["allowed_mentions"]["users"]
        assert body["allowed_mentions"]["parse"] == [], "no everyone, no roles"
        assert str(body["content"]).startswith(f"<@{user}>")
        assert int(user) in (HOST, GUEST)
        assert "<t:" in body["content"], "the deadline"
        assert ping.route_params["channel_id"] == str(thread)
    # every ping but the newest was deleted, each before the next one was posted
    gone = deleted(fake)
    assert [p.target for p in sent[:-1]] == gone[: len(sent) - 1]
    for earlier, later in itertools.pairwise(sent):
        delete = next(s for s in fake.sent if s.method == "DELETE" and s.target == earlier.target)
        assert delete.started < later.started


async def test_no_ping_for_the_same_decider_twice_nor_for_ai_seats(fake, bot):
    table_id = await start_game(bot, fake, (HOST,))
    await play_turns(bot, fake, table_id, 6)
    sent = pings(fake)
    assert sent and all(p.json["allowed_mentions"]["users"] == [HOST] for p in sent)
    # one ping per turn of HOST, never two for one turn
    rows = await bot.service.store.actions(table_id)
    host_turns = sum(1 for r in rows if r.actor_id == HOST) + (
        1 if decider_user(bot, table_id) == HOST else 0
    )
    assert len(sent) <= host_turns


async def test_dm_and_off_preferences(fake, bot):
    await bot.service.set_ping_preference(Actor(GUEST, GUILD), "dm")
    table_id = await start_game(bot, fake, (HOST, GUEST))
    await play_turns(bot, fake, table_id, 8)
    dms = [s for s in fake.sent if s.path == "/users/@me/channels"]
    assert len(dms) == 1 and dms[0].json["recipient_id"] == GUEST
    guest = [p for p in pings(fake) if p.json["allowed_mentions"]["users"] == [GUEST]]
    assert guest and all(p.audience == GUEST for p in guest), "by DM, to GUEST alone"
    assert all("https://discord.com/channels/" in p.json["content"] for p in guest)
    host = [p for p in pings(fake) if p.json["allowed_mentions"]["users"] == [HOST]]
    assert host and all(p.audience == "public" for p in host)
    await bot.service.set_ping_preference(Actor(HOST, GUILD), "off")
    start = len(fake.sent)
    await play_turns(bot, fake, table_id, 6, check=False)
    assert not [p for p in pings(fake, start) if p.json["allowed_mentions"]["users"] == [HOST]]


async def test_the_server_switch_turns_pings_off(fake, bot):
    await bot.service.set_guild_setting(ADMIN, "turn_pings", "false")
    table_id = await start_game(bot, fake, (HOST, GUEST))
    await play_turns(bot, fake, table_id, 6, check=False)
    assert not pings(fake)


async def test_the_last_ping_goes_when_the_game_ends(fake, bot):
    table_id = await start_game(bot, fake, (HOST,), options="rounds=1")
    for _ in range(100):
        if decider_user(bot, table_id) is None:
            break
        await play_turn(bot, fake, table_id, HOST)
        await settle()
    assert bot.service.recent[table_id].status == "finished"
    sent = pings(fake)
    assert sent and {p.target for p in sent} == set(deleted(fake)) & {p.target for p in sent}

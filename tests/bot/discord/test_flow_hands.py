"""The live hand: one ephemeral message per player, edited in place when it
becomes their turn, re-rendered after each of their moves; a ping tells
them to press "Show my hand" when it can no longer be edited."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.services.actor import Actor
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import (
    CALLBACK,
    GUILD,
    HOOK_ORIGINAL,
    POST_PATH,
    FakeDiscord,
    answer_of,
    choices_of,
    click,
    decider_user,
    live_hand,
    settle,
    start_game,
    table_message,
)

HOST, GUEST = 11, 12
ADMIN = Actor(HOST, GUILD, can_manage_server=True)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def new_hands(fake: FakeDiscord, user: int, start: int = 0) -> list[Any]:
    """New ephemeral messages for ``user`` (not edits)."""
    return [
        s
        for s in fake.sent[start:]
        if s.path == CALLBACK and s.json["type"] in (4, 5) and s.audience == user
    ] + [
        s
        for s in fake.sent[start:]
        if (s.transport, s.method) == ("webhook", "POST") and s.audience == user
    ]


def pings_for(fake: FakeDiscord, user: int, start: int = 0) -> list[str]:
    return [
        str(s.json.get("content"))
        for s in fake.sent[start:]
        if (s.method, s.path) == ("POST", POST_PATH) and f"<@{user}>" in str(s.json.get("content"))
    ]


async def play_with_live_hands(bot: Any, fake: FakeDiscord, table_id: int, turns: int) -> dict:
    """Both players play ``turns`` of their turns, from their live hand
    whenever they have one; returns {user: hand message ids seen}."""
    seen: dict[int, list[str]] = {HOST: [], GUEST: []}
    for _ in range(200):
        await settle()
        user = decider_user(bot, table_id)
        if user is None or min(len(v) for v in seen.values()) >= turns:
            break
        seq = bot.service.tables[table_id].info().seq
        hand = live_hand(fake, bot, table_id, user)
        if hand is None:
            replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
            hand = answer_of(fake, replies)
        choices = choices_of(hand, seq)
        assert choices, f"the live hand was not brought up to date: {hand['content']}"
        seen[user].append(hand["id"])
        target = choices[0]
        values = [target["options"][0]["value"]] if target["type"] == 3 else None
        await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
    return seen


async def test_the_live_hand_is_edited_in_place_across_turns(fake, bot):
    await bot.service.set_guild_setting(ADMIN, "ping_after", "0")  # a ping each turn
    table_id = await start_game(bot, fake, (HOST, GUEST))
    start = len(fake.sent)
    seen = await play_with_live_hands(bot, fake, table_id, turns=5)
    for user in (HOST, GUEST):
        assert len(seen[user]) >= 5
        assert len(set(seen[user])) == 1, "the same message all along"
        assert len(new_hands(fake, user, start)) == 1, "one ephemeral hand, opened once"
        hand_id = seen[user][0]
        edits = [s for s in fake.sent[start:] if s.path == HOOK_ORIGINAL and s.target == hand_id]
        assert len(edits) >= 2 * (len(seen[user]) - 1), "re-rendered after a move, then at the turn"
        assert all(s.audience == user for s in edits)
    # a ping says the hand is ready
    assert any("up to date" in p for p in pings_for(fake, HOST, start))


async def test_after_a_move_the_hand_shows_the_next_state(fake, bot):
    table_id = await start_game(bot, fake, (HOST,))
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", HOST)
    hand = answer_of(fake, replies)
    seq = bot.service.tables[table_id].info().seq
    await click(bot, fake, hand, re.escape(choices_of(hand, seq)[0]["custom_id"]), HOST)
    after = fake.messages[hand["id"]]
    new_seq = bot.service.tables[table_id].info().seq
    assert new_seq > seq
    ids = [c["custom_id"] for row in after["components"] for c in row["components"]]
    assert ids and all(f":{new_seq}:" in i for i in ids if ":act:" in i), "not the old buttons"
    if decider_user(bot, table_id) == HOST:
        assert choices_of(after, new_seq), "my turn again: the choices are live"


async def play_one(bot: Any, fake: FakeDiscord, table_id: int) -> int:
    """The decider makes their first choice, from their live hand if any."""
    user = decider_user(bot, table_id)
    assert user is not None
    seq = bot.service.tables[table_id].info().seq
    hand = live_hand(fake, bot, table_id, user)
    if hand is None:
        replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
        hand = answer_of(fake, replies)
    target = choices_of(hand, seq)[0]
    values = [target["options"][0]["value"]] if target["type"] == 3 else None
    await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
    await settle()
    return user


@pytest.mark.parametrize("why", ["old_token", "discord_refuses"])
async def test_a_hand_that_cannot_be_edited_gets_a_ping_to_open_it(fake, tmp_path, why):
    clock = Clock()
    bot = await start_bot(tmp_path, hand_clock=clock)
    try:
        await bot.service.set_guild_setting(ADMIN, "ping_after", "0")  # a ping each turn
        table_id = await start_game(bot, fake, (HOST, GUEST))
        # play until HOST has a live hand and GUEST must decide
        for _ in range(40):
            if bot.hands.current(table_id, HOST) and decider_user(bot, table_id) == GUEST:
                break
            await play_one(bot, fake, table_id)
        hand = bot.hands.current(table_id, HOST)
        assert hand is not None and decider_user(bot, table_id) == GUEST
        if why == "old_token":
            clock.now += 14 * 60 + 1
        else:
            fake.expire(hand.interaction.token)
        start = len(fake.sent)
        while decider_user(bot, table_id) == GUEST:
            await play_one(bot, fake, table_id)
        assert decider_user(bot, table_id) == HOST
        pings = pings_for(fake, HOST, start)
        assert pings and "Show my hand" in pings[-1]
        tried = [
            s
            for s in fake.sent[start:]
            if s.transport == "webhook" and s.route_params.get("token") == hand.interaction.token
        ]
        assert len(tried) == (0 if why == "old_token" else 1)
        assert bot.hands.current(table_id, HOST) is None
        # "Show my hand" gives a new live hand
        replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", HOST)
        assert choices_of(answer_of(fake, replies), bot.service.tables[table_id].info().seq)
        assert bot.hands.current(table_id, HOST) is not None
    finally:
        await settle()
        await bot.close()

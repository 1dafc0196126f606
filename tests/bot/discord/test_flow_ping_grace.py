"""Turn pings wait for a grace time: a player who is playing (acting within
the server's ``ping_after`` seconds of their turn starting) is never pinged;
one who looks away is pinged once that turn.  The wait is a deadline on the
pings' own clock (tests move a fake clock and fire what is due, as
``expire_due`` does for turn timers)."""

from __future__ import annotations

from typing import Any

from bot.services.actor import Actor
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import (
    GUILD,
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


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def pings(fake: FakeDiscord, start: int = 0) -> list[Sent]:
    return [
        s
        for s in fake.sent[start:]
        if (s.method, s.path) == ("POST", POST_PATH)
        and (s.json or {}).get("allowed_mentions", {}).get("users")
        and "your turn" in str(s.json.get("content"))
    ]


async def tick(bot: Any, clock: Clock, seconds: float) -> None:
    """Time passes: the pings' deadline fires whatever is due."""
    clock.now += seconds
    await bot.pings.send_due()
    await settle()


async def test_a_player_playing_from_the_live_hand_is_never_pinged(fake, tmp_path):
    """13 turns against 3 AI, each played 3 s after it starts: no ping at all
    (today: a ping on every turn)."""
    clock = Clock()
    bot = await start_bot(tmp_path, ping_clock=clock)
    try:
        table_id = await start_game(bot, fake, (HOST,), options="rounds=1")
        turns = 0
        while decider_user(bot, table_id) == HOST and turns < 40:
            await tick(bot, clock, 3)
            await play_turn(bot, fake, table_id, HOST)
            await settle()
            turns += 1
        assert turns >= 13
        assert not pings(fake)
        assert not bot.pings.pending, "nothing left waiting after the game"
    finally:
        await settle()
        await bot.close()


async def test_a_player_who_looks_away_is_pinged_once_after_the_grace(fake, tmp_path):
    clock = Clock()
    bot = await start_bot(tmp_path, ping_clock=clock)
    try:
        table_id = await start_game(bot, fake, (HOST, GUEST), options="rounds=1")
        user = decider_user(bot, table_id)
        assert user in (HOST, GUEST)
        await tick(bot, clock, 9.5)
        assert not pings(fake), "still inside the 10 s grace"
        await tick(bot, clock, 1)
        (ping,) = pings(fake)
        assert ping.json["allowed_mentions"]["users"] == [user]
        await tick(bot, clock, 300)
        assert len(pings(fake)) == 1, "once per turn, not again and again"
        # the turn passes: the ping goes; the next person gets a grace of their own
        await play_turn(bot, fake, table_id, user)
        await settle()
        gone = [s.target for s in fake.sent if s.method == "DELETE"]
        assert ping.target in gone
        following = decider_user(bot, table_id)
        if following is not None:
            assert len(pings(fake)) == 1
            await tick(bot, clock, 11)
            assert len(pings(fake)) == 2
            assert pings(fake)[-1].json["allowed_mentions"]["users"] == [following]
    finally:
        await settle()
        await bot.close()


async def test_the_server_setting_sets_the_grace_and_zero_pings_at_once(fake, tmp_path):
    clock = Clock()
    bot = await start_bot(tmp_path, ping_clock=clock)
    try:
        await bot.service.set_guild_setting(ADMIN, "ping_after", "30")
        table_id = await start_game(bot, fake, (HOST, GUEST), options="rounds=1")
        await tick(bot, clock, 29)
        assert not pings(fake)
        await tick(bot, clock, 2)
        assert len(pings(fake)) == 1
        await bot.service.set_guild_setting(ADMIN, "ping_after", "0")
        await play_turn(bot, fake, table_id, decider_user(bot, table_id))
        await settle()
        if decider_user(bot, table_id) is not None:
            assert len(pings(fake)) == 2, "0: pinged as the turn starts, no wait"
    finally:
        await settle()
        await bot.close()


async def test_a_turn_timer_shorter_than_the_grace_pings_halfway(fake, tmp_path):
    clock, service_clock = Clock(), Clock()
    bot = await start_bot(tmp_path, ping_clock=clock, clock=service_clock)
    try:
        await bot.service.set_guild_setting(ADMIN, "ping_after", "60")
        table_id = await start_game(bot, fake, (HOST, GUEST), options="rounds=1 turn_seconds=20")
        (pending,) = bot.pings.pending.values()
        assert pending.when - clock.now == 10, "half of the 20 s the timer leaves"
        await tick(bot, clock, 10)
        assert len(pings(fake)) == 1
        assert decider_user(bot, table_id) is not None
    finally:
        await settle()
        await bot.close()


async def test_a_dm_player_is_messaged_only_after_the_grace(fake, tmp_path):
    clock = Clock()
    bot = await start_bot(tmp_path, ping_clock=clock)
    try:
        await bot.service.set_ping_preference(Actor(HOST, GUILD), "dm")
        await bot.service.set_ping_preference(Actor(GUEST, GUILD), "dm")
        table_id = await start_game(bot, fake, (HOST, GUEST), options="rounds=1")
        for _ in range(4):  # both play promptly: no DM
            await tick(bot, clock, 2)
            await play_turn(bot, fake, table_id, decider_user(bot, table_id))
            await settle()
        assert not [s for s in fake.sent if s.path == "/users/@me/channels"]
        user = decider_user(bot, table_id)
        await tick(bot, clock, 12)
        (dm,) = pings(fake)
        assert dm.audience == user and dm.json["allowed_mentions"]["users"] == [user]
    finally:
        await settle()
        await bot.close()


async def test_acting_and_deciding_again_starts_the_grace_over(fake, tmp_path):
    """Batak's declarer plays for the dummy, Ladder gives extra turns: the
    decider does not change, but acting shows they are here."""
    clock = Clock()
    bot = await start_bot(tmp_path, ping_clock=clock)
    try:
        table_id = await start_game(bot, fake, (HOST,), options="rounds=1")
        assert decider_user(bot, table_id) == HOST
        await tick(bot, clock, 8)
        bot.pings.postpone(table_id)  # as the presenter does on such a move
        await tick(bot, clock, 8)
        assert not pings(fake)
        await tick(bot, clock, 3)
        assert len(pings(fake)) == 1
    finally:
        await settle()
        await bot.close()


async def test_a_restart_during_the_grace_starts_it_again(fake, tmp_path):
    clock = Clock()
    first = await start_bot(tmp_path, ping_clock=clock)
    try:
        table_id = await start_game(bot=first, fake=fake, humans=(HOST, GUEST), options="rounds=1")
        await tick(first, clock, 5)
        user = decider_user(first, table_id)
        assert table_id in first.pings.pending
    finally:
        await settle()
        await first.close()
    second = await start_bot(tmp_path, ping_clock=clock)
    try:
        await second.service.resumed()
        await settle()
        assert decider_user(second, table_id) == user
        await tick(second, clock, 9)
        assert not pings(fake), "a full grace after the restart"
        await tick(second, clock, 2)
        (ping,) = pings(fake)
        assert ping.json["allowed_mentions"]["users"] == [user]
    finally:
        await settle()
        await second.close()

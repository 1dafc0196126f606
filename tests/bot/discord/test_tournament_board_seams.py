"""Where tournament boards meet the other features (issue 22, review): a
resignation at a board table whose match is one deal, and the turn ping
of a board table.  Each board table plays in its private thread: its
result, its pings and its last table message stay there, the result says
it was not rated because it is a tournament board, the resigner is placed
last, and the table's last message says the board was recorded."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.services.actor import Actor
from bot.services.errors import WrongStatus
from tests.bot.discord.harness import (
    CHANNEL,
    GUILD,
    POST_PATH,
    FakeDiscord,
    answer_of,
    click,
    settle,
)
from tests.bot.discord.test_commands_tables import run
from tests.bot.discord.test_tournament_boards import PEOPLE, _open, card_messages
from tests.bot.discord.test_tournament_commands import MOD, cog, payload, play_out, slash
from tests.bot.discord.test_tournament_commands import tbot as tbot

MODERATOR = Actor(MOD, GUILD, CHANNEL, "Mod", can_manage_server=True)


def posts_in(fake: FakeDiscord, channel: int | str) -> list[str]:
    return [
        str(FakeDiscord.body_of(s).get("content") or "")
        for s in fake.channel_requests()
        if s.method == "POST"
        and s.path == POST_PATH
        and str(s.route_params["channel_id"]) == str(channel)
    ]


async def _first_table(bot: Any) -> Any:
    tour = cog(bot).service.live[1]
    info = await bot.service.get_table(tour.tables[(0, 0)])
    assert info.seat_of(PEOPLE[0]) is not None and info.thread_id is not None
    return info


async def test_a_resignation_at_a_one_deal_board_table(fake: FakeDiscord, tbot: Any) -> None:
    await tbot.service.set_setting(MODERATOR, "callbreak", "rounds", "1")
    await _open(tbot, fake, boards=1)
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    await settle()
    info = await _first_table(tbot)
    thread = info.thread_id
    gone = info.seat_of(PEOPLE[0])
    message = fake.messages[str(info.message_id)]
    replies = await click(tbot, fake, message, r":resign:", PEOPLE[0])
    await click(tbot, fake, answer_of(fake, replies), r":resignok:", PEOPLE[0])
    assert (await tbot.service.get_table(info.id)).seats[gone].resigned
    await play_out(tbot)

    assert card_messages(fake) and all(
        str(s.route_params["channel_id"]) != str(CHANNEL) for s in card_messages(fake)
    ), "no card in the tournament's channel"
    assert not [p for p in posts_in(fake, CHANNEL) if "is over" in p], "a result in the channel"
    (result,) = [p for p in posts_in(fake, thread) if f"table #{info.id} is over" in p]
    assert "Not rated: a tournament board" in result, result
    assert f"User {PEOPLE[0]}" not in result.split("\n")[1], "the resigner does not win"
    places = [line for line in result.splitlines() if re.match(r"\d\. ", line)]
    assert len(places) == 4 and "🏳️" in places[-1] and f"User {PEOPLE[0]}" in places[-1]
    assert places[-1].startswith("4. "), places

    # the table message: its board is recorded, nothing more to click
    last = fake.messages[str(info.message_id)]
    text = json.dumps(last["embeds"], ensure_ascii=False)
    assert "The board is recorded" in text, text
    assert last["components"] == [], "no Rematch at a board table"
    # nor through the service: the tournament deals the boards
    player = Actor(PEOPLE[1], GUILD, thread, f"User {PEOPLE[1]}")
    with pytest.raises(WrongStatus, match="board table has no rematch"):
        await tbot.service.rematch(info.id, player)


async def test_a_board_tables_ping_goes_to_its_thread_only(fake: FakeDiscord, tbot: Any) -> None:
    await _open(tbot, fake, boards=1)
    await run(tbot, fake, payload(fake, 2, slash(fake, "start"), MOD))
    for _ in range(50):
        await settle()
        await cog(tbot).service.idle()
        info = await _first_table(tbot)
        decider = tbot.service.tables[info.id].state.decider
        if info.seats[decider].human:
            break
        tbot.test_clock.now += 1000
        await tbot.service.expire_due()
    else:
        raise AssertionError("no person's turn came")
    assert info.id in tbot.pings.pending, "the ping waits for its grace"
    for pending in tbot.pings.pending.values():
        pending.when = 0.0  # as if the grace ran out
    await tbot.pings.send_due()
    await settle()
    pings = [p for p in posts_in(fake, info.thread_id) if "it's your turn" in p]
    assert pings == [pings[0]] and f"<@{info.seats[decider].user_id}>" in pings[0], pings
    assert not any(suit in pings[0] for suit in "♠♥♦♣")
    assert not [p for p in posts_in(fake, CHANNEL) if "it's your turn" in p]

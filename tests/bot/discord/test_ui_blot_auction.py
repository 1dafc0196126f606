"""A whole Bazar Blot auction played by four people through Discord: every
bid is reached in the one hand message (the level menu, then a strain or
capot button; Pass, Contra, Recontra), and every message the bot sends
stays within Discord's limits, never more than 5 rows."""

from __future__ import annotations

import random
from typing import Any

from engine import Action
from tests.bot.discord.harness import FakeDiscord, Sent, assert_limits, click_data, components_of
from tests.bot.discord.test_commands_tables import (
    GUEST,
    HOST,
    click,
    lobby_message,
    new_table,
    payload,
    run,
)

PLAYERS = (HOST, GUEST, 13, 14)


def checked(sent: list[Sent]) -> list[Sent]:
    for s in sent:
        assert_limits(s)
        rows = FakeDiscord.body_of(s).get("components") or []
        assert len(rows) <= 5
    return sent


async def open_hand(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> dict[str, Any]:
    replies = checked(await click(bot, fake, lobby_message(fake, bot, table_id), r":hand:", user))
    return fake.reply_message(replies[-1])


async def press(
    bot: Any,
    fake: FakeDiscord,
    message: dict[str, Any],
    comp: dict[str, Any],
    user: int,
    values=None,
) -> dict[str, Any]:
    body = payload(fake, 3, click_data(comp, values), user, message=message)
    checked(await run(bot, fake, body))
    return fake.messages[message["id"]]


async def bid(bot: Any, fake: FakeDiscord, table_id: int, user: int, target: Action) -> int:
    """Make ``target`` through the hand's components; returns the menu picks."""
    live = bot.service.tables[table_id]
    legal = [str(a) for a in live.state.legal_actions()]
    message = await open_hand(bot, fake, table_id, user)
    picks = 0
    while True:
        comps = components_of(message)
        for comp in comps:
            arg = comp["custom_id"].rsplit(":", 1)[1]
            enabled = ":act:" in comp["custom_id"] and not comp.get("disabled")
            if enabled and arg.isdigit() and legal[int(arg)] == str(target):
                before = len(live.state.log)
                await press(bot, fake, message, comp, user)
                assert len(bot.service.tables[table_id].state.log) > before
                return picks
        (menu,) = [c for c in comps if ":lvl:" in c["custom_id"]]
        offered = [int(o["value"]) for o in menu["options"]]
        level = min(offered, key=lambda n: (abs(n - (target.number or 0)), n))
        message = await press(bot, fake, message, menu, user, values=[str(level)])
        picks += 1
        assert picks <= 3, f"{target} not reachable: {offered}"


async def test_a_blot_auction_through_discord(fake, bot):
    table_id = await new_table(bot, fake, game="blot", options="target_score=51")
    for user in PLAYERS[1:]:
        await click(bot, fake, lobby_message(fake, bot, table_id), r":join:", user)
    await click(bot, fake, lobby_message(fake, bot, table_id), r":start:", HOST)
    live = bot.service.tables[table_id]
    assert live.status == "playing"
    rng = random.Random(3)
    script = ["bid 9 H", "bid 12 NT", "pass", "bid 27 S capot", "contra", "recontra"]
    made = []
    for step in range(40):
        state = live.state
        if state.phase != "auction":
            break
        legal = [str(a) for a in state.legal_actions()]
        wanted = next((m for m in script if m in legal and m not in made), None)
        if wanted is None or step > 10:
            wanted = "pass" if "pass" in legal else rng.choice(legal)
        made.append(wanted)
        user = live.seats[state.decider].user_id
        await bid(bot, fake, table_id, user, Action.parse(wanted))
    assert live.state.phase != "auction", made
    assert {"bid 27 S capot", "contra", "recontra"} <= set(made)
    contract = live.state.view(None).contract
    assert contract == "27 S capot recontra"
    hand = await open_hand(bot, fake, table_id, live.seats[live.state.decider].user_id)
    assert "Contract: **27 ♠ capot recontra**" in hand["content"]

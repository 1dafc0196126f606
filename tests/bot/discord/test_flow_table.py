"""The table's own buttons: an away player comes back with "I'm back" and
plays again; "Leave" asks first, then an AI takes the seat; "Rematch"
posts a new lobby in the same channel, once."""

from __future__ import annotations

import re

from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import (
    POST_PATH,
    FakeDiscord,
    answer_of,
    answer_text,
    choices_of,
    click,
    components_of,
    decider_user,
    play_turn,
    send,
    settle,
    start_game,
    table_message,
)

HOST, GUEST = 11, 12


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def posts_mentioning(fake: FakeDiscord, user: int, text: str, start: int = 0) -> list[str]:
    return [
        str(s.json.get("content"))
        for s in fake.sent[start:]
        if (s.method, s.path) == ("POST", POST_PATH)
        and f"<@{user}>" in str(s.json.get("content"))
        and text in str(s.json.get("content"))
    ]


async def test_an_away_player_comes_back_with_im_back_and_plays_again(fake, tmp_path):
    clock = Clock()
    bot = await start_bot(tmp_path, clock=clock)
    try:
        table_id = await start_game(bot, fake, (HOST, GUEST), options="rounds=1 turn_seconds=15")
        live = bot.service.tables[table_id]
        guest_seat = live.info().seat_of(GUEST)
        for _ in range(60):  # GUEST lets the timer run out until marked away
            if live.seats[guest_seat].away:
                break
            user = decider_user(bot, table_id)
            if user == GUEST:
                clock.now += 16
                await bot.service.expire_due()
            else:
                await play_turn(bot, fake, table_id, HOST)
            await settle()
        assert live.seats[guest_seat].away
        (notice,) = posts_mentioning(fake, GUEST, "I'm back")
        assert "away" in notice
        # while away, no turn pings for GUEST
        start = len(fake.sent)
        while decider_user(bot, table_id) != HOST:
            clock.now += 21
            await bot.service.expire_due()
            await settle()
        assert not posts_mentioning(fake, GUEST, "your turn", start)
        replies = await click(bot, fake, table_message(fake, bot, table_id), r":back:", GUEST)
        assert "Welcome back" in answer_text(fake, replies)
        assert not live.seats[guest_seat].away
        for _ in range(10):  # GUEST plays a turn through Discord again
            if decider_user(bot, table_id) == GUEST:
                break
            await play_turn(bot, fake, table_id, HOST)
            await settle()
        seq = live.info().seq
        await play_turn(bot, fake, table_id, GUEST)
        await settle()
        rows = await bot.service.store.actions(table_id)
        assert rows[seq].actor_id == GUEST, "GUEST's own move"
    finally:
        await settle()
        await bot.close()


async def test_leave_asks_first_then_an_ai_takes_the_seat(fake, bot):
    table_id = await start_game(bot, fake, (HOST, GUEST))
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":resign:", GUEST)
    question = answer_of(fake, replies)
    assert "counts as a loss" in question["content"] and question["flags"] & 64
    assert not bot.service.tables[table_id].seats[1].resigned
    replies = await click(bot, fake, question, r":resignok:", GUEST)
    done = answer_of(fake, replies)
    assert done["id"] == question["id"] and not components_of(done), "answered in place"
    seat = bot.service.tables[table_id].info().seat_of(GUEST)
    assert bot.service.tables[table_id].seats[seat].resigned


async def test_rematch_posts_one_new_lobby_in_the_same_channel(fake, bot):
    table_id = await start_game(bot, fake, (HOST,))
    for _ in range(100):
        if decider_user(bot, table_id) is None:
            break
        await play_turn(bot, fake, table_id, HOST)
        await settle()
    finished = table_message(fake, bot, table_id)
    assert bot.service.recent[table_id].status == "finished"
    start = len(fake.sent)
    replies = await click(bot, fake, finished, r":rematch:", HOST)
    assert "Rematch" in answer_text(fake, replies)
    new_id = max(bot.service.tables)
    assert new_id != table_id
    lobby = table_message(fake, bot, new_id)
    assert lobby["channel_id"] == finished["channel_id"]
    assert any(f"ct:{new_id}:0:join:" == c["custom_id"] for c in components_of(lobby))
    await click(bot, fake, finished, r":rematch:", HOST)  # a second click: the same lobby
    lobbies = [
        s
        for s in fake.sent[start:]
        if (s.method, s.path) == ("POST", POST_PATH) and (s.json or {}).get("embeds")
    ]
    assert len(lobbies) == 1
    assert max(bot.service.tables) == new_id


async def test_the_host_removes_a_player_with_the_lobby_menu(fake, bot):
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak"), HOST)
    await settle()
    table_id = max(bot.service.tables)
    await click(bot, fake, table_message(fake, bot, table_id), r":join:", GUEST)
    seat = bot.service.tables[table_id].info().seat_of(GUEST)
    lobby = table_message(fake, bot, table_id)
    replies = await click(bot, fake, lobby, r":kick:", GUEST, values=[str(seat)])
    assert "host" in answer_text(fake, replies)
    replies = await click(bot, fake, lobby, r":kick:", HOST, values=[str(seat)])
    assert "free again" in answer_text(fake, replies)
    assert bot.service.tables[table_id].info().seat_of(GUEST) is None
    lobby = table_message(fake, bot, table_id)
    assert not [c for c in components_of(lobby) if ":kick:" in c["custom_id"]]


async def test_a_blot_bid_level_menu_shows_that_levels_strains_in_place(fake, bot):
    table_id = await start_game(bot, fake, (HOST,), game="blot", options="target_score=51")
    for _ in range(10):
        if decider_user(bot, table_id) == HOST:
            break
        await settle()
    assert decider_user(bot, table_id) == HOST
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", HOST)
    hand = answer_of(fake, replies)
    seq = bot.service.tables[table_id].info().seq
    menu = next(c for c in components_of(hand) if ":lvl:" in c["custom_id"])
    level = menu["options"][-1]["value"]
    await click(bot, fake, hand, r":lvl:", HOST, values=[level])
    again = fake.messages[hand["id"]]
    assert bot.service.tables[table_id].info().seq == seq, "choosing a level is not a move"
    bids = [c for c in choices_of(again, seq) if c["type"] == 2 and c["label"].startswith("Bid")]
    assert bids and all(c["label"].startswith(f"Bid {level}") for c in bids)
    await click(bot, fake, again, re.escape(bids[0]["custom_id"]), HOST)
    rows = await bot.service.store.actions(table_id)
    assert rows[seq].actor_id == HOST and rows[seq].notation.startswith(f"bid {level}")


async def test_a_garbage_page_on_a_hand_is_refused_in_place(fake, bot):
    table_id = await start_game(bot, fake, (HOST, GUEST))
    user = decider_user(bot, table_id)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
    hand = answer_of(fake, replies)
    seq = bot.service.tables[table_id].info().seq
    forged = dict(hand)
    forged["components"] = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": "?", "custom_id": f"ct:{table_id}:{seq}:page:abc"}
            ],
        }
    ]
    fake.messages[hand["id"]] = {**fake.messages[hand["id"]], **forged}
    replies = await click(bot, fake, forged, r":page:abc", user)
    answered = answer_of(fake, replies)
    assert answered["id"] == hand["id"] and "cannot be used" in answered["content"]
    assert choices_of(answered, seq), "the real hand is back"
    assert bot.service.tables[table_id].info().seq == seq

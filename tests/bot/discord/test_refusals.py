"""Wrong user, stale button, garbage custom_id, not a moderator, bad setting,
unknown game, full table, double click, another server: each a clear
answer to the clicker alone and no change.  And a restart in the middle of
a game, with old buttons still working."""

from __future__ import annotations

from typing import Any

from bot.services.actor import Actor
from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import (
    GUILD,
    OTHER_GUILD,
    FakeDiscord,
    answer_of,
    answer_text,
    choices_of,
    click,
    click_data,
    components_of,
    send,
    settle,
    table_message,
)

HOST, GUEST, STRANGER = 11, 12, 13
MANAGE_GUILD = str(1 << 5)


def ephemeral_text(sent) -> str:
    body = FakeDiscord.body_of(sent)
    assert body.get("flags", 0) & 64, "the answer must be ephemeral"
    return body.get("content", "")


async def new_table(
    bot: Any, fake: FakeDiscord, game: str = "callbreak", options: str | None = "rounds=1"
) -> int:
    send(bot, fake, 2, fake.slash("table", "new", game=game, options=options), HOST)
    await settle()
    return max(bot.service.tables)


async def started_table(bot: Any, fake: FakeDiscord) -> int:
    table_id = await new_table(bot, fake)
    await click(bot, fake, table_message(fake, bot, table_id), r":join:", GUEST)
    for _ in range(2):
        await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", HOST)
    await click(bot, fake, table_message(fake, bot, table_id), r":start:", HOST)
    await settle()
    return table_id


async def open_hand(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> dict[str, Any]:
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
    return answer_of(fake, replies)


async def test_stranger_clicking_show_my_hand_is_told_so(fake, bot):
    table_id = await started_table(bot, fake)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", STRANGER)
    assert "not seated" in answer_text(fake, replies)


async def test_stale_and_double_clicks_change_nothing_and_offer_a_fresh_hand(fake, bot):
    table_id = await started_table(bot, fake)
    live = bot.service.tables[table_id]
    user = live.seats[live.state.decider].user_id
    hand = await open_hand(bot, fake, table_id, user)
    stale_copy = dict(hand)  # the hand as the player's client shows it now
    button = choices_of(hand, live.info().seq)[0]
    values = [button["options"][0]["value"]] if button["type"] == 3 else None
    seq_before = live.info().seq
    send(bot, fake, 3, click_data(button, values), user, message=stale_copy)
    send(bot, fake, 3, click_data(button, values), user, message=stale_copy)  # a double click
    await settle()
    rows = await bot.service.store.actions(table_id)
    human_moves = [r for r in rows[seq_before:] if r.actor_id == user]
    assert len(human_moves) == 1
    start = len(fake.sent)
    send(bot, fake, 3, click_data(button, values), user, message=stale_copy)  # much later: stale
    await settle()
    replies = fake.replies(start)
    refreshed = answer_of(fake, replies)
    assert refreshed["id"] == hand["id"], "the stale hand is refreshed in place"
    assert "out of date" in refreshed["content"] or "already" in refreshed["content"]
    assert refreshed["flags"] & 64
    assert components_of(refreshed), "a fresh hand comes with the refusal"
    assert len(human_moves) == 1


async def test_garbage_custom_ids_get_a_clear_answer(fake, bot):
    for custom_id in ("hello", "ct:1:2", "ct:99999:0:zap:1", "ct:x:0:act:0"):
        message = fake.message(
            "1",
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
                        ],
                    }
                ]
            },
        )
        start = len(fake.sent)
        send(bot, fake, 3, {"custom_id": custom_id, "component_type": 2}, STRANGER, message=message)
        await settle()
        (reply,) = fake.replies(start)
        assert "not one Card Table knows" in ephemeral_text(reply)


async def test_unknown_table_button_is_refused(fake, bot):
    message = fake.message(
        "1",
        {
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "label": "Join", "custom_id": "ct:4242:0:join:"}
                    ],
                }
            ]
        },
    )
    replies = await click(bot, fake, message, r":join:", STRANGER)
    assert "no table #4242" in answer_text(fake, replies)


async def test_full_table_refuses_another_player(fake, bot):
    table_id = await new_table(bot, fake)
    for _ in range(3):
        await click(bot, fake, table_message(fake, bot, table_id), r":ai:normal", HOST)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":join:", STRANGER)
    assert "full" in answer_text(fake, replies)
    assert bot.service.tables[table_id].info().seat_of(STRANGER) is None


async def test_only_host_starts_or_adds_ai(fake, bot):
    table_id = await new_table(bot, fake)
    await click(bot, fake, table_message(fake, bot, table_id), r":join:", GUEST)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":start:", GUEST)
    assert "host" in answer_text(fake, replies)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", GUEST)
    assert "host" in answer_text(fake, replies)
    assert bot.service.tables[table_id].status == "lobby"


async def test_start_with_empty_seats_offers_to_fill_them(fake, bot):
    table_id = await new_table(bot, fake)
    replies = await click(bot, fake, table_message(fake, bot, table_id), r":start:", HOST)
    offer = answer_of(fake, replies)
    assert "empty" in offer["content"] and offer["flags"] & 64
    assert bot.service.tables[table_id].status == "lobby"
    replies = await click(bot, fake, offer, r":fill:easy", HOST)
    assert bot.service.tables[table_id].status == "playing"
    done = answer_of(fake, replies)
    assert done["id"] == offer["id"] and not components_of(done), "answered in place"


async def test_another_servers_member_sees_no_table_here(fake, bot):
    table_id = await new_table(bot, fake)
    lobby = table_message(fake, bot, table_id)
    replies = await click(bot, fake, lobby, r":join:", STRANGER, guild_id=OTHER_GUILD)
    assert f"no table #{table_id} here" in answer_text(fake, replies)
    assert bot.service.tables[table_id].info().seat_of(STRANGER) is None
    for sub in ("status", "abandon"):
        start = len(fake.sent)
        data = fake.slash("table", sub, table=table_id)
        send(bot, fake, 2, data, STRANGER, guild_id=OTHER_GUILD, permissions=MANAGE_GUILD)
        await settle()
        texts = [str(FakeDiscord.body_of(s).get("content")) for s in fake.replies(start)]
        assert any(f"no table #{table_id} here" in t for t in texts), texts
    assert bot.service.tables[table_id].status == "lobby"


async def test_unknown_game_and_bad_options(fake, bot):
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game="poker"), HOST)
    await settle()
    (reply,) = fake.replies(start)
    assert "unknown game 'poker'" in ephemeral_text(reply)
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak", options="rounds=99"), HOST)
    await settle()
    (reply,) = fake.replies(start)
    assert "number of deals (`rounds`) must be 1..13" in ephemeral_text(reply)
    assert not bot.service.tables


async def test_settings_need_a_moderator_and_valid_values(fake, bot):
    sync = next(s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands"))
    settings_cmd = next(c for c in sync.json if c["name"] == "settings")
    assert str(settings_cmd["default_member_permissions"]) == MANAGE_GUILD

    async def settings(sub: str, user: int, **kw: Any) -> str:
        extra = {k: kw.pop(k) for k in ("permissions", "roles") if k in kw}
        start = len(fake.sent)
        send(bot, fake, 2, fake.slash("settings", sub, **kw), user, **extra)
        await settle()
        (reply,) = fake.replies(start)
        return ephemeral_text(reply)

    assert "only moderators" in await settings(
        "set", GUEST, game="callbreak", key="rounds", value="3"
    )
    assert "number of deals (`rounds`) must be 1..13" in await settings(
        "set", HOST, game="callbreak", key="rounds", value="99", permissions=MANAGE_GUILD
    )
    assert (await bot.service.get_settings(GUILD, "callbreak"))["rounds"] == 5
    assert "Saved" in await settings(
        "set", HOST, game="callbreak", key="rounds", value="3", permissions=MANAGE_GUILD
    )
    assert (await bot.service.get_settings(GUILD, "callbreak"))["rounds"] == 3
    admin = Actor(HOST, GUILD, can_manage_server=True)
    await bot.service.set_moderator_role(admin, 555)
    assert "Reset" in await settings("reset", GUEST, game="callbreak", roles=["555"])


async def test_rules_and_stats_commands(fake, bot):
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("rules", game="blot"), GUEST)
    await settle()
    (reply,) = fake.replies(start)
    assert "Bazar Blot" in ephemeral_text(reply) and "target_score" in ephemeral_text(reply)
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("stats"), GUEST)
    await settle()
    (reply,) = fake.replies(start)
    assert "no finished games" in ephemeral_text(reply)


async def test_restart_mid_game_resumes_and_old_buttons_work(fake, bot, tmp_path):
    table_id = await started_table(bot, fake)
    live = bot.service.tables[table_id]
    user = live.seats[live.state.decider].user_id
    old_hand = dict(await open_hand(bot, fake, table_id, user))
    seq = live.info().seq
    await settle()
    await bot.close()
    again = await start_bot(tmp_path)
    try:
        await settle()
        resumed = again.service.tables[table_id]
        assert resumed.info().seq == seq and resumed.status == "playing"
        message = table_message(fake, again, table_id)
        assert "resumed" in (message["embeds"][0].get("description") or "")
        button = choices_of(old_hand, seq)[0]
        values = [button["options"][0]["value"]] if button["type"] == 3 else None
        send(again, fake, 3, click_data(button, values), user, message=old_hand)
        await settle()
        assert again.service.tables[table_id].info().seq > seq
        hand = await open_hand(again, fake, table_id, user)
        assert "hand" in hand["content"].lower() and hand["flags"] & 64
    finally:
        await settle()
        await again.close()


async def test_status_shows_the_table_with_a_picture(fake, bot):
    table_id = await started_table(bot, fake)
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "status", table=table_id), GUEST)
    await settle()
    replies = fake.replies(start)
    body = FakeDiscord.body_of(replies[-1])
    assert body["embeds"][0]["image"]["url"] == "attachment://table.png"
    assert "table.png" in replies[-1].files

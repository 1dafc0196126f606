"""Wrong user, stale button, garbage custom_id, not a moderator, bad setting,
unknown game, full table, double click: each a clear ephemeral answer and no
change.  And a restart in the middle of a game."""

from __future__ import annotations

from typing import Any

from tests.bot.discord.conftest import start_bot
from tests.bot.discord.harness import FakeDiscord, click_data, components_of, settle
from tests.bot.discord.test_full_games import click, send, table_message

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


def hand_message(fake: FakeDiscord) -> dict[str, Any]:
    return fake.messages[list(fake.messages)[-1]]


async def test_stranger_clicking_show_my_hand_is_told_so(fake, bot):
    table_id = await started_table(bot, fake)
    (reply,) = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", STRANGER)
    assert "not seated" in ephemeral_text(reply)


async def test_stale_and_double_clicks_change_nothing_and_offer_a_fresh_hand(fake, bot):
    table_id = await started_table(bot, fake)
    live = bot.service.tables[table_id]
    user = live.seats[live.state.decider].user_id
    await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
    hand = hand_message(fake)
    button = next(
        c
        for c in components_of(hand)
        if c["type"] == 3 or (":act:" in c["custom_id"] and not c.get("disabled"))
    )
    values = [button["options"][0]["value"]] if button["type"] == 3 else None
    seq_before = live.info().seq
    send(bot, fake, 3, click_data(button, values), user, message=hand)
    send(bot, fake, 3, click_data(button, values), user, message=hand)  # a double click
    await settle()
    rows = await bot.service.store.actions(table_id)
    human_moves = [r for r in rows[seq_before:] if r.actor_id == user]
    assert len(human_moves) == 1
    start = len(fake.sent)
    send(bot, fake, 3, click_data(button, values), user, message=hand)  # much later: stale
    await settle()
    (reply,) = fake.replies(start)
    assert "out of date" in ephemeral_text(reply) or "already" in ephemeral_text(reply)
    assert components_of(FakeDiscord.body_of(reply)), "a fresh hand comes with the refusal"


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
    start = len(fake.sent)
    send(
        bot,
        fake,
        3,
        {"custom_id": "ct:4242:0:join:", "component_type": 2},
        STRANGER,
        message=message,
    )
    await settle()
    (reply,) = fake.replies(start)
    assert "no table #4242" in ephemeral_text(reply)


async def test_full_table_refuses_another_player(fake, bot):
    table_id = await new_table(bot, fake)
    for _ in range(3):
        await click(bot, fake, table_message(fake, bot, table_id), r":ai:normal", HOST)
    (reply,) = await click(bot, fake, table_message(fake, bot, table_id), r":join:", STRANGER)
    assert "full" in ephemeral_text(reply)
    assert bot.service.tables[table_id].info().seat_of(STRANGER) is None


async def test_only_host_starts_or_adds_ai(fake, bot):
    table_id = await new_table(bot, fake)
    await click(bot, fake, table_message(fake, bot, table_id), r":join:", GUEST)
    (reply,) = await click(bot, fake, table_message(fake, bot, table_id), r":start:", GUEST)
    assert "host" in ephemeral_text(reply)
    (reply,) = await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", GUEST)
    assert "host" in ephemeral_text(reply)


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
    assert "rounds must be 1..13" in ephemeral_text(reply)
    assert not bot.service.tables


async def test_settings_need_a_moderator_and_valid_values(fake, bot):
    sync = next(s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands"))
    settings_cmd = next(c for c in sync.json if c["name"] == "settings")
    assert str(settings_cmd["default_member_permissions"]) == MANAGE_GUILD
    start = len(fake.sent)
    send(
        bot,
        fake,
        2,
        fake.slash("settings", "set", game="callbreak", key="rounds", value="3"),
        GUEST,
    )
    await settle()
    (reply,) = fake.replies(start)
    assert "only moderators" in ephemeral_text(reply)
    guild = next(iter(bot.service.tables), None)
    assert guild is None
    start = len(fake.sent)
    send(
        bot,
        fake,
        2,
        fake.slash("settings", "set", game="callbreak", key="rounds", value="99"),
        HOST,
        permissions=MANAGE_GUILD,
    )
    await settle()
    (reply,) = fake.replies(start)
    assert "rounds must be 1..13" in ephemeral_text(reply)
    from tests.bot.discord.harness import GUILD

    assert (await bot.service.get_settings(GUILD, "callbreak"))["rounds"] == 5
    start = len(fake.sent)
    send(
        bot,
        fake,
        2,
        fake.slash("settings", "set", game="callbreak", key="rounds", value="3"),
        HOST,
        permissions=MANAGE_GUILD,
    )
    await settle()
    (reply,) = fake.replies(start)
    assert "Saved" in ephemeral_text(reply)
    assert (await bot.service.get_settings(GUILD, "callbreak"))["rounds"] == 3
    await bot.service.set_guild_setting(GUILD, "moderator_role_id", "555")
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("settings", "reset", game="callbreak"), GUEST, roles=["555"])
    await settle()
    (reply,) = fake.replies(start)
    assert "Reset" in ephemeral_text(reply)


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
    await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
    old_hand = hand_message(fake)
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
        button = next(
            c
            for c in components_of(old_hand)
            if c["type"] == 3 or (":act:" in c["custom_id"] and not c.get("disabled"))
        )
        values = [button["options"][0]["value"]] if button["type"] == 3 else None
        send(again, fake, 3, click_data(button, values), user, message=old_hand)
        await settle()
        assert again.service.tables[table_id].info().seq > seq
        (reply,) = await click(again, fake, table_message(fake, again, table_id), r":hand:", user)
        assert "Your hand" in ephemeral_text(reply)
    finally:
        await settle()
        await again.close()


async def test_status_shows_the_table_with_a_picture(fake, bot):
    table_id = await started_table(bot, fake)
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "status", table=table_id), GUEST)
    await settle()
    (reply,) = fake.replies(start)
    body = FakeDiscord.body_of(reply)
    assert body["embeds"][0]["image"]["url"] == "attachment://table.png"
    assert "Waiting for" in body["embeds"][0]["description"]

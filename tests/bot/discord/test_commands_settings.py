"""/settings and /pings through the offline harness: the service decides
who is a moderator and its refusal reaches the user; the moderator role is
picked as a role, never typed; keys and values autocomplete from each
game's settings; /rules, /leaderboard and /stats stay within limits."""

from __future__ import annotations

from typing import Any

from tests.bot.discord.harness import GUILD, FakeDiscord, snowflake
from tests.bot.discord.test_commands_tables import (
    autocomplete,
    choices_of,
    is_ephemeral,
    payload,
    run,
    text_of,
)

MOD, MEMBER, HELPER = 21, 22, 23
MANAGE_GUILD = str(1 << 5)
ROLE = 555000000000000001


def role_option(role_id: int | None) -> dict[str, Any]:
    options = [] if role_id is None else [{"name": "role", "type": 8, "value": str(role_id)}]
    data: dict[str, Any] = {
        "id": snowflake(),
        "name": "settings",
        "type": 1,
        "options": [{"name": "role", "type": 1, "options": options}],
        "guild_id": str(GUILD),
    }
    if role_id is not None:
        data["resolved"] = {
            "roles": {
                str(role_id): {
                    "id": str(role_id),
                    "name": "Table Keepers",
                    "color": 0,
                    "hoist": False,
                    "position": 1,
                    "permissions": "0",
                    "managed": False,
                    "mentionable": True,
                    "flags": 0,
                }
            }
        }
    return data


async def settings_of(bot: Any, game: str = "callbreak") -> dict[str, Any]:
    return await bot.service.get_settings(GUILD, game)


async def test_sync_marks_settings_for_managers_and_pings_for_everyone(fake: FakeDiscord, bot):
    (sync,) = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    commands = {c["name"]: c for c in sync.json}
    assert str(commands["settings"]["default_member_permissions"]) == MANAGE_GUILD
    assert commands["settings"]["contexts"] == [0]  # guild only
    subs = {o["name"] for o in commands["settings"]["options"]}
    assert subs == {"show", "set", "reset", "role"}
    assert commands["pings"].get("default_member_permissions") is None
    modes = [c["value"] for c in commands["pings"]["options"][0]["choices"]]
    assert modes == ["channel", "dm", "off"]


async def test_a_member_is_refused_by_the_service_and_told_so(fake, bot):
    before = await settings_of(bot)
    body = payload(
        fake, 2, fake.slash("settings", "set", game="callbreak", key="rounds", value="3"), MEMBER
    )
    (reply,) = await run(bot, fake, body)
    assert is_ephemeral(reply)
    assert text_of(reply).startswith("⚠️ only moderators")
    assert await settings_of(bot) == before


async def test_a_manager_sets_and_resets_a_game_setting(fake, bot):
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="callbreak", key="rounds", value="3"),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (reply,) = await run(bot, fake, body)
    assert is_ephemeral(reply) and text_of(reply).startswith("Saved.")
    assert "number of deals (`rounds`): **3**" in text_of(reply)
    assert (await settings_of(bot))["rounds"] == 3
    bad = payload(
        fake,
        2,
        fake.slash("settings", "set", game="callbreak", key="rounds", value="99"),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (reply,) = await run(bot, fake, bad)
    assert "⚠️ number of deals (`rounds`) must be 1..13" in text_of(reply)
    reset = payload(
        fake, 2, fake.slash("settings", "reset", game="callbreak"), MOD, permissions=MANAGE_GUILD
    )
    (reply,) = await run(bot, fake, reset)
    assert (await settings_of(bot))["rounds"] == 5


async def test_the_moderator_role_is_picked_as_a_role(fake, bot):
    (reply,) = await run(bot, fake, payload(fake, 2, role_option(ROLE), MEMBER))
    assert text_of(reply).startswith("⚠️ only moderators")
    (reply,) = await run(
        bot, fake, payload(fake, 2, role_option(ROLE), MOD, permissions=MANAGE_GUILD)
    )
    assert is_ephemeral(reply) and f"<@&{ROLE}>" in text_of(reply)
    assert FakeDiscord.body_of(reply)["allowed_mentions"]["parse"] == []
    assert (await bot.service.get_guild_settings(GUILD))["moderator_role_id"] == ROLE
    # a member with the role is now a moderator
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="server", key="rated_with_ai", value="true"),
        HELPER,
        roles=[str(ROLE)],
    )
    (reply,) = await run(bot, fake, body)
    assert text_of(reply).startswith("Saved."), text_of(reply)
    assert (await bot.service.get_guild_settings(GUILD))["rated_with_ai"] is True
    # no role: cleared
    (reply,) = await run(
        bot, fake, payload(fake, 2, role_option(None), MOD, permissions=MANAGE_GUILD)
    )
    assert "No moderator role" in text_of(reply)
    assert (await bot.service.get_guild_settings(GUILD))["moderator_role_id"] is None


async def test_the_role_id_is_never_typed(fake, bot):
    body = payload(
        fake,
        2,
        fake.slash("settings", "set", game="server", key="moderator_role_id", value=str(ROLE)),
        MOD,
        permissions=MANAGE_GUILD,
    )
    (reply,) = await run(bot, fake, body)
    assert "/settings role" in text_of(reply)
    assert (await bot.service.get_guild_settings(GUILD))["moderator_role_id"] is None
    data = autocomplete("settings", "set", "key", "", game="server")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    assert [c["value"] for c in choices_of(answer)] == [
        "rated_with_ai",
        "use_threads",
        "turn_pings",
        "ping_after",
        "language",
        "hints",
    ]


async def test_keys_and_values_autocomplete_with_bounds(fake, bot):
    data = autocomplete("settings", "set", "key", "", game="batak")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    keys = [c["value"] for c in choices_of(answer)]
    assert keys == [
        "target_score",
        "min_bid",
        "trump_unlock",
        "defender_min_tricks",
        "max_deals",
        "turn_seconds",
    ]
    assert "(10..500)" in choices_of(answer)[0]["name"]
    data = autocomplete("settings", "set", "value", "", game="batak", key="trump_unlock")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    assert [c["value"] for c in choices_of(answer)] == ["any_trump", "ruff_only"]
    data = autocomplete("settings", "set", "value", "", game="batak", key="min_bid")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    assert [c["value"] for c in choices_of(answer)] == [str(n) for n in range(7, 14)]
    data = autocomplete("settings", "set", "value", "", game="server", key="use_threads")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD, permissions=MANAGE_GUILD))
    assert [c["value"] for c in choices_of(answer)] == ["true", "false"]
    data = autocomplete("settings", "show", "game", "ser")
    (answer,) = await run(bot, fake, payload(fake, 4, data, MOD))
    assert [c["value"] for c in choices_of(answer)] == ["server"]


async def test_pings_preference_for_any_player(fake, bot):
    data = {
        "id": snowflake(),
        "name": "pings",
        "type": 1,
        "options": [{"name": "mode", "type": 3, "value": "dm"}],
        "guild_id": str(GUILD),
    }
    (reply,) = await run(bot, fake, payload(fake, 2, data, MEMBER))
    assert is_ephemeral(reply) and "direct message" in text_of(reply)
    assert await bot.service.ping_preference(MEMBER) == "dm"


async def test_rules_leaderboard_and_stats_answer_within_limits(fake, bot):
    for game in ("callbreak", "batak", "blot", "backalley", "ladder"):
        (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("rules", game=game), MEMBER))
        assert is_ephemeral(reply) and len(text_of(reply)) <= 2000
        assert "settings**" in text_of(reply)
    (reply,) = await run(
        bot, fake, payload(fake, 2, fake.slash("leaderboard", game="blot"), MEMBER)
    )
    assert "No Bazar Blot games finished here yet." in text_of(reply)
    (reply,) = await run(bot, fake, payload(fake, 2, fake.slash("stats"), MEMBER))
    assert "no finished games here yet" in text_of(reply)

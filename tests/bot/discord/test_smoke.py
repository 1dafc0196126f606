from __future__ import annotations

from tests.bot.discord.harness import FakeDiscord, settle


async def test_login_syncs_commands(fake: FakeDiscord, bot):
    syncs = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    assert len(syncs) == 1
    names = {c["name"] for c in syncs[0].json}
    assert {"table", "leaderboard", "stats", "rules", "settings"} <= names


async def test_table_new_posts_a_lobby(fake: FakeDiscord, bot):
    start = len(fake.sent)
    bot._connection.parsers["INTERACTION_CREATE"](
        fake.interaction(2, fake.slash("table", "new", game="callbreak"), 11)
    )
    await settle()
    (reply,) = fake.replies(start)
    body = fake.body_of(reply)
    assert "Callbreak" in body["embeds"][0]["title"]

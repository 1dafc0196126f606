from __future__ import annotations

from tests.bot.discord.harness import FakeDiscord, send, settle


async def test_login_syncs_commands(fake: FakeDiscord, bot):
    syncs = [s for s in fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
    assert len(syncs) == 1
    names = {c["name"] for c in syncs[0].json}
    assert {"table", "leaderboard", "stats", "rules", "settings"} <= names


async def test_table_new_posts_a_lobby(fake: FakeDiscord, bot):
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak"), 11)
    await settle()
    (reply,) = fake.replies(start)
    body = fake.body_of(reply)
    assert "Callbreak" in body["embeds"][0]["title"]
    table = max(bot.service.tables)
    assert bot.service.tables[table].message_id is not None


async def test_an_idle_bot_has_no_task_running(fake: FakeDiscord, bot):
    """Nothing polls: after a table is created and shown, settle() finds
    nothing of ours left (the deadline task sleeps on an event)."""
    send(bot, fake, 2, fake.slash("table", "new", game="callbreak"), 11)
    await settle()
    assert not bot.presenter.feeds or all(
        f.task is None or f.task.done() for f in bot.presenter.feeds.values()
    )

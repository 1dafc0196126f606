"""/table analyse: refused while the match is live; on a finished match it
runs in a worker thread within an injected budget, posts a progress note,
then answers privately with each deal's accuracy."""

from __future__ import annotations

from typing import Any

from bot.services.analysis_jobs import AnalysisJobs
from tests.bot.discord.harness import (
    EPHEMERAL,
    HOOK_ORIGINAL,
    FakeDiscord,
    decider_user,
    play_turn,
    send,
    settle,
    start_game,
)

HOST, STRANGER = 11, 99


class Ticks:
    """A clock that moves one tick per reading: the budget counts readings."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def analyse(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> tuple[str, list[str]]:
    """The final answer and every text the @original showed on the way."""
    start = len(fake.sent)
    token = send(bot, fake, 2, fake.slash("table", "analyse", table=table_id), user)
    await settle()
    message = fake.messages[fake.original[token]]
    assert message.get("flags", 0) & EPHEMERAL, "the analysis is private"
    shown = [
        str(fake.body_of(s).get("content"))
        for s in fake.sent[start:]
        if s.path == HOOK_ORIGINAL and s.route_params["token"] == token
    ]
    return str(message.get("content") or ""), shown


async def finished_match(bot: Any, fake: FakeDiscord) -> int:
    """A one-deal Callbreak match that HOST plays to the end with three AIs."""
    table_id = await start_game(bot, fake, (HOST,))
    for _ in range(40):
        if decider_user(bot, table_id) != HOST:
            break
        await play_turn(bot, fake, table_id, HOST)
        await settle()
    info = await bot.service.get_table(table_id)
    assert info.status == "finished"
    return table_id


async def test_analysis_is_refused_while_the_match_is_live(bot: Any, fake: FakeDiscord) -> None:
    table_id = await start_game(bot, fake, (HOST,))
    text, _ = await analyse(bot, fake, table_id, HOST)
    assert text.startswith("⚠️") and "finished" in text


async def test_analysis_of_a_finished_match_within_a_small_budget(
    bot: Any, fake: FakeDiscord
) -> None:
    table_id = await finished_match(bot, fake)
    ticks = Ticks()
    bot.watching.analysis = AnalysisJobs(bot.service, budget=40, worlds=2, clock=ticks)
    text, shown = await analyse(bot, fake, table_id, HOST)
    assert any(s.startswith("⏳") for s in shown), "a progress note comes first"
    assert text.startswith("🔎"), text
    assert "Deal 1: accuracy" in text
    assert ticks.now <= 40 + 50, "the budget bounded the work"


async def test_analysis_of_someone_who_did_not_play_is_refused(bot: Any, fake: FakeDiscord) -> None:
    table_id = await finished_match(bot, fake)
    text, _ = await analyse(bot, fake, table_id, STRANGER)
    assert text.startswith("⚠️")

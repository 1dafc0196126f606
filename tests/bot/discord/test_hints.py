"""/table hint: the hard AI's suggestion, privately, at unrated tables of a
server that turned hints on; computed from the asking seat's own view."""

from __future__ import annotations

from typing import Any

import pytest

from bot.services import hints
from bot.services.actor import Actor
from tests.bot.discord.harness import (
    EPHEMERAL,
    GUILD,
    FakeDiscord,
    decider_user,
    send,
    settle,
    start_game,
)

HOST, GUEST, THIRD, FOURTH, STRANGER = 11, 12, 13, 14, 99
MODERATOR = Actor(HOST, GUILD, can_manage_server=True)


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "HINT_BUDGET_MS", 30)


async def ask(bot: Any, fake: FakeDiscord, table_id: int, user: int) -> str:
    token = send(bot, fake, 2, fake.slash("table", "hint", table=table_id), user)
    await settle()
    message = fake.messages[fake.original[token]]
    assert message.get("flags", 0) & EPHEMERAL, "a hint is private"
    return str(message.get("content") or "")


async def hints_on(bot: Any) -> None:
    await bot.service.set_guild_setting(MODERATOR, "hints", "true")


async def test_hints_are_off_by_default(bot: Any, fake: FakeDiscord) -> None:
    table_id = await start_game(bot, fake, (HOST,))
    text = await ask(bot, fake, table_id, HOST)
    assert text.startswith("⚠️") and "hints are off" in text


async def test_no_hints_in_a_rated_game(bot: Any, fake: FakeDiscord) -> None:
    await hints_on(bot)
    table_id = await start_game(bot, fake, (HOST, GUEST, THIRD, FOURTH))  # people only: rated
    user = decider_user(bot, table_id)
    assert user is not None
    text = await ask(bot, fake, table_id, user)
    assert text.startswith("⚠️") and "rated" in text


async def test_no_hints_when_the_server_rates_games_with_ai(bot: Any, fake: FakeDiscord) -> None:
    await hints_on(bot)
    await bot.service.set_guild_setting(MODERATOR, "rated_with_ai", "true")
    table_id = await start_game(bot, fake, (HOST,))
    assert "rated" in await ask(bot, fake, table_id, HOST)


async def test_no_hint_for_someone_not_seated(bot: Any, fake: FakeDiscord) -> None:
    await hints_on(bot)
    table_id = await start_game(bot, fake, (HOST,))
    text = await ask(bot, fake, table_id, STRANGER)
    assert text.startswith("⚠️")
    assert "hard AI" not in text


async def test_no_hint_out_of_turn(bot: Any, fake: FakeDiscord) -> None:
    await hints_on(bot)
    table_id = await start_game(bot, fake, (HOST, GUEST))
    decider = decider_user(bot, table_id)
    waiting = GUEST if decider == HOST else HOST
    text = await ask(bot, fake, table_id, waiting)
    assert text.startswith("⚠️") and "your own turn" in text


async def test_a_hint_is_a_legal_action_from_the_seats_own_view(
    bot: Any, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    await hints_on(bot)
    table_id = await start_game(bot, fake, (HOST,))
    live = bot.service.tables[table_id]
    seat = live.info().seat_of(HOST)
    assert live.state.decider == seat
    asked: list[Any] = []
    real = bot.service.thinker.decide

    async def spy(decision: Any) -> Any:
        asked.append(decision)
        return await real(decision)

    monkeypatch.setattr(bot.service.thinker, "decide", spy)
    seq = live.info().seq
    found = await hints.hint(bot.service, table_id, Actor(HOST, GUILD))
    assert found.action in live.state.legal_actions()
    (decision,) = asked
    assert decision.view == live.state.view(seat), "only the seat's own view"
    assert decision.agent == hints.HINT_AGENT
    # and through Discord: the answer names a choice, and nothing moved
    text = await ask(bot, fake, table_id, HOST)
    assert "hard AI" in text and not text.startswith("⚠️")
    assert live.info().seq == seq

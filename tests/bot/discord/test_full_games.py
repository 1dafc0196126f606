"""Whole games of every registered game through slash commands and button
clicks, with hidden-information and Discord-limit checks on every message
the bot sends."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import GAMES, Card
from engine.core.cards import SUIT_SYMBOLS
from tests.bot.discord.harness import (
    FakeDiscord,
    Sent,
    assert_limits,
    click_data,
    components_of,
    find_button,
    settle,
)

HOST, GUEST = 11, 12
SMALL = {
    "callbreak": "rounds=1",
    "batak": "target_score=10",
    "blot": "target_score=51",
    "backalley": "players=3 max_cards=2",
    "ladder": "",
}
SYMBOL_SUIT = (
    {v: k for k, v in SYMBOL_SUIT_ITEMS}
    if (SYMBOL_SUIT_ITEMS := list(SUIT_SYMBOLS.items()))
    else {}
)
PRETTY = re.compile(r"(10|[2-9JQKA])([♠♥♦♣])")
NOTATION = re.compile(r"\b([2-9TJQKA][SHDC]|RJ|BJ)\b")


def cards_in(sent: Sent) -> set[Card]:
    body = FakeDiscord.body_of(sent)
    text = repr(body)
    found = set()
    for rank, symbol in PRETTY.findall(text):
        found.add(Card.parse(("T" if rank == "10" else rank) + SYMBOL_SUIT[symbol]))
    for note in NOTATION.findall(text):
        found.add(Card.parse(note))
    return found


class SecretKeeper:
    """Accumulates what each audience has legitimately seen so far and fails
    on any message showing a card its recipient never could see."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.public: set[Card] = set()
        self.by_user: dict[int, set[Card]] = {}
        self.checked = 0

    def __call__(self, sent: Sent) -> None:
        for live in self.bot.service.tables.values():
            state = live.state
            if state is None:
                continue
            self.public |= state.view(None).visible_cards()
            for record in getattr(state, "history", []):
                self.public |= {c for hand in record.hands for c in hand}
            for seat in live.seats:
                if seat.user_id is not None:
                    self.by_user.setdefault(seat.user_id, set()).update(
                        state.view(seat.seat).visible_cards()
                    )
        shown = cards_in(sent)
        allowed = set(self.public)
        if sent.audience != "public":
            allowed |= self.by_user.get(int(sent.audience), set())
        leaked = shown - allowed
        assert not leaked, f"{sent.audience} was shown {sorted(map(str, leaked))} in {sent.path}"
        if sent.method != "GET" and not sent.path.endswith("/commands"):
            assert_limits(sent)
        self.checked += 1


def send(
    bot: Any, fake: FakeDiscord, kind: int, data: dict[str, Any], user: int, **kw: Any
) -> None:
    bot._connection.parsers["INTERACTION_CREATE"](fake.interaction(kind, data, user, **kw))


def last_reply_message(fake: FakeDiscord, start: int) -> dict[str, Any]:
    replies = fake.replies(start)
    assert replies, "the bot did not answer"
    return replies[-1]


async def click(
    bot: Any, fake: FakeDiscord, message: dict[str, Any], pattern: str, user: int, values=None
) -> list[Sent]:
    start = len(fake.sent)
    send(bot, fake, 3, click_data(find_button(message, pattern), values), user, message=message)
    await settle()
    return fake.replies(start)


def table_message(fake: FakeDiscord, bot: Any, table_id: int) -> dict[str, Any]:
    return fake.messages[str(bot.service.tables[table_id].message_id)]


async def play_game(bot: Any, fake: FakeDiscord, game: str, humans: tuple[int, ...]) -> int:
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game=game, options=SMALL[game] or None), HOST)
    await settle()
    (_created,) = fake.replies(start)
    table_id = max(bot.service.tables)
    lobby = table_message(fake, bot, table_id)
    for user in humans[1:]:
        await click(bot, fake, lobby, r":join:", user)
    seats = bot.service.tables[table_id].seats
    for _ in range(sum(1 for s in seats if s.empty)):
        lobby = table_message(fake, bot, table_id)
        await click(bot, fake, lobby, r":ai:normal", HOST)
    lobby = table_message(fake, bot, table_id)
    await click(bot, fake, lobby, r":start:", HOST)
    for _ in range(3000):
        await settle()
        live = bot.service.tables[table_id]
        if live.status != "playing":
            break
        decider = live.state.decider
        user = live.seats[decider].user_id
        assert user in humans
        replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
        hand = fake.messages[_response_message_id(replies[-1], fake)]
        enabled = [
            c
            for c in components_of(hand)
            if (not c.get("disabled") and ":act:" in c.get("custom_id", "")) or c.get("type") == 3
        ]
        assert enabled, "the player to act has nothing to click"
        target = enabled[0]
        values = [target["options"][0]["value"]] if target["type"] == 3 else None
        await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
    assert bot.service.tables[table_id].status == "finished"
    return table_id


def _response_message_id(sent: Sent, fake: FakeDiscord) -> str:
    # the fake stores every created message; the newest one is the reply
    return list(fake.messages)[-1]


@pytest.mark.parametrize("game", list(GAMES))
async def test_whole_game_through_discord(fake: FakeDiscord, bot: Any, game: str):
    keeper = SecretKeeper(bot)
    fake.on_send = keeper
    table_id = await play_game(bot, fake, game, (HOST, GUEST))
    assert keeper.checked > 10
    final = table_message(fake, bot, table_id)
    assert "over" in (final["embeds"][0].get("description") or "")
    summaries = [
        s for s in fake.sent if s.method == "POST" and s.path == "/channels/{channel_id}/messages"
    ]
    assert any("is over" in (s.json or {}).get("content", "") for s in summaries)
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("leaderboard", game=game), HOST)
    await settle()
    (board,) = fake.replies(start)
    assert f"<@{HOST}>" in fake.body_of(board)["content"]

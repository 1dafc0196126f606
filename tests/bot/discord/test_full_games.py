"""Whole games of every registered game through slash commands and button
clicks, with hidden-information and Discord-limit checks on every message
the bot sends.  Each player opens their hand once: from then on it is the
same ephemeral message, edited in place at each of their turns."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from engine import GAMES, Card
from engine.core.cards import SUIT_SYMBOLS
from tests.bot.discord.harness import (
    FakeDiscord,
    Sent,
    answer_of,
    assert_limits,
    choices_of,
    click,
    live_hand,
    send,
    settle,
    table_message,
)

__all__ = ["click", "play_game", "send", "table_message"]

HOST, GUEST = 11, 12
SMALL = {
    "callbreak": "rounds=1",
    "batak": "target_score=10",
    "blot": "target_score=51",
    "backalley": "players=3 max_cards=2",
    "ladder": "",
}
SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
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
        service = self.bot.service
        for live in [*service.tables.values(), *service.recent.values()]:
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
        if sent.method not in ("GET", "DELETE") and not sent.path.endswith("/commands"):
            assert_limits(sent)
        self.checked += 1


async def new_table(
    bot: Any, fake: FakeDiscord, game: str, options: str | None, user: int = HOST
) -> int:
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("table", "new", game=game, options=options or None), user)
    await settle()
    (_created,) = fake.replies(start)
    return max(bot.service.tables)


async def play_game(
    bot: Any, fake: FakeDiscord, game: str, humans: tuple[int, ...], opened: Counter[int]
) -> int:
    """Lobby by clicks, then play every person's turns from their live hand
    (opening it with "Show my hand" only when there is none)."""
    table_id = await new_table(bot, fake, game, SMALL[game])
    for user in humans[1:]:
        await click(bot, fake, table_message(fake, bot, table_id), r":join:", user)
    await click(bot, fake, table_message(fake, bot, table_id), r":start:", HOST)
    offer = fake.reply_message(fake.replies()[-1])
    await click(bot, fake, offer, r":fill:normal", HOST)
    for _ in range(3000):
        await settle()
        live = bot.service.tables.get(table_id)
        if live is None or live.status != "playing":
            break
        seq = live.info().seq
        user = live.seats[live.state.decider].user_id
        assert user in humans
        hand = live_hand(fake, bot, table_id, user)
        if hand is None:
            replies = await click(bot, fake, table_message(fake, bot, table_id), r":hand:", user)
            hand = answer_of(fake, replies)
            opened[user] += 1
        enabled = choices_of(hand, seq)
        assert enabled, f"the player to act has nothing to click: {hand['content']}"
        target = enabled[0]
        values = [target["options"][0]["value"]] if target["type"] == 3 else None
        await click(bot, fake, hand, re.escape(target["custom_id"]), user, values)
    live = bot.service.tables.get(table_id) or bot.service.recent[table_id]
    assert live.status == "finished"
    return table_id


@pytest.mark.parametrize("game", list(GAMES))
async def test_whole_game_through_discord(fake: FakeDiscord, bot: Any, game: str):
    keeper = SecretKeeper(bot)
    fake.on_send = keeper
    opened: Counter[int] = Counter()
    table_id = await play_game(bot, fake, game, (HOST, GUEST), opened)
    await settle()
    assert keeper.checked > 10
    # the live hand: one ephemeral hand per player for the whole game
    assert set(opened) == {HOST, GUEST} and max(opened.values()) == 1, opened
    final = table_message(fake, bot, table_id)
    embed = final["embeds"][0]
    assert "over" in (embed.get("description") or "")
    assert embed["image"]["url"] == "attachment://table.png"
    assert [a["filename"] for a in final["attachments"]] == ["table.png"]
    posts = [
        s for s in fake.sent if s.method == "POST" and s.path == "/channels/{channel_id}/messages"
    ]
    over = f"table #{table_id} is over"
    results = [p for p in posts if over in str((p.json or {}).get("content", ""))]
    assert len(results) == 1
    assert "🏆" in results[0].json["content"], "the results name the winner"
    start = len(fake.sent)
    send(bot, fake, 2, fake.slash("leaderboard", game=game), HOST)
    await settle()
    (board,) = fake.replies(start)
    assert f"<@{HOST}>" in str(fake.body_of(board))

"""Click to acknowledgement through the offline Discord harness, with a slow
Discord: every REST and webhook request takes ``--latency`` seconds.

An 8-seat Backalley lobby: the host creates it, seven players click Join at
the same moment, the host starts; then the eight play the whole game from
their hands (each opens "Show my hand" once; afterwards the live hand is
edited in place at their turn).  For every click we measure the time from
the moment discord.py receives the interaction to the moment the bot sends
its acknowledgement (the interaction callback request starts: what Discord
waits for within 3 s).  At the end: whether the table message shows the
final state.

python bench/click_ack.py [--latency 1.0] [--max-cards 1] [--edit-interval 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord import embeds
from bot.discord.client import CardBot
from bot.discord.presenter import NOTES
from bot.settings import Settings
from tests.bot.discord.harness import (
    CALLBACK,
    FakeDiscord,
    choices_of,
    click_data,
    decider_user,
    find_button,
    live_hand,
    settle,
    table_message,
)

HOST = 11
PLAYERS = tuple(range(12, 19))
TARGET = 0.3


class Clicks:
    """Sends clicks and measures click -> acknowledgement."""

    def __init__(self, bot: CardBot, fake: FakeDiscord) -> None:
        self.bot, self.fake = bot, fake
        self.sent_at: dict[str, float] = {}
        self.kinds: dict[str, str] = {}

    def click(
        self, message: dict[str, Any], pattern: str, user: int, kind: str, values: Any = None
    ) -> str:
        payload = self.fake.interaction(
            3, click_data(find_button(message, pattern), values), user, message=message
        )
        token = str(payload["token"])
        self.sent_at[token] = asyncio.get_running_loop().time()
        self.kinds[token] = kind
        self.bot._connection.parsers["INTERACTION_CREATE"](payload)
        return token

    async def acked(self, token: str) -> None:
        while self.callback(token) is None:
            await asyncio.sleep(0.001)

    def callback(self, token: str) -> Any:
        for sent in self.fake.sent:
            if sent.path == CALLBACK and sent.route_params.get("token") == token:
                return sent
        return None

    def acks(self) -> dict[str, list[float]]:
        out: dict[str, list[float]] = {}
        for token, at in self.sent_at.items():
            callback = self.callback(token)
            assert callback is not None, "a click was never acknowledged"
            out.setdefault(self.kinds[token], []).append(callback.t_start - at)
        return out


async def wait_for(predicate: Any, timeout: float = 60.0) -> None:
    """The bench's own driver waits for what a player would see."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not get there")
        await asyncio.sleep(0.01)


async def run(args: argparse.Namespace, fake: FakeDiscord, db: Path) -> dict[str, Any]:
    settings = Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{db}",
        edit_interval=args.edit_interval,
        ai_workers=0,
        _env_file=None,
    )
    bot = CardBot(settings)
    await bot.login("fake-token")
    await settle()
    fake.latency = args.latency
    clicks = Clicks(bot, fake)
    began = time.monotonic()
    options = f"players=8 max_cards={args.max_cards}"
    payload = fake.interaction(
        2, fake.slash("table", "new", game="backalley", options=options), HOST
    )
    bot._connection.parsers["INTERACTION_CREATE"](payload)
    await wait_for(lambda: bot.service.tables and max(bot.service.tables) in fake_ids(bot, fake))
    table_id = max(bot.service.tables)
    lobby = dict(table_message(fake, bot, table_id))
    # seven players click Join at the same moment
    tokens = [clicks.click(lobby, r":join:", user, "join") for user in PLAYERS]
    await asyncio.gather(*(clicks.acked(t) for t in tokens))
    await wait_for(lambda: bot.service.tables[table_id].info().is_full)
    start = clicks.click(lobby, r":start:", HOST, "start")
    await clicks.acked(start)
    await wait_for(lambda: bot.service.tables[table_id].status == "playing")
    opened: set[int] = set()
    moves = 0
    while True:
        live = bot.service.tables.get(table_id)
        if live is None or live.status != "playing":
            break
        user = decider_user(bot, table_id)
        seq = live.info().seq
        if user is None:  # the game is being finished
            await asyncio.sleep(0.01)
            continue
        if user not in opened:
            opened.add(user)
            await wait_for(lambda: "components" in table_message(fake, bot, table_id))
            await wait_for(lambda: find_hand_button(table_message(fake, bot, table_id)))
            token = clicks.click(table_message(fake, bot, table_id), r":hand:", user, "hand")
            await wait_for(lambda t=token, s=seq: ready(fake, t, s))
            hand = fake.messages[fake.original[token]]
        else:  # the live hand is brought up to date at the player's turn
            await wait_for(lambda u=user, s=seq: bool(hand_at(fake, bot, table_id, u, s)))
            hand = hand_at(fake, bot, table_id, user, seq)
        choice = choices_of(hand, seq)[0]
        values = [choice["options"][0]["value"]] if choice["type"] == 3 else None
        clicks.click(dict(hand), re.escape(choice["custom_id"]), user, "move", values)
        await wait_for(
            lambda s=seq: (
                bot.service.tables.get(table_id) is None
                or bot.service.tables[table_id].info().seq > s
            )
        )
        moves += 1
    await settle()
    played = time.monotonic() - began
    info, view = await bot.service.public_view(table_id)
    message = table_message(fake, bot, table_id)
    expected = embeds.table_embed(info, view, note=NOTES["finished"]).to_dict()
    shown = dict(message["embeds"][0])
    for embed in (shown, expected):
        embed.pop("image", None)
    final_ok = shown == expected and info.status == "finished"
    acks = clicks.acks()
    await bot.close()
    return {
        "acks": acks,
        "final_ok": final_ok,
        "moves": moves,
        "seconds": played,
        "requests": len(fake.sent),
        "table_edits": sum(
            1
            for s in fake.sent
            if s.method == "PATCH" and s.route_params.get("message_id") == str(info.message_id)
        ),
    }


def fake_ids(bot: CardBot, fake: FakeDiscord) -> set[int]:
    return {
        table_id
        for table_id, live in bot.service.tables.items()
        if live.message_id is not None and str(live.message_id) in fake.messages
    }


def find_hand_button(message: dict[str, Any]) -> bool:
    try:
        find_button(message, r":hand:")
    except AssertionError:
        return False
    return True


def ready(fake: FakeDiscord, token: str, seq: int) -> bool:
    original = fake.original.get(token)
    return original is not None and bool(choices_of(fake.messages[original], seq))


def hand_at(fake: FakeDiscord, bot: CardBot, table_id: int, user: int, seq: int) -> Any:
    hand = live_hand(fake, bot, table_id, user)
    return hand if hand is not None and choices_of(hand, seq) else None


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--max-cards", type=int, default=1)
    parser.add_argument("--edit-interval", type=float, default=1.0)
    args = parser.parse_args()
    fake = FakeDiscord()
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        fake.install(patch)
        result = asyncio.run(run(args, fake, Path(tmp) / "bench.db"))
    everything = [a for values in result["acks"].values() for a in values]
    print(
        f"latency {args.latency:.1f} s per request, edit interval {args.edit_interval:.1f} s, "
        f"backalley players=8 max_cards={args.max_cards}: {result['moves']} moves in "
        f"{result['seconds']:.1f} s, {result['requests']} requests, "
        f"{result['table_edits']} table-message edits"
    )
    print("| clicks | n | p50 | p99 | max |")
    print("|---|---|---|---|---|")
    for kind, values in [*result["acks"].items(), ("all", everything)]:
        print(
            f"| {kind} | {len(values)} | {statistics.median(values) * 1000:.1f} ms | "
            f"{percentile(values, 0.99) * 1000:.1f} ms | {max(values) * 1000:.1f} ms |"
        )
    under = all(a < TARGET for a in everything)
    print(f"every click acknowledged in under {TARGET} s: {'yes' if under else 'NO'}")
    print(f"final table message shows the final state: {'yes' if result['final_ok'] else 'NO'}")


if __name__ == "__main__":
    main()

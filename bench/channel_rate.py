"""Tables sharing one channel: edits per 5 s window and how stale each
table message is, through the offline Discord harness.

python bench/channel_rate.py [--tables 1 3 10] [--seconds 40] [--latency 0.2]
                             [--think 0] [--edit-interval 1.0] [--humans 4]

For each count of tables: that many 4-person Callbreak tables in one
channel (``tests/bot/discord/harness.py``, every REST and webhook request
taking ``--latency`` s), ``--humans`` people at each and AI (easy) in the
other seats.  People click as fast as the bot allows: a person can move
only when it is their turn, and sees it in their live hand (an ephemeral
message, outside the channel's budget: they never wait for the table
message), so the next person moves one request's latency after the
previous move (the time their hand takes to show their turn), plus a
thinking time drawn uniformly from 0 to twice ``--think`` seconds (seeded;
0: no thinking at all, every table busy all the time).  An AI seat moves
by itself the moment it is its turn; the person after it is checked one
latency later.  They play for
``--seconds``, then stop; the bench waits until every table message shows
its table's last state.

Printed per count of tables:
* the most table-message edits (PATCH requests) started in any 5 s window
  of the channel (Discord allows 5);
* staleness, per table and over all: for each move, the time from the move
  to the end of the first edit of that table message that shows it (p50,
  p99, max);
* picture bytes uploaded per card played.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord.client import CardBot
from bot.discord.presenter import EditRecord
from bot.services.actor import Actor
from bot.services.models import TableUpdate
from bot.settings import Settings
from tests.bot.discord.harness import (
    CHANNEL,
    GUILD,
    MESSAGE_PATH,
    FakeDiscord,
    click,
    decider_user,
    send,
    settle,
    table_message,
)

WINDOW = 5.0
#: seats of a Callbreak table
SEATS = 4


async def new_table(bot: CardBot, fake: FakeDiscord, humans: tuple[int, ...]) -> int:
    slash = fake.slash("table", "new", game="callbreak", options="rounds=5")
    send(bot, fake, 2, slash, humans[0])
    await settle()
    table_id = max(bot.service.tables)
    for user in humans[1:]:
        await click(bot, fake, table_message(fake, bot, table_id), r":join:", user)
    for _ in range(SEATS - len(humans)):
        await click(bot, fake, table_message(fake, bot, table_id), r":ai:easy", humans[0])
    await click(bot, fake, table_message(fake, bot, table_id), r":start:", humans[0])
    assert bot.service.tables[table_id].status == "playing"
    return table_id


class Players:
    """The people of one table: the decider moves ``latency`` s after the
    previous move, plus a thinking time, until ``stop``."""

    def __init__(self, bot: CardBot, table_id: int, latency: float, think: float) -> None:
        self.bot, self.table_id, self.latency, self.think = bot, table_id, latency, think
        self.rng = random.Random(table_id)
        self.cards = 0

    async def play(self, stop: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < stop:
            await asyncio.sleep(self.latency + self.rng.uniform(0, 2 * self.think))
            user = decider_user(self.bot, self.table_id)
            if user is None:
                live = self.bot.service.tables.get(self.table_id)
                if live is None or live.status != "playing":
                    return
                continue
            actor = Actor(user, GUILD, CHANNEL, name=f"p{user}")
            private = await self.bot.service.private_view(self.table_id, actor)
            if not private.view.legal_actions:
                continue
            action = str(private.view.legal_actions[0])
            await self.bot.service.act(self.table_id, actor, action, expected_seq=private.table.seq)
            if private.view.phase == "play":
                self.cards += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def most_in_window(times: list[float], window: float) -> int:
    times = sorted(times)
    best, low = 0, 0
    for high, t in enumerate(times):
        while times[low] <= t - window:
            low += 1
        best = max(best, high - low + 1)
    return best


async def run(args: argparse.Namespace, fake: FakeDiscord, db: Path, tables: int) -> dict[str, Any]:
    settings = Settings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{db}",
        edit_interval=0.0,  # the tables are set up at once; the budget is on for the play
        ai_workers=0,
        _env_file=None,
    )
    bot = CardBot(settings)
    await bot.login("fake-token")
    await settle()
    ids = [
        await new_table(bot, fake, tuple(range(100 + 10 * n, 100 + 10 * n + args.humans)))
        for n in range(tables)
    ]
    loop = asyncio.get_running_loop()
    moves: dict[int, list[tuple[int, float]]] = {t: [] for t in ids}

    async def seen(update: TableUpdate) -> None:
        if update.table.id in moves and update.kind == "action":
            moves[update.table.id].append((update.table.seq, loop.time()))

    bot.service.subscribe(seen)
    records: list[EditRecord] = []
    bot.presenter.edit_listeners.append(records.append)
    bot.presenter.edit_interval = args.edit_interval
    fake.latency = args.latency
    start = len(fake.sent)
    players = [Players(bot, t, args.latency, args.think) for t in ids]
    began = loop.time()
    await asyncio.gather(*(p.play(began + args.seconds) for p in players))
    played = loop.time() - began
    await settle(rounds=5000)
    edits = [
        s
        for s in fake.sent[start:]
        if s.method == "PATCH"
        and s.path == MESSAGE_PATH
        and s.route_params.get("channel_id") == str(CHANNEL)
    ]
    stale: dict[int, list[float]] = {}
    for table_id in ids:
        shown = sorted((r.finished, r.seq) for r in records if r.table_id == table_id and r.ok)
        ages = stale[table_id] = []
        for seq, at in moves[table_id]:
            ends = [f for f, s in shown if s >= seq and f >= at]
            assert ends, f"table {table_id}: move {seq} never shown"
            ages.append(min(ends) - at)
    await bot.close()
    return {
        "seconds": played,
        "moves": sum(len(m) for m in moves.values()),
        "cards": sum(p.cards for p in players),
        "edits": len(edits),
        "max_window": most_in_window([s.t_start for s in edits], WINDOW),
        "stale": stale,
        "picture_bytes": sum(r.picture_bytes for r in records),
        "pictures": sum(1 for r in records if r.picture_bytes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 3, 10])
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--think", type=float, default=0.0)
    parser.add_argument("--edit-interval", type=float, default=1.0)
    parser.add_argument("--humans", type=int, default=SEATS, choices=range(1, SEATS + 1))
    args = parser.parse_args()
    print(
        f"one channel, 4-person Callbreak tables, {args.seconds:.0f} s of play, "
        f"latency {args.latency} s, think {args.think} s, edit interval {args.edit_interval} s, "
        f"humans {args.humans}, AI (easy) {SEATS - args.humans} per table"
    )
    print(
        "| tables | moves | cards | edits | max edits / 5 s | staleness p50 | p99 | max "
        "| worst table p99 | KB per card played | pictures |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for count in args.tables:
        fake = FakeDiscord()
        with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
            fake.install(patch)
            result = asyncio.run(run(args, fake, Path(tmp) / "bench.db", count))
        ages = [a for values in result["stale"].values() for a in values]
        worst = max(percentile(v, 0.99) for v in result["stale"].values() if v)
        per_card = result["picture_bytes"] / max(1, result["cards"]) / 1000
        print(
            f"| {count} | {result['moves']} | {result['cards']} | {result['edits']} "
            f"| {result['max_window']} | {statistics.median(ages):.2f} s "
            f"| {percentile(ages, 0.99):.2f} s | {max(ages):.2f} s | {worst:.2f} s "
            f"| {per_card:.1f} | {result['pictures']} |"
        )


if __name__ == "__main__":
    main()

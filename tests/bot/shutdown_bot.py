"""A bot process for the shutdown tests (``test_shutdown.py``): the real
``python -m bot run`` path -- ``bot.__main__.cli``, settings, the token
check, ``bot.discord.run.serve`` with its signal handlers, ``CardBot`` and its
``shutdown`` -- against the offline Discord of the harness (REST and
webhooks faked, per docs of ``tests/bot/discord/harness.py``).

Only the gateway connection is replaced: instead of reading Discord's
events, ``connect`` plays one Callbreak table as a person (clicks fed to
discord.py's own parser) against hard AI seats in the worker pool, and
prints ``TABLE id`` and then ``ACK seq`` for each of the person's moves
once the bot has answered it.  The test sends SIGTERM or SIGINT while the
table is in play.
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from bot.discord.client import CardBot
from tests.bot.discord.harness import FakeDiscord, decider_user, play_turn, start_game

PERSON = 100000000000000001


def main() -> int:
    fake = FakeDiscord()
    fake.install(pytest.MonkeyPatch())

    async def connect(self: CardBot, *, reconnect: bool = True) -> None:
        table = await start_game(self, fake, (PERSON,), options="rounds=2", fill="hard")
        print("TABLE", table, flush=True)
        while not self.shutting_down:
            live = self.service.tables.get(table)
            if live is None or live.status != "playing":
                break
            if decider_user(self, table) != PERSON:
                await asyncio.sleep(0.005)  # the AI seats' turn
                continue
            seq = live.info().seq
            await play_turn(self, fake, table, PERSON)
            if self.service.tables[table].info().seq > seq:
                print("ACK", seq, flush=True)
        print("OVER", flush=True)
        await asyncio.Event().wait()  # a gateway stays connected until closed

    CardBot.connect = connect  # type: ignore[method-assign]
    sys.argv = ["python -m bot", "run"]
    from bot.__main__ import cli

    return cli()


if __name__ == "__main__":
    sys.exit(main())

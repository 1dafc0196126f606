"""Every game's finished match replays step by step through the /replay
renderer (text within Discord's limit, the table picture, the buttons),
and its deal list shows no card: AI-only tables played by the service."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.db.repositories import Store
from bot.discord.cogs.history import _replay_message
from bot.render.history_text import deal_lines
from bot.services import history
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.services.thinking import Thinker
from engine import GAMES

ME = Actor(11, 5, 6, "Ann", can_manage_server=True)
SMALL = {
    "callbreak": {"rounds": "1"},
    "batak": {"target_score": "10"},
    "blot": {"target_score": "51"},
    "backalley": {"players": "3", "max_cards": "2"},
    "ladder": {},
}
#: a card as the text shows it (rank then suit symbol, no space)
CARD = re.compile(r"(10|[2-9JQKA])[♠♥♦♣]")


async def _played(path: Path, game: str) -> list[Any]:
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    service = TableService(store, ai_budget_ms=20, thinker=Thinker(0))
    await service.start(dispatch_deadlines=False)
    try:
        info = await service.create_table(
            ME, game=game, options=SMALL[game], host_seat=None, seed=3
        )
        await service.start_table(info.id, ME, fill_ai="easy")
        for _ in range(3000):
            await service.wait_idle(info.id)
            if (await service.get_table(info.id)).status != "playing":
                break
            await asyncio.sleep(0)
        replayed = await history.match_replay(store, ME, info.id)
        deals = await history.table_deals(store, ME, info.id)
        return [info.id, replayed, deals]
    finally:
        await service.close()
        await store.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_step_of_a_finished_match_renders(tmp_path, game):
    table_id, replayed, deals = asyncio.run(_played(tmp_path / "bot.db", game))
    steps = 0
    for deal in replayed.replay.deals:
        for trick in range(len(deal.tricks) + 1):
            text, picture, view = _replay_message(table_id, replayed, deal.number, trick)
            assert 0 < len(text) <= 2000 and picture.filename == "replay.png"
            ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
            assert len(ids) == len(set(ids)) and all(len(i) <= 100 for i in ids)
            steps += 1
        first = _replay_message(table_id, replayed, deal.number, 0)[0]
        dealt = {c for hand in deal.hands for c in hand}
        assert len(CARD.findall(first)) >= len(dealt) > 0  # every hand is shown
    assert steps >= len(replayed.replay.deals)
    text = "\n".join(deal_lines(deals.match, deals.deals))
    assert len(deals.deals) == len(replayed.replay.deals)
    assert not CARD.search(text), text  # public facts only

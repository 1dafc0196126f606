"""``python -m bot replay TABLE``: a finished match printed trick by trick;
a live one refused in one line (exit 2)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from bot.__main__ import main
from bot.cli.replay import cli_replay
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.services.thinking import Thinker

HOST = 11
ME = Actor(HOST, 5, 6, "Ann", can_manage_server=True)


async def _tables(path: Path) -> tuple[int, int]:
    """A finished Callbreak match (one deal) and a live one, in ``path``."""
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    service = TableService(store, ai_budget_ms=20, thinker=Thinker(0))
    await service.start(dispatch_deadlines=False)
    try:
        ids = []
        for _ in range(2):
            info = await service.create_table(ME, game="callbreak", options={"rounds": "1"}, seed=7)
            await service.start_table(info.id, ME, fill_ai="easy")
            ids.append(info.id)
        done, live = ids
        for _ in range(200):
            await service.wait_idle(done)
            info = await service.get_table(done)
            if info.status != "playing":
                break
            private = await service.private_view(done, ME)
            await service.act(done, ME, str(private.view.legal_actions[0]), expected_seq=info.seq)
        assert (await service.get_table(done)).status == "finished"
        return done, live
    finally:
        await service.close()
        await store.close()


def test_terminal_replay_prints_every_trick(tmp_path, capsys):
    path = tmp_path / "bot.db"
    done, live = asyncio.run(_tables(path))
    assert main(["replay", str(done), "--db", str(path), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert f"table #{done}: replay" in text
    assert "Hands as dealt:" in text
    for trick in range(1, 14):
        assert f"Trick {trick}: " in text
    assert "Trick 14" not in text and "totals:" in text
    err = io.StringIO()
    args = type("Args", (), {"table": live, "db": str(path), "lang": "en"})()
    assert cli_replay(args, out=io.StringIO(), err=err) == 2
    assert "opens when its match is over" in err.getvalue()
    assert err.getvalue().count("\n") == 1

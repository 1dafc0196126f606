"""Random SIGKILLs of a table played through the service, in every game.

python bench/crash_kill.py [--kills-per-game 20] [--games callbreak,batak,...]

Each game is played by ``tests/store/crash_player.py`` (one person and AI
seats against a SQLite file); the process is killed with SIGKILL at random
moments and started again until the match is over.  Printed per game and in
total: kills, acknowledged moves, moves lost (acknowledged before a kill but
missing after the restart), moves duplicated (the log holds more than one
move the person had not been acknowledged for, or its sequence has gaps or
repeats), and whether the finished match equals a fresh replay of its log.
"""

from __future__ import annotations

import argparse
import asyncio
import queue
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.db.repositories import Store  # noqa: E402
from engine import get_game  # noqa: E402
from tests.store.crash_player import OPTIONS  # noqa: E402
from tests.store.test_crash import drain_all, launch, read_until  # noqa: E402


def wait_for(lines: queue.Queue[str], prefix: str, timeout: float) -> str:
    line, _ = read_until(lines, prefix, timeout)
    return line


async def _log(db: Path) -> tuple[int, list[int], list[str]]:
    store = Store(f"sqlite+aiosqlite:///{db}")
    loaded = await store.table(1)
    assert loaded is not None
    rows = await store.actions(1)
    await store.close()
    return loaded[0].seed, [r.seq for r in rows], [r.notation for r in rows]


def run_game(game: str, kills: int, rng: random.Random, workdir: Path) -> dict[str, object]:
    db = workdir / f"{game}.db"
    acked = lost = duplicated = done_kills = 0
    done = ""
    while not done:
        proc, lines = launch(db, game)
        ready = wait_for(lines, "READY", 120)
        if not ready.startswith("READY"):
            raise RuntimeError(f"{game}: the player did not start")
        resumed = int(ready.split()[1])
        lost += max(0, acked - resumed)
        duplicated += max(0, resumed - acked - 1)
        acked = resumed
        if done_kills < kills:
            time.sleep(rng.uniform(0.0, 0.3))
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            done_kills += 1
            for line in drain_all(lines):  # everything it printed before it died
                if line.startswith("ACK"):
                    acked = max(acked, int(line.split()[1]))
                if line.startswith("DONE"):
                    done = line
            continue
        done = wait_for(lines, "DONE", 600)
        proc.wait(60)
    seed, seqs, moves = asyncio.run(_log(db))
    if seqs != list(range(len(seqs))):
        duplicated += 1
    replayed = get_game(game).replay(moves, seed=seed, variant=OPTIONS[game])
    scores = [int(v) for v in done.split()[1:]]
    return {
        "game": game,
        "kills": done_kills,
        "acked": acked,
        "lost": lost,
        "duplicated": duplicated,
        "replay_ok": replayed.is_over and list(replayed.scores) == scores,
        "moves": len(moves),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills-per-game", type=int, default=20)
    parser.add_argument("--games", default=",".join(sorted(OPTIONS)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    totals = {"kills": 0, "acked": 0, "lost": 0, "duplicated": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            row = run_game(game, args.kills_per_game, rng, Path(tmp))
            for key in totals:
                totals[key] += int(row[key])  # type: ignore[call-overload]
            print(
                f"{game:<10} kills {row['kills']:>3}  moves {row['moves']:>5}  "
                f"acked {row['acked']:>5}  lost {row['lost']}  duplicated {row['duplicated']}  "
                f"replay {'ok' if row['replay_ok'] else 'MISMATCH'}",
                flush=True,
            )
    print(
        f"TOTAL      kills {totals['kills']:>3}  acked {totals['acked']:>5}  "
        f"lost {totals['lost']}  duplicated {totals['duplicated']}"
    )


if __name__ == "__main__":
    main()

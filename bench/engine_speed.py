"""Random full games per second through the public API (legal_actions + apply).

    python bench/engine_speed.py [--game callbreak] [--games 200] [--runs 5]

One process; each run plays ``--games`` seeded random games; prints every
run, the median and the spread (min..max).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES, get_game


def games_per_second(name: str, games: int, run: int) -> tuple[float, float]:
    game = get_game(name)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        seed = run * 100_000 + i
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game name (repeatable; default: all)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for name in args.game or list(GAMES):
        rates = [games_per_second(name, args.games, run) for run in range(args.runs)]
        gps = [r[0] for r in rates]
        aps = [r[1] for r in rates]
        print(
            f"{name:<10} games/s median {statistics.median(gps):8.1f} "
            f"(spread {min(gps):.1f}..{max(gps):.1f}; runs: {', '.join(f'{g:.1f}' for g in gps)}) "
            f"| actions/s median {statistics.median(aps):,.0f}"
        )


if __name__ == "__main__":
    main()

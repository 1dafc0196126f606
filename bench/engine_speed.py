"""Random full games per second through the public API (legal_actions + apply).

    python bench/engine_speed.py [--game callbreak] [--games 200] [--runs 5] [--max-deals 40]

One process; each run plays ``--games`` seeded random games with the default
settings and prints games/s, deals/s and actions/s; then the median and the
spread (min..max) over the runs.  Games whose end depends on a target score
(Batak, Blot) can wander for a long time under random play (random bids
lose points on average), so a game is cut after ``--max-deals`` deals; the
count of cut games is printed and deals/s is the fair comparison for those.
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


def run_once(name: str, games: int, run: int, max_deals: int) -> tuple[float, float, float, int]:
    game = get_game(name)
    actions = deals = cut = 0
    start = time.perf_counter()
    for i in range(games):
        seed = run * 100_000 + i
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.round_number > max_deals:
                cut += 1
                break
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        deals += state.round_number
    elapsed = time.perf_counter() - start
    return games / elapsed, deals / elapsed, actions / elapsed, cut


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game name (repeatable; default: all)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-deals", type=int, default=40)
    args = parser.parse_args()
    for name in args.game or list(GAMES):
        rows = [run_once(name, args.games, run, args.max_deals) for run in range(args.runs)]
        gps = [r[0] for r in rows]
        dps = [r[1] for r in rows]
        aps = [r[2] for r in rows]
        cut = sum(r[3] for r in rows)
        print(
            f"{name:<10} games/s median {statistics.median(gps):8.1f} "
            f"(spread {min(gps):.1f}..{max(gps):.1f}) | deals/s {statistics.median(dps):8.1f} "
            f"| actions/s {statistics.median(aps):>9,.0f} | cut at {args.max_deals} deals: {cut}"
        )


if __name__ == "__main__":
    main()

"""Table image rendering time (Pillow), per game, from mid-game spectator views.

python bench/render_speed.py [--renders 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ui.image import render_table_png
from engine import GAMES, get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=200)
    args = parser.parse_args()
    for name in GAMES:
        game = get_game(name)
        state = game.new_match(seed=1)
        rng = random.Random(1)
        views = []
        while len(views) < args.renders and not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            views.append(state.view(None))
        names = [f"Player {s}" for s in range(state.num_seats)]
        times = []
        for view in views:
            start = time.perf_counter()
            png = render_table_png(view, names)
            times.append((time.perf_counter() - start) * 1000)
        p95 = sorted(times)[int(len(times) * 0.95)]
        median = statistics.median(times)
        print(f"{name:<10} median {median:6.2f} ms  p95 {p95:6.2f} ms  ({len(png)} bytes last)")


if __name__ == "__main__":
    main()

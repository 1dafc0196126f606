"""Table picture rendering time (Pillow), per game, from spectator views.

python bench/render_speed.py [--renders 150]

Each game is played with random legal moves from ``new_match(seed=1)``; the
first ``--renders`` spectator views are drawn with long names in every
script the picture supports (Turkish, Armenian, Devanagari, emoji), the
way one table's pictures follow each other in a channel.  Prints the first
(cold-cache) picture and the median and p95 of the rest, per game, in wall
time and (median) in this process's CPU time: on a shared machine the CPU
time shows the work, the wall time what a player waits.  Backalley
runs with eight players, its largest table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render.picture.table import render_table_png
from engine import GAMES, Observation, get_game

#: realistic long display names, one per script, cycled over the seats
NAMES = (
    "Şükrü Ağaoğlu (İstanbul)",
    "Արամ Խաչատրյան",
    "सुनिता क्षत्रिय",
    "🃏 Ada Lovelace 🂡",
    "Zeynep Çağlayan-Öztürk",
    "Գայանե Մկրտչյան",
    "राजेश कुमार शर्मा",
    "🔥 Björn the Bold 🇸🇪",
)
VARIANTS = {"backalley": {"players": 8}}


def views(game: str, count: int) -> list[Observation]:
    spec = get_game(game)
    variant = spec.variant(**VARIANTS[game]) if game in VARIANTS else None
    state = spec.new_match(seed=1, variant=variant)
    rng = random.Random(1)
    out = []
    while len(out) < count and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        out.append(state.view(None))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=150)
    args = parser.parse_args()
    print(
        f"{'game':<10} {'seats':>5} {'first':>9} {'median':>9} {'p95':>9} {'cpu med':>9}"
        "  png size (median)"
    )
    for name in GAMES:
        shown = views(name, args.renders)
        names = [NAMES[s % len(NAMES)] for s in range(shown[0].num_seats)]
        times, cpu, sizes = [], [], []
        title = f"{get_game(name).title} — table #12"
        for view in shown:
            start, start_cpu = time.perf_counter(), time.process_time()
            png = render_table_png(view, names, title=title)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            sizes.append(len(png))
        first, rest = times[0], sorted(times[1:])
        p95 = rest[min(len(rest) - 1, int(len(rest) * 0.95))]
        print(
            f"{name:<10} {shown[0].num_seats:>5} {first:7.1f}ms {statistics.median(rest):7.2f}ms "
            f"{p95:7.2f}ms {statistics.median(cpu[1:]):7.2f}ms"
            f"  {statistics.median(sizes) / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    main()

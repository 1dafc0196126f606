"""AI strength: one agent against three others in Callbreak (seat-rotated).

    python bench/ai_strength.py [--seeds 60] [--hero heuristic] [--villain random]

Each seed is played once per seat of the hero (4 games a seed), so the hero
holds every hand.  Prints mean points per game (5 deals, points = tenths/10)
with a 95% confidence interval, for the hero and for the average opponent,
and the mean difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.tournament import estimate, rotated_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--hero", default="heuristic")
    parser.add_argument("--villain", default="random")
    parser.add_argument("--rounds", type=int, default=5, help="deals per game")
    parser.add_argument("--budget-ms", type=int, default=300, help="search budget per move")
    args = parser.parse_args()
    start = time.perf_counter()
    hero, villain = rotated_match(
        "callbreak",
        args.hero,
        args.villain,
        seeds=range(args.seeds),
        variant_options={"rounds": args.rounds},
        score_scale=0.1,
        budget_ms=args.budget_ms,
    )
    diff = [h - v for h, v in zip(hero, villain, strict=True)]
    print(
        f"callbreak ({args.rounds} deals): {args.hero} vs 3 x {args.villain}, "
        f"{len(hero)} games (seat-rotated, budget {args.budget_ms} ms)"
    )
    print(f"  {args.hero:<10} points/game {estimate(hero)}")
    print(f"  {args.villain:<10} points/game {estimate(villain)}")
    print(f"  difference  points/game {estimate(diff)}")
    print(f"  {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()

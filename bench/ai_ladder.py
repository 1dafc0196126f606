"""Ladder: heuristic team against random team (issue 6).

Usage: python bench/ai_ladder.py [--games 200]
Prints the heuristic team's win rate with a 95% Wilson interval, the draw
rate and the mean game length in turns.  Sides alternate every game.
"""

from __future__ import annotations

import argparse
import math

from engine.ai.base import get_agent, play_out
from engine.core.registry import get_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    game = get_game("ladder")
    wins = draws = turns = 0
    for i in range(args.games):
        side = i % 2  # team of the heuristic
        agents = [
            get_agent("heuristic" if s % 2 == side else "random", game="ladder", seed=1000 * i + s)
            for s in range(4)
        ]
        state = play_out(game.new_match(seed=i), agents)
        result = state.results[-1]  # type: ignore[attr-defined]
        turns += state.turns  # type: ignore[attr-defined]
        if result is None:
            draws += 1
        elif result == side:
            wins += 1
    n = args.games
    p = wins / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(
        f"games {n}: heuristic team win rate {100 * p:.1f}% "
        f"(95% CI {100 * (centre - half):.1f}..{100 * (centre + half):.1f}), "
        f"draws {100 * draws / n:.1f}%, mean game length {turns / n:.1f} turns"
    )


if __name__ == "__main__":
    main()

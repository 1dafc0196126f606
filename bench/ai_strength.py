"""AI strength: one agent against others, seat-rotated or team-swapped.

    python bench/ai_strength.py [--game callbreak] [--seeds 60] [--hero heuristic]
                                [--villain random] [--set key=value] [--budget-ms 300]

Individual games (Callbreak, Backalley): the hero sits in every seat of each
seed in turn against villains in the others; prints mean points per game for
the hero and the average villain, and the difference, with 95% CIs.
Partnership games (Batak, Blot, Ladder): duplicate matches, each seed played
twice with the teams swapped; prints the hero team's mean margin per deal and
its match win rate, with 95% CIs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai.tournament import estimate, rotated_match, team_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--hero", default="heuristic")
    parser.add_argument("--villain", default="random")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--budget-ms", type=int, default=300, help="search budget per move")
    args = parser.parse_args()
    options = dict(item.split("=", 1) for item in args.set)
    game = get_game(args.game)
    start = time.perf_counter()
    label = f"{game.name} {options or ''}: {args.hero} vs {args.villain}"
    if game.partnership:
        margins, wins = team_match(
            game.name,
            args.hero,
            args.villain,
            seeds=range(args.seeds),
            variant_options=options,
            budget_ms=args.budget_ms,
        )
        print(f"{label}, {len(margins)} matches (teams swapped on every seed)")
        print(f"  {args.hero} team margin per deal {estimate(margins)}")
        print(f"  {args.hero} team match win rate  {estimate(wins)}")
    else:
        scale = 0.1 if game.name == "callbreak" else 1.0
        hero, villain = rotated_match(
            game.name,
            args.hero,
            args.villain,
            seeds=range(args.seeds),
            variant_options=options,
            score_scale=scale,
            budget_ms=args.budget_ms,
        )
        diff = [h - v for h, v in zip(hero, villain, strict=True)]
        print(f"{label}, {len(hero)} games (seat-rotated)")
        print(f"  {args.hero:<10} points/game {estimate(hero)}")
        print(f"  {args.villain:<10} points/game {estimate(villain)}")
        print(f"  difference  points/game {estimate(diff)}")
    print(f"  {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()

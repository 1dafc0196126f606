"""Strength by difficulty: hard (search) > normal (heuristic) > easy (random)?

    python bench/ai_difficulty.py [--games callbreak,backalley,batak,blot,ladder]
                                  [--pairs search:heuristic,heuristic:random]
                                  [--seeds 20] [--budget-ms 300] [--set blot.target_score=151]

Duplicate matches from ``engine.ai.tournament``:

- Callbreak and Backalley (each for themselves): ``seat_swap_match``: every
  seat of every seed is played twice with the same deals and the same other
  players, once by the stronger agent and once by the weaker; the figure is
  the seat's score difference (points per game; Callbreak tenths / 10).
- Eşli Batak, Bazar Blot, Ladder (partnerships): ``team_match``: every seed
  twice with the teams swapped; the figure is the stronger team's margin
  per deal (Ladder: games won per game) and its match win rate.

Every figure has a 95% confidence interval (normal approximation).  Default
settings are shortened so a run stays modest: Callbreak 1 deal, Backalley
max_cards 4 (7 deals), Batak to 20, Blot to 151, Ladder one game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai.tournament import estimate, seat_swap_match, team_match

SHORT: dict[str, dict[str, object]] = {
    "callbreak": {"rounds": 1},
    "backalley": {"max_cards": 4},
    "batak": {"target_score": 20},
    "blot": {"target_score": 151},
    "ladder": {},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="callbreak,backalley,batak,blot,ladder")
    parser.add_argument("--pairs", default="search:heuristic,heuristic:random")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--set", action="append", default=[], metavar="GAME.KEY=VALUE")
    args = parser.parse_args()
    options = {g: dict(o) for g, o in SHORT.items()}
    for item in args.set:
        key, value = item.split("=", 1)
        game_name, setting = key.split(".", 1)
        options[game_name][setting] = value
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    print(f"seeds {seeds.start}..{seeds.stop - 1}, search budget {args.budget_ms} ms")
    print("| game | settings | stronger vs weaker | n | margin (95% CI) | match win rate | time |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        game = get_game(name)
        opts = options.get(name, {})
        shown = ", ".join(f"{k}={v}" for k, v in opts.items()) or "default"
        for pair in args.pairs.split(","):
            strong, weak = pair.split(":")
            start = time.perf_counter()
            if game.partnership:
                margins, wins = team_match(
                    name, strong, weak, seeds=seeds, variant_options=opts, budget_ms=args.budget_ms
                )
                unit = "games won per game" if name == "ladder" else "points per deal"
                margin, rate = f"{estimate(margins)} {unit}", str(estimate(wins))
            else:
                scale = 0.1 if name == "callbreak" else 1.0
                diffs = seat_swap_match(
                    name,
                    strong,
                    weak,
                    seeds=seeds,
                    variant_options=opts,
                    score_scale=scale,
                    budget_ms=args.budget_ms,
                )
                margins, margin, rate = diffs, f"{estimate(diffs)} points per game", "-"
            took = time.perf_counter() - start
            print(
                f"| {name} | {shown} | {strong} vs {weak} | {len(margins)} | {margin} "
                f"| {rate} | {took:.0f} s |",
                flush=True,
            )


if __name__ == "__main__":
    main()

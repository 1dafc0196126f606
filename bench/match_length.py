"""How many deals real matches take, and whether every match ends (issue 23).

    python bench/match_length.py [--matches 30] [--agent heuristic] [--random 5]

Part 1 plays ``--matches`` matches of every game between four ``--agent``
players (``heuristic`` is the bot's "normal" AI) at the default settings,
and, for the games played to a target score, at the highest target the
rule book allows; it prints the deals (a Blot redeal counts) and actions a
match took: median, 95th percentile and maximum.  The default deal cap
(``max_deals``, ``engine/core/deal_cap.py``) must lie far above these.

Part 2 plays ``--random`` matches of every game and every conformance
variant (and the defaults) with random ("easy") players and checks that
each ends within its stated bound of actions (``tests/engine/match_bounds.py``);
it prints how many ended by the cap.  Deterministic: seeds 0, 1, 2...
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES, MatchState, get_game
from engine.ai import get_agent
from tests.engine.match_bounds import action_bound

HIGHEST_TARGET = {"batak": {"target_score": 500}, "blot": {"target_score": 1001}}


def deals(state: MatchState) -> int:
    """Deals played (Ladder: games)."""
    if state.game.name == "ladder":
        return len(getattr(state, "results", ())) or 1
    return state.round_number


def play(state: MatchState, agent: str, seed: int, cap: int) -> int:
    agents = [
        get_agent(agent, game=state.game.name, seed=seed * 10 + i, budget_ms=50)
        for i in range(state.num_seats)
    ]
    rng = random.Random(seed)
    taken = 0
    while not state.is_over and taken < cap:
        seat = state.decider
        assert seat is not None
        legal = state.legal_actions()
        if agent == "random":
            action = rng.choice(legal)
        else:
            action = agents[seat].act(state.view(seat), legal, full_state=state)
        state.apply(action)
        taken += 1
    return taken


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def lengths(matches: int, agent: str) -> None:
    print(f"deals per match, {matches} matches of four {agent} players")
    print(f"{'game':<10}{'settings':<22}{'median':>7}{'p95':>6}{'max':>6}{'actions max':>13}")
    for name in GAMES:
        game = get_game(name)
        for options in ({}, HIGHEST_TARGET.get(name)):
            if options is None:
                continue
            counts, actions = [], []
            for seed in range(matches):
                state = game.new_match(seed=seed, variant=options)
                actions.append(play(state, agent, seed, 10**6))
                counts.append(deals(state))
            label = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(
                f"{name:<10}{label:<22}{statistics.median(counts):>7g}{pct(counts, 0.95):>6}"
                f"{max(counts):>6}{max(actions):>13}"
            )


def endings(matches: int) -> int:
    print(f"\nrandom players, {matches} matches per game and variant: every one ends?")
    failures = 0
    for name in GAMES:
        game = get_game(name)
        variants = [game.Variant(), *game.conformance_variants()]
        played = capped = 0
        worst = 0.0
        for variant in variants:
            for seed in range(matches):
                state = game.new_match(seed=seed, variant=variant)
                bound = action_bound(state)
                taken = play(state, "random", seed, bound + 1)
                played += 1
                worst = max(worst, taken / bound)
                if not state.is_over or taken > bound:
                    failures += 1
                    print(f"  {name} {variant} seed {seed}: not over after {taken} actions")
                cap = getattr(variant, "max_deals", None)
                capped += cap is not None and state.round_number >= cap
        print(
            f"  {name:<10} {played:>4} matches, {capped:>4} ended by the deal cap, "
            f"longest {worst:.0%} of the bound"
        )
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30, help="matches per game and setting")
    parser.add_argument("--agent", default="heuristic", help="the players of part 1")
    parser.add_argument("--random", type=int, default=5, help="random matches per variant")
    args = parser.parse_args()
    began = time.perf_counter()
    lengths(args.matches, args.agent)
    failures = endings(args.random)
    print(f"({time.perf_counter() - began:.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

"""Bazar Blot: our agents against the paper's (``paper-minimax``: its
value-table bidder and its all-seeing depth-limited minimax).

    python bench/ai_paper.py [--hero search] [--villain paper-minimax]
                             [--seeds 40] [--first-seed 0] [--target 151]
                             [--budget-ms 300] [--set max_worlds=32 ...]
                             [--depth 12] [--workers 1]

Duplicate matches: every seed is played twice with the same deals, once
with the hero team on seats 0+2 and once on 1+3.  The figure is the hero
team's margin per deal of each match (game points), with its 95%
confidence interval (normal approximation), and the match win rate.

The hero is the table's "hard" seat -- ``search`` at the service's
default budget (``--budget-ms``, 300 ms) with every setting at its default
unless ``--set`` changes it -- with one difference: no clock
(``clock=False``), so its world and work caps alone end a search, and a
busy machine changes the time a run takes but not its result (at the
table the clock is only a guard: bench/ai_speed.py).  Also printed: how
often each side declared, made its contract and was doubled, and the
hero's decision times (CPU).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import get_agent
from engine.ai.tournament import estimate


def one_match(seed: int, hero_team: int, args: dict[str, Any]) -> dict[str, Any]:
    game = get_game("blot")
    state = game.new_match(seed=seed, variant=game.variant(target_score=args["target"]))
    hero_kw: dict[str, Any] = {"budget_ms": args["budget_ms"], "clock": False}
    for item in args["set"]:
        key, value = item.split("=", 1)
        hero_kw[key] = float(value) if "." in value else int(value)
    agents = []
    for s in range(4):
        if s % 2 == hero_team:
            kw = hero_kw if args["hero"] == "search" else {}
            agents.append(get_agent(args["hero"], game="blot", seed=seed * 97 + s, **kw))
        else:
            kw = {"depth": args["depth"]} if args["villain"] == "paper-minimax" else {}
            agents.append(get_agent(args["villain"], game="blot", seed=seed * 97 + s, **kw))
    cpu: list[float] = []
    while not state.is_over:
        seat = state.decider
        assert seat is not None
        agent = agents[seat]
        legal = state.legal_actions()
        full = state if agent.sees_all else None
        c0 = time.process_time()
        action = agent.act(state.view(seat), legal, full_state=full)
        if seat % 2 == hero_team:
            cpu.append((time.process_time() - c0) * 1000)
        state.apply(action)
    stats: Counter[str] = Counter()
    for record in state.history:
        who = "hero" if record.declarer % 2 == hero_team else "villain"
        stats[f"{who} declared"] += 1
        stats[f"{who} made"] += bool(record.details["made"])
        stats[f"{who} doubled"] += "contra" in str(record.contract)
        stats[f"{who} margin"] += record.scores[hero_team] - record.scores[1 - hero_team]
    deals = len(state.history)
    return {
        "margin": (state.scores[hero_team] - state.scores[1 - hero_team]) / deals,
        "win": 1.0 if state.view(None).ranking[hero_team] == 1 else 0.0,
        "stats": stats,
        "cpu": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hero", default="search")
    parser.add_argument("--villain", default="paper-minimax")
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=151)
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--workers", type=int, default=1)
    args = vars(parser.parse_args())
    jobs = [
        (seed, team)
        for seed in range(args["first_seed"], args["first_seed"] + args["seeds"])
        for team in (0, 1)
    ]
    start = time.perf_counter()
    if args["workers"] > 1:
        with ProcessPoolExecutor(args["workers"]) as pool:
            results = list(pool.map(one_match, *zip(*jobs, strict=True), [args] * len(jobs)))
    else:
        results = [one_match(seed, team, args) for seed, team in jobs]
    margins = [r["margin"] for r in results]
    wins = [r["win"] for r in results]
    stats: Counter[str] = Counter()
    for r in results:
        stats.update(r["stats"])
    cpu = sorted(c for r in results for c in r["cpu"])
    print(
        f"{args['hero']} vs {args['villain']} (depth {args['depth']}), Blot to {args['target']}, "
        f"seeds {args['first_seed']}..{args['first_seed'] + args['seeds'] - 1}, "
        f"hero budget {args['budget_ms']} ms without the clock, settings {args['set'] or 'default'}"
    )
    print(f"margin per deal: {estimate(margins)}")
    print(f"match win rate: {estimate(wins)}")
    for who in ("hero", "villain"):
        declared = stats[f"{who} declared"]
        made = stats[f"{who} made"] / declared if declared else 0.0
        margin = stats[f"{who} margin"] / declared if declared else 0.0
        print(
            f"{who}: declared {declared} deals, made {made:.2f}, "
            f"doubled {stats[f'{who} doubled']}, hero margin on those {margin:+.1f} a deal"
        )
    if cpu:
        p50 = statistics.median(cpu)
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        print(f"hero CPU per decision: p50 {p50:.1f} ms, p95 {p95:.1f} ms, n={len(cpu)}")
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()

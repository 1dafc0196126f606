"""Decision time of an agent per game and phase.

    python bench/ai_speed.py [--agent search] [--budget-ms 200] [--deals 2]
                             [--games callbreak,batak,blot,backalley,ladder]
                             [--ladder-turns 120]

Every seat is played by ``--agent`` (seeded), from the first decision of a
match for ``--deals`` deals (Ladder: ``--ladder-turns`` turns of one game).
Each decision is timed on the wall clock (what a player waits) and in CPU
time of this process; the table gives p50 / p95 / max wall time per game
and phase, how many decisions went over the budget, and for the card plays
how many had a single legal card or only equivalent ones.  The machine is
shared: compare rows measured in one run, and read the CPU column too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import agent_names, get_agent


def quantile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def measure(name: str, agent_name: str, budget_ms: int, deals: int, ladder_turns: int) -> Any:
    game = get_game(name)
    if agent_name not in agent_names(name):
        return None
    rows: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    seed = 0
    done = 0
    while done < deals:
        state = game.new_match(seed=seed)
        agents = [
            get_agent(agent_name, game=name, seed=seed * 10 + s, budget_ms=budget_ms)
            for s in range(state.num_seats)
        ]
        start_deals = len(getattr(state, "history", []))
        turns = 0
        while not state.is_over:
            seat = state.decider
            view, legal = state.view(seat), state.legal_actions()
            t0, c0 = time.perf_counter(), time.process_time()
            action = agents[seat].act(view, legal)
            wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            how = getattr(agents[seat], "last", {}).get("how", "")
            if len(legal) == 1:
                how = "only_action"
            rows[view.phase].append((wall, cpu, how))
            state.apply(action)
            turns += 1
            if name == "ladder" and turns >= ladder_turns:
                break
            if name != "ladder" and len(state.history) - start_deals >= deals - done:
                break
        done += max(1, len(getattr(state, "history", [])) - start_deals) if name != "ladder" else 1
        seed += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", default="search")
    parser.add_argument("--budget-ms", type=int, default=200)
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--games", default="callbreak,batak,blot,backalley,ladder")
    parser.add_argument("--ladder-turns", type=int, default=120)
    args = parser.parse_args()
    print(f"agent {args.agent}, budget {args.budget_ms} ms, {args.deals} deals per game")
    print(
        "| game | phase | decisions | wall p50 ms | wall p95 ms | wall max ms | cpu p50 ms "
        "| over budget | one legal | all equivalent |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    start = time.perf_counter()
    for name in args.games.split(","):
        rows = measure(name, args.agent, args.budget_ms, args.deals, args.ladder_turns)
        if rows is None:
            print(f"| {name} | - | no {args.agent} agent | | | | | | | |")
            continue
        for phase, items in sorted(rows.items()):
            walls = [w for w, _, _ in items]
            cpus = [c for _, c, _ in items]
            over = sum(1 for w in walls if w > args.budget_ms)
            single = sum(1 for _, _, how in items if how == "only_action")
            equal = sum(1 for _, _, how in items if how == "all_equivalent")
            print(
                f"| {name} | {phase} | {len(items)} | {quantile(walls, 0.5):.1f} "
                f"| {quantile(walls, 0.95):.1f} | {max(walls):.1f} | {quantile(cpus, 0.5):.1f} "
                f"| {over} | {single} | {equal} |"
            )
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()

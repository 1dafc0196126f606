"""Decision time of an agent per game and phase (issue 13: hard decides in
at most 250 ms at p95 and 50 ms at p50 in every game and phase).

    python bench/ai_speed.py [--agent search] [--budget-ms 300]
                             [--games callbreak,batak,blot,backalley,ladder]
                             [--min-decisions 40] [--max-seconds 240]

Seeded matches are played with ``--agent`` in every seat (each seat its own
seed) through ``act``, exactly as a table plays them; every decision is
timed on the wall clock (what a player waits) and in CPU time of this
process.  Matches are played until every phase of the game has
``--min-decisions`` timed decisions (or ``--max-seconds`` have passed);
once a phase has enough (checked at the start of each deal, so that whole
deals are timed: early and late tricks alike), its later decisions are
played by the heuristic and not timed, so that rare phases (Batak's trump)
get their share without hours of play.  Ladder (one long game) is timed
from its first turn.  The table gives p50 / p95 / max wall time per game and
phase, the CPU p50 / p95, how many decisions went over the budget and over
250 ms, how many had one legal action or only equivalent ones, and how
many searches the deadline (not a stopping rule) ended.  The machine is
shared: compare rows measured in one run, and read the CPU columns too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import agent_names, get_agent

GAMES = "callbreak,batak,blot,backalley,ladder"


def quantile(values: list[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1]


def measure(
    name: str, agent_name: str, budget_ms: int, min_decisions: int, max_seconds: float
) -> dict[str, list[tuple[float, float, str]]] | None:
    """Per phase: (wall ms, cpu ms, how) of each timed decision."""
    game = get_game(name)
    if agent_name not in agent_names(name):
        return None
    rows: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    phases: set[str] = set()
    stop_at = time.perf_counter() + max_seconds
    seed = 0
    while time.perf_counter() < stop_at:
        state = game.new_match(seed=seed)
        agents = [
            get_agent(agent_name, game=name, seed=seed * 10 + s, budget_ms=budget_ms)
            for s in range(state.num_seats)
        ]
        stand_ins = [
            get_agent("heuristic", game=name, seed=seed * 10 + s) for s in range(state.num_seats)
        ]
        deal = -1
        full: set[str] = set()
        while not state.is_over and time.perf_counter() < stop_at:
            seat = state.decider
            view, legal = state.view(seat), state.legal_actions()
            phase = view.phase
            phases.add(phase)
            if view.round_number != deal:
                # a phase is full from the next deal on: every deal is timed whole
                deal = view.round_number
                full = {p for p in phases if len(rows[p]) >= min_decisions}
                if full == phases and name != "ladder":
                    break
            if phase in full or (name == "ladder" and len(rows[phase]) >= min_decisions):
                state.apply(stand_ins[seat].act(view, legal))
                if name == "ladder":
                    break
                continue
            t0, c0 = time.perf_counter(), time.process_time()
            action = agents[seat].act(view, legal)
            wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            last: dict[str, Any] = getattr(agents[seat], "last", {})
            how = "only_action" if len(legal) == 1 else last.get("how", "")
            if last.get("stop") == "deadline":
                how = "deadline"
            rows[phase].append((wall, cpu, how))
            state.apply(action)
        if phases and all(len(rows[p]) >= min_decisions for p in phases):
            break
        seed += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", default="search")
    parser.add_argument("--budget-ms", type=int, default=300)
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--min-decisions", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=240)
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"agent {args.agent}, budget {args.budget_ms} ms, {args.min_decisions} decisions per "
        f"phase; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(
        "| game | phase | decisions | wall p50 ms | wall p95 ms | wall max ms | cpu p50 ms "
        "| cpu p95 ms | over budget | over 250 ms | one legal | all equivalent | deadline |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    start = time.perf_counter()
    for name in args.games.split(","):
        rows = measure(name, args.agent, args.budget_ms, args.min_decisions, args.max_seconds)
        if rows is None:
            print(f"| {name} | - | no {args.agent} agent | | | | | | | | | | |")
            continue
        for phase, items in sorted(rows.items()):
            if not items:
                continue
            walls = [w for w, _, _ in items]
            cpus = [c for _, c, _ in items]
            hows = [h for _, _, h in items]
            print(
                f"| {name} | {phase} | {len(items)} | {quantile(walls, 0.5):.1f} "
                f"| {quantile(walls, 0.95):.1f} | {max(walls):.1f} | {quantile(cpus, 0.5):.1f} "
                f"| {quantile(cpus, 0.95):.1f} | {sum(w > args.budget_ms for w in walls)} "
                f"| {sum(w > 250 for w in walls)} | {hows.count('only_action')} "
                f"| {hows.count('all_equivalent')} | {hows.count('deadline')} |",
                flush=True,
            )
    load = os.getloadavg()
    print(
        f"{time.perf_counter() - start:.0f} s; load average {load[0]:.2f} {load[1]:.2f} "
        f"{load[2]:.2f}"
    )


if __name__ == "__main__":
    main()

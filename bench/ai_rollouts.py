"""Rollouts per second of the search agent, per game and phase (issue 14:
"search agent: at least 5x more rollouts per second than today at the same
budget").

    python bench/ai_rollouts.py [--budget-ms 200] [--games callbreak,batak,blot,backalley,ladder]
                                [--per-phase 12] [--early-stop] [--json]
    python bench/ai_rollouts.py --make-positions   # rewrite the position file (once)

The positions are fixed: ``bench/ai_rollouts_positions.json`` holds, per
game, seeded matches played by the heuristic (their action logs) and the
indices of the decisions the search agent searches (two legal actions or
more): up to ``--per-phase`` of each phase, spread over the match.  Every
position is rebuilt by replaying its log, so the same positions are
measured at any commit (run this script from an old tree to measure it).

At each position the search agent (seeded) decides with ``--budget-ms``.
By default early stopping is switched off (``min_worlds``, the work cap
and the bidders' minimum set out of reach), so every searched decision
spends its budget on play-outs and the figure is throughput; ``--early-stop``
measures the agent as it plays.  A *rollout* is one candidate played out
in one sampled world to the end of the deal (Ladder: the rollout horizon),
or valued by the exact end-game solver (counted apart as *solved*); bids
count every simulated deal.  Rollouts per second are taken over the
wall-clock time and over the CPU time of the decisions (the machine is
shared: compare rows measured in one run, and read the CPU columns too).

Counting: the agent's own counter ``engine.ai.rollout.COUNTS`` when the
code has one, else by wrapping the rollout classes of the older code.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import get_agent

POSITIONS = Path(__file__).with_name("ai_rollouts_positions.json")
GAMES = ("callbreak", "batak", "blot", "backalley", "ladder")
#: matches per game and their settings for the position file
MATCHES = 3
SETTINGS: dict[str, dict[str, Any]] = {
    "callbreak": {"rounds": 2},
    "batak": {},
    "blot": {},
    "backalley": {"max_cards": 7},
    "ladder": {},
}
SEARCHED_VERBS = {
    "callbreak": {"play", "bid"},
    "backalley": {"play", "bid"},
    "batak": {"play", "bid", "pass", "trump"},
    "blot": {"play", "bid", "pass", "contra"},
    "ladder": {"play", "pickup", "hidden"},
}


# -- the position file ---------------------------------------------------------------------------
def make_positions(per_phase: int) -> dict[str, Any]:
    """Heuristic self-play, seeded; every searchable decision's log index."""
    out: dict[str, Any] = {}
    for name in GAMES:
        game = get_game(name)
        matches = []
        for seed in range(MATCHES):
            variant = game.variant(**SETTINGS[name])
            state = game.new_match(seed=1000 + seed, variant=variant)
            agents = [get_agent("heuristic", game=name, seed=seed * 10 + s) for s in range(4)]
            points: dict[str, list[int]] = defaultdict(list)
            turns = 0
            while not state.is_over and turns < 400:
                legal = state.legal_actions()
                seat = state.decider
                if len(legal) > 1 and any(a.verb in SEARCHED_VERBS[name] for a in legal):
                    points[state.phase.value].append(len(state.log))
                state.apply(agents[seat].act(state.view(seat), legal))
                turns += 1
            matches.append(
                {
                    "seed": 1000 + seed,
                    "settings": SETTINGS[name],
                    "log": [str(a) for a in state.log],
                    "points": dict(points),
                }
            )
        chosen = []
        for phase in sorted({p for m in matches for p in m["points"]}):
            every = [(i, p) for i, m in enumerate(matches) for p in m["points"].get(phase, [])]
            stride = max(1, len(every) // per_phase)
            chosen += [[i, p, phase] for i, p in every[::stride][:per_phase]]
        for m in matches:
            last = max((p for i, p, _ in chosen if matches[i] is m), default=0)
            m["log"] = m["log"][: last + 1]
            del m["points"]
        out[name] = {"matches": matches, "positions": chosen}
    return out


def rebuild(name: str, spec: dict[str, Any], match: int, index: int) -> Any:
    game = get_game(name)
    m = spec["matches"][match]
    state = game.new_match(seed=m["seed"], variant=game.variant(**m["settings"]))
    for text in m["log"][:index]:
        state.apply(text)
    return state


# -- counting --------------------------------------------------------------------------------------
class Count:
    """Rollouts, rollout cards (Ladder: turns) and exact solves, from the
    agent's own counter when it has one, else by wrapping the old classes."""

    def __init__(self) -> None:
        import engine.ai.rollout as rollout

        self.own: Counter[str] | None = getattr(rollout, "COUNTS", None)
        self.mine: Counter[str] = Counter()
        if self.own is None:
            self._wrap()

    def snapshot(self) -> Counter[str]:
        return Counter(self.own if self.own is not None else self.mine)

    def _wrap(self) -> None:
        from engine.ai import ladder_search, search
        from engine.ai.rollout import TrickRollout

        counts = self.mine
        trick_run = TrickRollout.run

        def counted_trick(self: Any, state: Any, deadline: float) -> bool:
            cards = sum(len(h) for h in state.hands)
            done = trick_run(self, state, deadline)
            if done:
                counts["rollouts"] += 1
                counts["cards"] += cards
            return done

        TrickRollout.run = counted_trick  # type: ignore[method-assign]
        ladder_run = ladder_search.LadderRollout.run

        def counted_ladder(self: Any, state: Any, deadline: float) -> bool:
            turns = state.turns
            done = ladder_run(self, state, deadline)
            if done:
                counts["rollouts"] += 1
                counts["cards"] += max(0, state.turns - turns)
            return done

        ladder_search.LadderRollout.run = counted_ladder  # type: ignore[method-assign]
        for game, spec in list(search._GAMES.items()):
            if spec.endgame is None:
                continue
            solve = spec.endgame

            def counted_solve(state: Any, seat: int, deadline: float, _f: Any = solve) -> float:
                value = _f(state, seat, deadline)
                counts["solved"] += 1
                return float(value)

            search._GAMES[game] = dataclasses.replace(spec, endgame=counted_solve)


def no_early_stop() -> dict[str, Any]:
    """Agent options and module settings that keep a search going to its budget."""
    import engine.ai.bidding as bidding

    for name in ("MIN_WORLDS", "MIN_BLOT_WORLDS"):
        if hasattr(bidding, name):
            setattr(bidding, name, 10**9)
    try:
        import engine.ai.auctions as auctions

        for name in ("MIN_WORLDS", "MIN_BLOT_WORLDS"):
            if hasattr(auctions, name):
                setattr(auctions, name, 10**9)
    except ImportError:
        pass
    endless = 10**9
    return {
        "min_worlds": endless,
        "max_worlds": endless,
        "max_bid_worlds": endless,
        "work": endless,
        "early_stop": False,
    }


# -- the measurement -------------------------------------------------------------------------------
def measure(name: str, spec: dict[str, Any], budget_ms: int, options: dict[str, Any], count: Count):
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for k, (match, index, phase) in enumerate(spec["positions"]):
        state = rebuild(name, spec, match, index)
        seat = state.decider
        view, legal = state.view(seat), state.legal_actions()
        agent = get_agent("search", game=name, seed=k, budget_ms=budget_ms, **options)
        before = count.snapshot()
        t0, c0 = time.perf_counter(), time.process_time()
        agent.act(view, legal)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        got = count.snapshot() - before
        row = rows[phase]
        row["decisions"] += 1
        if got["rollouts"] or got["solved"]:
            row["searched"] += 1
        row["wall_us"] += int(wall * 1e6)
        row["cpu_us"] += int(cpu * 1e6)
        for key in ("rollouts", "cards", "solved"):
            row[key] += got[key]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--budget-ms", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--per-phase", type=int, default=12)
    parser.add_argument("--early-stop", action="store_true")
    parser.add_argument("--make-positions", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = parser.parse_args()
    if args.make_positions:
        POSITIONS.write_text(json.dumps(make_positions(args.per_phase), separators=(",", ":")))
        print(f"wrote {POSITIONS}")
        return
    positions = json.loads(POSITIONS.read_text())
    count = Count()
    options = {} if args.early_stop else no_early_stop()
    load = os.getloadavg()
    mode = "as it plays (early stop on)" if args.early_stop else "full budget (no early stop)"
    print(
        f"search agent, budget {args.budget_ms} ms, {mode}; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(
        "| game | phase | decisions | searched | rollouts | solved | cards per rollout "
        "| wall s | cpu s | rollouts/s (wall) | rollouts/s (cpu) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    report: dict[str, Any] = {}
    for name in args.games.split(","):
        rows = measure(name, positions[name], args.budget_ms, options, count)
        total: Counter[str] = Counter()
        for phase, row in sorted(rows.items()):
            total.update(row)
            report[f"{name}/{phase}"] = dict(row)
            print(line(name, phase, row))
        if len(rows) > 1:
            print(line(name, "all", total))
        report[f"{name}/all"] = dict(total)
    if args.json:
        print(json.dumps(report))


def line(name: str, phase: str, row: Counter[str]) -> str:
    wall, cpu = row["wall_us"] / 1e6, row["cpu_us"] / 1e6
    done = row["rollouts"] + row["solved"]
    per = row["cards"] / row["rollouts"] if row["rollouts"] else 0.0
    return (
        f"| {name} | {phase} | {row['decisions']} | {row['searched']} | {row['rollouts']} "
        f"| {row['solved']} | {per:.1f} | {wall:.2f} | {cpu:.2f} "
        f"| {done / wall if wall else 0:,.0f} | {done / cpu if cpu else 0:,.0f} |"
    )


if __name__ == "__main__":
    main()

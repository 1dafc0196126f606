"""Engine speed, side by side with OpenSpiel driven from Python (issues 14, 25).

    python bench/engine_speed.py [--rounds 12] [--batch-seconds 0.5] [--before DIR]
    python bench/engine_speed.py --all-games [--games 60] [--runs 3]
    python bench/engine_speed.py --operations [--repeats 7]

Random legal moves through the public API (``rng.choice(state.legal_actions())``
then ``state.apply``), one process, in interleaved batches so that a busy
shared CPU slows both sides alike; each figure is the median over
``--rounds`` rounds and each ratio the median of the per-round ratios.
Batches are timed in CPU seconds of the process (``--clock cpu``, the
default since issue 25: on a loaded machine wall time mostly measures the
wait for a core); ``--clock wall`` times them as before.

- Callbreak deals per second against OpenSpiel ``spades``: one full deal
  (4 bids + 13 tricks) from a new match to its end (``rounds=1``), against one
  OpenSpiel ``spades`` game (one deal) from ``new_initial_state()`` to
  terminal.  OpenSpiel deals the cards through chance nodes, which the driver
  samples like any other node (uniform over ``legal_actions()``); ours deals
  inside ``new_match`` from the seed.  Also printed: deals per second inside
  default 5-deal matches.
- Backalley decisions per second (default settings: 4 players, hands 1..7..1)
  against OpenSpiel ``oh_hell`` with ``players=4`` (its default trick count,
  drawn at random): player decisions only, chance nodes not counted but
  their time included.

A third line measures the floor: a rules-free stand-in with our API shape
(``_FloorState``), to show how much of the gap is CPython's cost of the
API itself rather than the rules.

Targets (issue 25): Callbreak 1-deal matches >= 1x ``spades`` games, Backalley
decisions >= 1x ``oh_hell`` decisions.  ``--before DIR`` also runs the same
batches on another checkout's engine (a ``git archive`` of an older commit
unpacked in ``DIR``) in a child process, each of its batches just before
ours (before, after, before, after...), and prints after/before ratios.

OpenSpiel is optional (``pip install -e ".[bench]"``, or
``python -m pip install open_spiel==2.0.2``): without ``pyspiel`` the script
prints our figures only.  ``--all-games`` prints the older table of random
full games per second for every game instead; ``--operations`` the cost of
one ``clone``, ``view``, ``legal_actions`` and ``apply`` in every game, at
the start and 200 actions into a match.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

# the engine measured: this checkout's, or that of the tree a ``--before`` worker runs
sys.path.insert(0, os.environ.get("ENGINE_SPEED_TREE") or str(Path(__file__).resolve().parents[1]))

from engine import GAMES, Event, get_game

#: one batch: play whole games until the time is up; (units done, seconds)
Batch = Callable[[float, random.Random], tuple[int, float]]
#: the batches' clock (``--clock``): CPU seconds of this process by default, so
#: that the waits of a shared, loaded machine count on neither side
CLOCK: list[Callable[[], float]] = [time.process_time]
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}


def _our_deals(rounds: int) -> Batch:
    game = get_game("callbreak")
    variant = game.variant(rounds=rounds)

    def batch(seconds: float, rng: random.Random) -> tuple[int, float]:
        deals = 0
        clock = CLOCK[0]
        start = clock()
        while clock() - start < seconds:
            state = game.new_match(seed=rng.randrange(2**31), variant=variant)
            choice, legal, apply = rng.choice, state.legal_actions, state.apply
            while not state.is_over:
                apply(choice(legal()))
            deals += state.round_number
        return deals, clock() - start

    return batch


def _our_decisions() -> Batch:
    game = get_game("backalley")
    variant = game.variant()

    def batch(seconds: float, rng: random.Random) -> tuple[int, float]:
        decisions = 0
        clock = CLOCK[0]
        start = clock()
        while clock() - start < seconds:
            state = game.new_match(seed=rng.randrange(2**31), variant=variant)
            choice, legal, apply = rng.choice, state.legal_actions, state.apply
            while not state.is_over:
                apply(choice(legal()))
            decisions += len(state.log)
        return decisions, clock() - start

    return batch


class _FloorState:
    """The least an engine with our API shape can do for one deal: a seeded
    shuffle, four bids, then 52 plays where every held card is legal (no
    follow rule), each checked against the legal list, logged and narrated
    by one event, the highest card taking the trick.  Not a game: a measure
    of what CPython spends on the API itself (``legal_actions`` building a
    list, ``apply`` checking and recording) before any rule."""

    def __init__(self, seed: int) -> None:
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        self.hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        self.bids: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.log: list[int] = []
        self.to_act = 0
        self.is_over = False

    def legal_actions(self) -> list[int]:
        if len(self.bids) < 4:
            return list(range(1, 9))
        return list(self.hands[self.to_act])

    def apply(self, action: int) -> list[Event]:
        if self.is_over or action not in self.legal_actions():
            raise ValueError(action)
        seat = self.to_act
        self.log.append(action)
        if len(self.bids) < 4:
            self.bids.append(action)
            self.to_act = (seat + 1) % 4
            return [Event("bid", seat, {"bid": action})]
        self.hands[seat].remove(action)
        self.trick.append((seat, action))
        events = [Event("card_played", seat, {"card": action})]
        self.to_act = (seat + 1) % 4
        if len(self.trick) == 4:
            self.to_act = max(self.trick, key=lambda p: p[1])[0]
            self.trick = []
            self.is_over = not self.hands[self.to_act]
        return events


def _floor(unit: str) -> Batch:
    def batch(seconds: float, rng: random.Random) -> tuple[int, float]:
        done = 0
        clock = CLOCK[0]
        start = clock()
        while clock() - start < seconds:
            state = _FloorState(rng.randrange(2**31))
            choice, legal, apply = rng.choice, state.legal_actions, state.apply
            while not state.is_over:
                apply(choice(legal()))
            done += 1 if unit == "deals" else len(state.log)
        return done, clock() - start

    return batch


def _spiel_games(pyspiel: Any, name: str, params: dict[str, Any], unit: str) -> Batch:
    game = pyspiel.load_game(name, params)

    def batch(seconds: float, rng: random.Random) -> tuple[int, float]:
        done = 0
        clock = CLOCK[0]
        start = clock()
        while clock() - start < seconds:
            state = game.new_initial_state()
            choice, legal, apply, terminal = (
                rng.choice,
                state.legal_actions,
                state.apply_action,
                state.is_terminal,
            )
            while not terminal():
                apply(choice(legal()))
            if unit == "games":
                done += 1
            else:
                done += sum(1 for step in state.full_history() if step.player >= 0)
        return done, clock() - start

    return batch


class _TreeWorker:
    """Our batches run on another checkout's engine (``--before DIR``, e.g. a
    ``git archive`` of an older commit) in a child process: the same driver
    (this script, ``--worker``), that tree's ``engine`` package.  The parent
    asks for one batch at a time, so the rounds stay interleaved."""

    def __init__(self, tree: str, clock: str) -> None:
        env = {**os.environ, "ENGINE_SPEED_TREE": str(Path(tree).resolve())}
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--clock", clock],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def batch(self, name: str) -> Batch:
        def run(seconds: float, rng: random.Random) -> tuple[int, float]:
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(f"{name} {seconds} {rng.randrange(2**31)}\n")
            self.process.stdin.flush()
            units, elapsed = self.process.stdout.readline().split()
            return int(units), float(elapsed)

        return run

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def _worker_batches() -> dict[str, Batch]:
    return {"deals1": _our_deals(1), "deals5": _our_deals(5), "decisions": _our_decisions()}


def worker() -> None:
    """``--worker``: run the batches the parent names on stdin (``name
    seconds seed``), one line ``units elapsed`` each, on this process's engine."""
    batches = _worker_batches()
    for line in sys.stdin:
        name, seconds, seed = line.split()
        units, elapsed = batches[name](float(seconds), random.Random(int(seed)))
        print(units, elapsed, flush=True)


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:  # pragma: no cover - not Linux
        return "n/a"


def compare(rounds: int, seconds: float, before: str | None = None, clock: str = "cpu") -> None:
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    print(
        f"{datetime.now():%Y-%m-%d %H:%M} | Python {platform.python_version()} | "
        f"load average {_load()} | {os.cpu_count()} CPUs | {rounds} rounds of "
        f"{seconds:.2f} s batches ({clock} time)"
    )
    if pyspiel is None:
        print("pyspiel not installed: our figures only (pip install -e '.[bench]')")
    benches: dict[str, Batch] = {
        "callbreak deals/s (1-deal matches)": _our_deals(1),
        "callbreak deals/s (5-deal matches)": _our_deals(5),
        "backalley decisions/s": _our_decisions(),
        "floor deals/s (no rules)": _floor("deals"),
        "floor decisions/s (no rules)": _floor("decisions"),
    }
    worker_process = _TreeWorker(before, clock) if before else None
    if worker_process is not None:
        print(f"before: the engine of {before} (a child process), batches interleaved")
        before_benches = {
            "BEFORE callbreak deals/s (1-deal)": worker_process.batch("deals1"),
            "BEFORE callbreak deals/s (5-deal)": worker_process.batch("deals5"),
            "BEFORE backalley decisions/s": worker_process.batch("decisions"),
        }
        # before, after, before, after...: each of ours follows its before
        ordered: dict[str, Batch] = {}
        pairs_of = zip(before_benches.items(), list(benches.items())[:3], strict=True)
        for (old_name, old_bench), (new_name, new_bench) in pairs_of:
            ordered[old_name] = old_bench
            ordered[new_name] = new_bench
        ordered.update(list(benches.items())[3:])
        benches = ordered
    if pyspiel is not None:
        benches["spades deals/s"] = _spiel_games(pyspiel, "spades", {}, "games")
        benches["oh_hell decisions/s"] = _spiel_games(
            pyspiel, "oh_hell", {"players": 4}, "decisions"
        )
    rates: dict[str, list[float]] = {name: [] for name in benches}
    rng = random.Random(2026)
    for bench in benches.values():  # warm-up, not counted
        bench(seconds / 5, rng)
    for _ in range(rounds):
        for name, bench in benches.items():
            units, elapsed = bench(seconds, rng)
            rates[name].append(units / elapsed)
    if worker_process is not None:
        worker_process.close()
    for name, values in rates.items():
        print(
            f"{name:<36} median {statistics.median(values):>11,.0f}   "
            f"(spread {min(values):,.0f}..{max(values):,.0f})"
        )
    if pyspiel is None:
        return
    pairs: list[tuple[str, str, str, float | None]] = [
        (
            "callbreak deals (1-deal matches) / spades deals",
            "callbreak deals/s (1-deal matches)",
            "spades deals/s",
            1.0,
        ),
        (
            "callbreak deals (5-deal matches) / spades deals",
            "callbreak deals/s (5-deal matches)",
            "spades deals/s",
            None,
        ),
        (
            "backalley decisions / oh_hell decisions",
            "backalley decisions/s",
            "oh_hell decisions/s",
            1.0,
        ),
        ("floor deals / spades deals", "floor deals/s (no rules)", "spades deals/s", None),
        (
            "floor decisions / oh_hell decisions",
            "floor decisions/s (no rules)",
            "oh_hell decisions/s",
            None,
        ),
    ]
    if worker_process is not None:
        pairs += [
            (
                "BEFORE callbreak deals (1-deal) / spades deals",
                "BEFORE callbreak deals/s (1-deal)",
                "spades deals/s",
                1.0,
            ),
            (
                "BEFORE backalley decisions / oh_hell decisions",
                "BEFORE backalley decisions/s",
                "oh_hell decisions/s",
                1.0,
            ),
            (
                "after / before, callbreak deals (1-deal)",
                "callbreak deals/s (1-deal matches)",
                "BEFORE callbreak deals/s (1-deal)",
                None,
            ),
            (
                "after / before, backalley decisions",
                "backalley decisions/s",
                "BEFORE backalley decisions/s",
                None,
            ),
        ]
    for label, ours, theirs, target in pairs:
        ratios = [a / b for a, b in zip(rates[ours], rates[theirs], strict=True)]
        ratio = statistics.median(ratios)
        spread = f"per round {min(ratios):.2f}..{max(ratios):.2f}"
        if target is None:
            print(f"ratio {label}: {ratio:.2f}x ({spread})")
            continue
        verdict = "met" if ratio >= target else "missed"
        print(f"ratio {label}: {ratio:.2f}x ({spread}; target >= {target:g}x: {verdict})")


# -- the older per-game table -----------------------------------------------------
def run_once(name: str, games: int, run: int, max_deals: int) -> tuple[float, float, float, int]:
    game = get_game(name)
    actions = deals = cut = 0
    start = time.perf_counter()
    for i in range(games):
        seed = run * 100_000 + i
        state = game.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.round_number > max_deals:
                cut += 1
                break
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        deals += state.round_number
    elapsed = time.perf_counter() - start
    return games / elapsed, deals / elapsed, actions / elapsed, cut


def all_games(names: list[str], games: int, runs: int, max_deals: int) -> None:
    """Random full games per second for every game (default settings); games
    whose end depends on a target score are cut after ``max_deals`` deals."""
    for name in names:
        rows = [run_once(name, games, run, max_deals) for run in range(runs)]
        gps = [r[0] for r in rows]
        dps = [r[1] for r in rows]
        aps = [r[2] for r in rows]
        cut = sum(r[3] for r in rows)
        print(
            f"{name:<10} games/s median {statistics.median(gps):8.1f} "
            f"(spread {min(gps):.1f}..{max(gps):.1f}) | deals/s {statistics.median(dps):8.1f} "
            f"| actions/s {statistics.median(aps):>9,.0f} | cut at {max_deals} deals: {cut}"
        )


# -- one operation at a time ----------------------------------------------------------
def _per_call(fn: Callable[[], Any], repeats: int) -> float:
    """Median microseconds per call of ``fn`` over ``repeats`` runs of 200 calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(200):
            fn()
        times.append((time.perf_counter() - start) / 200 * 1e6)
    return statistics.median(times)


def _apply_cost(state: Any, repeats: int) -> float:
    """Median microseconds of one ``apply`` of the first legal action, each
    on a fresh clone made beforehand (not timed)."""
    action = state.legal_actions()[0]
    times = []
    for _ in range(repeats):
        copies = [state.clone() for _ in range(200)]
        start = time.perf_counter()
        for copy in copies:
            copy.apply(action)
        times.append((time.perf_counter() - start) / 200 * 1e6)
    return statistics.median(times)


def _operation_costs(state: Any, repeats: int) -> list[float]:
    seat = state.decider
    return [
        _per_call(state.clone, repeats),
        _per_call(lambda: state.view(seat), repeats),
        _per_call(lambda: state.view(None), repeats),
        _per_call(state.legal_actions, repeats),
        _apply_cost(state, repeats),
    ]


def operations(names: list[str], moves: tuple[int, ...], repeats: int) -> None:
    """Microseconds per ``clone()``, ``view(seat to act)``, ``view(None)``,
    ``legal_actions()`` and ``apply`` on a seeded random match after
    ``moves`` actions (Batak and Blot played to high targets so that their
    matches last)."""
    header = ("game", "move", "clone", "view", "view(None)", "legal", "apply")
    print(" | ".join(header))
    for name in names:
        game = get_game(name)
        settings = {"batak": {"target_score": 500}, "blot": {"target_score": 1001}}
        for target in moves:
            state = game.new_match(seed=7, variant=game.variant(**settings.get(name, {})))
            rng = random.Random(7)
            while len(state.log) < target and not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
            if not state.is_over:
                costs = _operation_costs(state, repeats)
                print(" | ".join([name, str(len(state.log)), *(f"{c:.1f}" for c in costs)]))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=12, help="interleaved rounds (medians)")
    parser.add_argument("--batch-seconds", type=float, default=0.5, help="length of one batch")
    parser.add_argument("--all-games", action="store_true", help="the per-game table instead")
    parser.add_argument(
        "--operations", action="store_true", help="microseconds per clone, view, legal, apply"
    )
    parser.add_argument("--repeats", type=int, default=7, help="--operations: repeats")
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="also measure the engine of another checkout (e.g. a git archive), interleaved",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="cpu",
        help="time the batches in CPU seconds of the process (default) or wall seconds",
    )
    parser.add_argument("--game", action="append", help="--all-games: game name (repeatable)")
    parser.add_argument("--games", type=int, default=60, help="--all-games: games per run")
    parser.add_argument("--runs", type=int, default=3, help="--all-games: runs")
    parser.add_argument("--max-deals", type=int, default=40, help="--all-games: cut after")
    args = parser.parse_args()
    CLOCK[0] = CLOCKS[args.clock]
    if args.worker:
        worker()
    elif args.operations:
        operations(args.game or list(GAMES), (0, 200), args.repeats)
    elif args.all_games:
        all_games(args.game or list(GAMES), args.games, args.runs, args.max_deals)
    else:
        compare(args.rounds, args.batch_seconds, args.before, args.clock)


if __name__ == "__main__":
    main()

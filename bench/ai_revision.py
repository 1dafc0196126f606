"""Today's heuristic against the heuristic of an earlier git revision.

    python bench/ai_revision.py --rev 56cafba [--game callbreak] [--seeds 100]
                                [--set key=value]

Loads ``engine/ai/heuristics/*.py`` as they were at ``--rev`` (``git show``)
into a throwaway package, registered as the agent ``heuristic@rev`` (the rest
of the engine is today's), then plays duplicate matches with
``engine.ai.tournament``: the individual games seat-rotated (one of today's
against three of the old), the partnership games with the teams swapped.
Prints the margin with a 95% CI, so a change to the shared card play can
be judged against what it replaced.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import get_game
from engine.ai import base
from engine.ai.tournament import estimate, rotated_match, team_match

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("trickplay", "callbreak", "batak", "blot", "backalley", "ladder")


def load_revision(rev: str) -> str:
    """Register ``heuristic@rev`` for every game from the files at ``rev``."""
    name = f"heuristic@{rev}"
    package = "old_heuristics_" + "".join(ch for ch in rev if ch.isalnum())
    folder = Path(tempfile.mkdtemp()) / package
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    real = base.register_agent

    def register(agent: str, game: str, factory: base.AgentFactory) -> None:
        real(name if agent == "heuristic" else f"{agent}@{rev}", game, factory)

    for module in MODULES:
        source = subprocess.run(
            ["git", "show", f"{rev}:engine/ai/heuristics/{module}.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        source = source.replace("engine.ai.heuristics.", f"{package}.")
        (folder / f"{module}.py").write_text(source)
    sys.path.insert(0, str(folder.parent))
    base.register_agent = register  # type: ignore[assignment]
    try:
        for module in MODULES:
            spec = importlib.util.spec_from_file_location(
                f"{package}.{module}", folder / f"{module}.py"
            )
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[f"{package}.{module}"] = mod
            # ``from engine.ai.base import register_agent`` picks up the patch
            spec.loader.exec_module(mod)
    finally:
        base.register_agent = real
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rev", required=True)
    parser.add_argument("--game", default="callbreak")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    old = load_revision(args.rev)
    options = dict(item.split("=", 1) for item in args.set)
    game = get_game(args.game)
    start = time.perf_counter()
    if game.partnership:
        margins, wins = team_match(
            game.name, "heuristic", old, seeds=range(args.seeds), variant_options=options
        )
        print(f"{game.name} {options or ''}: heuristic team vs {old} team, {len(margins)} matches")
        print(f"  margin per deal {estimate(margins)}")
        print(f"  match win rate  {estimate(wins)}")
    else:
        scale = 0.1 if game.name == "callbreak" else 1.0
        hero, villain = rotated_match(
            game.name,
            "heuristic",
            old,
            seeds=range(args.seeds),
            variant_options=options,
            score_scale=scale,
        )
        diff = [h - v for h, v in zip(hero, villain, strict=True)]
        print(f"{game.name} {options or ''}: heuristic vs three {old}, {len(hero)} games")
        print(f"  heuristic points/game {estimate(hero)}")
        print(f"  {old} points/game {estimate(villain)}")
        print(f"  difference {estimate(diff)}")
    print(f"  {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()

"""Seat-rotated ("duplicate") matches between agents, with a 95% confidence
interval: each seed is played once per seat rotation so every agent holds
every hand, which removes most of the luck of the deal."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.base import get_agent, play_out
from engine.core.game import Game, MatchState
from engine.core.registry import get_game
from engine.core.spec import Variant


@dataclass(frozen=True)
class Estimate:
    mean: float
    half_width: float
    n: int

    def __str__(self) -> str:
        return f"{self.mean:.2f} ± {self.half_width:.2f} (95% CI, n={self.n})"


def estimate(values: Sequence[float]) -> Estimate:
    """Mean with a normal-approximation 95% confidence half-width."""
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    return Estimate(mean, 1.96 * sd / math.sqrt(n) if n else 0.0, n)


def _played(
    game: Game,
    variant: Variant,
    seed: int,
    hero: str,
    villain: str,
    hero_seat: int | None,
    budget_ms: int,
) -> MatchState:
    """One match on ``seed``: ``hero`` in ``hero_seat`` (None: nowhere),
    ``villain`` everywhere else, each agent seeded by the deal and its seat."""
    state = game.new_match(seed=seed, variant=variant)
    agents = [
        get_agent(
            hero if s == hero_seat else villain,
            game=game.name,
            seed=seed * 97 + s,
            budget_ms=budget_ms,
        )
        for s in range(game.num_seats(variant))
    ]
    play_out(state, agents)
    return state


def rotated_match(
    game_name: str,
    hero: str,
    villain: str,
    *,
    seeds: range,
    variant_options: dict[str, object] | None = None,
    score_scale: float = 1.0,
    budget_ms: int = 300,
) -> tuple[list[float], list[float]]:
    """One ``hero`` agent against ``villain`` agents in every other seat, the
    hero rotated through all seats on each seed.  Returns (hero scores,
    mean villain score per game), each scaled by ``score_scale``."""
    game = get_game(game_name)
    variant = game.Variant.from_options(variant_options or {})
    hero_scores: list[float] = []
    villain_scores: list[float] = []
    for seed in seeds:
        n = game.num_seats(variant)
        for hero_seat in range(n):
            state = _played(game, variant, seed, hero, villain, hero_seat, budget_ms)
            hero_scores.append(state.scores[hero_seat] * score_scale)
            others = [state.scores[s] for s in range(n) if s != hero_seat]
            villain_scores.append(statistics.fmean(others) * score_scale)
    return hero_scores, villain_scores


def seat_swap_match(
    game_name: str,
    hero: str,
    villain: str,
    *,
    seeds: range,
    variant_options: dict[str, object] | None = None,
    score_scale: float = 1.0,
    budget_ms: int = 300,
) -> list[float]:
    """Duplicate for individual games: on each seed, for each seat, the game
    is played twice with the same deals and the same players elsewhere --
    once with ``hero`` in that seat, once with ``villain`` -- and the seat's
    score difference is recorded.  The luck of the cards and of the other
    players' seats cancels; what is left is what the swap changed."""
    game = get_game(game_name)
    variant = game.Variant.from_options(variant_options or {})
    n = game.num_seats(variant)

    def play(seed: int, hero_seat: int | None) -> list[int]:
        return list(_played(game, variant, seed, hero, villain, hero_seat, budget_ms).scores)

    diffs: list[float] = []
    for seed in seeds:
        base = play(seed, None)
        for seat in range(n):
            diffs.append((play(seed, seat)[seat] - base[seat]) * score_scale)
    return diffs


def team_match(
    game_name: str,
    hero: str,
    villain: str,
    *,
    seeds: range,
    variant_options: dict[str, object] | None = None,
    budget_ms: int = 300,
) -> tuple[list[float], list[float]]:
    """Duplicate partnership matches: each seed is played twice with the
    teams swapped, ``hero`` agents on one team and ``villain`` on the other.
    Returns (hero team's margin per deal, hero team's wins per match)."""
    game = get_game(game_name)
    variant = game.Variant.from_options(variant_options or {})
    margins: list[float] = []
    wins: list[float] = []
    for seed in seeds:
        for hero_team in (0, 1):
            state = game.new_match(seed=seed, variant=variant)
            agents = [
                get_agent(
                    hero if s % 2 == hero_team else villain,
                    game=game.name,
                    seed=seed * 97 + s,
                    budget_ms=budget_ms,
                )
                for s in range(4)
            ]
            play_out(state, agents)
            deals = max(1, len(getattr(state, "history", [])) or state.round_number)
            margins.append((state.scores[hero_team] - state.scores[1 - hero_team]) / deals)
            wins.append(1.0 if state.view(None).ranking[hero_team] == 1 else 0.0)
    return margins, wins

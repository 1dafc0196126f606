"""Leaderboards: games played, won, points and an OpenSkill rating per
server and game (teams for the partnership games).

Ratings use OpenSkill's Plackett-Luce model; the leaderboard orders by the
conservative estimate ``mu - 3 sigma``.  AI seats, when a server lets games
with AI change ratings, play at the model's default rating and are never
stored.
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


def default_rating() -> tuple[float, float]:
    player = MODEL.rating()
    return player.mu, player.sigma


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate(
    teams: list[list[tuple[float, float]]], ranks: list[int]
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) for every player of every team, given team ranks (1 = best)."""
    rated = MODEL.rate(
        [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return [[(p.mu, p.sigma) for p in team] for team in rated]


def seat_teams(num_seats: int, partnership: bool) -> list[list[int]]:
    if partnership:
        return [[0, 2], [1, 3]]
    return [[s] for s in range(num_seats)]


def as_row(
    user_id: int, name: str, mu: float, sigma: float, played: int, won: int, points: int
) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "name": name,
        "mu": mu,
        "sigma": sigma,
        "played": played,
        "won": won,
        "points": points,
    }

"""A finished match's results, ratings and leaderboard rows.

Written in one store transaction together with the table's ``finished``
status, so finishing is all-or-nothing: a crash before the commit leaves a
"playing" table whose replayed match is over, and ``TableService.start``
finishes it again from scratch (exactly once, because the results and the
status land together).

Rulings where the issues were silent:

* a match is rated only in a server, and only when no seat was an AI from
  the start (unless the server's ``rated_with_ai`` says otherwise); a
  player who resigned and was replaced by an AI does not make it unrated;
* a player who resigned counts as having lost: their rating moves as if
  their side had finished last, and their result row is not a win, while
  their partner (and everybody else) is rated on the real result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.repositories import Store
from bot.services import ratings as rating_math
from bot.services.models import ResultInfo, SeatInfo
from engine import Observation

Rating = tuple[float, float]


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """What the engine says about a finished match, per seat."""

    teams: list[list[int]]
    #: per team: 1 = first (shared on ties)
    team_ranks: list[int]
    #: per seat
    ranks: tuple[int, ...]
    points: tuple[int, ...]

    @classmethod
    def of(cls, view: Observation, num_seats: int, partnership: bool) -> MatchOutcome:
        teams = rating_math.seat_teams(num_seats, partnership)
        team_of = {seat: i for i, team in enumerate(teams) for seat in team}
        return cls(
            teams=teams,
            team_ranks=[view.ranking[i] for i in range(len(teams))],
            ranks=tuple(view.ranking[team_of[s]] for s in range(num_seats)),
            points=tuple(view.scores[team_of[s]] for s in range(num_seats)),
        )


def _rate(
    outcome: MatchOutcome, before: dict[int, Rating], team_ranks: Sequence[int]
) -> dict[int, Rating]:
    ratings = [
        [before.get(s, rating_math.default_rating()) for s in team] for team in outcome.teams
    ]
    new = rating_math.rate(ratings, list(team_ranks))
    return {
        seat: value
        for team, values in zip(outcome.teams, new, strict=True)
        for seat, value in zip(team, values, strict=True)
        if seat in before
    }


def new_ratings(
    outcome: MatchOutcome, before: dict[int, Rating], resigned: set[int]
) -> dict[int, Rating]:
    """Ratings after the match for every rated seat in ``before``; a
    resigned seat is rated as if its side had come last."""
    after = _rate(outcome, before, outcome.team_ranks)
    last = max(outcome.team_ranks) + 1
    for seat in resigned & set(before):
        ranks = [
            last if seat in team else rank
            for team, rank in zip(outcome.teams, outcome.team_ranks, strict=True)
        ]
        after[seat] = _rate(outcome, before, ranks)[seat]
    return after


class ResultRecorder:
    def __init__(self, store: Store) -> None:
        self.store = store
        # one finish at a time: ratings are read, updated and written together
        self._guard = asyncio.Lock()

    async def record(
        self,
        *,
        table_id: int,
        guild_id: int | None,
        game: str,
        seats: Sequence[SeatInfo],
        outcome: MatchOutcome,
        rated_with_ai: bool,
    ) -> ResultInfo:
        has_ai = any(s.ai is not None and s.user_id is None for s in seats)
        rated = guild_id is not None and (not has_ai or rated_with_ai)
        resigned = {s.seat for s in seats if s.resigned}
        async with self._guard:
            rows = await self.store.rating_rows(guild_id, game) if guild_id is not None else []
            existing = {r.user_id: r for r in rows}
            before: dict[int, Rating] = {}
            for seat in seats:
                if seat.user_id is not None:
                    row = existing.get(seat.user_id)
                    before[seat.seat] = (row.mu, row.sigma) if row else rating_math.default_rating()
            after = new_ratings(outcome, before, resigned) if rated else dict(before)
            results: list[dict[str, Any]] = []
            rating_rows: list[dict[str, Any]] = []
            changes: dict[int, tuple[float, float]] = {}
            for seat in seats:
                won = outcome.ranks[seat.seat] == 1 and seat.seat not in resigned
                mu_b, sg_b = before.get(seat.seat, (0.0, 0.0))
                mu_a, sg_a = after.get(seat.seat, (0.0, 0.0))
                human = seat.user_id is not None
                results.append(
                    {
                        "seat": seat.seat,
                        "user_id": seat.user_id,
                        "rank": outcome.ranks[seat.seat],
                        "points": outcome.points[seat.seat],
                        "won": won,
                        "rating_before": rating_math.ordinal(mu_b, sg_b) if human else None,
                        "rating_after": rating_math.ordinal(mu_a, sg_a) if human else None,
                    }
                )
                if seat.user_id is None:
                    continue
                row = existing.get(seat.user_id)
                rating_rows.append(
                    rating_math.as_row(
                        seat.user_id,
                        seat.name,
                        mu_a,
                        sg_a,
                        (row.played if row else 0) + 1,
                        (row.won if row else 0) + int(won),
                        (row.points if row else 0) + outcome.points[seat.seat],
                    )
                )
                if rated:
                    changes[seat.seat] = (
                        rating_math.ordinal(mu_b, sg_b),
                        rating_math.ordinal(mu_a, sg_a),
                    )
            await self.store.record_results(table_id, results, rating_rows, guild_id, game)
        return ResultInfo(outcome.ranks, outcome.points, changes, tuple(sorted(resigned)))

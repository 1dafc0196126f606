"""A finished match's results, ratings and leaderboard rows.

Written in one store transaction together with the table's ``finished``
status, so finishing is all-or-nothing: a crash before the commit leaves a
"playing" table whose replayed match is over, and ``TableService.start``
finishes it again from scratch (exactly once, because the results and the
status land together).

Rulings where the issues were silent:

* a match is rated only in a server, only when no seat was an AI from the
  start (unless the server's ``rated_with_ai`` says otherwise), and never
  at a board table of a duplicate tournament (boards count in the
  tournament's standings); a player who resigned and was replaced by an AI
  does not make it unrated.  An unrated result says why (``UNRATED``);
* a player who resigned counts as having lost: their seat is placed below
  every seat that did not resign (resigners among themselves by the
  engine's result), it is never a win, and their rating moves as if their
  side had finished last.  Their partner is placed and rated on the team's
  real result, and everybody else on the result among those who did not
  resign (``places``), so the winner line, the places, ``/history``, the
  leaderboard's wins and the rating changes all tell the same story.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.history_queries import tournament_status
from bot.db.repositories import Store
from bot.services import ratings as rating_math
from bot.services.models import ResultInfo, SeatInfo
from engine import Observation

Rating = tuple[float, float]

#: why a result is not rated: played outside a server; an AI played a seat
#: from the start and the server does not rate such games; a board table
#: of a duplicate tournament
NO_SERVER, AI_SEATS, TOURNAMENT_BOARD = "no_server", "ai_seats", "board"
UNRATED = (NO_SERVER, AI_SEATS, TOURNAMENT_BOARD)


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


def _competition(keys: Sequence[tuple[bool, int]]) -> list[int]:
    """1 + how many keys are strictly better (shared places on ties)."""
    return [1 + sum(other < key for other in keys) for key in keys]


def places(outcome: MatchOutcome, resigned: set[int]) -> tuple[int, ...]:
    """Each seat's place: a seat that resigned comes after every seat that
    did not (resigners among themselves by the engine's ranking); the
    others keep their order.  The entries placed are the seats of a side
    that stayed together: a team, or, when one partner resigned, the
    partner who stayed (the team's real result) and the resigner (last)."""
    team_of = {seat: i for i, team in enumerate(outcome.teams) for seat in team}
    entries = sorted({(team_of[s], s in resigned) for s in range(len(outcome.ranks))})
    keys = [(gone, outcome.team_ranks[team]) for team, gone in entries]
    place = dict(zip(entries, _competition(keys), strict=True))
    return tuple(place[(team_of[s], s in resigned)] for s in range(len(outcome.ranks)))


def team_places(outcome: MatchOutcome, resigned: set[int]) -> list[int]:
    """The teams' ranks for the rating model: a team whose every seat
    resigned comes last; the others keep their real order."""
    keys = [
        (all(s in resigned for s in team), rank)
        for team, rank in zip(outcome.teams, outcome.team_ranks, strict=True)
    ]
    return _competition(keys)


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
    """Ratings after the match for every rated seat in ``before``: the
    teams ranked by ``team_places``, and a resigned seat rated as if its
    side had come last."""
    ranks_now = team_places(outcome, resigned)
    after = _rate(outcome, before, ranks_now)
    last = max(ranks_now) + 1
    for seat in resigned & set(before):
        ranks = [
            last if seat in team else rank
            for team, rank in zip(outcome.teams, ranks_now, strict=True)
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
        resigned = {s.seat for s in seats if s.resigned}
        unrated = await self.unrated_reason(table_id, guild_id, seats, rated_with_ai)
        rated = unrated is None
        place = places(outcome, resigned)
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
                won = place[seat.seat] == 1 and seat.seat not in resigned
                mu_b, sg_b = before.get(seat.seat, (0.0, 0.0))
                mu_a, sg_a = after.get(seat.seat, (0.0, 0.0))
                human = seat.user_id is not None
                results.append(
                    {
                        "seat": seat.seat,
                        "user_id": seat.user_id,
                        "rank": place[seat.seat],
                        "points": outcome.points[seat.seat],
                        "won": won,
                        "rating_before": rating_math.ordinal(mu_b, sg_b) if human else None,
                        "rating_after": rating_math.ordinal(mu_a, sg_a) if human else None,
                        "unrated": unrated,
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
        return ResultInfo(place, outcome.points, changes, tuple(sorted(resigned)), unrated)

    async def unrated_reason(
        self,
        table_id: int,
        guild_id: int | None,
        seats: Sequence[SeatInfo],
        rated_with_ai: bool,
    ) -> str | None:
        """Why the match is not rated (``UNRATED``), or None: it is."""
        if guild_id is None:
            return NO_SERVER
        if await tournament_status(self.store, table_id) is not None:
            return TOURNAMENT_BOARD
        has_ai = any(s.ai is not None and s.user_id is None for s in seats)
        if has_ai and not rated_with_ai:
            return AI_SEATS
        return None

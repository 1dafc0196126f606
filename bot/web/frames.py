"""The server's frames, built from what the service hands this reader
(docs/web.md): ``state`` from ``private_view`` (a seated player: their own
``view(seat)``) or ``public_view`` (everybody else: ``view(None)``, with
every view check of the service), ``welcome`` and ``replay``.

Texts are in the current language (the caller's ``using``).  Nothing here
touches a ``LiveTable``: the service's public read API decides what this
actor may see, exactly as for the Discord presenter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import t
from bot.i18n.terms import seat_display_name
from bot.render.text import render_ranking
from bot.services.actor import Actor
from bot.services.errors import NotSeated, WrongStatus
from bot.services.history import ReplayedMatch
from bot.services.models import ResultInfo, SeatInfo, TableInfo
from bot.services.watching import spectator_view
from bot.web.protocol import JsonDict, players_json, view_json
from bot.web.words import action_label, words_in
from engine import MatchState, Observation, get_game


def seat_names(seats: Sequence[SeatInfo]) -> list[str]:
    """Each seat's name as the reader sees it ("Ada (AI, normal)" in their words)."""
    return [
        seat_display_name(s.name, s.ai) if s.name else t("Seat {seat}", seat=s.seat + 1)
        for s in seats
    ]


def welcome_frame(actor: Actor, lang: str) -> JsonDict:
    return {
        "type": "welcome",
        "user": {"id": str(actor.user_id), "name": actor.name},
        "lang": lang,
        "words": words_in(lang),
    }


def winners(view: Observation, results: ResultInfo | None) -> list[int]:
    """The seats ranked first (a team's seats in partnership games)."""
    if results is not None:
        return list(results.winners())
    if view.teams:
        return sorted(s for i, team in enumerate(view.teams) if view.ranking[i] == 1 for s in team)
    return [s for s, rank in enumerate(view.ranking) if rank == 1]


def result_json(
    view: Observation, names: Sequence[str], you: int | None, results: ResultInfo | None
) -> JsonDict:
    ranks = results.ranks if results is not None else None
    lines = render_ranking(view, names, you=you, ranks=ranks).splitlines()
    return {"lines": lines, "winners": winners(view, results)}


async def table_state(
    service: Any,
    table_id: int,
    actor: Actor,
    results: ResultInfo | None = None,
    seated: bool = False,
) -> JsonDict:
    """The ``state`` frame of ``table_id`` for ``actor``; a ``ServiceError``
    when the actor may not see it (another server, a secret board).
    ``seated``: the actor sat at the table at the last frame, so their own
    view is asked for first (one service call instead of two)."""
    view: Observation | None = None
    info: TableInfo | None = None
    if seated:
        try:
            private = await service.private_view(table_id, actor)
            info, view = private.table, private.view
        except (NotSeated, WrongStatus):
            info = None
    if info is None:
        info, view = await spectator_view(service, table_id, actor)
        if info.seat_of(actor.user_id) is not None and info.status != "lobby":
            private = await service.private_view(table_id, actor)
            info, view = private.table, private.view
    seat = info.seat_of(actor.user_id)
    names = seat_names(info.seats)
    result = None
    if view is not None and view.is_over:
        result = result_json(view, names, seat, results)
    return {
        "type": "state",
        "table": info.id,
        "seq": info.seq,
        "seat": seat,
        "game": info.game,
        "players": players_json(info.seats, names, seat),
        "deadline": info.deadline,
        "now": service.clock(),
        "view": view_json(view, action_label) if view is not None else None,
        "status": info.status,
        "result": result,
    }


class ReplayCursor:
    """A finished match stepped through move by move (``replay_step``).
    The match is over, so every hand is public (``match_replay`` refuses
    a match that is not)."""

    def __init__(self, replayed: ReplayedMatch, you: int | None) -> None:
        self.match = replayed.match
        self.you = you
        self.total = len(self.match.actions)
        self._state: MatchState | None = None
        self._at = 0

    def _state_at(self, at: int) -> MatchState:
        match = self.match
        if self._state is None or at < self._at:
            spec = get_game(match.game)
            self._state = spec.new_match(seed=match.seed, variant=spec.check_variant(match.variant))
            self._at = 0
        for text in match.actions[self._at : at]:
            self._state.apply(text)
        self._at = at
        return self._state

    def frame(self, at: int) -> JsonDict:
        at = max(0, min(at, self.total))
        state = self._state_at(at)
        view = state.view(None)
        seats = range(view.num_seats)
        names = [
            seat_display_name(name, ai) if name else t("Seat {seat}", seat=s + 1)
            for s, name, ai in zip(
                seats, self.match.names, self.match.ai or [None] * len(seats), strict=False
            )
        ]
        players = [
            {
                "seat": s,
                "name": names[s],
                "ai": bool(self.match.ai and self.match.ai[s]),
                "away": False,
                "you": s == self.you,
            }
            for s in seats
        ]
        return {
            "type": "replay",
            "table": self.match.table_id,
            "at": at,
            "total": self.total,
            "game": self.match.game,
            "players": players,
            "view": view_json(view, action_label),
            "hands": [[str(c) for c in state.view(s).hand] for s in seats],
            "moves": list(self.match.actions),
        }

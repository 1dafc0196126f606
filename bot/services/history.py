"""History and replays (issue 16): what a server's finished matches were.

Authority lives here, from the caller's ``Actor`` (bot/services/actor.py):

* a table belongs to its server (or DM channel): a caller from anywhere
  else is refused exactly as if the table did not exist;
* ``/table history`` (``table_deals``) shows public facts only -- calls,
  contract, tricks won, scores of the finished deals -- so it works while
  the match is live (``bot.services.replays.deal_summaries``);
* ``/replay`` (``match_replay``) reveals every hand, so it is refused until
  the table is *finished* (its results recorded) and the engine agrees the
  match is over (``build_replay``): never on a live or abandoned table;
* a board table of a duplicate tournament shows neither (its deals are
  played at the other tables too: docs/history-and-tournaments.md,
  "board_complete") until the tournament is over.

Everything is recomputed from the stored record (game, variant, seed,
action log): nothing new is stored.  The front ends (Discord, terminal)
render what these functions return.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.db.history_queries import PlayedMatch, played_matches, tournament_status
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.errors import ServiceError, TableNotFound, WrongStatus
from bot.services.replays import (
    DamagedLog,
    DealReplay,
    DealSummary,
    MatchReplay,
    ReplayNotReady,
    build_replay,
    deal_summaries,
    log_from_rows,
)
from bot.services.tournaments import ACTIVE as TOURNAMENT_ACTIVE
from bot.services.validation import require_table_id
from engine import EngineError, Observation, get_game

#: how many matches /history lists
HISTORY_LIMIT = 10
#: the largest table id, deal and trick a custom_id may name (validated)
MAX_TABLE_ID = 10**12 - 1


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A table's stored record, as the history functions need it."""

    table_id: int
    game: str
    variant: dict[str, Any]
    seed: int
    status: str
    names: tuple[str, ...]
    actions: list[str]
    seats: list[int]
    #: per seat: the AI level of an AI seat (None for a person), and the
    #: person's user id, so that a reader sees the program's words ("You",
    #: "(AI, normal)") in their own language and only typed names as stored
    ai: tuple[str | None, ...] = ()
    users: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TableDeals:
    match: StoredMatch
    deals: tuple[DealSummary, ...]


@dataclass(frozen=True, slots=True)
class ReplayedMatch:
    match: StoredMatch
    replay: MatchReplay


@dataclass(frozen=True, slots=True)
class Position:
    """A step of a replay: ``trick`` 0 is the deal as dealt (before the
    first trick), ``trick`` k the table after trick k."""

    deal: DealReplay
    trick: int

    @property
    def last(self) -> int:
        return len(self.deal.tricks)


async def player_history(
    store: Store, actor: Actor, user_id: int, game: str | None = None
) -> list[PlayedMatch]:
    """A player's newest finished matches on the caller's server.  Results
    and ratings are kept per server, so a DM or the terminal has none."""
    if actor.guild_id is None:
        raise ServiceError("match history is kept per server: ask in a server", "guild_only")
    name = get_game(game).name if game else None
    return await played_matches(store, actor.guild_id, user_id, name, HISTORY_LIMIT)


async def stored_match(store: Store, actor: Actor | None, table_id: int) -> StoredMatch:
    """The table's record; ``actor`` None is the operator (terminal replay
    of a local database), else the table must be of the caller's server."""
    table_id = require_table_id(table_id)
    found = await store.table(table_id)
    if found is None:
        raise TableNotFound("there is no table #{table} here", table=table_id)
    row, seat_rows = found
    if actor is not None and not actor.in_scope(row.guild_id, row.channel_id):
        raise TableNotFound("there is no table #{table} here", table=table_id)
    if await tournament_status(store, table_id) in TOURNAMENT_ACTIVE:
        raise WrongStatus(
            "table #{table} plays a board of a tournament in progress: its deals are shown "
            "when the tournament is over",
            "tournament_running",
            table=table_id,
        )
    rows = await store.actions(table_id)
    try:
        actions, seats = log_from_rows([(r.seq, r.notation, r.seat) for r in rows])
    except DamagedLog as exc:
        raise _damaged(table_id) from exc
    return StoredMatch(
        table_id=table_id,
        game=row.game,
        variant=json.loads(row.variant or "{}"),
        seed=int(row.seed),
        status=row.status,
        names=tuple(s.name or f"#{s.seat + 1}" for s in seat_rows),
        actions=actions,
        seats=seats,
        ai=tuple(s.ai for s in seat_rows),
        users=tuple(s.user_id for s in seat_rows),
    )


def _damaged(table_id: int) -> ServiceError:
    return ServiceError(
        "table #{table}'s stored moves do not replay: its history cannot be shown",
        "corrupt_log",
        table=table_id,
    )


async def table_deals(store: Store, actor: Actor, table_id: int) -> TableDeals:
    """The finished deals of a table, live or over: public facts only."""
    match = await stored_match(store, actor, table_id)
    if match.status == "lobby" or (not match.actions and match.status != "playing"):
        raise WrongStatus(
            "table #{table} has not started: it has no deals yet", "not_started", table=table_id
        )
    try:
        deals = deal_summaries(
            match.game,
            seed=match.seed,
            variant=match.variant,
            actions=match.actions,
            seats=match.seats,
        )
    except DamagedLog as exc:
        raise _damaged(table_id) from exc
    return TableDeals(match, deals)


def _not_over(table_id: int) -> WrongStatus:
    return WrongStatus(
        "the replay of table #{table} opens when its match is over: a replay shows every hand",
        "match_not_over",
        table=table_id,
    )


async def match_replay(store: Store, actor: Actor | None, table_id: int) -> ReplayedMatch:
    """A finished match with every hand revealed; refused while it is live."""
    match = await stored_match(store, actor, table_id)
    if match.status != "finished":
        raise _not_over(table_id)
    try:
        replay = build_replay(
            match.game,
            seed=match.seed,
            variant=match.variant,
            actions=match.actions,
            seats=match.seats,
        )
    except ReplayNotReady as exc:
        raise _not_over(table_id) from exc
    except DamagedLog as exc:
        raise _damaged(table_id) from exc
    return ReplayedMatch(match, replay)


def position(replay: MatchReplay, deal: int, trick: int) -> Position:
    """Deal ``deal`` (1-based) at ``trick`` (0 = as dealt); anything else
    (a stale or forged button) is a clear refusal."""
    total = len(replay.deals)
    if type(deal) is not int or not 1 <= deal <= total:
        raise ServiceError("this match has deals 1 to {count}", "no_such_deal", count=total)
    chosen = replay.deals[deal - 1]
    if type(trick) is not int or not 0 <= trick <= len(chosen.tricks):
        raise ServiceError(
            "deal {deal} has tricks 1 to {count}",
            "no_such_trick",
            deal=deal,
            count=len(chosen.tricks),
        )
    return Position(chosen, trick)


def actions_until(pos: Position) -> int:
    """How many logged actions bring the match to ``pos``: the last card of
    trick k, or (k = 0) the deal's first card play (auction done)."""
    moves = pos.deal.moves
    if pos.trick == 0:
        plays = [m.index for m in moves if m.action.startswith("play ")]
        return plays[0] if plays else (moves[0].index if moves else 0)
    ends = [m.index for m in moves if any(e.startswith("trick_won") for e in m.events)]
    return ends[pos.trick - 1] + 1


def public_view_at(match: StoredMatch, count: int) -> Observation:
    """The spectator's view after the first ``count`` actions (the table
    picture of a replay step)."""
    try:
        spec = get_game(match.game)
        state = spec.new_match(seed=match.seed, variant=spec.check_variant(match.variant))
        for text in match.actions[:count]:
            state.apply(text)
    except EngineError as exc:
        raise _damaged(match.table_id) from exc
    return state.view(None)


def names_of(match: StoredMatch) -> Sequence[str]:
    return match.names

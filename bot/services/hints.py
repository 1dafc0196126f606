"""Hints at casual tables: the hard AI's suggestion for the asking seat.

Rulings (issue 16 says "a table setting, off by default, never in rated
games"; the rest was silent):

* The switch is the server setting ``hints`` (``/settings set game:server
  key:hints value:true``, moderators only, off by default), so the players
  of a table cannot turn it on for themselves mid-game.
* Hints are refused wherever the result would be rated.  A match is rated
  exactly as ``ResultRecorder.record`` decides (``would_be_rated``): in a
  server, when no seat was an AI from the start, unless the server's
  ``rated_with_ai`` is on.  So hints work at tables with an AI opponent or
  partner on a server that does not rate those, and never at a table of
  people only.  DM and terminal tables have no server settings: no hints.
  (If a moderator turns ``rated_with_ai`` on in the middle of a match where
  hints were given, that match is rated; hints stop at once.)
* Only a seated player, on their own turn, gets a hint, privately.  It is
  computed from that seat's own view ``state.view(seat)`` (the service's
  ``private_view``), never the full state, by the honest search agent
  (the "hard" AI) through the service's ``Thinker`` worker pool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.services.actor import Actor
from bot.services.ai_worker import Decision
from bot.services.errors import ServiceError, WrongStatus
from bot.services.models import TableInfo
from bot.services.policy import DIFFICULTIES
from engine import Action
from engine.ai import agent_names

#: the AI whose move is suggested: the "hard" one (the honest search agent)
HINT_AGENT = DIFFICULTIES["hard"]
#: its thinking time for one hint
HINT_BUDGET_MS = 1500


@dataclass(frozen=True, slots=True)
class Hint:
    table: TableInfo
    seat: int
    #: the table's seq the hint is for (a later move makes it stale)
    seq: int
    action: Action


def would_be_rated(info: TableInfo, guild_settings: dict[str, Any]) -> bool:
    """The rating rule of ``ResultRecorder.record``, for a table in play: a
    seat that is an AI and never had a person (not a resigned player's)
    makes the match unrated unless the server rates games with AI."""
    has_ai = any(s.ai is not None and s.user_id is None for s in info.seats)
    return info.guild_id is not None and (not has_ai or bool(guild_settings.get("rated_with_ai")))


async def hint(service: Any, table_id: int, actor: Actor, *, budget_ms: int | None = None) -> Hint:
    """The hard AI's suggestion for the actor's seat, or a refusal that
    changes nothing (service errors)."""
    private = await service.private_view(table_id, actor)  # scope, seat, started
    info, seat, view = private.table, private.seat, private.view
    if info.status != "playing":
        raise WrongStatus("table #{table} is not being played", "not_playing", table=info.id)
    guild = await service.get_guild_settings(info.guild_id)
    if not guild.get("hints"):
        raise ServiceError(
            "hints are off on this server (a moderator can turn them on: "
            "`/settings set game:server key:hints value:true`)",
            "hints_off",
        )
    if would_be_rated(info, guild):
        raise ServiceError("no hints in a rated game", "rated")
    legal = view.legal_actions
    if view.decider != seat or not legal:
        raise ServiceError("a hint is for your own turn: wait until it is yours", "not_your_turn")
    if len(legal) == 1:
        return Hint(info, seat, info.seq, legal[0])
    agent = HINT_AGENT if HINT_AGENT in agent_names(info.game) else "heuristic"
    action = await service.thinker.decide(
        Decision(
            table_id=info.id,
            game=info.game,
            agent=agent,
            view=view,
            legal=legal,
            seed=info.id * 1000 + info.seq,
            budget_ms=HINT_BUDGET_MS if budget_ms is None else budget_ms,
        )
    )
    return Hint(info, seat, info.seq, action)

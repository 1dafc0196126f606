"""Duplicate tournaments on the bot's own tables (issue 16).

``bot.services.duplicate.Tournament`` is the pure core (boards from seeds,
the movement, matchpoints / IMPs, standings); this service runs one with
the ``TableService``:

* ``new`` (moderators only: ``GuildSettings.is_moderator`` decides from the
  caller's ``Actor``), ``join`` (a person takes the next free place of a
  pair or a player) and ``start`` (the host or a moderator).
* A round is one board played at every table.  Each board at each table is
  an ordinary table, dealt from the board's seed with the tournament's
  variant, its seats filled in the movement's order: the people of the
  entrant that sits there, else an AI player (``AI_DIFFICULTY``).  The
  table is hosted by a "tournament director" id of its own (negative, never
  a person), so it does not count against anybody's open tables.
* The service follows every table through ``TableService.subscribe``: when
  the board's deal is over at a table, its moves are recorded in the
  ``Tournament`` (which checks them through the engine again), the state is
  saved, and the table is ended (its later deals belong to no board).  An
  ended table's match is not over, so it is not rated and no replay of it
  opens (a replay shows every hand: the board may still be in play at
  another table).
  When a board is over at every table, the next round's tables are made;
  after the last board the tournament is finished and its standings kept
  for the server's tournament leaderboard.

Secrecy.  Every table of a board holds the same hands, so a board's cards
are secret from the tournament's other tables until every table has played
it (``check_view``, a ``TableService`` view check: ``/table watch`` and
``/table status`` of a board table are refused to everyone but its own
players and the server's moderators who play no part in the tournament,
until the board is complete).  The front end learns of each board table
before it starts (``table_listeners``) so that it can give it a place only
its players read (the bot: a private thread); a board table's public
updates never go anywhere else (``TableInfo.private``).  A table whose
board is recorded ends with the update kind ``BOARD_RECORDED``, not as an
abandoned table.

Restarts.  Everything is in the store: the state (finished boards' moves,
the entrants' people, the standings message) in ``tournaments`` and the
board tables in ``tournament_tables``; a board in play is the table's own
action log, which the ``TableService`` resumes.  ``resume`` (after the
``TableService`` has started) reloads the unfinished tournaments and
reconciles each with its tables: a board that ended while the bot was down
is recorded, a round whose tables were not all made is completed, a table
left in its lobby by an interrupted start is made again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.db.tournaments import BoardTable, TournamentStore
from bot.i18n import N_
from bot.services.actor import Actor
from bot.services.duplicate import MAX_BOARDS, MAX_TABLES, Tournament, TournamentError
from bot.services.errors import NotModerator, ServiceError
from bot.services.models import TableInfo
from bot.services.tables import TableService
from bot.services.tournament_runner import TournamentRunner
from bot.services.tournament_state import (
    ACTIVE,
    DIRECTOR_SPAN,
    FINISHED,
    LOBBY,
    PLAYING,
    LiveTournament,
    TournamentInfo,
)
from bot.services.validation import validated
from engine import get_game

log = logging.getLogger(__name__)

AI_DIFFICULTY = "normal"
MAX_NAME = 60

BOARD_HIDDEN = N_(
    "table #{table} plays a board of tournament #{id} that another table is still playing: "
    "its cards are shown once every table has played it"
)

ONLY_MODERATORS = N_(
    "only moderators (Manage Server, or the server's moderator role) can open or start a tournament"
)

Listener = Callable[["TournamentInfo"], Awaitable[None]]


def tournament_of(host_id: int) -> int | None:
    """The tournament whose board a table with this host plays (its host is
    a "director", ``TournamentService._director``), else None."""
    if host_id >= 0:
        return None
    return (-host_id - 1) // DIRECTOR_SPAN


def _whole(value: Any, refusal: ServiceError) -> int:
    """A whole number from a front end (typed text included) within the
    bounds ``refusal`` names, else ``refusal``."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 4:
        raise refusal
    number = int(text)
    if not refusal.params["low"] <= number <= refusal.params["high"]:
        raise refusal
    return number


@validated
class TournamentService(TournamentRunner):
    """Tournaments of the ``TableService``'s server tables (see the module):
    the lobby, reading and the life cycle here; following the board tables
    and making each round's tables in ``TournamentRunner``."""

    def __init__(
        self,
        tables: TableService,
        *,
        seed: Callable[[], int] | None = None,
        ai_difficulty: str = AI_DIFFICULTY,
    ) -> None:
        self.tables = tables
        self.store = TournamentStore(tables.store)
        self.new_seed = seed or (lambda: random.SystemRandom().randrange(2**62))
        self.ai_difficulty = ai_difficulty
        self.live: dict[int, LiveTournament] = {}
        #: table id -> (tournament id, table number, board)
        self.boards: dict[int, tuple[int, int, int]] = {}
        #: board tables ended before their board was over (``_deal_again``): their
        #: cards stay as secret as the board's
        self.retired: dict[int, tuple[int, int, int]] = {}
        self.listeners: list[Listener] = []
        #: called with each board table made, seated and not yet started: the
        #: bot gives it a place only its players read and posts its message there
        self.table_listeners: list[Callable[[int], Awaitable[None]]] = []
        self._unsubscribe: Callable[[], None] | None = None
        self._unview: Callable[[], None] | None = None
        self._unclose: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- life cycle -----------------------------------------------------------------------
    def subscribe(self) -> None:
        """Follow the tables' updates (before the ``TableService`` resumes
        its tables, so no board end is missed)."""
        if self._unsubscribe is None:
            self._unsubscribe = self.tables.subscribe(self._on_update)
        if self._unview is None:
            self._unview = self.tables.add_view_check(self.check_view)
        if self._unclose is None:
            # stop before the tables do: a board being recorded as the bot
            # stops is recorded (and its tables ended) by the next start,
            # from the tables' stored moves, while its front end shows it
            self._unclose = self.tables.add_close_step(self.close)

    async def resume(self) -> None:
        """Reload the unfinished tournaments and bring each up to date with
        its tables (call it once the ``TableService`` has started)."""
        self.subscribe()
        records = await self.store.with_status(ACTIVE)
        for record in records:
            try:
                self.live[record.id] = LiveTournament.of(record)
            except (TournamentError, KeyError, TypeError, ValueError) as exc:
                log.error("tournament %s cannot be restored: %s", record.id, exc)
        for link in await self.store.links([r.id for r in records]):
            self._remember(link)
        for tour in list(self.live.values()):
            if tour.status == PLAYING:
                await self._reconcile(tour)
        await self._end_recorded_tables()

    async def _end_recorded_tables(self) -> None:
        """After a restart: a board table still open although its board is
        recorded -- the bot stopped (SIGTERM, a crash) between saving the
        board and ending its table -- is ended now, as it would have been:
        left open, it would play on a match whose later deals belong to no
        board, pinging its people, and never say its board was recorded.
        A tournament no longer running (over: not reloaded) has every
        board recorded."""
        for live in list(self.tables.tables.values()):
            tournament_id = tournament_of(live.host_id)
            if tournament_id is None or live.status not in ("lobby", "playing"):
                continue
            tour = self.live.get(tournament_id)
            if tour is not None:
                where = self.boards.get(live.id)
                if where is None or not tour.duplicate.board_over(where[1], where[2]):
                    continue
            else:
                record = await self.store.get(tournament_id)
                if record is None or record.status in ACTIVE:
                    continue
            table_no = (-live.host_id - 1) % DIRECTOR_SPAN
            await self._end_table(tournament_id, table_no, live.id)

    async def close(self) -> None:
        """Stop following the tables and cancel the recordings in flight
        (``resume`` after a restart finishes them from the stored moves)."""
        if self._unclose is not None:
            self._unclose()
            self._unclose = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unview is not None:
            self._unview()
            self._unview = None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _remember(self, link: BoardTable) -> None:
        tour = self.live.get(link.tournament_id)
        if tour is not None:
            tour.tables[(link.table_no, link.board)] = link.table_id
            self.boards[link.table_id] = (link.tournament_id, link.table_no, link.board)

    # -- the lobby --------------------------------------------------------------------------
    async def new(
        self, actor: Actor, *, game: Any, boards: Any, tables: Any, channel_id: int | None = None
    ) -> TournamentInfo:
        """A tournament in its lobby, in the actor's channel (moderators only)."""
        if actor.guild_id is None:
            raise ServiceError(
                "a tournament belongs to a server: use this in a server", "no_server"
            )
        if not await self.tables.is_moderator(actor):
            raise NotModerator(ONLY_MODERATORS)
        spec = get_game(str(game)[:32])  # UnknownGame: a clear refusal of its own
        board_count = _whole(
            boards,
            ServiceError(
                "play {low} to {high} boards: a whole number", "bad_number", low=1, high=MAX_BOARDS
            ),
        )
        table_count = _whole(
            tables,
            ServiceError(
                "a tournament has {low} to {high} tables: a whole number",
                "bad_number",
                low=2,
                high=MAX_TABLES,
            ),
        )
        channel = channel_id if channel_id is not None else actor.channel_id
        for other in self.live.values():
            if other.status in ACTIVE and other.channel_id == channel:
                raise ServiceError(
                    "tournament #{id} is still running in this channel", "busy_channel", id=other.id
                )
        defaults = dict(await self.tables.get_settings(actor.guild_id, spec.name))
        turn_seconds = defaults.pop("turn_seconds", None)
        variant = spec.Variant.from_options(defaults).to_dict()
        duplicate = Tournament.new(
            spec.name, tables=table_count, boards=board_count, seed=self.new_seed(),
            variant=variant,
        )  # fmt: skip
        members = 2 if duplicate.partnership else 1
        places: list[list[list[Any] | None]] = [
            [None] * members for _ in range(duplicate.entrant_count)
        ]
        tour = LiveTournament(
            id=0,
            guild_id=actor.guild_id,
            channel_id=channel,
            host_id=actor.user_id,
            status=LOBBY,
            duplicate=duplicate,
            places=places,
            turn_seconds=turn_seconds,
        )
        tour.id = await self.store.create(
            guild_id=tour.guild_id,
            channel_id=channel,
            host_id=actor.user_id,
            game=spec.name,
            state=tour.to_state(),
        )
        self.live[tour.id] = tour
        return tour.info()

    def _here(self, actor: Actor, tournament_id: int | None) -> LiveTournament:
        """The tournament asked for (default: the one running in the actor's
        channel), if it belongs to the actor's server."""
        if tournament_id is not None:
            tour = self.live.get(int(tournament_id))
            if tour is None or tour.guild_id != actor.guild_id or actor.guild_id is None:
                raise ServiceError(
                    "there is no running tournament #{id} here", "no_tournament", id=tournament_id
                )
            return tour
        for tour in sorted(self.live.values(), key=lambda t: -t.id):
            here = tour.channel_id == actor.channel_id and tour.guild_id == actor.guild_id
            if tour.status in ACTIVE and here:
                return tour
        raise ServiceError("there is no tournament running in this channel", "no_tournament")

    async def join(self, actor: Actor, tournament_id: int | None = None) -> TournamentInfo:
        """Take the next free place: the second member of a pair that has
        one, else a new entrant."""
        tour = self._here(actor, tournament_id)
        async with tour.lock:
            if tour.status != LOBBY:
                raise ServiceError("the tournament has started: joining is closed", "started")
            if any(p is not None and p[0] == actor.user_id for e in tour.places for p in e):
                raise ServiceError("you are already in this tournament", "already_joined")
            name = " ".join((actor.name or f"Player {actor.user_id}").split())[:MAX_NAME]
            for entrant in tour.places:
                if entrant[0] is not None and None in entrant:
                    entrant[entrant.index(None)] = [actor.user_id, name]
                    break
            else:
                free = next((e for e in tour.places if all(p is None for p in e)), None)
                if free is None:
                    raise ServiceError("the tournament is full", "full")
                free[0] = [actor.user_id, name]
            await self.store.save(tour.id, state=tour.to_state())
        await self._tell(tour)
        return tour.info()

    async def start(self, actor: Actor, tournament_id: int | None = None) -> TournamentInfo:
        """Name the entrants and make round 1's tables (host or moderator)."""
        tour = self._here(actor, tournament_id)
        moderator = await self.tables.is_moderator(actor)
        async with tour.lock:
            if actor.user_id != tour.host_id and not moderator:
                raise NotModerator(ONLY_MODERATORS)
            if tour.status != LOBBY:
                raise ServiceError("the tournament has already started", "started")
            d = tour.duplicate
            label = "Pair" if d.partnership else "Player"
            for index, entrant in enumerate(tour.places):
                people = [p[1] for p in entrant if p is not None]
                d.entrants[index] = (" & ".join(people) if people else f"{label} {index + 1} (AI)")[
                    : MAX_NAME * 2
                ]
            tour.status = PLAYING
            await self.store.save(tour.id, state=tour.to_state(), status=PLAYING)
            await self._make_round(tour, 0)
        await self._tell(tour)
        return tour.info()

    # -- reading ------------------------------------------------------------------------------
    async def get(self, actor: Actor, tournament_id: int | None = None) -> TournamentInfo:
        """The channel's running tournament, else its last finished one (or
        one by id, from this server)."""
        if tournament_id is not None and int(tournament_id) not in self.live:
            record = await self.store.get(int(tournament_id))
            if record is not None and record.guild_id == actor.guild_id and actor.guild_id:
                return LiveTournament.of(record).info()
        try:
            return self._here(actor, tournament_id).info()
        except ServiceError:
            if tournament_id is not None or actor.guild_id is None:
                raise
        finished = [
            r
            for r in await self.store.with_status([FINISHED], actor.guild_id)
            if r.channel_id == actor.channel_id
        ]
        if not finished:
            raise ServiceError("there is no tournament in this channel", "no_tournament")
        return LiveTournament.of(finished[-1]).info()

    async def check_view(self, info: TableInfo, actor: Actor) -> None:
        """May ``actor`` see the cards of table ``info``?  (A ``TableService``
        view check.)  A board table's cards name the hands every other table
        of its board holds, so until the board is complete only the table's
        own players may see them, and the server's moderators who are none
        of the tournament's people (they direct it); everyone else, players
        of the other tables and spectators alike, follows the standings."""
        tournament_id = tournament_of(info.host_id)
        if tournament_id is None or info.seat_of(actor.user_id) is not None:
            return
        tour, board = await self._board_of(tournament_id, info.id)
        if tour is None or (board is not None and tour.duplicate.board_complete(board)):
            return
        people = {int(p[0]) for e in tour.places for p in e if p is not None}
        if actor.user_id not in people and await self.tables.is_moderator(actor):
            return
        raise ServiceError(BOARD_HIDDEN, "board_hidden", table=info.id, id=tournament_id)

    async def _board_of(
        self, tournament_id: int, table_id: int
    ) -> tuple[LiveTournament | None, int | None]:
        """The running tournament a board table belongs to (None once it is
        over: its boards are public) and the table's board (None: unknown,
        kept secret while the tournament runs).  Before ``resume`` has run
        (a restart), from the store."""
        tour = self.live.get(tournament_id)
        where = self.boards.get(table_id) or self.retired.get(table_id)
        if tour is not None:
            return tour, where[2] if where is not None else None
        record = await self.store.get(tournament_id)
        if record is None or record.status not in ACTIVE:
            return None, None
        tour = LiveTournament.of(record)
        links = await self.store.links([tournament_id])
        return tour, next((k.board for k in links if k.table_id == table_id), None)

    async def set_message(self, tournament_id: int, channel_id: int, message_id: int) -> None:
        """Where the standings message is (internal: the front end)."""
        tour = self.live.get(tournament_id)
        if tour is None:
            return
        async with tour.lock:
            tour.message = [channel_id, message_id]
            await self.store.save(tour.id, state=tour.to_state())

    async def leaderboard(self, guild_id: int | None, limit: int = 10) -> list[LeaderRow]:
        """People of this server by tournaments won, then played, then their
        mean matchpoint percentage (AI places are not ranked)."""
        if guild_id is None:
            return []
        rows: dict[int, LeaderRow] = {}
        for record in await self.store.with_status([FINISHED], guild_id):
            for row in record.state.get("final", []):
                for user_id, name in row["people"]:
                    old = rows.get(user_id, LeaderRow(user_id, name, 0, 0, 0.0))
                    rows[user_id] = LeaderRow(
                        user_id,
                        name,
                        old.played + 1,
                        old.won + (row["rank"] == 1),
                        old.percentage_sum + row["percentage"],
                    )
        ordered = sorted(rows.values(), key=lambda r: (-r.won, -r.played, -r.percentage, r.user_id))
        return ordered[:limit]


@dataclass(frozen=True, slots=True)
class LeaderRow:
    user_id: int
    name: str
    played: int
    won: int
    percentage_sum: float

    @property
    def percentage(self) -> float:
        return self.percentage_sum / self.played if self.played else 0.0

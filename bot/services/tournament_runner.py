"""Running a duplicate tournament's rounds on the table service: following
every board table's moves until its board is over, recording it, ending the
table, and making the next round's tables (``bot.services.tournaments`` has
the lobby, the reading side and the life cycle; see its docstring for the
whole design).

``TournamentRunner`` is the base of ``TournamentService``: it works on the
service's state (the live tournaments, the board tables, the store) and is
never made on its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.db.tournaments import BoardTable, TournamentStore
from bot.services.actor import Actor
from bot.services.errors import Resuming
from bot.services.models import BOARD_RECORDED, TableUpdate
from bot.services.tables import TableService
from bot.services.tournament_state import (
    DIRECTOR_SPAN,
    FINISHED,
    PLAYING,
    LiveTournament,
    TournamentInfo,
)

log = logging.getLogger(__name__)


class TournamentRunner:
    """Following the board tables and making each round's tables."""

    tables: TableService
    store: TournamentStore
    ai_difficulty: str
    live: dict[int, LiveTournament]
    boards: dict[int, tuple[int, int, int]]
    retired: dict[int, tuple[int, int, int]]
    listeners: list[Callable[[TournamentInfo], Awaitable[None]]]
    table_listeners: list[Callable[[int], Awaitable[None]]]
    _tasks: set[asyncio.Task[Any]]

    def _remember(self, link: BoardTable) -> None:
        raise NotImplementedError  # TournamentService keeps the board tables

    # -- following the tables ---------------------------------------------------------------
    async def _on_update(self, update: TableUpdate) -> None:
        where = self.boards.get(update.table.id)
        if where is None:
            return
        tour = self.live.get(where[0])
        if tour is None or tour.status != PLAYING:
            return
        # its own task: the harvest may make the next round's tables, whose
        # own updates come back here while the tournament's lock is held
        self._spawn(self._harvest(tour, where[1], where[2], update.table.id))

    async def _harvest(
        self, tour: LiveTournament, table_no: int, board: int, table_id: int
    ) -> None:
        """Record the board's moves made at its table so far; when the board
        is over there, save it, end the table and maybe go on."""
        d = tour.duplicate
        async with tour.lock:
            if d.board_over(table_no, board):
                return
            done = len(d.plays.get((table_no, board), []))
            moves = await self.tables.history(table_id, since=done)
            for _, _, action in moves:
                d.record(table_no, board, action)
                if d.board_over(table_no, board):
                    break
            if not d.board_over(table_no, board):
                info = await self._table_info(table_id)
                if info is not None and info.status in ("abandoned", "finished"):
                    await self._deal_again(tour, table_no, board, table_id)
                return
            over = d.is_over
            await self.store.save(
                tour.id, state=self._final(tour) if over else tour.to_state(),
                status=FINISHED if over else None,
            )  # fmt: skip
            if over:
                tour.status = FINISHED
            self._spawn(self._end_table(tour.id, table_no, table_id))
            if not over and d.board_complete(board):
                await self._make_round(tour, board + 1)
        await self._tell(tour)
        if tour.status == FINISHED:
            self._forget(tour)

    async def _deal_again(
        self, tour: LiveTournament, table_no: int, board: int, table_id: int
    ) -> None:
        """A board table ended before its board was over (a moderator ended
        it with /table abandon): the board starts again at a new table, from
        its first card, so that every table still plays the same deal (the
        caller holds the tournament's lock)."""
        log.warning(
            "tournament %s: table %s ended before board %s was over; dealing it again",
            tour.id, table_id, board + 1,
        )  # fmt: skip
        tour.duplicate.restart(table_no, board)
        tour.tables.pop((table_no, board), None)
        retired = self.boards.pop(table_id, None)
        if retired is not None:
            self.retired[table_id] = retired
        await self.store.save(tour.id, state=tour.to_state())
        await self._make_table(tour, table_no, board)

    def _final(self, tour: LiveTournament) -> dict[str, Any]:
        state = tour.to_state()
        state["final"] = [
            {
                "rank": s.rank,
                "entrant": s.entrant,
                "percentage": round(s.percentage, 2),
                "people": [list(p) for p in tour.places[s.entrant] if p is not None],
            }
            for s in tour.duplicate.standings()
        ]
        return state

    def _forget(self, tour: LiveTournament) -> None:
        for table_id in tour.tables.values():
            self.boards.pop(table_id, None)
        for table_id in [k for k, v in self.retired.items() if v[0] == tour.id]:
            del self.retired[table_id]
        self.live.pop(tour.id, None)

    async def _end_table(self, tournament_id: int, table_no: int, table_id: int) -> None:
        """End a board's table once its board is recorded (its later deals
        belong to no board): its players are told the board is recorded.
        Run as its own task: the table's AI driver may be the caller, and
        ending the table cancels it."""
        try:
            info = await self.tables.get_table(table_id)
            if info.status in ("lobby", "playing"):
                director = self._director(tournament_id, table_no, info)
                await self.tables.abandon(table_id, director, kind=BOARD_RECORDED)
        except Exception:
            log.exception("tournament table %s could not be ended", table_id)

    def _spawn(self, job: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Until no harvest or table-ending task is pending (tests, operators)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- making a round's tables --------------------------------------------------------------
    def _director(self, tournament_id: int, table_no: int, info: Any) -> Actor:
        return Actor(
            -(tournament_id * DIRECTOR_SPAN + table_no + 1),
            info.guild_id,
            info.channel_id,
            f"Tournament #{tournament_id}",
        )

    async def _make_round(self, tour: LiveTournament, board: int) -> None:
        """The tables of ``board`` that are not made yet (the caller holds
        the tournament's lock)."""
        for table_no in range(tour.duplicate.tables):
            if (table_no, board) not in tour.tables:
                await self._make_table(tour, table_no, board)

    async def _make_table(self, tour: LiveTournament, table_no: int, board: int) -> None:
        d = tour.duplicate
        director = self._director(tour.id, table_no, tour)
        options: dict[str, Any] = dict(d.variant)
        if tour.turn_seconds is not None:
            options["turn_seconds"] = tour.turn_seconds
        info = await self.tables.create_table(
            director,
            game=d.game,
            channel_id=tour.channel_id,
            options=options,
            seed=d.board_seeds[board],
            host_seat=None,
        )
        await self.store.link(tour.id, info.id, table_no, board)
        self._remember(BoardTable(tour.id, info.id, table_no, board))
        # seats are taken in order, so each person lands in the movement's seat
        for seat in d.lineup(table_no, board):
            place = tour.places[seat.entrant][seat.member]
            if place is None:
                await self.tables.add_ai(info.id, director, self.ai_difficulty)
            else:
                person = Actor(int(place[0]), tour.guild_id, tour.channel_id, str(place[1]))
                await self.tables.join(info.id, person)
        # before the first card: the front end places the table where only its
        # players read (a listener that fails leaves it shown nowhere)
        for callback in list(self.table_listeners):
            try:
                await callback(info.id)
            except Exception:
                log.exception("a tournament table listener failed")
        await self.tables.start_table(info.id, director)

    async def _reconcile(self, tour: LiveTournament) -> None:
        """After a restart: record boards that ended while the bot was down,
        remake tables an interrupted start left in their lobby, and make
        the current round's missing tables."""
        board = tour.round
        if board is None:
            return
        for table_no in range(tour.duplicate.tables):
            table_id = tour.tables.get((table_no, board))
            if table_id is None:
                continue
            info = await self._table_info(table_id)
            if info is not None and info.status == "lobby":
                await self.tables.abandon(table_id, self._director(tour.id, table_no, info))
                async with tour.lock:
                    del tour.tables[(table_no, board)]
                    self.boards.pop(table_id, None)
                continue
            await self._harvest(tour, table_no, board, table_id)
        if tour.status == PLAYING and tour.round is not None:
            async with tour.lock:
                await self._make_round(tour, tour.round)

    async def _table_info(self, table_id: int) -> Any:
        """The table's facts; one still being replayed after a restart is
        waited for on the table service's ``resumed()``, never polled."""
        try:
            return await self.tables.get_table(table_id)
        except Resuming:
            await self.tables.resumed()
            return await self.tables.get_table(table_id)

    async def _tell(self, tour: LiveTournament) -> None:
        info = tour.info()
        for callback in list(self.listeners):
            try:
                await callback(info)
            except Exception:
                log.exception("a tournament listener failed")

"""Turns: a person resigning or coming back, AI seats that play by
themselves, and the timers that replace a person who does not move.

A mixin of ``TableService`` (``tables.py``).  The AI driver of a table
cannot die: every exception is logged and retried with backoff, a
conflicting write re-reads the table, and a driver that stops while an AI
still has to move is restarted by its done-callback (no polling anywhere:
the deadline task sleeps until the next deadline, ``deadlines.py``).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import random
from typing import Any

from bot.db.repositories import StoreUnavailable
from bot.services.actor import Actor
from bot.services.ai_worker import Decision
from bot.services.errors import (
    StaleAction,
    TableBusy,
    WrongStatus,
)
from bot.services.live import LiveTable
from bot.services.models import (
    TableInfo,
)
from bot.services.policy import AWAY_AFTER_EXPIRIES, AWAY_TURN_SECONDS, DIFFICULTIES, DRIVER_BACKOFF
from engine import MatchState
from engine.ai import agent_names

log = logging.getLogger(__name__)


class TurnsMixin:
    """Turn flow of the TableService."""

    def _schedule(self, live: LiveTable) -> None:
        """Make sure an AI driver runs while an AI must decide.  A driver
        that ends for any reason while one is still needed is restarted
        (a done-callback, not a poller).  None starts once the service is
        closing."""
        if self.closing or not self._needs_driver(live):
            return
        if live.driver is None or live.driver.done():
            live.driver = asyncio.create_task(self._drive(live), name=f"cardtable-table-{live.id}")
            live.driver.add_done_callback(lambda task: self._driver_done(live, task))

    def _needs_driver(self, live: LiveTable) -> bool:
        state = live.state
        if live.status != "playing" or state is None or state.is_over:
            return False
        return state.decider is not None and live.robot_for(state.decider) is not None

    def _driver_done(self, live: LiveTable, task: asyncio.Task[None]) -> None:
        if task.cancelled() or self.tables.get(live.id) is not live:
            return
        if self._needs_driver(live):
            log.warning("table %s: AI driver stopped while needed; restarting it", live.id)
            self._schedule(live)

    async def _drive(self, live: LiveTable) -> None:
        """Play AI seats until a person must decide.  Survives anything the
        store or an agent throws: transient errors are retried with backoff,
        a conflict re-reads the table."""
        delay = DRIVER_BACKOFF[0]
        while True:
            try:
                await self._drive_loop(live)
                return
            except asyncio.CancelledError:
                raise
            except (StaleAction, TableBusy, StoreUnavailable) as exc:
                log.warning("table %s: AI move not stored (%s); retrying", live.id, exc)
            except Exception:
                log.exception("table %s: AI play failed; retrying", live.id)
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, DRIVER_BACKOFF[1])
            try:
                if live.needs_reload:
                    async with live.lock:
                        await self._reload(live)
            except StoreUnavailable:
                continue

    async def _drive_loop(self, live: LiveTable) -> None:
        while self._needs_driver(live):
            state = live.state
            assert state is not None and state.decider is not None
            seat = state.decider
            robot = live.robot_for(seat)
            assert robot is not None
            action = await self._think(live, seat, robot, state)
            async with live.lock:
                if live.state is not state or live.status != "playing":
                    continue  # someone else moved meanwhile
                after = state.clone()
                events = after.apply(action)
                await self._commit(live, seat, str(action), after, actor_id=None)
            await self._after_move(live, tuple(events))
            await asyncio.sleep(0)

    async def _think(self, live: LiveTable, seat: int, difficulty: str, state: MatchState) -> Any:
        name = DIFFICULTIES.get(difficulty, "heuristic")
        if name not in agent_names(live.game):
            name = "heuristic"
        seq = len(state.log)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]  # nothing to think about
        return await self.thinker.decide(
            Decision(
                table_id=live.id,
                game=live.game,
                agent=name,
                view=state.view(seat),
                legal=tuple(legal),
                seed=live.seed % 1_000_003 * 1000 + seq,
                budget_ms=self.ai_budget_ms,
            )
        )

    async def wait_idle(self, table_id: int) -> None:
        live = await self._live(table_id)
        while live.driver is not None and not live.driver.done():
            await asyncio.wait({live.driver})

    def _next_deadline(self, live: LiveTable, state: MatchState) -> float | None:
        """When the person to act is replaced by the AI for this turn: the
        table's timer, shortened for a player marked away."""
        if state.is_over or live.turn_seconds <= 0:
            return None
        seat = state.decider
        if seat is None or live.robot_for(seat) is not None:
            return None
        seconds = live.turn_seconds
        if live.seats[seat].away:
            seconds = min(seconds, AWAY_TURN_SECONDS)
        return self.clock() + seconds

    def _deadline_changed(self, live: LiveTable) -> None:
        """A table's deadline changed, or it became live: index it
        (``LiveTable.on_deadline``).  The index is rebuilt from the live
        tables when outdated entries pile up."""
        if live.deadline is not None:
            heapq.heappush(self._deadline_index, (live.deadline, live.id))
            if len(self._deadline_index) > 4 * len(self.tables) + 256:
                self._deadline_index = [
                    (t.deadline, t.id) for t in self.tables.values() if t.deadline is not None
                ]
                self._deadline_index.append((live.deadline, live.id))  # maybe not live yet
                heapq.heapify(self._deadline_index)

    def _earliest_deadline(self) -> float | None:
        """The nearest deadline of a live table, from a heap whose outdated
        entries (a deadline since changed, a table gone) are dropped when
        they come to the top: the dispatcher asks after every move, and a
        scan of every table was O(tables) each time."""
        index = self._deadline_index
        while index:
            when, table_id = index[0]
            live = self.tables.get(table_id)
            if live is not None and live.active and live.deadline == when:
                return when
            heapq.heappop(index)
        return None

    async def expire_due(self) -> int:
        """One dispatcher pass: idle lobbies close; for every person whose
        turn ran out, the AI plays once (two in a row mark the seat away)."""
        now = self.clock()
        expired = 0
        for live in list(self.tables.values()):
            if not live.active or live.deadline is None or live.deadline > now:
                continue
            try:
                if await self._expire(live, now):
                    expired += 1
            except Exception as exc:
                # never leave a due deadline in the past: that would spin
                live.deadline = now + 2.0
                log.warning("table %s: deadline handling failed (%s); retrying", live.id, exc)
        return expired

    async def _expire(self, live: LiveTable, now: float) -> bool:
        if live.status == "lobby":
            async with live.lock:
                if live.status != "lobby" or live.deadline is None or live.deadline > now:
                    return False
                await self._abandon_locked(live)
            await self._publish(live, "expired", ())
            self._after_end(live)
            return True
        state = live.state
        assert state is not None
        seat = state.decider
        if state.is_over or seat is None or live.robot_for(seat) is not None:
            live.deadline = None
            return False
        action = await self._think(live, seat, "normal", state)
        async with live.lock:
            if live.state is not state or live.deadline is None or live.deadline > now:
                return False  # the player moved (or came back) meanwhile
            count = live.expiries.get(seat, 0) + 1
            away = count >= AWAY_AFTER_EXPIRIES
            went_away = away and not live.seats[seat].away
            after = state.clone()
            events = after.apply(action)
            await self._commit(
                live,
                seat,
                str(action),
                after,
                actor_id=None,
                seat_fields={"expiries": count, "away": away},
            )
            live.expiries[seat] = count
            live.set_seat(seat, away=away)
        if went_away:
            await self._publish(live, "away", ())
        await self._after_move(live, tuple(events))
        return True

    async def resign(self, table_id: int, actor: Actor) -> TableInfo:
        """Leave a game in play: an AI (normal) plays the seat from now on and
        the player counts as having lost (``results.py``).  When nobody is
        left at the table, it is abandoned."""
        live = await self._table_for(table_id, actor)
        async with live.lock:
            seat = self._player_seat(live, actor, "resign")
            await self.store.update_seat(table_id, seat, ai="normal", away=False)
            live.set_seat(seat, ai="normal", away=False)
            if not live.humans():
                await self._abandon_locked(live)
            else:
                if actor.user_id == live.host_id:
                    await self._pass_host_or_close(live)
                assert live.state is not None
                live.deadline = self._next_deadline(live, live.state)
                await self.store.update_table(table_id, deadline=live.deadline)
                self.deadlines.poke()
        if live.status == "abandoned":
            await self._publish(live, "abandoned", ())
            self._after_end(live)
        else:
            await self._publish(live, "resigned", ())
            self._schedule(live)
        return live.info()

    async def back(self, table_id: int, actor: Actor) -> TableInfo:
        """ "I'm back": the seat is no longer away.  At the player's turn the
        full timer runs again (now, if it is their turn)."""
        live = await self._table_for(table_id, actor)
        async with live.lock:
            seat = self._player_seat(live, actor, "come back to")
            if not live.seats[seat].away and not live.expiries.get(seat):
                raise WrongStatus("you are not marked away", "not_away")
            await self.store.update_seat(table_id, seat, away=False, expiries=0)
            live.set_seat(seat, away=False)
            live.expiries[seat] = 0
            assert live.state is not None
            if live.state.decider == seat:
                live.deadline = self._next_deadline(live, live.state)
                await self.store.update_table(table_id, deadline=live.deadline)
                self.deadlines.poke()
        await self._publish(live, "back", ())
        return live.info()

"""TableService: create, join, start and play tables; AI seats; deadlines;
resume after a crash; results and leaderboards.

The rules for changing a live table, in order: one ``asyncio.Lock`` per
table; a move is validated on a copy, **persisted**, and only then does the
copy become the live state; the action log's unique (table, seq) refuses a
duplicate or stale submission.  AI moves are computed off the event loop
(``Thinker``) and persisted exactly like a person's.  Nothing here imports
discord: the Discord layer and the terminal both call these methods with an
``Actor`` and render the updates they publish.

Authority lives here (DESIGN.md): every call that changes or reveals a
table takes the caller's ``Actor``; a table from another server is refused
as unknown; host-only and moderator-only actions are checked here.

Resume after a restart is ``resume.py``: a table not replayed yet answers
``Resuming`` ("one moment") while the others are served.

Extensions of the contract: ``wait_idle(table_id)`` (until no AI move is
pending: the terminal and tests use it) and ``expire_due()`` (one pass of
the deadline dispatcher, for tests with a fake clock).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from bot.db.repositories import DuplicateAction, Store, StoreUnavailable, TableNotOwned
from bot.services import ratings as rating_math
from bot.services.actor import Actor
from bot.services.deadlines import DeadlineScheduler
from bot.services.errors import (
    NotHost,
    NotSeated,
    Resuming,
    ServiceError,
    StaleAction,
    TableBusy,
    TableFull,
    TableNotFound,
    WrongStatus,
)
from bot.services.live import LiveTable
from bot.services.lobby import LobbyMixin
from bot.services.models import (
    LeaderboardRow,
    PrivateView,
    ResultInfo,
    TableInfo,
    TableUpdate,
)
from bot.services.observer import NO_OBSERVER, ServiceObserver
from bot.services.policy import (
    DIFFICULTIES,
    LOBBY_SECONDS,
    MAX_ACTION_TEXT,
    MAX_OPEN_PER_HOST,
    PING_MODES,
    RECENT_ENDED,
)
from bot.services.results import MatchOutcome, ResultRecorder
from bot.services.resume import ResumeMixin, ServiceNotStarted
from bot.services.settings import GuildSettings
from bot.services.thinking import Thinker
from bot.services.turns import TurnsMixin
from bot.services.validation import validated
from engine import EngineError, MatchState, NotYourTurn, Observation, get_game
from engine.core.game import new_seed

log = logging.getLogger(__name__)

Subscriber = Callable[[TableUpdate], Awaitable[None]]
#: may ``actor`` see this table's cards? (raises a ``ServiceError`` if not)
ViewCheck = Callable[[TableInfo, Actor], Awaitable[None]]
BUSY = "the table is busy, try again in a moment"


def _store_errors_as_service_errors(cls: type[Any]) -> type[Any]:
    """Every public coroutine of the service turns a database that is locked
    or unreachable into ``TableBusy`` (a friendly, retryable refusal), so no
    front end ever shows a raw driver error.  The move itself is either
    stored and applied or neither (``_commit``)."""

    def wrap(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(method)
        async def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return await method(*args, **kwargs)
            except StoreUnavailable as exc:
                log.warning("%s: store unavailable: %s", method.__name__, exc)
                if not exc.retryable:
                    raise ServiceError("{detail}", "damaged", detail=str(exc)) from exc
                raise TableBusy(BUSY) from exc

        return guarded

    for name in dir(cls):
        method = getattr(cls, name)
        if not name.startswith("_") and inspect.iscoroutinefunction(method):
            setattr(cls, name, wrap(method))
    return cls


@_store_errors_as_service_errors
@validated
class TableService(ResumeMixin, LobbyMixin, TurnsMixin):
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        turn_seconds_default: int = 90,
        ai_budget_ms: int = 300,
        thinker: Thinker | None = None,
        max_open_per_host: int | None = MAX_OPEN_PER_HOST,
        lobby_seconds: float = LOBBY_SECONDS,
        owns: Callable[[int | None, int | None], bool] | None = None,
    ) -> None:
        """``owns(guild_id, channel_id)``: which tables this process resumes
        and drives (default: all).  The terminal owns the tables with
        neither; the Discord bot those with a channel.  On top of it, a
        process owns only the tables of its shards (``store.shards``)."""
        self.store = store
        self.clock = clock
        self.turn_seconds_default = turn_seconds_default
        self.ai_budget_ms = ai_budget_ms
        self.thinker = thinker or Thinker(inline=True)
        self.max_open_per_host = max_open_per_host
        self.lobby_seconds = lobby_seconds
        front_end = owns or (lambda guild_id, channel_id: True)
        shards = store.shards
        self.owns: Callable[[int | None, int | None], bool] = lambda guild_id, channel_id: (
            shards.owns(guild_id) and front_end(guild_id, channel_id)
        )
        #: where new tables get their seeds (tests make it deterministic)
        self.new_seed: Callable[[], int] = new_seed
        self.settings = GuildSettings(store, turn_seconds_default)
        self.results = ResultRecorder(store)
        #: tables in a lobby or in play
        self.tables: dict[int, LiveTable] = {}
        #: recently ended tables (late clicks, result posts)
        self.recent: OrderedDict[int, LiveTable] = OrderedDict()
        self.broken: dict[int, str] = {}
        self.subscribers: list[Subscriber] = []
        self.deadlines = DeadlineScheduler(
            clock=self.clock, next_deadline=self._earliest_deadline, fire=self.expire_due
        )
        self._loading: dict[int, asyncio.Task[LiveTable]] = {}
        self._pings: dict[int, str] = {}
        #: tables found at start and not yet resumed, in the order of resuming
        self._pending: dict[int, None] = {}
        #: pending tables somebody asked for: resumed next
        self._urgent: deque[int] = deque()
        #: (deadline, table id) of live tables, outdated entries included (turns.py)
        self._deadline_index: list[tuple[float, int]] = []
        #: per game, actions parsed from their text (replays share them)
        self._parse_cache: dict[str, dict[str, Any]] = {}
        self._resuming: asyncio.Task[None] | None = None
        #: other services' rules on who may see a table's cards (``add_view_check``)
        self.view_checks: list[ViewCheck] = []
        #: other services' stops, run first by ``close`` (``add_close_step``)
        self.close_steps: list[Callable[[], Awaitable[None]]] = []
        #: set by ``close``: no AI driver starts from then on (a move still in
        #: flight when the bot stops must not wake the closed AI pool)
        self.closing = False
        #: tables found at start (``resume_progress``)
        self._found_at_start = 0
        #: told of act latencies and stored moves (``bot.discord.metrics``)
        self.observer: ServiceObserver = NO_OBSERVER
        #: resolved by ``start`` (``started()``), made on the running loop
        self._started: asyncio.Future[None] | None = None
        #: (guild, host) -> [lock, users]: one table opening at a time per host (lobby.py)
        self._openers: dict[tuple[int | None, int], list[Any]] = {}

    # -- life cycle ---------------------------------------------------------------------
    async def close(self) -> None:
        """Stop the services working through this one (``add_close_step``),
        resuming, deadlines and AI seats, close the AI pool, and wait until
        every move submitted to the store is committed.  Whoever still
        waits on ``started()`` gets ``ServiceNotStarted``."""
        self.closing = True
        for step in list(self.close_steps):
            try:
                await step()
            except Exception:
                log.exception("a service working through the tables did not stop cleanly")
        self._not_started(ServiceNotStarted("the table service was closed before it started"))
        if self._resuming is not None and not self._resuming.done():
            self._resuming.cancel()
            await asyncio.gather(self._resuming, return_exceptions=True)
        await self.deadlines.close()
        drivers = [lv.driver for lv in self.tables.values() if lv.driver is not None]
        for task in drivers:
            task.cancel()
        await asyncio.gather(*drivers, return_exceptions=True)
        await self.thinker.close()
        await self.store.writer.group.drain()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        self.subscribers.append(callback)
        return lambda: self.subscribers.remove(callback)

    def add_close_step(self, step: Callable[[], Awaitable[None]]) -> Callable[[], None]:
        """Another service that works through this one (tournaments) stops
        first when this one closes: while its tables still run, before the
        AI drivers stop and the last moves are stored.  Returns the
        function that removes it."""
        self.close_steps.append(step)
        return lambda: self.close_steps.remove(step)

    def add_view_check(self, check: ViewCheck) -> Callable[[], None]:
        """Another service's rule on who may see a table's cards: ``check(info,
        actor)`` raises a ``ServiceError`` to refuse.  ``public_view`` asks
        every check for every actor, so a rule that lives in another service
        (a tournament's board is secret from its other tables) is kept by
        every front end.  Returns the function that removes it."""
        self.view_checks.append(check)
        return lambda: self.view_checks.remove(check)

    async def _load(self, table_id: int) -> LiveTable:
        loaded = await self.store.table(table_id)
        if loaded is None:
            raise TableNotFound("there is no table #{table}", table=table_id)
        row, seat_rows = loaded
        moves: list[tuple[int, str, int]] = []
        if row.status in ("playing", "finished"):
            moves = [(a.seq, a.notation, a.seat) for a in await self.store.actions(table_id)]
        return self._build(row, seat_rows, moves)

    async def _reload(self, live: LiveTable) -> None:
        """Bring a live table back in line with the store (another writer, or
        a write whose outcome we could not see)."""
        fresh = await self._load(live.id)
        for name in ("status", "deadline", "seats", "expiries", "state", "actors", "host_id"):
            setattr(live, name, getattr(fresh, name))
        live.needs_reload = False

    async def _live(self, table_id: int) -> LiveTable:
        if table_id in self.broken:
            raise ServiceError(
                "table #{table} could not be restored and is out of play",
                "table_broken",
                table=table_id,
            )
        live = self.tables.get(table_id) or self.recent.get(table_id)
        if live is None and table_id in self._pending:
            self._urgent.append(table_id)  # resumed next
            raise Resuming("table #{table} is resuming after a restart, one moment", table=table_id)
        if live is None:
            # one load per table even when many clicks arrive together
            task = self._loading.get(table_id)
            if task is None:
                task = asyncio.ensure_future(self._load(table_id))
                self._loading[table_id] = task
            try:
                live = await asyncio.shield(task)
            finally:
                self._loading.pop(table_id, None)
            if not self.owns(live.guild_id, live.channel_id):
                raise TableNotFound("there is no table #{table} here", table=table_id)
            if live.active:
                live = self.tables.setdefault(table_id, live)
                self._deadline_changed(live)  # indexed now that it is live
            else:
                self._remember_ended(live)
        if live.needs_reload:
            async with live.lock:
                if live.needs_reload:
                    await self._reload_or_busy(live)
        return live

    async def _reload_or_busy(self, live: LiveTable) -> None:
        try:
            await self._reload(live)
        except StoreUnavailable as exc:
            raise TableBusy(BUSY) from exc

    async def _table_for(self, table_id: int, actor: Actor) -> LiveTable:
        """The table, if it belongs where the actor is calling from; a table
        of another server is refused exactly like one that does not exist."""
        live = await self._live(table_id)
        if not actor.in_scope(live.guild_id, live.channel_id):
            raise TableNotFound("there is no table #{table} here", table=table_id)
        return live

    def _remember_ended(self, live: LiveTable) -> None:
        self.tables.pop(live.id, None)
        self.recent[live.id] = live
        self.recent.move_to_end(live.id)
        while len(self.recent) > RECENT_ENDED:
            self.recent.popitem(last=False)

    async def set_message(
        self,
        table_id: int,
        *,
        channel_id: int | None = None,
        message_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Where the front end shows the table (internal: no actor)."""
        live = await self._live(table_id)
        fields = {
            k: v
            for k, v in (
                ("channel_id", channel_id),
                ("message_id", message_id),
                ("thread_id", thread_id),
            )
            if v is not None
        }
        for key, value in fields.items():
            setattr(live, key, value)
        if fields:
            await self.store.update_table(table_id, **fields)

    # -- play ----------------------------------------------------------------------------
    async def act(
        self,
        table_id: int,
        actor: Actor,
        action_text: str,
        *,
        expected_seq: int | None = None,
    ) -> TableInfo:
        """A person's move: checked, persisted, then applied."""
        began = time.perf_counter()
        live = await self._table_for(table_id, actor)
        async with live.lock:
            seat = self._player_seat(live, actor, "play")
            state = live.state
            assert state is not None
            if expected_seq is not None and expected_seq != len(state.log):
                raise StaleAction("that button is from an earlier turn: open a fresh hand", "stale")
            if not isinstance(action_text, str) or len(action_text) > MAX_ACTION_TEXT:
                raise ServiceError("that is not a move of this game", "invalid_syntax")
            action = state.game.parse_action(action_text)
            if state.decider != seat:
                waiting = live.seats[state.decider].name if state.decider is not None else "nobody"
                raise NotYourTurn(
                    f"it is not your turn: waiting for {waiting}", params={"waiting": waiting}
                )
            after = state.clone()
            events = after.apply(action, seat=seat)  # raises with the rule, changes nothing
            back = live.seats[seat].away or live.expiries.get(seat, 0) > 0
            fields = {"away": False, "expiries": 0} if back else None
            await self._commit(
                live, seat, str(action), after, actor_id=actor.user_id, seat_fields=fields
            )
            if back:
                live.expiries[seat] = 0
                live.set_seat(seat, away=False)
        self.observer.act_done(live.game, time.perf_counter() - began)
        await self._after_move(live, tuple(events))
        return live.info()

    async def _commit(
        self,
        live: LiveTable,
        seat: int,
        notation: str,
        after: MatchState,
        *,
        actor_id: int | None,
        seat_fields: dict[str, Any] | None = None,
    ) -> None:
        """Persist the move, then make ``after`` (the state with the move
        applied, built on a copy) the live state.  The caller holds the lock.
        ``seat`` is who decided (Batak's declarer for the dummy); the log
        records the seat the move was for."""
        state = live.state
        assert state is not None
        deadline = self._next_deadline(live, after)
        for_seat = state.to_act if state.to_act is not None else seat
        try:
            await self.store.append_action(
                live.id,
                len(state.log),
                notation,
                for_seat,
                actor_id,
                actor_id is None,
                deadline=deadline,
                seat_fields=seat_fields,
                fields_seat=seat,
                shard=live.shard,
            )
        except asyncio.CancelledError:
            # the move may still be committed with its group: read the store again
            live.needs_reload = True
            raise
        except TableNotOwned:
            # the database says another shard owns this table now (the shard
            # count changed): this process lets go of it
            self._forget(live)
            raise TableNotFound("there is no table #{table} here", table=live.id) from None
        except DuplicateAction:
            # another writer (a second process, a double click) took this turn
            live.needs_reload = True
            raise StaleAction("that move was already made (double click?)", "duplicate") from None
        except StoreUnavailable as exc:
            # the write may or may not have landed: read the store again next time
            live.needs_reload = True
            raise TableBusy(BUSY) from exc
        live.state = after
        live.actors.append(for_seat)
        live.deadline = deadline
        self.deadlines.poke()
        self.observer.move_stored(live.game, actor_id is None)

    def _forget(self, live: LiveTable) -> None:
        log.warning("table %s belongs to another shard now; letting it go", live.id)
        self.tables.pop(live.id, None)
        self.recent.pop(live.id, None)
        live.status = "elsewhere"
        if live.driver is not None and live.driver is not asyncio.current_task():
            live.driver.cancel()

    async def _after_move(self, live: LiveTable, events: tuple[Any, ...]) -> None:
        state = live.state
        assert state is not None
        if state.is_over:
            await self._finish(live, events)
            return
        kind = "deal_end" if any(e.kind == "deal_scored" for e in events) else "action"
        await self._publish(live, kind, events)
        self._schedule(live)

    # -- views ---------------------------------------------------------------------------------
    async def history(self, table_id: int, since: int = 0) -> list[tuple[int, int, str]]:
        """(seq, seat, action text) of the moves from ``since`` on: every
        move is public (a blind hidden play names a slot, never a card)."""
        live = await self._live(table_id)
        moves = live.state.log if live.state else []
        return [(i, live.actors[i], str(moves[i])) for i in range(since, len(moves))]

    async def get_table(self, table_id: int, actor: Actor | None = None) -> TableInfo:
        """A table's public facts; with an actor, only from its own server."""
        live = await (self._table_for(table_id, actor) if actor else self._live(table_id))
        return live.info()

    async def private_view(self, table_id: int, actor: Actor) -> PrivateView:
        live = await self._table_for(table_id, actor)
        seat = self._seat_of(live, actor)
        if live.state is None:
            raise WrongStatus("the game has not started yet", "not_started")
        return PrivateView(live.info(), seat, live.state.view(seat))

    async def public_view(
        self, table_id: int, actor: Actor | None = None
    ) -> tuple[TableInfo, Observation | None]:
        """The spectator's view; with an actor, only from the table's server
        and only if every view check lets the actor see the table."""
        live = await (self._table_for(table_id, actor) if actor else self._live(table_id))
        info, view = live.info(), live.state.view(None) if live.state else None
        if actor is not None:
            for check in list(self.view_checks):
                await check(info, actor)
        return info, view

    async def open_tables(self, actor: Actor) -> list[TableInfo]:
        """Lobbies and games where the actor is calling from (newest first)."""
        return [
            t.info()
            for t in sorted(self.tables.values(), key=lambda t: -t.id)
            if t.active and actor.in_scope(t.guild_id, t.channel_id)
        ]

    async def active_tables(self, guild_id: int | None = None) -> list[TableInfo]:
        """Every active table (internal: operators, tests)."""
        return [
            t.info()
            for t in self.tables.values()
            if t.active and (guild_id is None or t.guild_id == guild_id)
        ]

    async def tables_for_user(self, actor: Actor) -> list[TableInfo]:
        return [t for t in await self.open_tables(actor) if t.seat_of(actor.user_id) is not None]

    # -- settings (authorised in GuildSettings) -------------------------------------------------
    async def is_moderator(self, actor: Actor) -> bool:
        return await self.settings.is_moderator(actor)

    async def get_settings(self, guild_id: int | None, game: str) -> dict[str, Any]:
        return await self.settings.game_settings(guild_id, get_game(game).name)

    async def set_setting(
        self, actor: Actor, game: str, key: str, value_text: str
    ) -> dict[str, Any]:
        return await self.settings.set_game_setting(actor, get_game(game).name, key, value_text)

    async def reset_settings(
        self, actor: Actor, game: str, key: str | None = None
    ) -> dict[str, Any]:
        return await self.settings.reset_game_settings(actor, get_game(game).name, key)

    async def get_guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        return await self.settings.guild_settings(guild_id)

    async def set_guild_setting(self, actor: Actor, key: str, value_text: str) -> dict[str, Any]:
        return await self.settings.set_guild_setting(actor, key, value_text)

    async def set_moderator_role(self, actor: Actor, role_id: int | None) -> dict[str, Any]:
        return await self.settings.set_moderator_role(actor, role_id)

    async def ping_preference(self, user_id: int) -> str:
        """How a person wants to be told it is their turn: ``channel`` (a
        mention in the table's thread or channel, the default), ``dm`` or
        ``off``."""
        cached = self._pings.get(user_id)
        if cached is None:
            cached = (await self.store.user_settings(user_id)).get("ping", PING_MODES[0])
            self._pings[user_id] = cached
        return cached

    async def set_ping_preference(self, actor: Actor, mode: str) -> str:
        mode = str(mode).strip().lower()[:16]
        if mode not in PING_MODES:
            raise ServiceError(
                "choose how to be told it is your turn: {modes}",
                "bad_setting",
                modes=", ".join(PING_MODES),
            )
        await self.store.put_user_setting(actor.user_id, "ping", mode)
        self._pings[actor.user_id] = mode
        return mode

    # -- results and leaderboards -------------------------------------------------------------
    async def _finish(self, live: LiveTable, events: tuple[Any, ...]) -> None:
        """Record results, ratings and the finished status, exactly once."""
        if live.finishing or live.status != "playing":
            return
        live.finishing = True
        try:
            state = live.state
            assert state is not None
            spec = get_game(live.game)
            outcome = MatchOutcome.of(state.view(None), len(live.seats), spec.partnership)
            guild = await self.settings.guild_settings(live.guild_id)
            results = await self.results.record(
                table_id=live.id,
                guild_id=live.guild_id,
                game=live.game,
                seats=live.seats,
                outcome=outcome,
                rated_with_ai=bool(guild.get("rated_with_ai")),
            )
        finally:
            live.finishing = False
        live.status, live.deadline = "finished", None
        await self._publish(live, "finished", events, results)
        self._after_end(live)

    def _after_end(self, live: LiveTable) -> None:
        if not live.active:
            self._remember_ended(live)

    async def leaderboard(
        self, guild_id: int | None, game: str, limit: int = 10
    ) -> list[LeaderboardRow]:
        if guild_id is None:
            return []
        rows = await self.store.rating_rows(guild_id, get_game(game).name)
        board = [
            LeaderboardRow(
                r.user_id, r.name, r.played, r.won, r.points, rating_math.ordinal(r.mu, r.sigma)
            )
            for r in rows
        ]
        return sorted(board, key=lambda r: (-r.rating, -r.won, r.user_id))[:limit]

    async def stats(self, guild_id: int | None, user_id: int) -> dict[str, LeaderboardRow]:
        if guild_id is None:
            return {}
        rows = await self.store.rating_rows(guild_id, user_id=user_id)
        return {
            r.game: LeaderboardRow(
                r.user_id, r.name, r.played, r.won, r.points, rating_math.ordinal(r.mu, r.sigma)
            )
            for r in rows
        }

    # -- helpers ----------------------------------------------------------------------------------
    async def _publish(
        self, live: LiveTable, kind: str, events: tuple[Any, ...], results: ResultInfo | None = None
    ) -> None:
        if not self.subscribers:
            return  # nobody renders it: no spectator view to build
        update = TableUpdate(
            live.info(), live.state.view(None) if live.state else None, tuple(events), kind, results
        )
        for callback in list(self.subscribers):
            try:
                await callback(update)
            except Exception:
                log.exception("a table subscriber failed")

    @staticmethod
    def _require_status(live: LiveTable, status: str, verb: str) -> None:
        if live.status != status:
            raise WrongStatus(
                "you cannot {verb} now: table #{table} is {status}",
                verb=verb,
                table=live.id,
                status=live.status,
            )

    @staticmethod
    def _require_host(live: LiveTable, actor: Actor) -> None:
        if actor.user_id != live.host_id:
            raise NotHost("only the host can do that")

    def _player_seat(self, live: LiveTable, actor: Actor, verb: str) -> int:
        """The actor's seat in a game in play, if they still play it."""
        self._require_status(live, "playing", verb)
        seat = self._seat_of(live, actor)
        if live.seats[seat].resigned:
            raise NotSeated("you left this table: an AI plays your seat", "resigned")
        return seat

    @staticmethod
    def _seat_of(live: LiveTable, actor: Actor) -> int:
        seat = live.seat_of(actor.user_id)
        if seat is None:
            raise NotSeated("you are not seated at table #{table}", table=live.id)
        return seat

    @staticmethod
    def _free_seat(live: LiveTable) -> int:
        for seat in live.seats:
            if seat.empty:
                return seat.seat
        raise TableFull("table #{table} is full", table=live.id)


__all__ = ["DIFFICULTIES", "Actor", "EngineError", "TableService"]

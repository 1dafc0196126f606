"""TableService: create, join, start and play tables; AI seats; deadlines;
resume after a crash; results and leaderboards.

The rules for changing a live table, in order: one ``asyncio.Lock`` per
table; a move is validated on a copy, **persisted**, then applied to the
live state; the action log's unique (table, seq) refuses a duplicate or
stale submission.  AI moves are computed in a worker thread so the event
loop never blocks, and are persisted exactly like a person's.  Nothing here
imports discord: the Discord layer and the terminal both call these
methods and render the updates they publish.

Extensions of the contract: ``wait_idle(table_id)`` (until no AI move is
pending: the terminal and tests use it) and ``expire_due()`` (one pass of
the deadline dispatcher, for tests with a fake clock).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.db.repositories import DuplicateAction, Store
from bot.services import ratings as rating_math
from bot.services.errors import (
    AlreadySeated,
    NotHost,
    NotSeated,
    ServiceError,
    StaleAction,
    TableFull,
    TableNotFound,
    WrongStatus,
)
from bot.services.models import (
    LeaderboardRow,
    PrivateView,
    ResultInfo,
    SeatInfo,
    TableInfo,
    TableUpdate,
)
from bot.services.settings import GuildSettings
from engine import Action, EngineError, MatchState, NotYourTurn, Observation, get_game
from engine.ai import agent_names, get_agent
from engine.core.game import new_seed

log = logging.getLogger(__name__)

DIFFICULTIES = {"easy": "random", "normal": "heuristic", "hard": "search"}
AI_NAMES = ("Ada", "Bram", "Cleo", "Dov", "Esme", "Finn", "Gus", "Hana")
AWAY_AFTER_EXPIRIES = 2
Subscriber = Callable[[TableUpdate], Awaitable[None]]


@dataclass
class LiveTable:
    """A table in memory: its row, seats and (once started) engine state."""

    id: int
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    thread_id: int | None
    host_id: int
    game: str
    variant: dict[str, Any]
    seed: int
    status: str
    turn_seconds: int
    deadline: float | None
    seats: list[SeatInfo]
    expiries: dict[int, int] = field(default_factory=dict)
    state: MatchState | None = None
    #: the seat each logged action was for (public: every action is public)
    actors: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None

    def info(self) -> TableInfo:
        return TableInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            message_id=self.message_id,
            thread_id=self.thread_id,
            host_id=self.host_id,
            game=self.game,
            variant=dict(self.variant),
            status=self.status,
            seats=tuple(self.seats),
            num_seats=len(self.seats),
            seq=len(self.state.log) if self.state else 0,
            deadline=self.deadline,
            turn_seconds=self.turn_seconds,
        )

    def robot_for(self, seat: int) -> str | None:
        """The agent that decides for ``seat`` now: its AI, or the stand-in
        for a player marked away."""
        info = self.seats[seat]
        if info.ai is not None:
            return info.ai
        return "normal" if info.away else None


class TableService:
    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        turn_seconds_default: int = 90,
        tick_seconds: float = 1.0,
        ai_budget_ms: int = 300,
    ) -> None:
        self.store = store
        self.clock = clock
        self.turn_seconds_default = turn_seconds_default
        self.tick_seconds = tick_seconds
        self.ai_budget_ms = ai_budget_ms
        self.settings = GuildSettings(store, turn_seconds_default)
        self.tables: dict[int, LiveTable] = {}
        self.broken: dict[int, str] = {}
        self.subscribers: list[Subscriber] = []
        self._dispatcher: asyncio.Task[None] | None = None
        self._guard = asyncio.Lock()

    # -- life cycle ---------------------------------------------------------------------
    async def start(self, *, dispatch_deadlines: bool = True) -> None:
        """Resume every unfinished table by replaying its log, re-arm its
        deadline and let its AI seats go on."""
        for table_id in await self.store.tables_with_status(["lobby", "playing"]):
            try:
                live = await self._load(table_id)
            except Exception as exc:  # a corrupted row must not stop the others
                self.broken[table_id] = str(exc)
                log.error("table %s cannot be resumed: %s", table_id, exc)
                continue
            self.tables[table_id] = live
            await self._publish(live, "resumed", ())
            if live.status == "playing":
                self._schedule(live)
        if dispatch_deadlines:
            self._dispatcher = asyncio.create_task(
                self._dispatch_deadlines(), name="cardtable-deadlines"
            )

    async def close(self) -> None:
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        for live in self.tables.values():
            if live.driver is not None:
                live.driver.cancel()
        tasks = [t for t in [self._dispatcher, *(lv.driver for lv in self.tables.values())] if t]
        await asyncio.gather(*tasks, return_exceptions=True)

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        self.subscribers.append(callback)
        return lambda: self.subscribers.remove(callback)

    async def _load(self, table_id: int) -> LiveTable:
        loaded = await self.store.table(table_id)
        if loaded is None:
            raise TableNotFound(f"there is no table #{table_id}")
        row, seat_rows = loaded
        live = LiveTable(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            thread_id=row.thread_id,
            host_id=row.host_id,
            game=row.game,
            variant=json.loads(row.variant),
            seed=row.seed,
            status=row.status,
            turn_seconds=row.turn_seconds,
            deadline=row.deadline,
            seats=[SeatInfo(s.seat, s.user_id, s.name, s.ai, s.away) for s in seat_rows],
            expiries={s.seat: s.expiries for s in seat_rows},
        )
        if row.status in ("playing", "finished"):
            game = get_game(row.game)
            rows = await self.store.actions(table_id)
            if [a.seq for a in rows] != list(range(len(rows))):
                raise ServiceError(f"the action log of table #{table_id} has gaps", "corrupt_log")
            live.state = game.replay(
                [a.notation for a in rows], seed=row.seed, variant=live.variant
            )
            live.actors = [a.seat for a in rows]
        return live

    async def _live(self, table_id: int) -> LiveTable:
        if table_id in self.broken:
            raise ServiceError(
                f"table #{table_id} could not be restored and is out of play", "table_broken"
            )
        live = self.tables.get(table_id)
        if live is None:
            try:
                live = await self._load(table_id)
            except TableNotFound:
                raise
            self.tables[table_id] = live
        return live

    # -- lobby --------------------------------------------------------------------------
    async def create_table(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        host_id: int,
        host_name: str,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        host_seat: int | None = 0,
    ) -> TableInfo:
        """A new table in its lobby.  Extensions: ``seed`` fixes the deals
        (the terminal's --seed); ``host_seat`` seats the host elsewhere, or
        nowhere (None: a table of AI players to watch)."""
        spec = get_game(game)
        options = dict(options or {})
        turn_seconds = options.pop("turn_seconds", None)
        defaults = await self.settings.game_settings(guild_id, spec.name)
        turn = defaults.pop("turn_seconds")
        if turn_seconds is not None:
            turn = self.settings.parse_turn_seconds(turn_seconds)
        variant = spec.Variant.from_options({**defaults, **options})
        seats = spec.num_seats(variant)
        seed = new_seed() if seed is None else int(seed)
        table_id = await self.store.create_table(
            seats,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=spec.name,
            variant=json.dumps(variant.to_dict()),
            seed=seed,
            status="lobby",
            turn_seconds=turn,
        )
        if host_seat is not None:
            if not 0 <= host_seat < seats:
                raise ServiceError(f"seat must be 0..{seats - 1}", "bad_seat")
            await self.store.update_seat(table_id, host_seat, user_id=host_id, name=host_name)
        live = await self._load(table_id)
        self.tables[table_id] = live
        await self._publish(live, "lobby", ())
        return live.info()

    async def join(self, table_id: int, user_id: int, name: str) -> TableInfo:
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "lobby", "join")
            if any(s.user_id == user_id for s in live.seats):
                raise AlreadySeated("you already have a seat at this table")
            seat = self._free_seat(live)
            await self.store.update_seat(table_id, seat, user_id=user_id, name=name, ai=None)
            live.seats[seat] = SeatInfo(seat, user_id, name, None)
        await self._publish(live, "lobby", ())
        return live.info()

    async def leave(self, table_id: int, user_id: int) -> TableInfo:
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "lobby", "leave")
            seat = self._seat_of(live, user_id)
            await self.store.update_seat(table_id, seat, user_id=None, name="", ai=None)
            live.seats[seat] = SeatInfo(seat, None, "", None)
            if user_id == live.host_id:
                humans = [s for s in live.seats if s.user_id is not None]
                if humans:
                    live.host_id = humans[0].user_id or live.host_id
                    await self.store.update_table(table_id, host_id=live.host_id)
                else:
                    live.status = "abandoned"
                    await self.store.update_table(table_id, status="abandoned")
        await self._publish(live, "lobby" if live.status == "lobby" else "abandoned", ())
        return live.info()

    async def add_ai(self, table_id: int, user_id: int, difficulty: str = "normal") -> TableInfo:
        if difficulty not in DIFFICULTIES:
            raise ServiceError(
                f"unknown difficulty {difficulty!r}: choose easy, normal or hard", "bad_difficulty"
            )
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "lobby", "add an AI player")
            self._require_host(live, user_id)
            seat = self._free_seat(live)
            name = f"{AI_NAMES[seat % len(AI_NAMES)]} (AI, {difficulty})"
            await self.store.update_seat(table_id, seat, user_id=None, name=name, ai=difficulty)
            live.seats[seat] = SeatInfo(seat, None, name, difficulty)
        await self._publish(live, "lobby", ())
        return live.info()

    async def remove_ai(self, table_id: int, user_id: int, seat: int) -> TableInfo:
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "lobby", "remove an AI player")
            self._require_host(live, user_id)
            if not 0 <= seat < len(live.seats) or live.seats[seat].ai is None:
                raise ServiceError(f"seat {seat} has no AI player", "not_ai")
            await self.store.update_seat(table_id, seat, user_id=None, name="", ai=None)
            live.seats[seat] = SeatInfo(seat, None, "", None)
        await self._publish(live, "lobby", ())
        return live.info()

    async def start_table(self, table_id: int, user_id: int) -> TableInfo:
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "lobby", "start")
            self._require_host(live, user_id)
            empty = sum(1 for s in live.seats if s.empty)
            if empty:
                raise WrongStatus(
                    f"{empty} seat(s) are still empty: wait for players or add AI players",
                    "seats_empty",
                )
            live.state = get_game(live.game).replay([], seed=live.seed, variant=live.variant)
            live.status = "playing"
            live.deadline = self._next_deadline(live)
            await self.store.update_table(table_id, status="playing", deadline=live.deadline)
        await self._publish(live, "action", ())
        self._schedule(live)
        return live.info()

    async def abandon(
        self, table_id: int, user_id: int, *, is_moderator: bool = False
    ) -> TableInfo:
        live = await self._live(table_id)
        async with live.lock:
            if live.status not in ("lobby", "playing"):
                raise WrongStatus(f"table #{table_id} is already {live.status}")
            if user_id != live.host_id and not is_moderator:
                raise NotHost("only the host or a moderator can end this table")
            live.status = "abandoned"
            live.deadline = None
            await self.store.update_table(table_id, status="abandoned", deadline=None)
        if live.driver is not None:
            live.driver.cancel()
        await self._publish(live, "abandoned", ())
        return live.info()

    async def set_message(
        self,
        table_id: int,
        *,
        channel_id: int | None = None,
        message_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
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
        self, table_id: int, user_id: int, action_text: str, *, expected_seq: int | None = None
    ) -> TableInfo:
        """A person's move: checked, persisted, then applied."""
        live = await self._live(table_id)
        async with live.lock:
            self._require_status(live, "playing", "play")
            seat = self._seat_of(live, user_id)
            state = live.state
            assert state is not None
            if expected_seq is not None and expected_seq != len(state.log):
                raise StaleAction("that button is from an earlier turn: open a fresh hand", "stale")
            action = state.game.parse_action(action_text)
            if state.decider != seat:
                waiting = live.seats[state.decider].name if state.decider is not None else "nobody"
                raise NotYourTurn(f"it is not your turn: waiting for {waiting}")
            state.clone().apply(action, seat=seat)  # raises with the rule, changes nothing
            events = await self._commit(
                live, seat, action, actor_id=user_id, by_ai=False, back=True
            )
        await self._after_move(live, events)
        return live.info()

    async def _commit(
        self,
        live: LiveTable,
        seat: int,
        action: Action,
        *,
        actor_id: int | None,
        by_ai: bool,
        back: bool = False,
    ) -> tuple[Any, ...]:
        """Persist then apply (the caller holds the lock)."""
        state = live.state
        assert state is not None
        preview = state.clone()
        preview.apply(action)
        deadline = self._next_deadline(live, preview)
        seat_fields = {"away": False, "expiries": 0} if back else None
        for_seat = state.to_act if state.to_act is not None else seat
        try:
            await self.store.append_action(
                live.id,
                len(state.log),
                str(action),
                for_seat,
                actor_id,
                by_ai,
                deadline=deadline,
                seat_fields=seat_fields,
                fields_seat=seat,
            )
        except DuplicateAction:
            raise StaleAction("that move was already made (double click?)", "duplicate") from None
        events = state.apply(action)
        live.actors.append(for_seat)
        live.deadline = deadline
        if back:
            live.expiries[seat] = 0
            if live.seats[seat].away:
                live.seats[seat] = SeatInfo(
                    seat, live.seats[seat].user_id, live.seats[seat].name, None, False
                )
        return tuple(events)

    async def _after_move(self, live: LiveTable, events: tuple[Any, ...]) -> None:
        state = live.state
        assert state is not None
        if state.is_over:
            await self._finish(live, events)
            return
        kind = "deal_end" if any(e.kind == "deal_scored" for e in events) else "action"
        await self._publish(live, kind, events)
        self._schedule(live)

    def _schedule(self, live: LiveTable) -> None:
        if live.driver is None or live.driver.done():
            live.driver = asyncio.create_task(self._drive(live), name=f"cardtable-table-{live.id}")

    async def _drive(self, live: LiveTable) -> None:
        """Play AI seats (and stand in for away players) until a person must decide."""
        try:
            await self._drive_loop(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: AI play failed", live.id)

    async def _drive_loop(self, live: LiveTable) -> None:
        while live.status == "playing" and live.state is not None and not live.state.is_over:
            state = live.state
            seat = state.decider
            assert seat is not None
            robot = live.robot_for(seat)
            if robot is None:
                return
            seq = len(state.log)
            view, legal = state.view(seat), state.legal_actions()
            agent = self._agent(live, robot, seq)
            action = await asyncio.to_thread(agent.act, view, legal)
            async with live.lock:
                if live.status != "playing" or len(state.log) != seq:
                    continue
                events = await self._commit(live, seat, action, actor_id=None, by_ai=True)
            await self._after_move(live, events)
            await asyncio.sleep(0)

    def _agent(self, live: LiveTable, difficulty: str, seq: int) -> Any:
        name = DIFFICULTIES.get(difficulty, "heuristic")
        if name not in agent_names(live.game):
            name = "heuristic"
        return get_agent(
            name,
            game=live.game,
            seed=live.seed % 1_000_003 * 1000 + seq,
            budget_ms=self.ai_budget_ms,
        )

    async def wait_idle(self, table_id: int) -> None:
        live = await self._live(table_id)
        while live.driver is not None and not live.driver.done():
            await asyncio.wait({live.driver})

    # -- deadlines ---------------------------------------------------------------------------
    def _next_deadline(self, live: LiveTable, state: MatchState | None = None) -> float | None:
        state = state or live.state
        if state is None or state.is_over or live.turn_seconds <= 0:
            return None
        seat = state.decider
        if seat is None or live.robot_for(seat) is not None:
            return None
        return self.clock() + live.turn_seconds

    async def expire_due(self) -> int:
        """One dispatcher pass: the AI plays for every person whose deadline
        has passed; two expiries in a row mark the seat away."""
        now = self.clock()
        expired = 0
        for live in list(self.tables.values()):
            if live.status != "playing" or live.deadline is None or live.deadline > now:
                continue
            async with live.lock:
                state = live.state
                if state is None or live.deadline is None or live.deadline > now or state.is_over:
                    continue
                seat = state.decider
                assert seat is not None
                count = live.expiries.get(seat, 0) + 1
                live.expiries[seat] = count
                away = count >= AWAY_AFTER_EXPIRIES
                old = live.seats[seat]
                live.seats[seat] = SeatInfo(seat, old.user_id, old.name, old.ai, away)
                await self.store.update_seat(live.id, seat, expiries=count, away=away)
                agent = self._agent(live, "normal", len(state.log))
                action = await asyncio.to_thread(agent.act, state.view(seat), state.legal_actions())
                events = await self._commit(live, seat, action, actor_id=None, by_ai=True)
                expired += 1
            await self._after_move(live, events)
        return expired

    async def _dispatch_deadlines(self) -> None:
        while True:
            try:
                await self.expire_due()
            except Exception:
                log.exception("deadline dispatcher failed; retrying")
            await asyncio.sleep(self.tick_seconds)

    # -- views ---------------------------------------------------------------------------------
    async def history(self, table_id: int, since: int = 0) -> list[tuple[int, int, str]]:
        """(seq, seat, action text) of the moves from ``since`` on: every
        move is public (a blind hidden play names a slot, never a card)."""
        live = await self._live(table_id)
        log = live.state.log if live.state else []
        return [(i, live.actors[i], str(log[i])) for i in range(since, len(log))]

    async def get_table(self, table_id: int) -> TableInfo:
        return (await self._live(table_id)).info()

    async def private_view(self, table_id: int, user_id: int) -> PrivateView:
        live = await self._live(table_id)
        seat = self._seat_of(live, user_id)
        if live.state is None:
            raise WrongStatus("the game has not started yet", "not_started")
        return PrivateView(live.info(), seat, live.state.view(seat))

    async def public_view(self, table_id: int) -> tuple[TableInfo, Observation | None]:
        live = await self._live(table_id)
        return live.info(), live.state.view(None) if live.state else None

    async def active_tables(self, guild_id: int | None = None) -> list[TableInfo]:
        return [
            t.info()
            for t in self.tables.values()
            if t.status in ("lobby", "playing") and (guild_id is None or t.guild_id == guild_id)
        ]

    async def tables_for_user(self, guild_id: int | None, user_id: int) -> list[TableInfo]:
        return [t for t in await self.active_tables(guild_id) if t.seat_of(user_id) is not None]

    # -- settings ---------------------------------------------------------------------------------
    async def get_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        return await self.settings.game_settings(guild_id, get_game(game).name)

    async def set_setting(
        self, guild_id: int, game: str, key: str, value_text: str
    ) -> dict[str, Any]:
        return await self.settings.set_game_setting(guild_id, get_game(game).name, key, value_text)

    async def reset_settings(
        self, guild_id: int, game: str, key: str | None = None
    ) -> dict[str, Any]:
        return await self.settings.reset_game_settings(guild_id, get_game(game).name, key)

    async def get_guild_settings(self, guild_id: int) -> dict[str, Any]:
        return await self.settings.guild_settings(guild_id)

    async def set_guild_setting(self, guild_id: int, key: str, value_text: str) -> dict[str, Any]:
        return await self.settings.set_guild_setting(guild_id, key, value_text)

    # -- results and leaderboards -------------------------------------------------------------
    async def _finish(self, live: LiveTable, events: tuple[Any, ...]) -> None:
        state = live.state
        assert state is not None
        view = state.view(None)
        spec = get_game(live.game)
        teams = rating_math.seat_teams(len(live.seats), spec.partnership)
        team_of = {seat: i for i, team in enumerate(teams) for seat in team}
        ranks = tuple(view.ranking[team_of[s]] for s in range(len(live.seats)))
        points = tuple(view.scores[team_of[s]] for s in range(len(live.seats)))
        # one finish at a time: ratings are read, updated and written together
        async with self._guard:
            has_ai = any(s.ai is not None for s in live.seats)
            guild = await self.settings.guild_settings(live.guild_id) if live.guild_id else {}
            rated = live.guild_id is not None and (not has_ai or bool(guild.get("rated_with_ai")))
            existing = {
                r.user_id: r
                for r in (
                    await self.store.rating_rows(live.guild_id, live.game) if live.guild_id else []
                )
            }
            before: dict[int, tuple[float, float]] = {}
            for seat in live.seats:
                if seat.user_id is not None:
                    row = existing.get(seat.user_id)
                    before[seat.seat] = (row.mu, row.sigma) if row else rating_math.default_rating()
            after = dict(before)
            if rated:
                team_ratings = [
                    [before.get(s, rating_math.default_rating()) for s in team] for team in teams
                ]
                new = rating_math.rate(team_ratings, [view.ranking[i] for i in range(len(teams))])
                for team, ratings_ in zip(teams, new, strict=True):
                    for seat, value in zip(team, ratings_, strict=True):
                        if seat in before:
                            after[seat] = value
            results, rating_rows, changes = [], [], {}
            for seat in live.seats:
                won = ranks[seat.seat] == 1
                mu_b, sg_b = before.get(seat.seat, (0.0, 0.0))
                mu_a, sg_a = after.get(seat.seat, (0.0, 0.0))
                results.append(
                    {
                        "seat": seat.seat,
                        "user_id": seat.user_id,
                        "rank": ranks[seat.seat],
                        "points": points[seat.seat],
                        "won": won,
                        "rating_before": rating_math.ordinal(mu_b, sg_b) if seat.user_id else None,
                        "rating_after": rating_math.ordinal(mu_a, sg_a) if seat.user_id else None,
                    }
                )
                if seat.user_id is not None:
                    row = existing.get(seat.user_id)
                    rating_rows.append(
                        rating_math.as_row(
                            seat.user_id,
                            seat.name,
                            mu_a,
                            sg_a,
                            (row.played if row else 0) + 1,
                            (row.won if row else 0) + int(won),
                            (row.points if row else 0) + points[seat.seat],
                        )
                    )
                    if rated:
                        changes[seat.seat] = (
                            rating_math.ordinal(mu_b, sg_b),
                            rating_math.ordinal(mu_a, sg_a),
                        )
            await self.store.record_results(live.id, results, rating_rows, live.guild_id, live.game)
        live.status = "finished"
        live.deadline = None
        await self._publish(live, "finished", events, ResultInfo(ranks, points, changes))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[LeaderboardRow]:
        rows = await self.store.rating_rows(guild_id, get_game(game).name)
        board = [
            LeaderboardRow(
                r.user_id, r.name, r.played, r.won, r.points, rating_math.ordinal(r.mu, r.sigma)
            )
            for r in rows
        ]
        return sorted(board, key=lambda r: (-r.rating, -r.won, r.user_id))[:limit]

    async def stats(self, guild_id: int, user_id: int) -> dict[str, LeaderboardRow]:
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
            raise WrongStatus(f"you cannot {verb} now: table #{live.id} is {live.status}")

    @staticmethod
    def _require_host(live: LiveTable, user_id: int) -> None:
        if user_id != live.host_id:
            raise NotHost("only the host can do that")

    @staticmethod
    def _seat_of(live: LiveTable, user_id: int) -> int:
        for seat in live.seats:
            if seat.user_id == user_id:
                return seat.seat
        raise NotSeated(f"you are not seated at table #{live.id}")

    @staticmethod
    def _free_seat(live: LiveTable) -> int:
        for seat in live.seats:
            if seat.empty:
                return seat.seat
        raise TableFull(f"table #{live.id} is full")


__all__ = ["EngineError", "TableService"]

"""The lobby: opening a table, taking and freeing seats, AI players,
starting, ending, and the rematch.  A mixin of ``TableService``
(``tables.py``): every method checks the caller's ``Actor`` there first
(``_table_for``: same server), then host or moderator rights here."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.services.actor import Actor
from bot.services.errors import (
    AlreadySeated,
    NotHost,
    NotSeated,
    ServiceError,
    TooManyTables,
    WrongStatus,
)
from bot.services.live import ACTIVE, LiveTable
from bot.services.models import (
    SeatInfo,
    TableInfo,
)
from bot.services.policy import AI_NAMES, DIFFICULTIES, checked_seed, seat_name
from bot.services.settings import check_game_keys
from engine import get_game


class LobbyMixin:
    """Lobby operations of the TableService."""

    async def create_table(
        self,
        actor: Actor,
        *,
        game: str,
        channel_id: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        host_seat: int | None = 0,
    ) -> TableInfo:
        """A new table in its lobby, in the actor's server (or DM).
        Extensions: ``seed`` fixes the deals (the terminal's --seed);
        ``host_seat`` seats the host elsewhere, or nowhere (None: a table of
        AI players to watch)."""
        spec = get_game(game)
        channel_id = channel_id if channel_id is not None else actor.channel_id
        async with self._opening(actor):
            live = await self._create_table(actor, spec, channel_id, options, seed, host_seat)
        self.deadlines.poke()
        await self._publish(live, "lobby", ())
        return live.info()

    async def _create_table(
        self,
        actor: Actor,
        spec: Any,
        channel_id: int | None,
        options: dict[str, Any] | None,
        seed: int | None,
        host_seat: int | None,
    ) -> LiveTable:
        """``create_table``'s new table, live (the caller holds the actor's
        open-table limit)."""
        options = dict(options or {})
        check_game_keys(spec, options)
        turn_seconds = options.pop("turn_seconds", None)
        defaults = await self.settings.game_settings(actor.guild_id, spec.name)
        turn = defaults.pop("turn_seconds")
        if turn_seconds is not None:
            turn = self.settings.parse_turn_seconds(turn_seconds)
        variant = spec.Variant.from_options({**defaults, **options})
        seats = spec.num_seats(variant)
        if host_seat is not None and not 0 <= host_seat < seats:
            raise ServiceError("your seat must be 1..{seats}", "bad_seat", seats=seats)
        seed = self.new_seed() if seed is None else checked_seed(seed)
        table_id = await self.store.create_table(
            seats,
            guild_id=actor.guild_id,
            channel_id=channel_id,
            host_id=actor.user_id,
            game=spec.name,
            variant=json.dumps(variant.to_dict()),
            seed=seed,
            status="lobby",
            turn_seconds=turn,
            deadline=self.clock() + self.lobby_seconds,
        )
        if host_seat is not None:
            await self.store.update_seat(
                table_id, host_seat, user_id=actor.user_id, name=seat_name(actor)
            )
        live = await self._load(table_id)
        self.tables[table_id] = live
        return live

    @asynccontextmanager
    async def _opening(self, actor: Actor) -> AsyncIterator[None]:
        """Check the actor's open-table limit and hold it until the new table
        is live: the openings of one host in one server go one at a time, so
        the check and the table it allows are one step (ten clicks at once
        make no more tables than the limit)."""
        if self.max_open_per_host is None:
            yield
            return
        key = (actor.guild_id, actor.user_id)
        gate = self._openers.get(key)
        if gate is None:
            gate = self._openers[key] = [asyncio.Lock(), 0]
        gate[1] += 1
        try:
            async with gate[0]:
                await self._check_open_limit(actor)
                yield
        finally:
            gate[1] -= 1
            if gate[1] == 0:
                self._openers.pop(key, None)

    async def _check_open_limit(self, actor: Actor) -> None:
        """The tables the actor hosts here: the live ones, and, right after
        a restart, those the store holds that are not resumed yet."""
        assert self.max_open_per_host is not None
        mine = {
            t.id
            for t in self.tables.values()
            if t.host_id == actor.user_id and t.active and t.guild_id == actor.guild_id
        }
        if self._pending:
            stored = await self.store.hosted_tables(actor.guild_id, actor.user_id, ACTIVE)
            mine.update(t for t in stored if t in self._pending)
        if len(mine) >= self.max_open_per_host:
            ids = ", ".join(f"#{t}" for t in sorted(mine))
            raise TooManyTables(
                "you already host {count} open tables here ({ids}): finish or cancel one first",
                count=len(mine),
                ids=ids,
            )

    async def join(self, table_id: int, actor: Actor) -> TableInfo:
        live = await self._table_for(table_id, actor)
        async with live.lock:
            self._require_status(live, "lobby", "join")
            if live.seat_of(actor.user_id) is not None:
                raise AlreadySeated("you already have a seat at this table")
            seat = self._free_seat(live)
            name = seat_name(actor)
            await self.store.update_seat(table_id, seat, user_id=actor.user_id, name=name, ai=None)
            live.seats[seat] = SeatInfo(seat, actor.user_id, name, None)
            await self._touch_lobby(live)
        await self._publish(live, "lobby", ())
        return live.info()

    async def leave(self, table_id: int, actor: Actor) -> TableInfo:
        """Leave a lobby; during play, resign (``resign``)."""
        live = await self._table_for(table_id, actor)
        if live.status == "playing":
            return await self.resign(table_id, actor)
        async with live.lock:
            self._require_status(live, "lobby", "leave")
            seat = self._seat_of(live, actor)
            await self.store.update_seat(table_id, seat, user_id=None, name="", ai=None)
            live.seats[seat] = SeatInfo(seat, None, "", None)
            if actor.user_id == live.host_id:
                await self._pass_host_or_close(live)
            if live.status == "lobby":
                await self._touch_lobby(live)
        await self._publish(live, "lobby" if live.status == "lobby" else "abandoned", ())
        self._after_end(live)
        return live.info()

    async def _pass_host_or_close(self, live: LiveTable) -> None:
        humans = live.humans()
        if humans and humans[0].user_id is not None:
            live.host_id = humans[0].user_id
            await self.store.update_table(live.id, host_id=live.host_id)
        else:
            live.status = "abandoned"
            live.deadline = None
            await self.store.update_table(live.id, status="abandoned", deadline=None)

    async def add_ai(self, table_id: int, actor: Actor, difficulty: str = "normal") -> TableInfo:
        if difficulty not in DIFFICULTIES:
            raise ServiceError(
                "unknown difficulty {value}: choose easy, normal or hard",
                "bad_difficulty",
                value=repr(str(difficulty)[:20]),
            )
        live = await self._table_for(table_id, actor)
        async with live.lock:
            self._require_status(live, "lobby", "add an AI player")
            self._require_host(live, actor)
            seat = self._free_seat(live)
            await self._seat_ai(live, seat, difficulty)
            await self._touch_lobby(live)
        await self._publish(live, "lobby", ())
        return live.info()

    async def _seat_ai(self, live: LiveTable, seat: int, difficulty: str) -> None:
        name = f"{AI_NAMES[seat % len(AI_NAMES)]} (AI, {difficulty})"
        await self.store.update_seat(live.id, seat, user_id=None, name=name, ai=difficulty)
        live.seats[seat] = SeatInfo(seat, None, name, difficulty)

    async def kick(self, table_id: int, actor: Actor, seat: int) -> TableInfo:
        """The host frees a seat in the lobby: a person's or an AI's."""
        live = await self._table_for(table_id, actor)
        async with live.lock:
            self._require_status(live, "lobby", "remove a player")
            self._require_host(live, actor)
            if not 0 <= seat < len(live.seats) or live.seats[seat].empty:
                raise ServiceError("seat {seat} is already empty", "empty_seat", seat=seat + 1)
            if live.seats[seat].user_id == actor.user_id:
                raise ServiceError("you cannot remove yourself: use Leave", "kick_self")
            await self.store.update_seat(table_id, seat, user_id=None, name="", ai=None)
            live.seats[seat] = SeatInfo(seat, None, "", None)
            await self._touch_lobby(live)
        await self._publish(live, "lobby", ())
        return live.info()

    async def remove_ai(self, table_id: int, actor: Actor, seat: int) -> TableInfo:
        live = await self._table_for(table_id, actor)
        if not 0 <= seat < len(live.seats) or live.seats[seat].ai is None:
            raise ServiceError("seat {seat} has no AI player", "not_ai", seat=seat + 1)
        return await self.kick(table_id, actor, seat)

    async def start_table(
        self, table_id: int, actor: Actor, *, fill_ai: str | None = None
    ) -> TableInfo:
        """Deal the first hand.  ``fill_ai`` seats AI players of that
        difficulty in every empty seat first."""
        if fill_ai is not None and fill_ai not in DIFFICULTIES:
            raise ServiceError("choose easy, normal or hard for the AI players", "bad_difficulty")
        live = await self._table_for(table_id, actor)
        async with live.lock:
            self._require_status(live, "lobby", "start")
            self._require_host(live, actor)
            empty = [s.seat for s in live.seats if s.empty]
            if empty and fill_ai is None:
                raise WrongStatus(
                    "seats still empty: {count}; wait for players or add AI players",
                    "seats_empty",
                    count=len(empty),
                )
            for seat in empty:
                await self._seat_ai(live, seat, fill_ai or "normal")
            state = get_game(live.game).replay([], seed=live.seed, variant=live.variant)
            deadline = self._next_deadline(live, state)
            await self.store.update_table(table_id, status="playing", deadline=deadline)
            live.state, live.status, live.deadline = state, "playing", deadline
        self.deadlines.poke()
        await self._publish(live, "action", ())
        self._schedule(live)
        return live.info()

    async def abandon(self, table_id: int, actor: Actor, *, kind: str = "abandoned") -> TableInfo:
        """End a table before its time: the host, or a moderator of its server.
        ``kind``: the update front ends get (a tournament ends a board table
        whose board is recorded with ``BOARD_RECORDED``)."""
        live = await self._table_for(table_id, actor)
        moderator = await self.settings.is_moderator(actor)
        async with live.lock:
            if not live.active:
                raise WrongStatus(
                    "table #{table} is already {status}", table=table_id, status=live.status
                )
            if actor.user_id != live.host_id and not moderator:
                raise NotHost("only the host or a moderator can end this table")
            await self._abandon_locked(live)
        if live.driver is not None:
            live.driver.cancel()
        await self._publish(live, kind, ())
        self._after_end(live)
        return live.info()

    async def _abandon_locked(self, live: LiveTable) -> None:
        await self.store.update_table(live.id, status="abandoned", deadline=None)
        live.status, live.deadline = "abandoned", None

    async def rematch(self, table_id: int, actor: Actor) -> TableInfo:
        """A new lobby with the same game, settings and seats (new deals),
        hosted by whoever asked; a second click returns the same lobby."""
        old = await self._table_for(table_id, actor)
        async with old.lock:
            if old.status != "finished":
                raise WrongStatus("a rematch is offered once the game is over", "not_finished")
            if old.info().private:
                # a tournament's board table: the tournament deals its next boards
                raise WrongStatus(
                    "a tournament's board table has no rematch: the tournament deals the next "
                    "board",
                    "board_table",
                )
            seat = old.seat_of(actor.user_id)
            if seat is None or not old.seats[seat].human:
                raise NotSeated("only the players of this table can ask for a rematch")
            if old.rematch_id is not None:
                existing = await self._live(old.rematch_id)
                if existing.active:
                    return existing.info()
            async with self._opening(actor):
                live = await self._rematch_table(old, actor)
        self.deadlines.poke()
        await self._publish(live, "lobby", ())
        return live.info()

    async def _rematch_table(self, old: LiveTable, actor: Actor) -> LiveTable:
        """The rematch's lobby, live (the caller holds the old table's lock
        and the actor's open-table limit)."""
        variant = get_game(old.game).Variant.from_options(old.variant)
        new_id = await self.store.create_table(
            len(old.seats),
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=actor.user_id,
            game=old.game,
            variant=json.dumps(variant.to_dict()),
            seed=self.new_seed(),
            status="lobby",
            turn_seconds=old.turn_seconds,
            deadline=self.clock() + self.lobby_seconds,
        )
        for s in old.seats:
            if s.human:
                await self.store.update_seat(new_id, s.seat, user_id=s.user_id, name=s.name)
            elif s.ai is not None and s.user_id is None:
                await self.store.update_seat(new_id, s.seat, name=s.name, ai=s.ai)
        old.rematch_id = new_id
        live = await self._load(new_id)
        self.tables[new_id] = live
        return live

    async def _touch_lobby(self, live: LiveTable) -> None:
        live.deadline = self.clock() + self.lobby_seconds
        await self.store.update_table(live.id, deadline=live.deadline)
        self.deadlines.poke()

"""Property test of the service boundary (issue 23): every public method of
``TableService`` and ``TournamentService`` is called with valid arguments
but one, which gets a value of the wrong type or out of range; each call
must raise a domain error (an ``EngineError``: the service's own errors are
among them) and change nothing, in memory or in the store.

SQLite only, on an event loop of the test's own (hypothesis runs the
examples; each runs its call on that loop).  The methods are listed from
the classes, so a new public method without a baseline here fails
``test_every_public_method_has_a_baseline``."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from bot.db.models import Base
from bot.db.repositories import Store
from bot.services.actor import Actor
from bot.services.tables import TableService
from bot.services.tournaments import TournamentService
from engine import EngineError

GUILD, CHANNEL = 1, 5
HOST = Actor(101, GUILD, CHANNEL, "Host")
BOB = Actor(102, GUILD, CHANNEL, "Bob")
NEWCOMER = Actor(103, GUILD, CHANNEL, "New")
MOD = Actor(104, GUILD, CHANNEL, "Mod", can_manage_server=True)
#: lifecycle methods: not called with a caller's values
LIFECYCLE = {
    TableService: {"close", "start", "started", "resumed", "expire_due"},
    TournamentService: {"close", "resume", "idle"},
}

# -- wrong values ---------------------------------------------------------------------------
NOT_A_NUMBER = st.one_of(
    st.text(max_size=6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
    st.tuples(st.integers()),
    st.binary(max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.just(object()),
)
NOT_TEXT = st.one_of(
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.lists(st.text(max_size=2), max_size=2),
    st.binary(max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
    st.text(min_size=1, max_size=2).map(lambda s: s * 400),  # too long
)
ROW_ID = st.one_of(
    NOT_A_NUMBER, st.integers(max_value=0), st.integers(min_value=2**31, max_value=2**80)
)
DISCORD_ID = st.one_of(
    NOT_A_NUMBER, st.integers(max_value=0), st.integers(min_value=2**63, max_value=2**80)
)
USER_ID = st.one_of(
    NOT_A_NUMBER, st.just(0), st.integers(min_value=2**63, max_value=2**80).map(lambda n: -n)
)
SEAT = st.one_of(NOT_A_NUMBER, st.integers(max_value=-1), st.integers(min_value=4))
COUNT = st.one_of(NOT_A_NUMBER, st.integers(max_value=-1))
LIMIT = st.one_of(NOT_A_NUMBER, st.integers(max_value=0), st.integers(min_value=1001))
SEED = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
    st.integers(max_value=-1),
    st.integers(min_value=2**63, max_value=2**80),
    st.text(max_size=4).filter(lambda s: not (s.strip().isascii() and s.strip().isdigit())),
)
OPTIONS = st.one_of(
    st.text(max_size=6),
    st.integers(),
    st.lists(st.tuples(st.text(max_size=3), st.integers()), max_size=2),
    st.dictionaries(st.integers(), st.integers(), min_size=1, max_size=2),
    st.dictionaries(st.sampled_from(["zzz", "__class__", ""]), st.integers(), min_size=1),
    st.fixed_dictionaries({"rounds": st.sampled_from([0, 99, -1, 1.5, "x", [1], math.nan])}),
)
BAD_ACTOR = st.one_of(
    NOT_A_NUMBER,
    st.integers(),
    st.builds(lambda u: Actor(u, GUILD, CHANNEL, "x"), USER_ID),
    st.builds(lambda g: Actor(105, g, CHANNEL, "x"), DISCORD_ID),
    st.builds(lambda c: Actor(105, GUILD, c, "x"), DISCORD_ID),
    st.builds(lambda n: Actor(105, GUILD, CHANNEL, n), NOT_TEXT),
    st.builds(
        lambda m: Actor(105, GUILD, CHANNEL, "x", can_manage_server=m),
        st.one_of(st.integers(), st.text(max_size=3), st.none()),
    ),
    st.builds(
        lambda r: Actor(105, GUILD, CHANNEL, "x", role_ids=r),
        st.one_of(
            st.lists(st.integers(1, 9), max_size=2),
            st.frozensets(
                st.one_of(st.text(max_size=3), st.floats(), st.integers(max_value=0)), min_size=1
            ),
        ),
    ),
)


def text_but(valid: set[str]) -> st.SearchStrategy[Any]:
    """Wrong values of a text parameter: not text, too long, or text that
    is not one of the valid words."""
    return st.one_of(NOT_TEXT, st.text(max_size=6).filter(lambda s: s.strip().lower() not in valid))


WRONG: dict[str, st.SearchStrategy[Any]] = {
    "table_id": ROW_ID,
    "info": st.one_of(NOT_A_NUMBER, st.integers(), st.none()),
    "tournament_id": ROW_ID,
    "actor": BAD_ACTOR,
    "seat": SEAT,
    "host_seat": SEAT,
    "guild_id": DISCORD_ID,
    "channel_id": DISCORD_ID,
    "message_id": DISCORD_ID,
    "thread_id": DISCORD_ID,
    "role_id": DISCORD_ID,
    "user_id": USER_ID,
    "game": text_but({"batak", "callbreak", "blot", "backalley", "ladder", "bazar blot"}),
    "difficulty": text_but({"easy", "normal", "hard"}),
    "fill_ai": text_but({"easy", "normal", "hard"}),
    "action_text": st.one_of(NOT_TEXT, st.sampled_from(["", "bid 99", "play ZZ", "pass pass"])),
    "expected_seq": st.one_of(NOT_A_NUMBER, st.integers(max_value=-1)),
    "options": OPTIONS,
    "seed": SEED,
    "since": COUNT,
    "limit": LIMIT,
    "key": text_but({"target_score", "min_bid", "rated_with_ai", "use_threads", "language"}),
    "value_text": NOT_TEXT,
    "mode": text_but({"channel", "dm", "off"}),
    "boards": st.one_of(NOT_TEXT, st.integers(max_value=0), st.integers(min_value=100)),
    "tables": st.one_of(NOT_TEXT, st.integers(max_value=1), st.integers(min_value=100)),
}


# -- the world the calls are made in --------------------------------------------------------
class World:
    """A lobby, a game in play, a finished table, a tournament lobby."""

    def __init__(self, path: str) -> None:
        self.store = Store(f"sqlite+aiosqlite:///{path}")
        self.service = TableService(self.store, ai_budget_ms=20)
        self.tours = TournamentService(self.service, seed=lambda: 7)

    async def open(self) -> None:
        await self.store.migrate()
        await self.service.start(dispatch_deadlines=False)
        s = self.service
        self.lobby = (await s.create_table(HOST, game="callbreak", options={"rounds": 1})).id
        await s.join(self.lobby, BOB)
        await s.add_ai(self.lobby, HOST, "easy")
        playing = await s.create_table(HOST, game="callbreak", options={"rounds": 1})
        self.playing = playing.id
        await s.start_table(self.playing, HOST, fill_ai="easy")
        await s.wait_idle(self.playing)
        done = await s.create_table(BOB, game="callbreak", options={"rounds": 1}, host_seat=None)
        self.finished = done.id
        await s.start_table(self.finished, BOB, fill_ai="easy")
        await s.wait_idle(self.finished)
        self.tournament = (await self.tours.new(MOD, game="callbreak", boards=1, tables=2)).id
        self.lobby_info = await s.get_table(self.lobby)

    def baselines(self) -> dict[str, tuple[Callable[..., Any], dict[str, Any]]]:
        """Per method: the callable and valid arguments."""
        s, t = self.service, self.tours
        lobby, playing, finished = self.lobby, self.playing, self.finished
        return {
            "abandon": (s.abandon, {"table_id": lobby, "actor": HOST}),
            "act": (
                s.act,
                {"table_id": playing, "actor": HOST, "action_text": "bid 3", "expected_seq": 0},
            ),
            "active_tables": (s.active_tables, {"guild_id": GUILD}),
            "add_ai": (s.add_ai, {"table_id": lobby, "actor": HOST, "difficulty": "easy"}),
            "back": (s.back, {"table_id": playing, "actor": HOST}),
            "create_table": (
                s.create_table,
                {
                    "actor": NEWCOMER,
                    "game": "callbreak",
                    "channel_id": CHANNEL,
                    "options": {"rounds": 1},
                    "seed": 3,
                    "host_seat": 0,
                },
            ),
            "get_guild_settings": (s.get_guild_settings, {"guild_id": GUILD}),
            "get_settings": (s.get_settings, {"guild_id": GUILD, "game": "batak"}),
            "get_table": (s.get_table, {"table_id": lobby, "actor": HOST}),
            "history": (s.history, {"table_id": playing, "since": 0}),
            "is_moderator": (s.is_moderator, {"actor": MOD}),
            "join": (s.join, {"table_id": lobby, "actor": NEWCOMER}),
            "kick": (s.kick, {"table_id": lobby, "actor": HOST, "seat": 1}),
            "leaderboard": (s.leaderboard, {"guild_id": GUILD, "game": "batak", "limit": 10}),
            "leave": (s.leave, {"table_id": lobby, "actor": BOB}),
            "open_tables": (s.open_tables, {"actor": HOST}),
            "ping_preference": (s.ping_preference, {"user_id": HOST.user_id}),
            "private_view": (s.private_view, {"table_id": playing, "actor": HOST}),
            "public_view": (s.public_view, {"table_id": playing, "actor": HOST}),
            "rematch": (s.rematch, {"table_id": finished, "actor": BOB}),
            "remove_ai": (s.remove_ai, {"table_id": lobby, "actor": HOST, "seat": 2}),
            "reset_settings": (s.reset_settings, {"actor": MOD, "game": "batak", "key": "min_bid"}),
            "resign": (s.resign, {"table_id": playing, "actor": HOST}),
            "set_guild_setting": (
                s.set_guild_setting,
                {"actor": MOD, "key": "rated_with_ai", "value_text": "true"},
            ),
            "set_message": (
                s.set_message,
                {"table_id": lobby, "channel_id": CHANNEL, "message_id": 7, "thread_id": 8},
            ),
            "set_moderator_role": (s.set_moderator_role, {"actor": MOD, "role_id": 9}),
            "set_ping_preference": (s.set_ping_preference, {"actor": HOST, "mode": "dm"}),
            "set_setting": (
                s.set_setting,
                {"actor": MOD, "game": "batak", "key": "target_score", "value_text": "60"},
            ),
            "start_table": (s.start_table, {"table_id": lobby, "actor": HOST, "fill_ai": "easy"}),
            "stats": (s.stats, {"guild_id": GUILD, "user_id": HOST.user_id}),
            "tables_for_user": (s.tables_for_user, {"actor": HOST}),
            "wait_idle": (s.wait_idle, {"table_id": playing}),
            "tournament.get": (t.get, {"actor": MOD, "tournament_id": self.tournament}),
            "tournament.join": (t.join, {"actor": NEWCOMER, "tournament_id": self.tournament}),
            "tournament.start": (t.start, {"actor": MOD, "tournament_id": self.tournament}),
            "tournament.new": (
                t.new,
                {"actor": MOD, "game": "callbreak", "boards": 1, "tables": 2, "channel_id": 6},
            ),
            "tournament.leaderboard": (t.leaderboard, {"guild_id": GUILD, "limit": 10}),
            "tournament.check_view": (t.check_view, {"info": self.lobby_info, "actor": MOD}),
            "tournament.set_message": (
                t.set_message,
                {"tournament_id": self.tournament, "channel_id": CHANNEL, "message_id": 7},
            ),
        }

    async def snapshot(self) -> tuple[Any, ...]:
        """Everything a call could change: every row of the store, the
        tables and tournaments in memory."""
        rows = []
        async with self.store.engine.connect() as conn:
            for table in Base.metadata.sorted_tables:
                result = await conn.execute(text(f"SELECT * FROM {table.name}"))
                rows.append((table.name, sorted(map(repr, result.fetchall()))))
        memory = (
            sorted((k, repr(v.info())) for k, v in self.service.tables.items()),
            sorted((k, repr(v.info())) for k, v in self.service.recent.items()),
            sorted((k, repr(v.info())) for k, v in self.tours.live.items()),
            dict(self.service._pings),
        )
        return tuple(rows), memory

    async def close(self) -> None:
        await self.tours.close()
        await self.service.close()
        await self.store.close()


def _public_methods() -> set[str]:
    names = set()
    for prefix, cls in (("", TableService), ("tournament.", TournamentService)):
        for name, member in inspect.getmembers(cls):
            public = not name.startswith("_") and name not in LIFECYCLE[cls]
            if public and inspect.iscoroutinefunction(member):
                names.add(prefix + name)
    return names


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    counter = itertools.count(1)
    patch = pytest.MonkeyPatch()
    patch.setattr("bot.services.tables.new_seed", lambda: next(counter))
    loop = asyncio.new_event_loop()
    w = World(str(tmp_path_factory.mktemp("boundary") / "b.db"))
    loop.run_until_complete(w.open())
    yield loop, w
    loop.run_until_complete(w.close())
    loop.close()
    patch.undo()


def test_every_public_method_has_a_baseline(world):
    _, w = world
    assert set(w.baselines()) == _public_methods()
    for name, (method, kwargs) in w.baselines().items():
        params = set(inspect.signature(method).parameters)
        assert set(kwargs) <= params, name
        assert all(p in WRONG for p in kwargs), name


def test_the_baselines_are_valid(world):
    """A read-only baseline succeeds as given, so a refusal in the property
    test comes from the one wrong value."""
    loop, w = world
    for name in ("get_table", "public_view", "private_view", "history", "tournament.get"):
        method, kwargs = w.baselines()[name]
        loop.run_until_complete(method(**kwargs))


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_wrong_value_anywhere_is_a_domain_error_and_changes_nothing(world, data):
    loop, w = world
    baselines = w.baselines()
    name = data.draw(st.sampled_from(sorted(baselines)), label="method")
    method, kwargs = baselines[name]
    param = data.draw(st.sampled_from(sorted(kwargs)), label="parameter")
    wrong = data.draw(WRONG[param], label="value")
    before = loop.run_until_complete(w.snapshot())
    try:
        loop.run_until_complete(method(**{**kwargs, param: wrong}))
    except EngineError:
        pass
    else:
        raise AssertionError(f"{name}({param}={wrong!r}) was accepted")
    assert loop.run_until_complete(w.snapshot()) == before, f"{name}({param}={wrong!r})"

"""The AI worker pool (bot/services/thinking.py): every decision is answered
with a legal action whatever goes wrong in a worker, tables are served in
turn, and closing is prompt.  Behaviour only: no timing assertions (the
waits below only guard against a hang).

The test agents are registered when this module is imported: by pytest, and
by every worker, which imports it (``preload``).  One pool with one worker is
shared by the module; tests that need their own settings spawn their own.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import random
import signal
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
import pytest_asyncio

from bot.services.ai_worker import Decision
from bot.services.thinking import Thinker, ThinkerClosed
from engine import GAMES, MatchState, get_game
from engine.ai import BaseAgent, agent_names, get_agent, register_agent
from engine.core.actions import Action
from engine.core.view import Observation

in_module_loop = pytest.mark.asyncio(loop_scope="module")
PRELOAD = (__name__,)
THINKING = "bot.services.thinking"


class Raises(BaseAgent):
    name = "test-raises"

    def act(
        self, view: Observation, legal: Sequence[Action], *, full_state: MatchState | None = None
    ) -> Action:
        raise RuntimeError("the agent broke")


class Sleeps(BaseAgent):
    """Sleeps for its budget, then plays the first legal action."""

    name = "test-sleeps"

    def act(
        self, view: Observation, legal: Sequence[Action], *, full_state: MatchState | None = None
    ) -> Action:
        time.sleep(self.budget_ms / 1000)
        return legal[0]


class Hangs(BaseAgent):
    """Ignores its budget."""

    name = "test-hangs"

    def act(
        self, view: Observation, legal: Sequence[Action], *, full_state: MatchState | None = None
    ) -> Action:
        time.sleep(60)
        return legal[0]


class Illegal(BaseAgent):
    name = "test-illegal"

    def act(
        self, view: Observation, legal: Sequence[Action], *, full_state: MatchState | None = None
    ) -> Action:
        return Action("hidden", number=99)


for _agent in (Raises, Sleeps, Hangs, Illegal):
    register_agent(_agent.name, "*", _agent)


# -- helpers -------------------------------------------------------------------------------------
def position(game: str, moves: int = 0, seed: int = 1) -> MatchState:
    """A match after ``moves`` heuristic moves."""
    state = get_game(game).new_match(seed=seed)
    agents = [get_agent("heuristic", game=game, seed=s) for s in range(state.num_seats)]
    for _ in range(moves):
        seat = state.decider
        assert seat is not None
        state.apply(agents[seat].act(state.view(seat), state.legal_actions()))
    return state


def late_in_a_deal(game: str) -> MatchState:
    """A card play with two cards in hand and a real choice: the search
    reaches its world cap long before its budget, so its answer is
    independent of the clock."""
    state = get_game(game).new_match(seed=1)
    agents = [get_agent("heuristic", game=game, seed=s) for s in range(state.num_seats)]
    while True:
        seat = state.decider
        assert seat is not None
        view, legal = state.view(seat), state.legal_actions()
        if view.phase == "play" and len(view.hand) <= 2 and len(legal) > 1:
            return state
        state.apply(agents[seat].act(view, legal))


def decision(
    game: str = "callbreak",
    agent: str = "heuristic",
    *,
    table: int = 1,
    seed: int = 1,
    budget_ms: int = 50,
    state: MatchState | None = None,
) -> Decision:
    state = state or position(game)
    seat = state.decider
    assert seat is not None
    return Decision(table, game, agent, state.view(seat), state.legal_actions(), seed, budget_ms)


def answer_of(d: Decision, agent: str = "heuristic") -> Action:
    """What ``agent`` answers in this process."""
    chosen = get_agent(agent, game=d.game, seed=d.seed, budget_ms=d.budget_ms)
    return chosen.act(d.view, list(d.legal))


def pool_of_one(**options: Any) -> Thinker:
    """One worker that can run the test agents, at normal priority (the
    suite shares the machine; nice +5 only slows the spawns here)."""
    return Thinker(1, preload=PRELOAD, niceness=0, **options)


def warnings_from_thinking(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage() for r in caplog.records if r.name == THINKING and r.levelno >= logging.INFO
    ]


async def until(condition: object, what: str) -> None:
    """Wait (a few seconds at most) until ``condition()`` holds."""
    for _ in range(500):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def pool() -> AsyncIterator[Thinker]:
    """One worker; every agent (even the cheap ones) goes to it; no queue
    wait limit to speak of."""
    thinker = pool_of_one(cheap_agents=frozenset(), max_queue_wait_ms=60_000)
    await thinker.start()
    yield thinker
    await thinker.close()


# -- the message -------------------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_a_decision_pickles_whole_and_small(game: str) -> None:
    for moves in (0, 12):
        d = decision(game, state=position(game, moves))
        data = pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL)
        assert pickle.loads(data) == d
        assert len(data) < 16_000  # Blot's 646 opening bids are the largest message


def test_a_decision_holds_a_view_and_some_legal_action() -> None:
    state = position("callbreak")
    with pytest.raises(TypeError, match="Observation"):
        Decision(1, "callbreak", "search", state, state.legal_actions(), 1, 50)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one legal action"):
        Decision(1, "callbreak", "search", state.view(0), (), 1, 50)


# -- answers -------------------------------------------------------------------------------------
@in_module_loop
@pytest.mark.parametrize("game", list(GAMES))
async def test_every_game_gets_a_legal_action_from_a_worker(pool: Thinker, game: str) -> None:
    agent = "search" if "search" in agent_names(game) else "heuristic"
    before = pool.stats
    for moves in (0, 12):
        d = decision(game, agent, state=position(game, moves), budget_ms=30)
        assert await pool.decide(d) in d.legal
    assert pool.stats["computed"] == before["computed"] + 2
    assert pool.stats["fallback_reasons"] == before["fallback_reasons"]


@in_module_loop
@pytest.mark.parametrize("game", list(GAMES))
async def test_the_same_decision_gets_the_same_action_in_a_worker_and_inline(
    pool: Thinker, game: str
) -> None:
    inline = Thinker(inline=True, cheap_agents=frozenset())
    for agent in ("heuristic", "random"):
        for moves, seed in ((0, 1), (5, 2), (12, 3)):
            d = decision(game, agent, state=position(game, moves, seed=seed), seed=seed)
            assert await pool.decide(d) == await inline.decide(d) == answer_of(d, agent)
    await inline.close()


@in_module_loop
async def test_a_search_capped_by_worlds_gives_the_same_action_in_a_worker_and_inline(
    pool: Thinker,
) -> None:
    d = decision("callbreak", "search", state=late_in_a_deal("callbreak"), budget_ms=20_000)
    inline = Thinker(inline=True)
    assert await pool.decide(d) == await inline.decide(d)
    await inline.close()


@in_module_loop
async def test_cheap_agents_are_answered_on_the_loop_without_a_pool() -> None:
    thinker = Thinker(1)
    for agent in ("heuristic", "random"):
        d = decision("blot", agent)
        assert await thinker.decide(d) == answer_of(d, agent)
    assert thinker.stats["on_loop"] == 2
    assert thinker.worker_pids() == []
    await thinker.close()


# -- fallbacks -----------------------------------------------------------------------------------
@in_module_loop
async def test_an_agent_that_raises_in_a_worker_gets_the_heuristic_answer(
    pool: Thinker, caplog: pytest.LogCaptureFixture
) -> None:
    before = pool.stats["fallback_reasons"].get("agent_error", 0)
    d = decision("batak", "test-raises", table=7)
    assert await pool.decide(d) == answer_of(d)
    assert pool.stats["fallback_reasons"]["agent_error"] == before + 1
    [line] = warnings_from_thinking(caplog)
    assert "table 7" in line and "the agent broke" in line and "fell back to heuristic" in line


@in_module_loop
async def test_an_illegal_answer_from_a_worker_gets_the_heuristic_answer(pool: Thinker) -> None:
    d = decision("ladder", "test-illegal")
    assert await pool.decide(d) == answer_of(d)


@in_module_loop
async def test_an_unknown_agent_gets_the_heuristic_answer(pool: Thinker) -> None:
    d = decision("backalley", "no-such-agent")
    assert await pool.decide(d) == answer_of(d)


@in_module_loop
@pytest.mark.parametrize("workers", [0, 1])
async def test_inline_mode_falls_back_the_same_way(workers: int) -> None:
    thinker = Thinker(workers, inline=True)
    for agent in ("test-raises", "test-illegal"):
        d = decision("callbreak", agent)
        assert await thinker.decide(d) == answer_of(d)
    assert thinker.stats["fallbacks"] == 2
    await thinker.close()


@in_module_loop
async def test_a_cheap_agent_that_fails_on_the_loop_falls_back_too() -> None:
    thinker = Thinker(1, cheap_agents=frozenset({"test-raises"}))
    d = decision("blot", "test-raises")
    assert await thinker.decide(d) == answer_of(d)
    assert thinker.worker_pids() == []
    await thinker.close()


@in_module_loop
async def test_when_the_fallback_fails_too_a_seeded_random_legal_action_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    thinker = Thinker(inline=True, fallback="test-raises")
    d = decision("ladder", "test-illegal", seed=5)
    assert await thinker.decide(d) == random.Random(5).choice(d.legal)
    assert len(warnings_from_thinking(caplog)) == 2  # the agent's failure, the fallback's
    await thinker.close()


# -- dead, stuck and busy workers ----------------------------------------------------------------
@in_module_loop
async def test_a_killed_worker_falls_back_and_the_pool_is_restarted(
    pool: Thinker, caplog: pytest.LogCaptureFixture
) -> None:
    before = pool.stats
    [pid] = pool.worker_pids()
    d = decision("callbreak", "test-sleeps", table=3, budget_ms=30_000)
    thinking = asyncio.create_task(pool.decide(d))
    await until(lambda: pool.stats["in_flight"] == 1, "the decision is in a worker")
    os.kill(pid, signal.SIGKILL)
    assert await thinking == answer_of(d)
    [line] = warnings_from_thinking(caplog)
    assert "table 3: AI worker died" in line and "restarted" in line
    assert pool.stats["worker_restarts"] == before["worker_restarts"] + 1
    again = decision("callbreak", "random", seed=9)
    assert await pool.decide(again) == answer_of(again, "random")
    assert pool.stats["computed"] == before["computed"] + 1
    assert pool.worker_pids() and pid not in pool.worker_pids()


@in_module_loop
async def test_a_worker_killed_while_idle_is_replaced_before_the_next_decision(
    pool: Thinker,
) -> None:
    await pool.start()
    [pid] = pool.worker_pids()
    os.kill(pid, signal.SIGKILL)
    await until(lambda: pool.worker_pids() == [], "the pool sees its worker is gone")
    before = pool.stats
    d = decision("batak", "heuristic", seed=4)
    assert await pool.decide(d) == answer_of(d)
    assert pool.stats["fallback_reasons"] == before["fallback_reasons"]
    assert pool.stats["worker_restarts"] == before["worker_restarts"] + 1


@in_module_loop
async def test_a_worker_far_over_its_budget_is_killed_and_the_decision_falls_back() -> None:
    thinker = pool_of_one(overrun_grace_ms=0)
    await thinker.start()
    [pid] = thinker.worker_pids()
    d = decision("backalley", "test-hangs", budget_ms=50)
    assert await thinker.decide(d) == answer_of(d)
    assert thinker.stats["fallback_reasons"] == {"overrun": 1}
    assert thinker.stats["worker_restarts"] == 1
    await thinker.close()
    assert not os.path.exists(f"/proc/{pid}")


@in_module_loop
async def test_a_decision_waiting_too_long_for_a_worker_falls_back(
    caplog: pytest.LogCaptureFixture,
) -> None:
    thinker = pool_of_one(max_queue_wait_ms=20)
    await thinker.start()
    busy = asyncio.create_task(thinker.decide(decision(agent="test-sleeps", budget_ms=30_000)))
    await until(lambda: thinker.stats["in_flight"] == 1, "the worker is busy")
    d = decision("blot", "test-sleeps", table=2, seed=3)
    assert await thinker.decide(d) == answer_of(d)
    assert thinker.stats["fallback_reasons"] == {"queue_wait": 1}
    [line] = warnings_from_thinking(caplog)
    assert line.startswith("table 2: AI queue wait ") and line.endswith(
        "ms, fell back to heuristic"
    )
    await thinker.close()
    assert busy.cancelled()


# -- fairness and shutdown -----------------------------------------------------------------------
@in_module_loop
async def test_tables_are_served_in_turn(pool: Thinker) -> None:
    """One worker: table A asks five times, then table B once; B is served
    right after A's decision that was running and A's next one."""
    order: list[str] = []

    async def ask(label: str, table: int) -> None:
        d = decision("callbreak", "test-sleeps", table=table, budget_ms=20)
        assert await pool.decide(d) in d.legal
        order.append(label)

    asks = [ask(f"A{i}", 1) for i in range(1, 6)] + [ask("B1", 2)]
    await asyncio.gather(*asks)
    assert order == ["A1", "A2", "B1", "A3", "A4", "A5"]


@in_module_loop
async def test_close_with_decisions_pending_returns_promptly() -> None:
    thinker = pool_of_one()
    await thinker.start()
    [pid] = thinker.worker_pids()
    pending = [
        asyncio.create_task(
            thinker.decide(decision(agent="test-sleeps", table=t, budget_ms=30_000))
        )
        for t in range(4)
    ]
    await until(lambda: thinker.stats["in_flight"] == 1, "the worker is busy")
    assert thinker.stats["queued"] == 3
    await asyncio.wait_for(thinker.close(), timeout=10)  # a hang guard, not a timing check
    await asyncio.gather(*pending, return_exceptions=True)
    assert all(task.cancelled() for task in pending)
    assert not os.path.exists(f"/proc/{pid}")
    with pytest.raises(ThinkerClosed):
        await thinker.decide(decision())

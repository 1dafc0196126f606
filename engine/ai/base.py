"""The Agent protocol and the play-out driver (DESIGN.md, "AI").

An agent sees one seat's ``Observation`` and the legal actions and returns
one of them.  It owns a seeded RNG so runs are reproducible.  Only an agent
that says ``sees_all = True`` is ever handed the full state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.game import MatchState
from engine.core.view import Observation


class Agent(Protocol):
    name: str
    sees_all: bool

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action: ...


class BaseAgent:
    """Common plumbing: a name, a seeded RNG, and a budget."""

    name = "base"
    sees_all = False

    def __init__(
        self,
        game: str | None = None,
        seed: int | None = None,
        budget_ms: int = 300,
        **options: object,
    ) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.budget_ms = budget_ms

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        raise NotImplementedError


AgentFactory = Callable[..., Agent]
#: name -> game (or "*" for every game) -> factory
_AGENTS: dict[str, dict[str, AgentFactory]] = {}


def register_agent(name: str, game: str, factory: AgentFactory) -> None:
    _AGENTS.setdefault(name, {})[game] = factory


def agent_names(game: str | None = None) -> list[str]:
    """Agents available (for ``game``, when given)."""
    return [n for n, per in _AGENTS.items() if game is None or game in per or "*" in per]


def get_agent(
    name: str, *, game: str, seed: int | None = None, budget_ms: int = 300, **kw: Any
) -> Agent:
    """An agent by name for a game; a per-game implementation wins over a
    generic one.  Unknown names raise ValueError listing what exists."""
    per = _AGENTS.get(name)
    if per is None:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(_AGENTS))}")
    factory = per.get(game) or per.get("*")
    if factory is None:
        raise ValueError(f"agent {name!r} does not play {game!r}")
    return factory(game=game, seed=seed, budget_ms=budget_ms, **kw)


def play_out(
    state: MatchState,
    agents: Sequence[Agent],
    *,
    max_actions: int = 1_000_000,
) -> MatchState:
    """Play ``state`` to the end with one agent per seat (``agents[decider]``)."""
    for _ in range(max_actions):
        if state.is_over:
            return state
        seat = state.decider
        assert seat is not None
        agent = agents[seat]
        legal = state.legal_actions()
        full = state if agent.sees_all else None
        state.apply(agent.act(state.view(seat), legal, full_state=full))
    raise RuntimeError("play_out did not finish within max_actions")

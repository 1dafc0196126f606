"""What an AI worker process runs: the ``Decision`` it is sent (a seat's own
view, the legal actions, the agent's name, seed and budget) and the adapter
that builds the engine's agent and asks it (``_think``).  The pool that sends
decisions here is ``bot.services.thinking.Thinker``."""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
from dataclasses import dataclass

from engine.ai import get_agent
from engine.core.actions import Action
from engine.core.view import Observation


@dataclass(frozen=True)
class Decision:
    """One AI decision, everything a worker needs and nothing more: the
    seat's own view (never the full state), the legal actions, the agent's
    name, its seed and its budget.  ``legal`` may be given as a list; it is
    kept as a tuple, the view's own tuple when equal, so a pickle carries the
    actions once."""

    table_id: int
    game: str
    agent: str
    view: Observation
    legal: tuple[Action, ...]
    seed: int
    budget_ms: int

    def __post_init__(self) -> None:
        if not isinstance(self.view, Observation):
            kind = type(self.view).__name__
            raise TypeError(f"a Decision holds a seat's Observation, not a {kind}")
        legal = tuple(self.legal)
        if not legal:
            raise ValueError(f"table {self.table_id}: a decision needs at least one legal action")
        if legal == self.view.legal_actions:
            legal = self.view.legal_actions
        object.__setattr__(self, "legal", legal)


# -- in the worker -------------------------------------------------------------------------------
def _init_worker(preload: tuple[str, ...], niceness: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(niceness)
    importlib.import_module("engine.ai")
    for name in preload:
        importlib.import_module(name)


def _ping() -> int:
    return os.getpid()


def _think(decision: Decision) -> Action:
    agent = get_agent(
        decision.agent, game=decision.game, seed=decision.seed, budget_ms=decision.budget_ms
    )
    return agent.act(decision.view, list(decision.legal))

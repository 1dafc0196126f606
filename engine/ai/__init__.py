"""AI players.  ``get_agent(name, game=..., seed=..., budget_ms=...)``.

Importing this package registers every agent: the generic random agent,
each game's heuristic (``engine/ai/heuristics/<game>.py``) and the search
agent for every game (``worlds.py``, ``ladder_search.py``; Bazar Blot's
own in ``blot_search.py``, which replaces the generic one), and the Bazar
Blot paper's baseline ``paper-minimax`` (``baselines.py``), the only agent
that sees every hand.
"""

from engine.ai import baselines as _baselines  # noqa: F401
from engine.ai import blot_search as _blot_search  # noqa: F401
from engine.ai import heuristics as _heuristics  # noqa: F401
from engine.ai import ladder_search as _ladder_search  # noqa: F401
from engine.ai import random_agent as _random  # noqa: F401
from engine.ai import worlds as _worlds  # noqa: F401
from engine.ai.base import Agent, BaseAgent, agent_names, get_agent, play_out, register_agent

AGENTS = agent_names

__all__ = ["AGENTS", "Agent", "BaseAgent", "agent_names", "get_agent", "play_out", "register_agent"]

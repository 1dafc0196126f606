"""The random agent: a uniformly random legal action (the baseline of every
strength benchmark)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.base import BaseAgent, register_agent
from engine.core.actions import Action
from engine.core.game import MatchState
from engine.core.view import Observation


class RandomAgent(BaseAgent):
    name = "random"

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        return self.rng.choice(list(legal))


register_agent("random", "*", RandomAgent)

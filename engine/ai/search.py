"""Determinized Monte Carlo search (PIMC) for the play phase of trick games.

For each decision: sample worlds consistent with the seat's view (a
per-game *world builder* registered here), play every legal card in each
world and finish the deal with fast heuristic players, and choose the card
with the best mean result for the deciding side.  Bidding and other
non-card decisions are left to the game's heuristic.  The agent only ever
reads its own ``Observation``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from engine.ai.base import BaseAgent, get_agent, register_agent
from engine.core.actions import Action
from engine.core.game import MatchState
from engine.core.view import Observation

WorldBuilder = Callable[[Observation, random.Random], MatchState]
#: how a finished (or abandoned) rollout is valued for the deciding seat
Evaluator = Callable[[MatchState, int, int], float]
_WORLDS: dict[str, WorldBuilder] = {}


def register_world_builder(game: str, builder: WorldBuilder) -> None:
    _WORLDS[game] = builder
    register_agent("search", game, SearchAgent)


def deal_value(state: MatchState, seat: int, deals_before: int) -> float:
    """The deciding side's score in the deal the search started in, minus the
    mean of the other sides (own side only for partnership games)."""
    history = getattr(state, "history", [])
    if len(history) <= deals_before:
        return 0.0
    scores = history[deals_before].scores
    team = state.game.team_of(seat)
    mine = scores[team if team is not None else seat]
    others = [v for i, v in enumerate(scores) if i != (team if team is not None else seat)]
    return float(mine - sum(others) / max(1, len(others)))


class SearchAgent(BaseAgent):
    """PIMC: ``budget_ms`` of sampled worlds x legal cards x heuristic rollouts."""

    name = "search"

    def __init__(
        self, game: str | None = None, seed: int | None = None, budget_ms: int = 300, **kw: object
    ) -> None:
        super().__init__(game, seed, budget_ms)
        assert game is not None
        self.fallback = get_agent("heuristic", game=game, seed=seed)
        self.rollout_seed = seed or 0
        self.max_worlds = int(kw.get("max_worlds", 64))  # type: ignore[call-overload]

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        plays = [a for a in legal if a.verb == "play"]
        if len(plays) != len(legal) or len(plays) <= 1:
            return self.fallback.act(view, legal)
        assert view.decider is not None and self.game is not None
        deadline = time.perf_counter() + self.budget_ms / 1000
        totals = dict.fromkeys(plays, 0.0)
        worlds = 0
        while worlds < self.max_worlds and (worlds < 2 or time.perf_counter() < deadline):
            world = _WORLDS[self.game](view, self.rng)
            deals_before = len(getattr(world, "history", []))
            for action in plays:
                sim = world.clone()
                sim.apply(action)
                self._rollout(sim, deals_before, worlds)
                totals[action] += deal_value(sim, view.decider, deals_before)
            worlds += 1
        return max(plays, key=lambda a: totals[a])

    def _rollout(self, state: MatchState, deals_before: int, salt: int) -> None:
        players = [
            get_agent("heuristic", game=state.game.name, seed=self.rollout_seed + salt * 7 + s)
            for s in range(state.num_seats)
        ]
        history = getattr(state, "history", [])
        while not state.is_over and len(history) <= deals_before:
            seat = state.decider
            assert seat is not None
            state.apply(players[seat].act(state.view(seat), state.legal_actions()))
            history = getattr(state, "history", [])

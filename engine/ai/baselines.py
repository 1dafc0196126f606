"""Baselines from the Bazar Blot paper ("Agent for Bazar Blot", AUA 2024;
rules/blot.md), to compare our agents with.

``paper-minimax``: the paper's depth-limited minimax that sees all hands.
It openly cheats, says so (``sees_all = True``) and is handed the full
state by the play-out driver as ``full_state=``; no other agent ever is.
Its card play is alpha-beta (``engine.ai.solver``) over the next ``depth``
cards (default 8, two tricks; to the end of the deal once that is within
reach), valued by the card points each team has taken, last-trick bonus
included.  The paper's hill-climbing bidder needs its value table, which
we do not have: this baseline bids with our heuristic, so it measures the
paper's card play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.base import BaseAgent, get_agent, register_agent
from engine.ai.solver import Solver
from engine.core.actions import Action, play
from engine.core.game import MatchState
from engine.core.view import Observation


class PaperMinimax(BaseAgent):
    name = "paper-minimax"
    sees_all = True

    def __init__(
        self, game: str | None = None, seed: int | None = None, budget_ms: int = 300, **kw: Any
    ) -> None:
        super().__init__(game, seed, budget_ms)
        assert game is not None
        self.depth = int(kw.get("depth", 8))
        self.bidder = get_agent("heuristic", game=game, seed=seed)

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        if len(legal) == 1 or any(a.verb != "play" for a in legal):
            return legal[0] if len(legal) == 1 else self.bidder.act(view, legal)
        if full_state is None:
            raise ValueError("paper-minimax sees every hand: pass full_state=")
        state: Any = full_state
        assert self.game is not None and state.playing_seat is not None
        cards_left = sum(len(h) for h in state.hands)
        depth = cards_left if cards_left <= self.depth + 4 else self.depth
        _, card = Solver(self.game).solve(state, state.playing_seat % 2, depth)
        return play(card) if card is not None else legal[0]


register_agent("paper-minimax", "blot", PaperMinimax)

"""Determinized Monte Carlo search (PIMC) for the play phase.

For each decision: sample worlds consistent with the seat's view (a
per-game *world builder*), play every candidate action in each world and
finish the deal (or, for Ladder, a stretch of the game) with the heuristic's
rules for every seat, and choose the action with the best mean result for
the deciding side.  Bids are priced by simulation where the game has a
bidder (``engine.ai.bidding``, ``engine.ai.auctions``), other decisions
are the heuristic's.  The agent only ever reads its own ``Observation``.

Where a game has a fast path (``SearchGame.playouts``: bit-coded deals in
``engine.ai.playouts``, rank counts in ``engine.ai.ladder_playouts``), its
worlds and play-outs never build a ``MatchState``; the ``MatchState`` path
(``world``, ``rollouts``, ``value``) stays for the others and for analysis.

Time follows the decision (issue 13):

- instant when one action is legal, or when all legal actions are
  equivalent (touching cards of one suit with nothing unseen between them
  and, where cards carry points, equal points: ``knowledge.equivalence_classes``);
  only one card of each class of equivalent cards is searched;
- from ``min_worlds`` worlds on, the evidence is checked after every world
  (``engine.ai.evidence``): candidates significantly worse than the leader
  (paired over the same worlds, ``z`` standard errors) are dropped, and the
  search stops when one candidate is left, when every world gave every
  candidate the same value, when every remaining difference is known to
  within the game's ``resolution``, or -- from ``min_safe_worlds`` on --
  when the expected loss of playing the leader is below ``resolution``
  (the lead is safe); at most ``max_worlds`` worlds (bids: ``max_bid_worlds``);
- never more than ``budget_ms``: the clock is checked every few cards of
  every rollout, a world cut short is thrown away, and the search stops a
  fifth of the budget early (5 to 60 ms: 240 ms of a 300 ms budget) for the
  last card and the answer.

Reproducible: the worlds come from the agent's seeded RNG and rollouts are
deterministic, so the same seed and the same number of completed worlds
give the same choice; a search that ends by its rules or by ``max_worlds``
(not by the clock: ``agent.last["stop"]``) replays identically on any
machine.  When the evidence does not separate the heuristic's own card from
the leader, the heuristic's card is played.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.ai.base import BaseAgent, get_agent, register_agent
from engine.ai.evidence import MIN_SAFE_WORLDS
from engine.ai.evidence import Evidence as Evidence  # re-exported: other searches use it
from engine.ai.rollout import COUNTS, copy_state
from engine.core.actions import Action
from engine.core.game import MatchState
from engine.core.view import Observation
from engine.errors import EngineError

WorldBuilder = Callable[[Observation, random.Random], MatchState]
Bidder = Callable[
    [Observation, Sequence[Action], random.Random, float, int], dict[Action, list[float]] | None
]


class Rollouts(Protocol):
    """Per-decision play-out machinery for one game (see ``SearchGame``)."""

    def run(self, state: Any, deadline: float) -> bool: ...


class Playouts(Protocol):
    """A game's fast path for one decision (``SearchGame.playouts``): its
    own world representation, sampled and played out without a ``MatchState``."""

    def sample(self, rng: random.Random) -> Any:
        """A world consistent with the view."""

    def value(self, world: Any, action: Action, deadline: float) -> float | None:
        """The deciding side's value of ``action`` in ``world`` (the world
        itself is left as it was); None when the deadline came first."""

    @property
    def work(self) -> int:
        """Rollout cards (Ladder: turns) played so far for this decision."""


@dataclass(frozen=True)
class SearchGame:
    """How to search one game: sample a world, group equivalent actions,
    play a world on, and value the outcome for the deciding seat."""

    world: WorldBuilder
    #: (view, legal plays) -> classes of equivalent actions (each non-empty)
    classes: Callable[[Observation, list[Action]], list[list[Action]]]
    #: (view) -> the rollout machinery for this decision
    rollouts: Callable[[Observation], Rollouts]
    #: (state after the rollout, deciding seat, mark of the world) -> value
    value: Callable[[MatchState, int, int], float]
    #: verbs the search decides (others go to the heuristic)
    verbs: frozenset[str] = field(default_factory=lambda: frozenset({"play"}))
    #: a difference in value too small to matter (Callbreak: a tenth of a point)
    resolution: float = 1.0
    #: where the world stands before the search (deals scored so far), for ``value``
    mark: Callable[[MatchState], int] = lambda state: len(getattr(state, "history", []))
    #: exact end-game value (``engine.ai.solver``): (state after the
    #: candidate, deciding seat, deadline) -> what the seat's side takes;
    #: used instead of a rollout once a world has ``endgame_cards`` or fewer
    endgame: Callable[[MatchState, int, float], float] | None = None
    endgame_cards: int = 0
    #: bidding by simulation (``engine.ai.bidding``): (view, legal bids, rng,
    #: deadline, most worlds) -> each candidate's value per simulated deal,
    #: or None to leave the bid to the heuristic
    bidder: Bidder | None = None
    #: the fast path (``engine.ai.playouts``, ``engine.ai.ladder_playouts``):
    #: (view) -> this decision's worlds and play-outs; used instead of
    #: ``world``, ``rollouts``, ``value`` and ``endgame`` when given
    playouts: Callable[[Observation], Playouts] | None = None


_GAMES: dict[str, SearchGame] = {}
#: rollout cards (or Ladder turns) per ms of budget: about a third of what
#: this 2-core machine plays in a ms (8-10 us a card), so that the work
#: cap, not the clock, ends a long search even on a busy machine
WORK_PER_MS = 40


def register_search(game: str, spec: SearchGame) -> None:
    _GAMES[game] = spec
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


def _cards_left(state: MatchState) -> int:
    return sum(len(h) for h in getattr(state, "hands", ())) or 10**6


class SearchAgent(BaseAgent):
    """PIMC within ``budget_ms``; see the module docstring."""

    name = "search"

    def __init__(
        self, game: str | None = None, seed: int | None = None, budget_ms: int = 300, **kw: Any
    ) -> None:
        super().__init__(game, seed, budget_ms)
        assert game is not None
        self.spec = _GAMES[game]
        self.fallback = get_agent("heuristic", game=game, seed=seed)
        self.max_worlds = int(kw.get("max_worlds", 400))
        #: simulated deals a bid is worth at most (``engine.ai.bidding``)
        self.max_bid_worlds = min(self.max_worlds, int(kw.get("max_bid_worlds", 60)))
        self.min_worlds = int(kw.get("min_worlds", 6))
        self.z = float(kw.get("z", 2.5))
        #: worlds before the expected-loss rule may stop a search (small
        #: samples understate the spread of rare, large differences)
        self.min_safe_worlds = int(kw.get("min_safe_worlds", MIN_SAFE_WORLDS))
        #: standard errors by which the leader must beat the heuristic's card
        self.prefer_own = float(kw.get("prefer_own", 1.0))
        #: rollout cards (Ladder: turns) a search may play: the budget in
        #: work, not time, so that a search replays identically however busy
        #: the machine (the clock only guards against a slower one)
        self.work_cap = int(kw.get("work", self.budget_ms * WORK_PER_MS))
        #: False: no early stop at all (benchmarks of throughput)
        self.early_stop = bool(kw.get("early_stop", True))
        #: how the last decision went (tests and benchmarks read it)
        self.last: dict[str, Any] = {}

    def deadline(self, start: float) -> float:
        """When to stop searching: short of the budget by the time a last
        card and the answer may take (a fifth of it, 5 to 60 ms)."""
        margin = max(5.0, min(0.2 * self.budget_ms, 60.0))
        return start + (self.budget_ms - margin) / 1000

    def act(
        self,
        view: Observation,
        legal: Sequence[Action],
        *,
        full_state: MatchState | None = None,
    ) -> Action:
        start = time.perf_counter()
        deadline = self.deadline(start)
        legal = list(legal)
        if len(legal) == 1:
            return self._done(legal[0], "only_action", 0, start)
        if any(a.verb not in self.spec.verbs for a in legal):
            own = self.fallback.act(view, legal)
            if self.spec.bidder is not None and not any(a.verb in self.spec.verbs for a in legal):
                priced = self.spec.bidder(view, legal, self.rng, deadline, self.max_bid_worlds)
                if priced:
                    evidence = Evidence(list(priced), dict(priced))
                    return self._done(
                        self._choose(evidence, own), "simulated_bid", evidence.worlds, start
                    )
            return self._done(own, "heuristic", 0, start)
        classes = self.spec.classes(view, legal)
        if len(classes) == 1:
            return self._done(classes[0][0], "all_equivalent", 0, start)
        own = self.fallback.act(view, legal)
        own_class = next((c for c in classes if own in c), [own])
        candidates = [own if c is own_class else c[0] for c in classes]
        evidence = Evidence(list(candidates))
        assert view.decider is not None
        fast = self.spec.playouts(view) if self.spec.playouts is not None else None
        rollouts = self.spec.rollouts(view) if fast is None else None

        def world(candidates: list[Action]) -> dict[Action, float] | None:
            if fast is not None:
                return self._fast_world(fast, candidates, deadline)
            assert rollouts is not None
            return self._world(view, candidates, rollouts, deadline)

        stop = "deadline"
        while time.perf_counter() < deadline:
            if evidence.worlds >= self.max_worlds:
                stop = "max_worlds"
                break
            if fast is not None and fast.work >= self.work_cap:
                stop = "work"
                break
            row = world(evidence.candidates)
            if row is None:
                break
            evidence.add(row)
            reason = self._enough(evidence)
            if reason is not None:
                stop = reason
                break
        if evidence.worlds == 0:
            return self._done(own, "no_world_in_time", 0, start)
        choice = self._choose(evidence, own)
        return self._done(choice, "searched", evidence.worlds, start, stop)

    def _enough(self, evidence: Evidence) -> str | None:
        """Why the worlds so far settle the choice, or None to go on."""
        if not self.early_stop or evidence.worlds < self.min_worlds:
            return None
        if evidence.all_equal():
            return "all_equal"
        evidence.prune(self.z)
        if len(evidence.candidates) == 1:
            return "one_left"
        if evidence.settled(self.z, self.spec.resolution):
            return "settled"
        if evidence.worlds >= self.min_safe_worlds and evidence.regret() < self.spec.resolution:
            return "safe_lead"
        return None

    def _choose(self, evidence: Evidence, own: Action) -> Action:
        """The leader, unless the heuristic's own choice is too close to call."""
        best = evidence.leader()
        if own in evidence.candidates and own != best:
            mean, se = evidence.margin(best, own)
            if mean <= self.prefer_own * se:
                return own
        return best

    def _fast_world(
        self, fast: Playouts, candidates: list[Action], deadline: float
    ) -> dict[Action, float] | None:
        """One world of the fast path, every candidate played out in it."""
        world = fast.sample(self.rng)
        row: dict[Action, float] = {}
        for action in candidates:
            value = fast.value(world, action, deadline)
            if value is None:
                return None
            row[action] = value
        return row

    def _world(
        self,
        view: Observation,
        candidates: list[Action],
        rollouts: Rollouts,
        deadline: float,
    ) -> dict[Action, float] | None:
        """One sampled world, every candidate played out in it; None when
        the deadline came first."""
        assert self.game is not None and view.decider is not None
        world = self.spec.world(view, self.rng)
        mark = self.spec.mark(world)
        row: dict[Action, float] = {}
        for action in candidates:
            if time.perf_counter() > deadline:
                return None
            sim = copy_state(world)
            try:
                sim.apply(action)
            except EngineError:
                # legal at the table but not in a world built with default
                # settings (the view does not carry the variant): play it anyway
                sim._apply(action)
            if self.spec.endgame is not None and _cards_left(sim) <= self.spec.endgame_cards:
                try:
                    row[action] = self.spec.endgame(sim, view.decider, deadline)
                except TimeoutError:
                    return None
                COUNTS["solved"] += 1
                continue
            if not rollouts.run(sim, deadline):
                return None
            row[action] = self.spec.value(sim, view.decider, mark)
        return row

    def _done(self, action: Action, how: str, worlds: int, start: float, stop: str = "") -> Action:
        self.last = {
            "how": how,
            "worlds": worlds,
            "ms": (time.perf_counter() - start) * 1000,
            #: what ended a search: a stopping rule, max_worlds, or the deadline
            "stop": stop,
        }
        return action

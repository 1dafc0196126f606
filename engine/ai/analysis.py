"""Post-game analysis: the honest search replays one seat's decisions.

For each decision of the seat (in a finished match), the seat's own view at
that moment -- ``state.view(seat)``, never the full state -- goes to the
search agent's machinery for its game (``SearchGame``: world builder,
equivalence classes, rollouts, value; ``engine.ai.search``): every class of
legal actions is played out in the same sampled worlds, the chosen action
standing for its own class, and the chosen action's mean value is compared
with the best one's.  Bids are priced by the game's simulated bidder when
it has one (``SearchGame.bidder``); where it declines, the decision is not
evaluated.  A decision is *flagged* when its expected loss exceeds the
threshold (in the game's unit) by more than ``z`` standard errors of the
paired difference, so that the noise of a few worlds flags nothing.

Bounded: a total ``budget`` of the given ``clock`` is checked before every
decision and every world (one world is one play-out to the end of the deal
or a Ladder rollout's horizon; a bid's pricing gets the budget left as its
own deadline).  A decision cut short is dropped, and the result says how
far the analysis got.  Deterministic: each decision draws its worlds from
a generator seeded by (seed, its index in the log), so the verdict on a
decision does not depend on which decisions were analysed before it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.ai.rollout import copy_state
from engine.ai.search import SearchAgent, SearchGame
from engine.ai.solver import Solver
from engine.core.actions import Action, play
from engine.core.game import MatchState
from engine.core.registry import get_game
from engine.core.view import Observation
from engine.errors import EngineError

Clock = Callable[[], float]
#: (decisions done, decisions in all) after each decision
Progress = Callable[[int, int], None]

EVALUATED, EQUIVALENT, NOT_EVALUATED = "evaluated", "equivalent", "not_evaluated"
#: candidate -> its value in each world
Values = dict[Action, list[float]]


@dataclass(frozen=True)
class GameUnit:
    """How a game's search values read to a player: ``scale`` turns the
    search's value (``deal_value``: Callbreak tenths, other games' points;
    Ladder's win value in [-1, 1]) into ``name``; ``threshold`` is the
    default loss worth flagging, in that unit."""

    name: str
    scale: float
    threshold: float


UNITS: dict[str, GameUnit] = {
    "callbreak": GameUnit("points", 0.1, 0.5),
    "batak": GameUnit("points", 1.0, 1.0),
    "blot": GameUnit("points", 1.0, 2.0),
    "backalley": GameUnit("points", 1.0, 1.0),
    # (2p - 1) / 2: a loss of 0.05 is five points of winning chance
    "ladder": GameUnit("win chance", 0.5, 0.05),
}


@dataclass(frozen=True)
class Decision:
    """One decision as its seat saw it: the view and what was chosen."""

    index: int
    view: Observation
    chosen: Action

    @property
    def deal(self) -> int:
        return self.view.round_number


@dataclass(frozen=True)
class Verdict:
    index: int
    deal: int
    phase: str
    status: str
    chosen: str
    best: str
    #: expected loss of ``chosen`` against ``best`` (game unit, >= 0)
    loss: float
    stderr: float
    worlds: int
    flagged: bool
    unit: str
    #: each candidate's mean value, best first (game unit)
    values: tuple[tuple[str, float], ...] = ()

    def describe(self) -> str:
        """ "KC cost about 0.6 points: 6C was better" for a flagged decision
        (a card play names just the cards)."""
        chosen, best = (a.removeprefix("play ") for a in (self.chosen, self.best))
        if not self.flagged:
            return f"{chosen}: no loss worth noting"
        amount = f"{self.loss:.0f}" if self.loss >= 10 else f"{self.loss:.2g}"
        return f"{chosen} cost about {amount} {self.unit}: {best} was better"


@dataclass(frozen=True)
class DealAccuracy:
    deal: int
    decisions: int
    evaluated: int
    flagged: int
    loss: float
    #: percent of evaluated decisions not flagged (None: none evaluated)
    accuracy: float | None


@dataclass(frozen=True)
class Analysis:
    game: str
    seat: int
    unit: str
    threshold: float
    verdicts: tuple[Verdict, ...]
    deals: tuple[DealAccuracy, ...]
    #: decisions given, and how many were analysed before the budget ran out
    total: int
    analysed: int
    worlds: int

    @property
    def complete(self) -> bool:
        return self.analysed == self.total

    @property
    def flagged(self) -> tuple[Verdict, ...]:
        return tuple(v for v in self.verdicts if v.flagged)


def seat_decisions(
    game: str,
    *,
    seed: int,
    variant: Any,
    actions: Sequence[str],
    seat: int,
    deal: Any = None,
) -> list[Decision]:
    """The decisions ``seat`` made with a choice (more than one legal
    action), each with the seat's own view at that moment."""
    g = get_game(game)
    state = g.new_match(seed=seed, variant=g.check_variant(variant), deal=deal)
    found: list[Decision] = []
    for index, text in enumerate(actions):
        view = state.view(seat) if state.decider == seat else None
        state.apply(text)
        if view is not None and len(view.legal_actions) > 1:
            found.append(Decision(index, view, state.log[-1]))
    return found


def analyse_match(
    game: str,
    *,
    seed: int,
    variant: Any,
    actions: Sequence[str],
    seat: int,
    deal_number: int | None = None,
    **options: Any,
) -> Analysis:
    """``analyse`` one seat of a finished match (one deal of it with
    ``deal_number``); refuses a match that is not over."""
    g = get_game(game)
    state = g.replay(list(actions), seed=seed, variant=variant)
    if not state.is_over:
        raise EngineError("a match is analysed once it is over", "match_not_over")
    decisions = seat_decisions(game, seed=seed, variant=variant, actions=actions, seat=seat)
    if deal_number is not None:
        decisions = [d for d in decisions if d.deal == deal_number]
    return analyse(game, decisions, seat=seat, **options)


def analyse(
    game: str,
    decisions: Sequence[Decision],
    *,
    seat: int,
    seed: int = 0,
    worlds: int = 16,
    threshold: float | None = None,
    budget: float = 60.0,
    clock: Clock = time.monotonic,
    progress: Progress | None = None,
    z: float = 2.0,
    spec: SearchGame | None = None,
) -> Analysis:
    """Evaluate ``decisions`` of ``seat`` (see the module docstring).
    Every decision must carry that seat's own view with the chosen action
    among its legal actions (EngineError otherwise)."""
    unit = UNITS[game]
    limit = unit.threshold if threshold is None else threshold
    search = spec if spec is not None else SearchAgent(game=game, seed=seed).spec
    for d in decisions:
        if d.view.seat != seat or d.view.decider != seat or d.chosen not in d.view.legal_actions:
            raise EngineError(
                f"decision {d.index} is not seat {seat}'s own decision with its own view",
                "not_the_seats_view",
            )
    start = clock()

    def out_of_time() -> bool:
        return clock() - start >= budget

    def remaining() -> float:
        return max(0.0, budget - (clock() - start))

    verdicts: list[Verdict] = []
    used = 0
    for d in decisions:
        if out_of_time():
            break
        rng = random.Random(f"{seed}:{d.index}")
        values, status = _evaluate(search, d, rng, worlds, out_of_time, remaining)
        if values is None and status == EVALUATED:
            break  # out of time in the middle of this decision: drop it
        verdicts.append(_verdict(d, values or {}, status, unit, limit, z))
        used += _worlds(values or {})
        if progress is not None:
            progress(len(verdicts), len(decisions))
    return Analysis(
        game=game,
        seat=seat,
        unit=unit.name,
        threshold=limit,
        verdicts=tuple(verdicts),
        deals=_per_deal(verdicts),
        total=len(decisions),
        analysed=len(verdicts),
        worlds=used,
    )


def _evaluate(
    spec: SearchGame,
    d: Decision,
    rng: random.Random,
    worlds: int,
    out_of_time: Callable[[], bool],
    remaining: Callable[[], float],
) -> tuple[Values | None, str]:
    """Each candidate's value in each world (paired: the same worlds for
    all) and the decision's status; (None, EVALUATED) when the budget ran
    out before it was done."""
    view, legal = d.view, list(d.view.legal_actions)
    if any(a.verb not in spec.verbs for a in legal):
        if spec.bidder is None or any(a.verb in spec.verbs for a in legal):
            return None, NOT_EVALUATED
        deadline = time.perf_counter() + remaining()
        priced = spec.bidder(view, legal, rng, deadline, worlds)
        if not priced or d.chosen not in priced:
            return None, NOT_EVALUATED
        return dict(priced), EVALUATED
    classes = spec.classes(view, legal)
    if len(classes) == 1:
        return None, EQUIVALENT
    candidates = [d.chosen if d.chosen in c else c[0] for c in classes]
    values: Values = {a: [] for a in candidates}
    rollouts = spec.rollouts(view)
    for _ in range(worlds):
        if out_of_time():
            return None, EVALUATED
        for action, value in _world(spec, view, candidates, rollouts, rng).items():
            values[action].append(value)
    return values, EVALUATED


def _world(
    spec: SearchGame,
    view: Observation,
    candidates: Sequence[Action],
    rollouts: Any,
    rng: random.Random,
) -> dict[Action, float]:
    """Every candidate played out in one world sampled from ``view`` (as
    ``SearchAgent`` does, without its per-move clock; its last tricks are
    played by the exact solver where the agent would solve them)."""
    assert view.decider is not None
    world = spec.world(view, rng)
    mark = spec.mark(world)
    row: dict[Action, float] = {}
    for action in candidates:
        sim: MatchState = copy_state(world)
        try:
            sim.apply(action)
        except EngineError:
            sim._apply(action)  # a world built with default settings (see SearchAgent)
        cards = sum(len(h) for h in getattr(sim, "hands", ())) or 10**6
        if spec.endgame is not None and cards <= spec.endgame_cards:
            _solve_out(sim, view.game)
        else:
            rollouts.run(sim, math.inf)
        row[action] = spec.value(sim, view.decider, mark)
    return row


def _solve_out(state: Any, game: str) -> None:
    """Finish the deal with every card chosen by the exact solver for the
    side that plays it (``engine.ai.solver``), so that the end game is
    valued in the same unit as a rollout (the deal's score, not the
    solver's tricks or card points)."""
    deals = len(state.history)
    while len(state.history) == deals and not state.is_over:
        _, card = Solver(game).solve(state, state.playing_seat % 2)
        assert card is not None
        state.apply(play(card))


def _verdict(
    d: Decision,
    values: Values,
    status: str,
    unit: GameUnit,
    threshold: float,
    z: float,
) -> Verdict:
    chosen = str(d.chosen)
    n = _worlds(values)
    if n == 0:
        return Verdict(
            d.index, d.deal, d.view.phase, status, chosen, chosen, 0.0, 0.0, 0, False, unit.name
        )
    means: Mapping[Action, float] = {a: sum(v[:n]) / n for a, v in values.items()}
    best = max(means, key=lambda a: (means[a], a == d.chosen))
    gap, se = _paired(values[best][:n], values[d.chosen][:n])
    loss = max(0.0, means[best] - means[d.chosen]) * unit.scale
    ranked = sorted(((str(a), means[a] * unit.scale) for a in means), key=lambda p: -p[1])
    return Verdict(
        index=d.index,
        deal=d.deal,
        phase=d.view.phase,
        status=status,
        chosen=chosen,
        best=str(best),
        loss=loss,
        stderr=se * unit.scale,
        worlds=n,
        flagged=loss > threshold and gap > z * se,
        unit=unit.name,
        values=tuple(ranked),
    )


def _worlds(values: Values) -> int:
    """Worlds in which every candidate was valued."""
    return min((len(v) for v in values.values()), default=0)


def _paired(better: Sequence[float], worse: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``better - worse`` over paired worlds
    (an infinite error with fewer than two: nothing is significant yet)."""
    diffs = [a - b for a, b in zip(better, worse, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    if n < 2:
        return mean, math.inf if any(diffs) else 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _per_deal(verdicts: Sequence[Verdict]) -> tuple[DealAccuracy, ...]:
    """Per deal: decisions, evaluated ones, flagged ones, the total
    expected loss, and the share of evaluated decisions not flagged."""
    out: list[DealAccuracy] = []
    for deal in sorted({v.deal for v in verdicts}):
        rows = [v for v in verdicts if v.deal == deal]
        judged = [v for v in rows if v.status != NOT_EVALUATED]
        flagged = sum(1 for v in judged if v.flagged)
        out.append(
            DealAccuracy(
                deal=deal,
                decisions=len(rows),
                evaluated=len(judged),
                flagged=flagged,
                loss=sum(v.loss for v in judged),
                accuracy=100.0 * (len(judged) - flagged) / len(judged) if judged else None,
            )
        )
    return tuple(out)

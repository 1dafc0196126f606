"""The search's evidence: each candidate's value in each sampled world,
and the rules that say when it is enough (issue 13, "Time that follows
the decision": stop early when the best action's lead is statistically
safe).

Candidates are compared *paired*, over the same worlds, so the luck of the
deal cancels.  The paired sums are kept up to date world by world (a check
costs the same after 5 worlds as after 500), and four rules end a search:

- ``all_equal``: every world so far gave every candidate the same value;
- ``prune``: a candidate ``z`` standard errors worse than the leader is
  dropped; one candidate left ends the search;
- ``settled``: every difference left is known to within ``resolution``;
- ``regret``: the expected loss of playing the leader now -- for each
  other candidate, the mean of the positive part of a normal with the
  paired difference's mean and standard error, summed -- is below
  ``resolution``: the lead is safe, or what is left to learn is worth less
  than the game's smallest difference that matters (from
  ``MIN_SAFE_WORLDS`` worlds on).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from engine.core.actions import Action

#: worlds before the expected-loss rule may end a search: small samples
#: understate the spread of rare, large differences
MIN_SAFE_WORLDS = 16

#: 1 / sqrt(2 pi)
_INV_ROOT_TAU = 1 / math.sqrt(2 * math.pi)


def expected_excess(mean: float, se: float) -> float:
    """E[max(0, X)] for X ~ Normal(mean, se^2)."""
    if se <= 0 or math.isinf(se):
        return max(0.0, mean) if se <= 0 else math.inf
    t = mean / se
    return se * _INV_ROOT_TAU * math.exp(-0.5 * t * t) + mean * 0.5 * math.erfc(-t / math.sqrt(2))


class Evidence:
    """Values of each candidate, one per completed world (paired)."""

    def __init__(
        self, candidates: Iterable[Action], values: Mapping[Action, list[float]] | None = None
    ) -> None:
        self.candidates: list[Action] = list(candidates)
        self.values: dict[Action, list[float]] = {}
        self._sum: dict[Action, float] = {}
        #: action -> its number; (i, j) with i < j -> [n, sum of i - j, sum of squares]
        self._id: dict[Action, int] = {}
        self._pairs: dict[tuple[int, int], list[float]] = {}
        if values:
            self._load(values)

    def _load(self, values: Mapping[Action, list[float]]) -> None:
        """A whole table of values at once (the worlds its rows share)."""
        n = min(len(v) for v in values.values())
        columns = []
        for action, vals in values.items():
            self._id[action] = len(self._id)
            self.values[action] = list(vals)
            self._sum[action] = float(sum(vals))
            columns.append(vals[:n])
        for i, xs in enumerate(columns):
            for j in range(i + 1, len(columns)):
                diffs = [x - y for x, y in zip(xs, columns[j], strict=True)]
                self._pairs[(i, j)] = [float(n), sum(diffs), sum(d * d for d in diffs)]

    def add(self, row: Mapping[Action, float]) -> None:
        """One world's values (its candidates are paired with each other)."""
        ids = self._id
        items = []
        for action, value in row.items():
            i = ids.get(action)
            if i is None:
                i = ids[action] = len(ids)
                self.values[action] = []
                self._sum[action] = 0.0
            self.values[action].append(value)
            self._sum[action] += value
            items.append((i, value))
        items.sort()
        pairs = self._pairs
        for k, (i, x) in enumerate(items):
            for j, y in items[k + 1 :]:
                d = x - y
                stats = pairs.get((i, j))
                if stats is None:
                    pairs[(i, j)] = [1.0, d, d * d]
                else:
                    stats[0] += 1
                    stats[1] += d
                    stats[2] += d * d

    @property
    def worlds(self) -> int:
        return min((len(self.values.get(a, ())) for a in self.candidates), default=0)

    def mean(self, action: Action) -> float:
        return self._sum[action] / len(self.values[action])

    def leader(self) -> Action:
        return max(self.candidates, key=self.mean)

    def margin(self, better: Action, worse: Action) -> tuple[float, float]:
        """Mean and standard error of ``better - worse`` over the worlds
        where both were played."""
        i, j = self._id.get(better, -1), self._id.get(worse, -1)
        sign = 1.0
        if i > j:
            i, j, sign = j, i, -1.0
        stats = self._pairs.get((i, j))
        if stats is None:
            return 0.0, math.inf
        n, total, squares = stats
        mean = total / n
        if n < 2:
            return sign * mean, math.inf
        var = max(0.0, (squares - n * mean * mean) / (n - 1))
        return sign * mean, math.sqrt(var / n)

    def prune(self, z: float) -> None:
        """Drop candidates significantly worse than the leader."""
        best = self.leader()
        keep = [best]
        for action in self.candidates:
            if action is best:
                continue
            mean, se = self.margin(best, action)
            if not mean - z * se > 0:
                keep.append(action)
        self.candidates = [a for a in self.candidates if a in keep]

    def settled(self, z: float, resolution: float) -> bool:
        """Every other candidate is known to within ``resolution`` of the
        leader: more worlds could not change the choice by more than that."""
        best = self.leader()
        return all(
            z * self.margin(best, a)[1] < resolution for a in self.candidates if a is not best
        )

    def regret(self) -> float:
        """The expected loss of playing the leader now (module docstring)."""
        best = self.leader()
        total = 0.0
        for action in self.candidates:
            if action is not best:
                mean, se = self.margin(best, action)
                total += expected_excess(-mean, se)
        return total

    def all_equal(self) -> bool:
        """Every world gave every candidate the same value."""
        live = sorted(self._id[a] for a in self.candidates if a in self._id)
        for k, i in enumerate(live):
            for j in live[k + 1 :]:
                stats = self._pairs.get((i, j))
                if stats is not None and stats[2] > 0:
                    return False
        return True

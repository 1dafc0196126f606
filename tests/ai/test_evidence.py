"""The search's stopping rules (engine/ai/evidence.py): paired statistics
kept world by world, and when the evidence is enough."""

from __future__ import annotations

import math
import random

from engine.ai.evidence import MIN_SAFE_WORLDS, Evidence, expected_excess
from engine.core.actions import bid

A, B, C = bid(1), bid(2), bid(3)


def direct_margin(xs: list[float], ys: list[float]) -> tuple[float, float]:
    diffs = [x - y for x, y in zip(xs, ys, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def test_paired_margins_kept_world_by_world_match_the_direct_formula():
    rng = random.Random(3)
    evidence = Evidence([A, B, C])
    for _ in range(40):
        evidence.add({a: float(rng.randrange(-10, 11)) for a in (A, B, C)})
    for better, worse in ((A, B), (B, A), (C, A)):
        mean, se = evidence.margin(better, worse)
        expected = direct_margin(evidence.values[better], evidence.values[worse])
        assert math.isclose(mean, expected[0], abs_tol=1e-9)
        assert math.isclose(se, expected[1], rel_tol=1e-9)
    assert evidence.worlds == 40


def test_a_candidate_dropped_early_is_paired_only_over_its_own_worlds():
    evidence = Evidence([A, B])
    for x in (1.0, 2.0, 3.0):
        evidence.add({A: x, B: 0.0})
    evidence.candidates = [A]
    evidence.add({A: 100.0})
    assert evidence.margin(A, B) == direct_margin([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])


def test_a_table_of_values_gives_the_same_evidence_as_world_by_world():
    table = {A: [1.0, 5.0, 2.0], B: [0.0, 1.0, 4.0]}
    one = Evidence(list(table), table)
    two = Evidence([A, B])
    for x, y in zip(table[A], table[B], strict=True):
        two.add({A: x, B: y})
    assert one.margin(A, B) == two.margin(A, B)
    assert one.leader() == two.leader() == A


def test_all_equal_only_while_no_world_told_the_candidates_apart():
    evidence = Evidence([A, B])
    evidence.add({A: 3.0, B: 3.0})
    assert evidence.all_equal()
    evidence.add({A: 3.0, B: 2.0})
    assert not evidence.all_equal()


def test_the_expected_loss_falls_as_the_lead_grows_and_the_noise_shrinks():
    assert expected_excess(0.0, 1.0) == 1 / math.sqrt(2 * math.pi)
    assert expected_excess(-3.0, 1.0) < expected_excess(-1.0, 1.0) < expected_excess(0.0, 1.0)
    assert expected_excess(-1.0, 0.1) < 1e-6
    assert expected_excess(2.0, 0.0) == 2.0
    assert math.isinf(expected_excess(0.0, math.inf))


def test_a_near_tie_that_never_separates_still_ends_by_the_expected_loss():
    """Two candidates a hair apart: no significant difference ever, but once
    enough worlds say the difference is tiny the leader is safe to play."""
    rng = random.Random(5)
    evidence = Evidence([A, B])
    worlds = 0
    while evidence.worlds < MIN_SAFE_WORLDS or evidence.regret() >= 0.25:
        noise = rng.gauss(0, 1.0)
        evidence.add({A: noise + 0.01, B: noise + rng.gauss(0, 0.05)})
        worlds += 1
        assert worlds < 200
    evidence.prune(2.5)
    assert len(evidence.candidates) == 2  # never significant, yet decided

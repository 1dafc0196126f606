"""Duplicate matches (engine/ai/tournament.py): a short smoke test of each
format, and the confidence-interval helper."""

from __future__ import annotations

from engine.ai.tournament import estimate, rotated_match, seat_swap_match, team_match


def test_estimate_is_a_mean_with_a_95_percent_half_width():
    e = estimate([1.0, 3.0])
    assert e.mean == 2.0 and e.n == 2
    assert abs(e.half_width - 1.96 * 2**0.5 / 2**0.5) < 1e-9


def test_seat_swap_match_the_heuristic_beats_random_callbreak():
    diffs = seat_swap_match(
        "callbreak", "heuristic", "random", seeds=range(3), variant_options={"rounds": 1}
    )
    assert len(diffs) == 12
    assert estimate(diffs).mean > 0


def test_seat_swap_of_an_agent_with_itself_changes_nothing():
    diffs = seat_swap_match(
        "backalley", "heuristic", "heuristic", seeds=range(2), variant_options={"max_cards": 2}
    )
    assert diffs == [0.0] * 8


def test_team_match_swaps_the_teams_on_every_seed():
    margins, wins = team_match(
        "batak", "heuristic", "random", seeds=range(2), variant_options={"target_score": 10}
    )
    assert len(margins) == len(wins) == 4
    assert sum(wins) >= 3


def test_rotated_match_with_a_search_seat():
    hero, villain = rotated_match(
        "callbreak",
        "search",
        "heuristic",
        seeds=range(1),
        variant_options={"rounds": 1},
        budget_ms=20,
    )
    assert len(hero) == len(villain) == 4

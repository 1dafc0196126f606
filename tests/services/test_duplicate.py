"""Duplicate tournaments (issue 16): the same boards at every table, seats
rotated, scored against the other tables; 2 tables x 4 boards of AI seats
reach their standings and survive a restart in the middle."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from bot.services.duplicate import (
    IMPS,
    MATCHPOINTS,
    Tournament,
    TournamentError,
    ai_chooser,
    imps,
    play_board,
)
from engine import IllegalAction
from engine.ai import get_agent

GAMES = ("callbreak", "batak", "blot", "backalley", "ladder")
VARIANTS: dict[str, dict[str, Any]] = {
    "callbreak": {"rounds": 3},
    "batak": {"target_score": 50},
    "blot": {"target_score": 301},
    "backalley": {"max_cards": 3},
    "ladder": {"max_turns": 100},
}


def skilled(entrant: int) -> bool:
    """Entrants 0, 1, 4, 5, ... play the heuristic; the others at random."""
    return entrant % 4 in (0, 1)


def mixed_chooser():
    """The heuristic for skilled entrants, a random player for the rest;
    each agent seeded by the board, table and action (restart-proof)."""

    def choose(t: Tournament, table: int, board: int, seat: int) -> str:
        state = t.state(table, board)
        entrant = t.lineup(table, board)[seat].entrant
        name = "heuristic" if skilled(entrant) else "random"
        agent = get_agent(name, game=t.game, seed=board * 1000 + table * 100 + len(state.log))
        return str(agent.act(state.view(seat), state.legal_actions()))

    return choose


def play_all(t: Tournament, choose) -> None:
    for table in range(t.tables):
        while (board := t.next_board(table)) is not None:
            play_board(t, table, board, choose)


@cache
def played(game: str) -> Tournament:
    t = Tournament.new(game, tables=2, boards=4, seed=21, variant=VARIANTS[game])
    play_all(t, mixed_chooser())
    return t


@pytest.mark.parametrize("game", GAMES)
def test_two_tables_of_four_boards_reach_their_standings(game):
    t = played(game)
    assert t.is_over and all(t.board_complete(b) for b in range(4))
    standings = t.standings()
    assert sorted(s.entrant for s in standings) == list(range(t.entrant_count))
    assert all(s.boards == 4 for s in standings)
    assert [s.rank for s in standings] == sorted(s.rank for s in standings)
    assert standings[0].rank == 1
    # every comparison hands out 2 matchpoints: the tables' total is fixed
    directions = 2 if t.partnership else t.seats
    assert sum(s.matchpoints for s in standings) == 4 * directions * 2
    assert all(s.top == 4 * 2 for s in standings)


@pytest.mark.parametrize("game", ["batak", "blot", "callbreak"])
def test_better_play_scores_better(game):
    """Card luck cancels: on the same cards, heuristic pairs (players)
    score more matchpoints than random ones."""
    t = played(game)
    by_skill = Counter()
    for s in t.standings():
        by_skill[skilled(s.entrant)] += s.matchpoints
    assert by_skill[True] > by_skill[False]


@pytest.mark.parametrize("game", ["batak", "blot", "ladder"])
def test_partnership_boards_are_scored_direction_by_direction(game):
    t = played(game)
    for board in range(4):
        scores = t.board_scores(board)
        for direction in (0, 1):
            rows = [s for s in scores if s.direction == direction]
            assert len(rows) == 2 and {s.table for s in rows} == {0, 1}
            assert sum(s.imps for s in rows) == 0  # IMPs are zero-sum
            a, b = rows
            assert a.imps == imps((a.result - b.result) * (360 if game == "ladder" else 20))
        for table in range(2):
            ns, ew = (
                next(s for s in scores if s.table == table and s.direction == d) for d in (0, 1)
            )
            assert ns.result == -ew.result
            lineup = t.lineup(table, board)
            assert (ns.entrant, ew.entrant) == (lineup[0].entrant, lineup[1].entrant)


@pytest.mark.parametrize("game", ["callbreak", "backalley"])
def test_individual_boards_compare_each_seat(game):
    t = played(game)
    for board in range(4):
        scores = t.board_scores(board)
        assert sorted(s.direction for s in scores) == sorted(list(range(4)) * 2)
        for seat in range(4):
            a, b = (s for s in scores if s.direction == seat)
            assert a.imps is None
            assert a.difference == a.result - b.result == -b.difference
            assert (a.matchpoints, b.matchpoints) in ((2, 0), (1, 1), (0, 2))
            assert a.result == t.result(a.table, board)[seat]


@pytest.mark.parametrize("game", ["callbreak", "batak", "blot", "backalley"])
def test_every_table_plays_the_same_cards(game):
    t = played(game)
    for board in range(4):
        deals = [t.state(table, board).history[0] for table in range(2)]
        assert deals[0].hands == deals[1].hands and deals[0].dealer == deals[1].dealer
        assert deals[0].trump == deals[1].trump or game in ("batak", "blot")


@pytest.mark.parametrize("game", ["callbreak", "batak", "backalley"])
def test_a_board_of_several_deals_deals_them_alike_whatever_is_played(game):
    t = Tournament.new(game, tables=2, boards=1, seed=5, variant=VARIANTS[game], deals_per_board=3)
    play_all(t, mixed_chooser())
    first, second = (t.state(table, 0).history for table in range(2))
    assert len(first) == len(second) == 3
    assert [d.hands for d in first] == [d.hands for d in second]
    assert [d.tricks for d in first] != [d.tricks for d in second]  # play differed


def test_pairs_hold_both_directions_and_meet_both_visitors():
    t = Tournament.new("batak", tables=2, boards=4, seed=1)
    seen = Counter()
    for board in range(4):
        present = []
        for table in range(2):
            lineup = t.lineup(table, board)
            assert [s.member for s in lineup] == [0, 0, 1, 1]
            assert lineup[0].entrant == lineup[2].entrant != lineup[1].entrant == lineup[3].entrant
            present += [lineup[0].entrant, lineup[1].entrant]
            home = table
            visitor = lineup[1].entrant if lineup[0].entrant == home else lineup[0].entrant
            direction = 0 if lineup[0].entrant == home else 1
            seen[(home, visitor, direction)] += 1
        assert sorted(present) == [0, 1, 2, 3]  # each pair plays each board once
    # each home pair meets each visitor once from each side
    assert seen == Counter({(h, v, d): 1 for h in (0, 1) for v in (2, 3) for d in (0, 1)})


def test_players_hold_every_seat_once_in_four_boards():
    t = Tournament.new("callbreak", tables=2, boards=4, seed=1)
    held = {e: set() for e in range(8)}
    for board in range(4):
        present = []
        for table in range(2):
            for seat, s in enumerate(t.lineup(table, board)):
                held[s.entrant].add(seat)
                present.append(s.entrant)
        assert sorted(present) == list(range(8))
    assert all(seats == {0, 1, 2, 3} for seats in held.values())


@pytest.mark.parametrize("game", ["blot", "backalley"])
def test_a_restart_in_the_middle_changes_nothing(game):
    whole = played(game)
    t = Tournament.new(game, tables=2, boards=4, seed=21, variant=VARIANTS[game])
    choose = mixed_chooser()
    play_board(t, 0, 0, choose)
    play_board(t, 1, 0, choose, max_actions=5)  # stopped in the middle of a board
    saved = json.dumps(t.to_dict())
    restarted = Tournament.from_dict(json.loads(saved))
    assert restarted.next_board(1) == 0 and restarted.plays == t.plays
    play_all(restarted, choose)
    assert restarted.plays == whole.plays
    assert restarted.standings() == whole.standings()
    assert restarted.to_dict() == whole.to_dict()


def test_the_standard_imp_table():
    table = {0: 0, 10: 0, 15: 0, 20: 1, 40: 1, 50: 2, 120: 3, 130: 4, 420: 9, 430: 10}
    table |= {590: 11, 600: 12, 1990: 18, 2000: 19, 3990: 23, 4000: 24, 9000: 24}
    for diff, expected in table.items():
        assert imps(diff) == expected
        assert imps(-diff) == -expected


def test_scoring_by_matchpoints_ranks_by_matchpoints():
    data = played("batak").to_dict()
    data["scoring"] = MATCHPOINTS
    rows = Tournament.from_dict(data).standings()
    shares = [s.matchpoints / s.top for s in rows]
    assert shares == sorted(shares, reverse=True)
    assert played("batak").scoring == IMPS
    imps_rows = played("batak").standings()
    assert [s.imps for s in imps_rows] == sorted((s.imps for s in imps_rows), reverse=True)


def test_moves_are_checked_and_a_finished_board_takes_none():
    t = Tournament.new("callbreak", tables=2, boards=1, seed=3)
    with pytest.raises(IllegalAction):
        t.record(0, 0, "play AS")  # the bidding comes first
    assert t.plays == {}
    play_board(t, 0, 0, ai_chooser())
    assert t.board_over(0, 0) and not t.board_complete(0)
    with pytest.raises(TournamentError) as info:
        t.record(0, 0, "bid 2")
    assert info.value.reason == "board_over"
    with pytest.raises(TournamentError) as info:
        t.board_scores(0)
    assert info.value.reason == "board_not_done"
    assert all(s.boards == 0 for s in t.standings())


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("batak", {"tables": 1}, "2 to 16 tables"),
        ("batak", {"boards": 0}, "1 to 36 boards"),
        ("callbreak", {"scoring": IMPS}, "matchpoints seat by seat"),
        ("batak", {"scoring": "total"}, "'matchpoints' or 'imps'"),
        ("blot", {"deals_per_board": 2}, "one deal"),
        ("ladder", {"deals_per_board": 2}, "one deal"),
        ("callbreak", {"entrants": ["A", "B"]}, "seat 8 entrants"),
        ("batak", {"variant": {"target_score": 5}}, "target_score"),
    ],
)
def test_bad_settings_are_refused_clearly(game, options, words):
    settings = {"tables": 2, "boards": 4, "seed": 1, **options}
    with pytest.raises(TournamentError, match=words):
        Tournament.new(game, **settings)


def test_a_damaged_save_is_refused():
    t = played("callbreak")
    data = t.to_dict()
    data["plays"][0][2][3] = "play ZZ"
    with pytest.raises(TournamentError, match=r"damaged.*ZZ"):
        Tournament.from_dict(data)
    with pytest.raises(TournamentError):
        Tournament.from_dict({"version": 99})

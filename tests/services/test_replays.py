"""Replays rebuilt from the action log (issue 16): every game's finished
match replays deal by deal with every hand, consistent with the log and the
engine's scores; a live match never opens."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

import pytest

from bot.services.errors import ServiceError
from bot.services.replays import (
    PASSED_OUT,
    DamagedLog,
    ReplayNotReady,
    build_replay,
    deal_summaries,
    iter_tricks,
    log_from_rows,
)
from engine import MatchState, get_game
from engine.ai import get_agent, play_out

GAMES = ("callbreak", "batak", "blot", "backalley", "ladder")
VARIANTS: dict[str, dict[str, Any]] = {
    "callbreak": {"rounds": 2},
    "batak": {"target_score": 10},
    "blot": {"target_score": 51},
    "backalley": {"max_cards": 3},
    "ladder": {},
}
SEED = 4
CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|[RB]J)\b")


@cache
def finished(game: str, seed: int = SEED) -> MatchState:
    """A seeded heuristic match played to its end (shared, never mutated)."""
    g = get_game(game)
    state = g.new_match(seed=seed, variant=g.variant(**VARIANTS[game]))
    play_out(state, [get_agent("heuristic", game=game, seed=s) for s in range(state.num_seats)])
    return state


def log_of(state: MatchState) -> list[str]:
    return [str(a) for a in state.log]


def seats_of(game: str, actions: list[str]) -> list[int]:
    """The seat each action was for, as the store logs it."""
    g = get_game(game)
    state = g.new_match(seed=SEED, variant=g.variant(**VARIANTS[game]))
    seats = []
    for text in actions:
        seats.append(state.to_act)
        state.apply(text)
    return seats


def replay_of(game: str):
    state = finished(game)
    return build_replay(game, seed=SEED, variant=VARIANTS[game], actions=log_of(state))


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_scores_like_the_engine(game):
    state = finished(game)
    replay = replay_of(game)
    assert replay.totals == tuple(state.scores)
    assert replay.ranking == state.view(None).ranking
    running = [0] * len(state.scores)
    for deal in replay.deals:
        if deal.summary.scores:
            running = [a + b for a, b in zip(running, deal.summary.scores, strict=True)]
        assert tuple(running) == deal.summary.totals
    assert tuple(running) == replay.totals
    records = getattr(state, "history", [])
    scored = [d for d in replay.deals if d.summary.outcome == "scored"]
    assert [d.summary.scores for d in scored] == [tuple(r.scores) for r in records]


@pytest.mark.parametrize("game", GAMES)
def test_the_moves_are_the_log_in_order(game):
    state = finished(game)
    replay = replay_of(game)
    moves = [m for d in replay.deals for m in d.moves]
    assert [m.action for m in moves] == log_of(state)
    assert [m.index for m in moves] == list(range(len(state.log)))


@pytest.mark.parametrize("game", ["callbreak", "batak", "blot", "backalley"])
def test_hands_and_tricks_agree_with_the_log(game):
    state = finished(game)
    replay = replay_of(game)
    deck = set(map(str, state.full_deck()))
    for deal in replay.deals:
        dealt = [c for hand in deal.hands for c in hand]
        assert len(dealt) == len(set(dealt)) and set(dealt) <= deck
        played = Counter()
        for k, trick in enumerate(deal.tricks):
            assert len(trick.plays) == replay.num_seats
            assert trick.leader == trick.plays[0][0]
            if k + 1 < len(deal.tricks):
                assert deal.tricks[k + 1].leader == trick.winner
            for seat, card in trick.plays:
                assert card in deal.hands[seat]
                played[card] += 1
        if deal.summary.outcome == "scored":
            # every dealt card is played exactly once, in the log's order
            assert sorted(played) == sorted(dealt) and set(played.values()) == {1}
            plays = [m.action for m in deal.moves if m.action.startswith("play ")]
            assert plays == [f"play {c}" for t in deal.tricks for _, c in t.plays]
            wins = Counter(t.winner for t in deal.tricks)
            assert deal.summary.tricks_won == tuple(wins[s] for s in range(replay.num_seats))


@pytest.mark.parametrize("game", ["callbreak", "batak", "blot", "backalley"])
def test_the_table_picture_before_each_trick(game):
    replay = replay_of(game)
    deal = replay.deals[0]
    assert deal.hands_before(1) == deal.hands
    last = deal.hands_before(len(deal.tricks))
    assert all(len(h) == 1 for h in last)
    assert sum(1 for _ in iter_tricks(replay)) == sum(len(d.tricks) for d in replay.deals)


def test_ladder_deals_show_every_card_and_the_winner():
    state = finished("ladder")
    replay = replay_of("ladder")
    for deal in replay.deals:
        cards = [c for h in deal.hands for c in h]
        cards += [c for key in ("shown", "hidden") for row in deal.table_cards[key] for c in row]
        assert sorted(cards) == sorted(map(str, state.full_deck()))
        assert deal.tricks == ()
        if deal.summary.winner_team is not None:
            assert deal.summary.scores[deal.summary.winner_team] == 1


def test_batak_names_the_dummy_and_the_contract():
    replay = replay_of("batak")
    for deal in replay.deals:
        s = deal.summary
        assert deal.dummy == (s.declarer + 2) % 4
        assert s.contract.split()[1] == s.trump
        assert s.calls[-1] == (s.declarer, f"trump {s.trump}")


def test_a_passed_out_blot_deal_is_a_deal_of_its_own():
    game = get_game("blot")
    state = game.new_match(seed=SEED, variant=game.variant(target_score=51))
    for _ in range(4):
        state.apply("pass")
    play_out(state, [get_agent("heuristic", game="blot", seed=s) for s in range(4)])
    replay = build_replay("blot", seed=SEED, variant={"target_score": 51}, actions=log_of(state))
    first, second = replay.deals[:2]
    assert first.summary.outcome == PASSED_OUT
    assert first.summary.scores == () and first.tricks == ()
    assert len(first.summary.calls) == 4
    assert first.hands != second.hands
    assert second.summary.dealer == (first.summary.dealer + 1) % 4
    assert replay.totals == tuple(state.scores)


@pytest.mark.parametrize("game", GAMES)
def test_a_live_match_never_opens(game):
    actions = log_of(finished(game))
    for cut in (0, len(actions) // 2, len(actions) - 1):
        with pytest.raises(ReplayNotReady) as info:
            build_replay(game, seed=SEED, variant=VARIANTS[game], actions=actions[:cut])
        assert info.value.reason == "match_not_over"


@pytest.mark.parametrize("game", GAMES)
def test_history_of_a_live_match_lists_only_finished_deals(game):
    state = finished(game)
    actions = log_of(state)
    full = replay_of(game).summaries()
    cut = len(actions) - 1
    live = deal_summaries(game, seed=SEED, variant=VARIANTS[game], actions=actions[:cut])
    assert live == full[: len(live)]
    assert len(live) == len(full) - 1
    # public facts only: not one card is named
    assert not CARD.search(repr(live))


@pytest.mark.parametrize("game", ["callbreak", "ladder"])
def test_the_logged_seats_are_checked(game):
    actions = log_of(finished(game))
    seats = seats_of(game, actions)
    replay = build_replay(game, seed=SEED, variant=VARIANTS[game], actions=actions, seats=seats)
    assert [m.seat for d in replay.deals for m in d.moves] == seats
    seats[3] = (seats[3] + 1) % 4
    with pytest.raises(DamagedLog, match="action 3"):
        build_replay(game, seed=SEED, variant=VARIANTS[game], actions=actions, seats=seats)


def test_a_log_that_does_not_replay_is_damaged():
    actions = log_of(finished("callbreak"))
    with pytest.raises(DamagedLog, match="action 0"):
        build_replay("callbreak", seed=SEED + 1, variant=VARIANTS["callbreak"], actions=["play AS"])
    with pytest.raises(DamagedLog, match="after the end"):
        build_replay(
            "callbreak", seed=SEED, variant=VARIANTS["callbreak"], actions=[*actions, "bid 2"]
        )


def test_asking_for_a_deal_that_does_not_exist():
    replay = replay_of("callbreak")
    assert replay.deal(2) is replay.deals[1]
    for bad in (0, 3, "1", True):
        with pytest.raises(ServiceError) as info:
            replay.deal(bad)
        assert info.value.reason == "no_such_deal"


def test_the_stores_rows_become_a_log():
    actions = log_of(finished("batak"))
    seats = seats_of("batak", actions)
    rows = [(i, a, s) for i, (a, s) in enumerate(zip(actions, seats, strict=True))]
    assert log_from_rows(list(reversed(rows))) == (actions, seats)
    replay = build_replay(
        "batak", seed=SEED, variant=VARIANTS["batak"], actions=actions, seats=seats
    )
    assert replay.totals == tuple(finished("batak").scores)
    with pytest.raises(DamagedLog, match="gaps"):
        log_from_rows(rows[:3] + rows[4:])

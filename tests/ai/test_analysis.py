"""Post-game analysis (issue 16): the honest search flags a planted
blunder and not the sensible play, only ever reads the seat's own view,
stays within its budget (a fake clock) and is reproducible."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest

from engine import EngineError, MatchState, get_game
from engine.ai import get_agent, play_out
from engine.ai.analysis import (
    EQUIVALENT,
    Decision,
    analyse,
    analyse_match,
    seat_decisions,
)
from engine.ai.search import SearchAgent

VARIANTS: dict[str, dict[str, Any]] = {
    "callbreak": {"rounds": 1},
    "batak": {"target_score": 10},
    "blot": {"target_score": 51},
    "backalley": {"max_cards": 2},
    "ladder": {"max_turns": 100},
}
SEED = 3
HERO = 1

# A Bazar Blot deal, 8 S by seat 0, played to trick 7: seat 2 leads AH, 8H
# and QH follow, and seat 1 (a defender, last to play) holds TH 7H.  The
# declarers have 58 card points; the three unseen cards are KH JH 9H.
# 7H keeps TH, the master, for the last trick (the declarers end on 72 of
# the 80 they need); TH under the declarers' ace hands them 82: the
# contract.  The cards left make this certain in every world.
BLOT_HANDS = {
    0: "QH KH TS 8S KD 9D TC 9C",
    1: "TH 7H 7S JS QD JD QC AC",
    2: "AH JH QS 9S TD AD 7C JC",
    3: "8H 9H AS KS 7D 8D 8C KC",
}
BLOT_PLAYS = "AC 7C KC TC 7S 9S KS TS JC 8C 9C QC JS QS AS 8S JD TD 8D 9D AD 7D KD QD AH 8H QH"


def blot_blunder_position() -> MatchState:
    game = get_game("blot")
    state = game.position(
        hands={s: h.split() for s, h in BLOT_HANDS.items()},
        to_act=1,
        contract="8 S",
        declarer=0,
        dealer=0,
    )
    for card in BLOT_PLAYS.split():
        state.apply(f"play {card}")
    return state


@cache
def finished(game: str) -> MatchState:
    g = get_game(game)
    state = g.new_match(seed=SEED, variant=g.variant(**VARIANTS[game]))
    play_out(state, [get_agent("heuristic", game=game, seed=s) for s in range(state.num_seats)])
    return state


def log_of(state: MatchState) -> list[str]:
    return [str(a) for a in state.log]


class FakeClock:
    """Every reading moves time on by ``step`` seconds."""

    def __init__(self, step: float = 1.0) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def test_a_high_card_thrown_under_the_opponents_trick_is_flagged():
    state = blot_blunder_position()
    view = state.view(HERO)
    assert {str(a) for a in view.legal_actions} == {"play TH", "play 7H"}
    game = get_game("blot")
    blunder = Decision(len(state.log), view, game.parse_action("play TH"))
    sensible = Decision(len(state.log), view, game.parse_action("play 7H"))
    result = analyse("blot", [blunder, sensible], seat=HERO, worlds=4, seed=1)
    bad, good = result.verdicts
    assert bad.flagged and bad.best == "play 7H"
    assert bad.loss > 20  # the contract: 24 for the defenders instead of about -10
    assert bad.describe().startswith("TH cost about") and "7H was better" in bad.describe()
    assert not good.flagged and good.loss == 0 and good.best == "play 7H"
    assert result.deals[0].flagged == 1 and result.deals[0].accuracy == 50.0


def test_a_loss_under_the_threshold_is_not_flagged():
    state = blot_blunder_position()
    view = state.view(HERO)
    blunder = Decision(len(state.log), view, get_game("blot").parse_action("play TH"))
    result = analyse("blot", [blunder], seat=HERO, worlds=4, seed=1, threshold=60.0)
    assert result.verdicts[0].loss > 20 and not result.verdicts[0].flagged


@pytest.mark.parametrize("game", ["callbreak", "batak"])
def test_the_analysis_only_ever_reads_the_seats_own_view(game, monkeypatch):
    state = finished(game)
    actions = log_of(state)
    seen: list[Any] = []
    spec = SearchAgent(game=game, seed=0).spec

    def spied(function):
        def wrapper(view, *args):
            seen.append(view)
            return function(view, *args)

        return wrapper

    # everything the search is handed goes through one of these
    spy = dataclasses.replace(
        spec,
        world=spied(spec.world),
        classes=spied(spec.classes),
        rollouts=spied(spec.rollouts),
        bidder=spied(spec.bidder),
    )
    decisions = seat_decisions(game, seed=SEED, variant=VARIANTS[game], actions=actions, seat=HERO)
    result = analyse(game, decisions, seat=HERO, worlds=1, spec=spy, seed=2)
    assert result.complete and seen
    # every input is exactly what the seat saw at that moment, and holds
    # no card that was hidden from it then
    g = get_game(game)
    truth = g.new_match(seed=SEED, variant=g.variant(**VARIANTS[game]))
    by_index = {d.index: d for d in decisions}
    for index, text in enumerate(actions):
        if index in by_index:
            view = by_index[index].view
            assert view == truth.view(HERO)
            hidden = {
                c
                for s in range(truth.num_seats)
                if s not in (HERO, view.dummy_seat)
                for c in truth.hands[s]
            }
            assert not view.visible_cards() & hidden
        truth.apply(text)
    assert all(v.seat == HERO for v in seen)
    assert {id(v) for v in seen} <= {id(d.view) for d in decisions}


def test_another_seats_view_is_refused():
    state = blot_blunder_position()
    game = get_game("blot")
    for view in (state.view(0), state.view(None)):
        decision = Decision(len(state.log), view, game.parse_action("play TH"))
        with pytest.raises(EngineError) as info:
            analyse("blot", [decision], seat=HERO, worlds=1)
        assert info.value.reason == "not_the_seats_view"


@pytest.mark.parametrize("game", ["callbreak", "ladder"])
def test_the_budget_is_respected_and_reported(game):
    state = finished(game)
    clock = FakeClock(step=1.0)
    reports: list[tuple[int, int]] = []
    result = analyse_match(
        game,
        seed=SEED,
        variant=VARIANTS[game],
        actions=log_of(state),
        seat=HERO,
        worlds=3,
        budget=12.0,
        clock=clock,
        progress=lambda done, total: reports.append((done, total)),
    )
    assert not result.complete
    assert 0 < result.analysed < result.total
    # one clock reading per world at least: no more worlds than the budget allows
    assert result.worlds <= 12
    assert reports == [(k, result.total) for k in range(1, result.analysed + 1)]
    assert len(result.verdicts) == result.analysed


def test_with_budget_to_spare_every_decision_is_analysed():
    state = finished("callbreak")
    result = analyse_match(
        "callbreak",
        seed=SEED,
        variant=VARIANTS["callbreak"],
        actions=log_of(state),
        seat=HERO,
        worlds=2,
        clock=FakeClock(step=0.0),
    )
    assert result.complete and result.analysed == result.total > 0
    deal = result.deals[0]
    assert deal.decisions == result.total
    assert deal.accuracy is not None and 0 <= deal.accuracy <= 100
    assert {v.status for v in result.verdicts} <= {"evaluated", EQUIVALENT, "not_evaluated"}


def test_the_analysis_is_reproducible_decision_by_decision():
    state = finished("callbreak")
    decisions = seat_decisions(
        "callbreak", seed=SEED, variant=VARIANTS["callbreak"], actions=log_of(state), seat=HERO
    )
    whole = analyse("callbreak", decisions, seat=HERO, worlds=3, seed=5)
    again = analyse("callbreak", decisions, seat=HERO, worlds=3, seed=5)
    later = analyse("callbreak", decisions[3:], seat=HERO, worlds=3, seed=5)
    assert whole.verdicts == again.verdicts
    assert whole.verdicts[3:] == later.verdicts


def test_forced_moves_are_no_decisions_and_each_is_the_seats_own():
    state = finished("blot")
    decisions = seat_decisions(
        "blot", seed=SEED, variant=VARIANTS["blot"], actions=log_of(state), seat=HERO
    )
    assert decisions
    for d in decisions:
        assert d.view.seat == d.view.decider == HERO
        assert len(d.view.legal_actions) > 1 and d.chosen in d.view.legal_actions
        assert str(d.chosen) == log_of(state)[d.index]


@pytest.mark.parametrize("game", ["callbreak", "ladder"])
def test_a_live_match_is_not_analysed(game):
    actions = log_of(finished(game))
    with pytest.raises(EngineError) as info:
        analyse_match(game, seed=SEED, variant=VARIANTS[game], actions=actions[:-1], seat=HERO)
    assert info.value.reason == "match_not_over"


def test_one_deal_of_a_match():
    state = finished("backalley")
    result = analyse_match(
        "backalley",
        seed=SEED,
        variant=VARIANTS["backalley"],
        actions=log_of(state),
        seat=HERO,
        deal_number=2,
        worlds=2,
    )
    assert result.total > 0 and {v.deal for v in result.verdicts} == {2}
    assert [d.deal for d in result.deals] == [2]

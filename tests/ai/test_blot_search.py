"""The Bazar Blot search agent (the "hard" seat): legal, honest, seeded,
and sensible where the answer is clear -- in the bazar and in play."""

from __future__ import annotations

from typing import Any

from engine import get_game, parse_action
from engine.ai import get_agent, play_out
from engine.ai.blot_bidding import plan
from engine.ai.blot_search import BlotSearch
from engine.core.actions import CONTRA, PASS
from engine.core.view import Observation

BL = get_game("blot")
#: small, world-counted budgets: quick, and the same on a busy machine
QUICK = {"clock": False, "max_worlds": 8, "bid_worlds": 12}


def agent(seed: int = 0, **kw: Any) -> Any:
    return get_agent("search", game="blot", seed=seed, **{**QUICK, **kw})


def bazar(hands: list[str], actions: list[str], dealer: int = 3) -> Any:
    state = BL.new_match(seed=0, deal={"hands": [h.split() for h in hands], "dealer": dealer})
    for text in actions:
        state.apply(parse_action(text))
    return state


class Watcher:
    """Wraps an agent and keeps every view and legal list it was given."""

    sees_all = False

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.seen: list[tuple[Observation, list[Any], Any]] = []

    def act(self, view: Observation, legal: Any, *, full_state: Any = None) -> Any:
        assert full_state is None
        action = self.inner.act(view, legal)
        self.seen.append((view, list(legal), action))
        return action


def test_a_short_match_of_legal_actions_from_views_only():
    state = BL.new_match(seed=5, variant=BL.variant(target_score=51))
    seats = [Watcher(agent(seed=s)) for s in range(4)]
    assert isinstance(seats[0].inner, BlotSearch) and not seats[0].inner.sees_all
    play_out(state, seats)
    assert state.is_over
    for watcher in seats:
        for view, legal, action in watcher.seen:
            assert action in legal
            assert set(view.hand) <= view.visible_cards()


def test_same_seed_same_view_same_choices():
    state = BL.new_match(seed=8, variant=BL.variant(target_score=51))
    first, second = agent(seed=3), agent(seed=3)
    for _ in range(30):
        seat = state.decider
        view, legal = state.view(seat), state.legal_actions()
        a, b = first.act(view, legal), second.act(view, legal)
        assert a == b
        state.apply(a)


def test_a_card_does_not_depend_on_hidden_hands():
    # seat 0's view is the same in both: only the opponents' hands differ
    common = {"0": ["JH", "AC", "TC", "7D"], "2": ["9H", "8C", "9C", "8D"]}
    a = {**common, "1": ["KC", "QC", "AD", "TD"], "3": ["JC", "7C", "KD", "QD"]}
    b = {**common, "1": ["JC", "7C", "KD", "QD"], "3": ["KC", "QC", "AD", "TD"]}
    choices = set()
    for hands in (a, b):
        state = BL.position(
            hands={int(k): v for k, v in hands.items()}, to_act=0, contract="9 H", declarer=0
        )
        choices.add(agent(seed=1).act(state.view(0), state.legal_actions()))
    assert len(choices) == 1


def test_a_weak_opening_hand_passes_at_once():
    state = bazar(
        [
            "7C 8C 7D 8D 7S 8S 7H 8H",
            "AC TC KC AD TD KD AS TS",
            "JH 9H AH TH KH QH 9S 9C",
            "QC JC QD JD 9D KS QS JS",
        ],
        [],
    )
    assert plan(state.view(0), state.legal_actions()).instant
    bot = agent()
    assert bot.act(state.view(0), state.legal_actions()) == PASS
    assert bot.last["how"] == "instant_bid"


def test_a_strong_trump_hand_bids_it():
    state = bazar(
        [
            "JH 9H AH TH KH QH AC AS",
            "7C 8C 7D 8D 7S 8S 9S 7H",
            "TC KC AD TD KD QC TS KS",
            "JC 9C QD JD 9D QS JS 8H",
        ],
        [],
    )
    action = agent().act(state.view(0), state.legal_actions())
    assert action.verb == "bid" and action.word == "H" and (action.number or 0) >= 10


def test_doubles_an_opponent_who_cannot_make_it():
    # seat 1 bids 16 hearts; seat 2 holds J 9 A T Q of hearts, and a J, 9,
    # A, T, K and Q, so nobody else has a four of a kind to count on
    state = bazar(
        [
            "7C 8C 7D 8D 7S 8S 9S 7H",
            "KH 8H AC TC QC 9D KD QS",
            "JH 9H AH TH QH KC AD TS",
            "9C JC TD JD QD AS KS JS",
        ],
        ["pass", "bid 16 H"],
    )
    legal = state.legal_actions()
    assert CONTRA in legal
    assert agent(bid_worlds=24).act(state.view(2), legal) == CONTRA


def test_does_not_double_a_high_bid_that_a_declaration_may_explain():
    # 20 diamonds from seat 1: four jacks (200 towards the contract) would
    # explain it, and seat 2 holds no jack; it must not double
    state = bazar(
        [
            "7C 8C 7D 8D 7S 8S 9S 7H",
            "JC JD JH JS 9D AD KC QC",
            "AH TH KH QH AC TC AS TS",
            "9C KD QD TD 9H 8H KS QS",
        ],
        ["pass", "bid 20 D"],
    )
    legal = state.legal_actions()
    assert CONTRA in legal
    assert agent(bid_worlds=24).act(state.view(2), legal) != CONTRA


def test_no_other_contract_type_over_the_partners_bid():
    # seat 2 holds strong spades but its partner (seat 0) bid hearts:
    # raising hearts or passing, never a bidding war in spades
    state = bazar(
        [
            "JH 9H AH TH 7C 8C 7D 8D",
            "AC TC KC QC AD TD KD QD",
            "JS 9S AS TS KS 9C JC 7H",
            "8H QH KH 7S 8S QS JD 9D",
        ],
        ["bid 9 H", "pass"],
    )
    view, legal = state.view(2), state.legal_actions()
    bids = [a for a in plan(view, legal).actions if a.verb == "bid"]
    assert all(a.word == "H" for a in bids)
    action = agent().act(view, legal)
    assert action == PASS or (action.verb == "bid" and action.word == "H")

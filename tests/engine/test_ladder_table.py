"""Ladder's rules on rank counts (engine/games/ladder/table.py): the legal
plays, one turn and its effects, the end -- the functions ``LadderState``
decides with and search plays out with (rules/ladder.md)."""

from __future__ import annotations

import random

from engine import get_game
from engine.games.ladder import table as lt
from engine.games.ladder.requirement import (
    ALLOWED,
    ANY_CODE,
    MAX9_CODE,
    OF_CODE,
    Requirement,
    allows,
)

LD = get_game("ladder")


def table(
    hand: list[int],
    shown: tuple[int, ...] = (),
    hidden: tuple[int, ...] = (),
    req: int = ANY_CODE,
    forbid_empty_hand: bool = True,
    burn: bool = False,
) -> lt.Table:
    """Seat 0 to act with these ranks; the other seats hold two cards each
    (so nobody else is out)."""
    t = lt.Table(forbid_empty_hand, burn)
    t.set_hands([hand, [14] * 2, [13] * 2, [12] * 2])
    for rank in shown:
        t.shown[0][rank] += 1
    t.shown_n[0] = len(shown)
    t.hidden[0] = [*hidden, *[0] * (3 - len(hidden))]
    t.hidden_n[0] = len(hidden)
    t.req = req
    return t


def test_requirement_codes_say_what_the_requirement_objects_say():
    for text in ("ANY", "MAX 9", *(f"MIN {v}" for v in range(0, 20))):
        req = Requirement.parse(text)
        assert [r for r in range(2, 15) if req.allows(r)] == list(ALLOWED[req.code])
    assert ALLOWED[MAX9_CODE] == tuple(range(2, 10))
    assert ALLOWED[11] == (2, 3, 9, 10, 11, 12, 13, 14)
    assert OF_CODE[MAX9_CODE] == Requirement.parse("MAX 9")
    assert not allows(13, 12) and allows(13, 2)


def test_plays_are_the_allowed_ranks_with_every_count_up_to_the_most():
    t = table([4, 4, 7, 9, 12, 12, 12], req=7)
    assert lt.plays(t, 0) == {7: 1, 9: 1, 12: 3}
    t.req = MAX9_CODE
    assert lt.plays(t, 0) == {4: 2, 7: 1, 9: 1}
    t.req = 13
    assert lt.plays(t, 0) == {9: 1}


def test_an_action_card_may_not_be_the_last_card_nor_empty_the_hand():
    assert lt.plays(table([2, 2], shown=(13,)), 0) == {2: 1}
    assert lt.plays(table([2, 2], shown=(13,), forbid_empty_hand=False), 0) == {2: 2}
    assert lt.plays(table([10], forbid_empty_hand=False), 0) == {}
    # from the shown cards only the very last card counts
    assert lt.plays(table([], shown=(3, 3), hidden=(5,)), 0) == {3: 2}
    assert lt.plays(table([], shown=(3, 3)), 0) == {3: 1}
    assert lt.plays(table([13], req=14), 0) == {}


def test_sources_in_order_and_blind_hidden_slots():
    t = table([5], shown=(6,), hidden=(7, 8))
    assert lt.source_of(t, 0) == lt.HAND
    lt.step(t, (5, 1))
    assert lt.source_of(t, 0) == lt.SHOWN
    t.to_act = 0
    lt.step(t, (6, 1))
    assert lt.source_of(t, 0) == lt.HIDDEN and lt.hidden_slots(t, 0) == [0, 1]
    t.to_act = 0
    t.hidden[0][0] = 0
    t.hidden_n[0] = 1
    assert lt.hidden_slots(t, 0) == [1]


def test_effects_of_each_rank():
    t = table([3, 3, 6])
    assert lt.step(t, (3, 2)) == lt.SKIPPED and t.to_act == 2 and t.req == ANY_CODE
    t = table([9, 6])
    assert lt.step(t, (9, 1)) == 0 and t.to_act == 1 and t.req == MAX9_CODE
    t = table([2, 6], burn=True)
    t.pile = [13, 4]
    assert lt.step(t, (2, 1)) == lt.BURNED and t.pile == [] and t.to_act == 1
    t = table([2, 6])
    t.pile = [13, 4]
    assert lt.step(t, (2, 1)) == 0 and t.pile == [13, 4, 2]


def test_a_ten_redeals_every_hand_from_its_player():
    t = table([10, 5, 6])
    t.seed = 3
    assert lt.step(t, (10, 1)) == lt.REDEALT
    assert t.sizes == [2, 2, 2, 2] and t.req == 10 and t.to_act == 1
    assert sorted(r for h in t.hands for r in range(15) for _ in range(h[r])) == sorted(
        [5, 6, 14, 14, 13, 13, 12, 12]
    )
    dealt: list[int] = []
    assert lt.step(table([10, 5]), (10, 1), dealt.append) == lt.REDEALT and dealt == [0]
    assert lt.deal_round("abcde", 2) == [["c"], ["d"], ["a", "e"], ["b"]]


def test_pickups_and_blind_cards():
    t = table([4], req=13)
    t.pile = [13, 13]
    assert lt.step(t, None) == lt.PICKED_UP
    assert t.hands[0][13] == 2 and t.sizes[0] == 3 and t.pile == [] and t.req == ANY_CODE
    blocked = table([], hidden=(13, 5), req=MAX9_CODE)
    blocked.pile = [9]
    assert (
        lt.step(blocked, 0) == lt.PICKED_UP and blocked.sizes[0] == 2 and blocked.hidden_n[0] == 1
    )
    last_action = table([], hidden=(2,), req=5)
    assert lt.step(last_action, 0) == lt.PICKED_UP and last_action.result is None
    played = table([], hidden=(13, 5), req=5)
    assert lt.step(played, 0) == 0 and played.pile == [13] and played.req == 13


def test_the_first_seat_out_from_the_player_on_wins_and_max_turns_draw():
    t = table([10, 6], shown=(13,))
    t.set_hands([[10, 6], [], [], []])
    t.seed = 1
    lt.step(t, (10, 1))  # the 6 is redealt to seat 0: seats 1, 2, 3 are out
    assert (t.result, t.winner) == (1, 1)
    t = table([5, 6])
    t.max_turns = 1
    lt.step(t, (5, 1))
    assert t.result == -1


def test_the_engine_keeps_its_table_equal_to_its_cards():
    """``LadderState.table`` after every action of random matches (both
    conformance variants, T redeals and new games included) is the table
    made afresh from the cards; the engine's legal lt.plays are ``lt.plays``."""
    rng = random.Random(7)
    for variant in LD.conformance_variants():
        for seed in range(6):
            state = LD.new_match(seed=seed, variant=variant)
            while not state.is_over:
                legal = state.legal_actions()
                seat = state.to_act
                if legal[0].verb == "play":
                    most: dict[int, int] = {}
                    for a in legal:
                        most[a.cards[0].rank] = max(most.get(a.cards[0].rank, 0), len(a.cards))
                    assert most == lt.plays(state.table, seat)
                state.apply(rng.choice(legal))
                if state.is_over:
                    break
                live = state.table
                state.resync()
                assert state.table == live, [
                    (k, getattr(live, k), getattr(state.table, k)) for k in lt.Table.__slots__
                ]
                state.table = live


def test_turn_of_reads_engine_actions():
    state = LD.position(hands={0: ["7H", "7S", "KD"]})
    assert [lt.turn_of(a) for a in state.legal_actions()] == [(7, 1), (7, 1), (7, 2), (13, 1)]
    assert lt.turn_of(LD.parse_action("pickup")) is None
    assert lt.turn_of(LD.parse_action("hidden 3")) == 2


def test_a_copy_is_independent():
    t = table([4, 5, 6])
    t.seed = 5
    t.random()
    twin = t.copy()
    assert twin == t
    lt.step(twin, (4, 1))
    twin.random().random()
    assert twin != t and t.sizes[0] == 3 and t.pile == []

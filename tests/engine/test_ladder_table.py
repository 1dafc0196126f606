"""Ladder's rules on rank counts (engine/games/ladder/table.py): the legal
plays, one turn and its effects, the end -- the functions ``LadderState``
decides with and search plays out with (rules/ladder.md)."""

from __future__ import annotations

import random

from engine import get_game
from engine.games.ladder.requirement import (
    ALLOWED,
    ANY_CODE,
    MAX9_CODE,
    OF_CODE,
    Requirement,
    allows,
)
from engine.games.ladder.table import (
    BURNED,
    HAND,
    HIDDEN,
    PICKED_UP,
    REDEALT,
    SHOWN,
    SKIPPED,
    Table,
    deal_round,
    hidden_slots,
    plays,
    source_of,
    step,
    turn_of,
)

LD = get_game("ladder")


def table(
    hand: list[int],
    shown: tuple[int, ...] = (),
    hidden: tuple[int, ...] = (),
    req: int = ANY_CODE,
    forbid_empty_hand: bool = True,
    burn: bool = False,
) -> Table:
    """Seat 0 to act with these ranks; every other seat holds five 5s' worth
    of cards (so nobody else is out)."""
    t = Table(forbid_empty_hand, burn)
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
    assert plays(t, 0) == {7: 1, 9: 1, 12: 3}
    t.req = MAX9_CODE
    assert plays(t, 0) == {4: 2, 7: 1, 9: 1}
    t.req = 13
    assert plays(t, 0) == {9: 1}


def test_an_action_card_may_not_be_the_last_card_nor_empty_the_hand():
    assert plays(table([2, 2], shown=(13,)), 0) == {2: 1}
    assert plays(table([2, 2], shown=(13,), forbid_empty_hand=False), 0) == {2: 2}
    assert plays(table([10], forbid_empty_hand=False), 0) == {}
    # from the shown cards only the very last card counts
    assert plays(table([], shown=(3, 3), hidden=(5,)), 0) == {3: 2}
    assert plays(table([], shown=(3, 3)), 0) == {3: 1}
    assert plays(table([13], req=14), 0) == {}


def test_sources_in_order_and_blind_hidden_slots():
    t = table([5], shown=(6,), hidden=(7, 8))
    assert source_of(t, 0) == HAND
    step(t, (5, 1))
    assert source_of(t, 0) == SHOWN
    t.to_act = 0
    step(t, (6, 1))
    assert source_of(t, 0) == HIDDEN and hidden_slots(t, 0) == [0, 1]
    t.to_act = 0
    t.hidden[0][0] = 0
    t.hidden_n[0] = 1
    assert hidden_slots(t, 0) == [1]


def test_effects_of_each_rank():
    t = table([3, 3, 6])
    assert step(t, (3, 2)) == SKIPPED and t.to_act == 2 and t.req == ANY_CODE
    t = table([9, 6])
    assert step(t, (9, 1)) == 0 and t.to_act == 1 and t.req == MAX9_CODE
    t = table([2, 6], burn=True)
    t.pile = [13, 4]
    assert step(t, (2, 1)) == BURNED and t.pile == [] and t.to_act == 1
    t = table([2, 6])
    t.pile = [13, 4]
    assert step(t, (2, 1)) == 0 and t.pile == [13, 4, 2]


def test_a_ten_redeals_every_hand_from_its_player():
    t = table([10, 5, 6])
    t.seed = 3
    assert step(t, (10, 1)) == REDEALT
    assert t.sizes == [2, 2, 2, 2] and t.req == 10 and t.to_act == 1
    assert sorted(r for h in t.hands for r in range(15) for _ in range(h[r])) == sorted(
        [5, 6, 14, 14, 13, 13, 12, 12]
    )
    dealt: list[int] = []
    assert step(table([10, 5]), (10, 1), dealt.append) == REDEALT and dealt == [0]
    assert deal_round("abcde", 2) == [["c"], ["d"], ["a", "e"], ["b"]]


def test_pickups_and_blind_cards():
    t = table([4], req=13)
    t.pile = [13, 13]
    assert step(t, None) == PICKED_UP
    assert t.hands[0][13] == 2 and t.sizes[0] == 3 and t.pile == [] and t.req == ANY_CODE
    blocked = table([], hidden=(13, 5), req=MAX9_CODE)
    blocked.pile = [9]
    assert step(blocked, 0) == PICKED_UP and blocked.sizes[0] == 2 and blocked.hidden_n[0] == 1
    last_action = table([], hidden=(2,), req=5)
    assert step(last_action, 0) == PICKED_UP and last_action.result is None
    played = table([], hidden=(13, 5), req=5)
    assert step(played, 0) == 0 and played.pile == [13] and played.req == 13


def test_the_first_seat_out_from_the_player_on_wins_and_max_turns_draw():
    t = table([10, 6], shown=(13,))
    t.set_hands([[10, 6], [], [], []])
    t.seed = 1
    step(t, (10, 1))  # the 6 is redealt to seat 0: seats 1, 2, 3 are out
    assert (t.result, t.winner) == (1, 1)
    t = table([5, 6])
    t.max_turns = 1
    step(t, (5, 1))
    assert t.result == -1


def test_the_engine_keeps_its_table_equal_to_its_cards():
    """``LadderState.table`` after every action of random matches (both
    conformance variants, T redeals and new games included) is the table
    made afresh from the cards; the engine's legal plays are ``plays``."""
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
                    assert most == plays(state.table, seat)
                state.apply(rng.choice(legal))
                if state.is_over:
                    break
                live = state.table
                state.resync()
                assert state.table == live, [
                    (k, getattr(live, k), getattr(state.table, k)) for k in Table.__slots__
                ]
                state.table = live


def test_turn_of_reads_engine_actions():
    state = LD.position(hands={0: ["7H", "7S", "KD"]})
    assert [turn_of(a) for a in state.legal_actions()] == [(7, 1), (7, 1), (7, 2), (13, 1)]
    assert turn_of(LD.parse_action("pickup")) is None
    assert turn_of(LD.parse_action("hidden 3")) == 2


def test_a_copy_is_independent():
    t = table([4, 5, 6])
    t.seed = 5
    t.random()
    twin = t.copy()
    assert twin == t
    step(twin, (4, 1))
    twin.random().random()
    assert twin != t and t.sizes[0] == 3 and t.pile == []

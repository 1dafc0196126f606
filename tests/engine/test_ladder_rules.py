"""One test per rule, effect and setting of rules/ladder.md."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction, InvalidPosition, InvalidVariant, get_game
from engine.core.cards import parse_cards, standard_deck
from engine.games.ladder import Requirement

LD = get_game("ladder")


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def explicit_deal():
    deck = [str(c) for c in standard_deck()]
    return {
        "hidden": [deck[13 * s : 13 * s + 3] for s in range(4)],
        "shown": [deck[13 * s + 3 : 13 * s + 6] for s in range(4)],
        "hands": [deck[13 * s + 6 : 13 * s + 13] for s in range(4)],
    }


# -- Setup -------------------------------------------------------------------------
def test_each_player_gets_3_hidden_3_shown_7_hand():
    state = LD.new_match(seed=1)
    for seat in range(4):
        assert len(state.hands[seat]) == 7 and len(state.shown[seat]) == 3
        assert sum(c is not None for c in state.hidden[seat]) == 3


def test_seat_0_starts_by_default_and_random_by_seed():
    assert LD.new_match(seed=1).to_act == 0
    starts = {
        LD.new_match(seed=s, variant=LD.variant(first_player="random")).to_act for s in range(30)
    }
    assert starts == {0, 1, 2, 3}
    assert LD.new_match(seed=1, variant=LD.variant(first_player=2)).to_act == 2


def test_explicit_deal_is_used_and_checked():
    state = LD.new_match(seed=1, deal=explicit_deal())
    assert [str(c) for c in state.shown[0]] == explicit_deal()["shown"][0]
    bad = explicit_deal()
    bad["hands"][1][0] = bad["hands"][0][0]
    with pytest.raises(InvalidPosition):
        LD.new_match(seed=1, deal=bad)


# -- What may be played --------------------------------------------------------------
@pytest.mark.parametrize(
    ("req", "allowed", "blocked"),
    [
        ("ANY", [2, 3, 4, 9, 10, 14], []),
        ("MIN 8", [8, 11, 14, 2, 3, 9, 10], [4, 7]),
        ("MAX 9", [2, 3, 4, 8, 9], [10, 11, 12, 13, 14]),
    ],
)
def test_requirement_table(req, allowed, blocked):
    r = Requirement.parse(req)
    assert all(r.allows(v) for v in allowed)
    assert not any(r.allows(v) for v in blocked)


def test_requirements_set_by_each_kind_of_play():
    state = LD.position(hands={0: ["5H", "KC"], 1: ["6H", "8C"], 2: ["7H", "9C"], 3: ["4H", "4C"]})
    state.apply("play 5H")
    assert str(state.requirement) == "MIN 5"
    state.apply("play 6H")
    assert str(state.requirement) == "MIN 6"
    state.apply("play 9C")
    assert str(state.requirement) == "MAX 9"


def test_one_or_more_equal_cards_from_the_hand():
    state = LD.position(hands={0: ["5H", "5S", "5D", "KC"]})
    assert {
        "play 5H",
        "play 5S",
        "play 5D",
        "play 5S 5H",
        "play 5H 5D",
        "play 5S 5D",
        "play 5S 5H 5D",
        "play KC",
    } == legal(state)
    assert LD.parse_action("play 5D 5H 5S") == LD.parse_action("play 5S 5H 5D")
    with pytest.raises(IllegalAction) as info:
        state.apply("play 5H KC")
    assert info.value.reason == "mixed_ranks"


def test_blocked_rank_is_refused_with_the_requirement():
    state = LD.position(hands={0: ["5H", "KC"]}, pile=["9S"], requirement="MAX 9")
    assert legal(state) == {"play 5H"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play KC")
    assert info.value.reason == "blocked_by_requirement"


def test_shown_cards_only_after_the_hand_is_empty_and_sources_never_mix():
    state = LD.position(hands={0: ["5H"]}, shown={0: ["5S", "KD", "QD"]})
    assert legal(state) == {"play 5H"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play 5H 5S")
    assert info.value.reason == "mixed_sources"
    empty = LD.position(hands={0: []}, shown={0: ["5S", "KD", "QD"]})
    assert legal(empty) == {"play 5S", "play KD", "play QD"}


def test_hidden_cards_played_blind_one_at_a_time():
    state = LD.position(hands={0: []}, hidden={0: 3})
    assert legal(state) == {"hidden 1", "hidden 2", "hidden 3"}
    with pytest.raises(IllegalAction) as info:
        state.apply("pickup")
    assert info.value.reason == "must_play"


def test_revealed_hidden_card_that_is_playable_is_played():
    state = LD.position(hands={0: []}, hidden={0: 1}, pile=["4S"], requirement="MIN 4")
    card = state.hidden[0][0]
    assert card is not None
    state.hidden[0][0] = parse_cards("KH")[0]
    state.burned = [c for c in state.burned if str(c) != "KH"] + (
        [card] if str(card) != "KH" else []
    )
    events = state.apply("hidden 1")
    assert [e.kind for e in events][:2] == ["hidden_revealed", "played"]
    assert str(state.pile[-1]) == "KH" and state.is_over  # its last card: out


def test_revealed_hidden_card_that_is_blocked_is_picked_up_with_the_pile():
    state = LD.position(hands={0: []}, hidden={0: 2}, pile=["9S"], requirement="MAX 9")
    state.hidden[0][0] = parse_cards("KH")[0]
    state.apply("hidden 1")
    assert {str(c) for c in state.hands[0]} == {"9S", "KH"} and state.pile == []
    assert state.to_act == 1 and str(state.requirement) == "ANY"


def test_hidden_action_card_as_final_card_is_picked_up():
    state = LD.position(hands={0: []}, hidden={0: 1}, pile=["5S"], requirement="MIN 5")
    state.hidden[0][0] = parse_cards("2H")[0]
    state.apply("hidden 1")
    assert {str(c) for c in state.hands[0]} == {"5S", "2H"} and not state.is_over


def test_must_play_when_able_else_pick_up_the_pile():
    state = LD.position(hands={0: ["4H"]}, pile=["KS"], requirement="MIN 13")
    assert legal(state) == {"pickup"}
    state.apply("pickup")
    assert [str(c) for c in state.hands[0]] == ["4H", "KS"] and state.pile == []
    assert state.to_act == 1 and str(state.requirement) == "ANY"


# -- The last card ----------------------------------------------------------------------
def test_action_cards_may_not_empty_the_hand_by_default():
    state = LD.position(hands={0: ["2H", "2S"]}, shown={0: ["KD"]})
    assert legal(state) == {"play 2H", "play 2S"}
    with pytest.raises(IllegalAction) as info:
        state.apply("play 2H 2S")
    assert info.value.reason == "action_last_card"


def test_forbid_final_only_allows_emptying_the_hand_with_action_cards():
    v = LD.variant(action_last_card="forbid_final_only")
    state = LD.position(hands={0: ["2H", "2S"]}, shown={0: ["KD"]}, variant=v)
    assert "play 2S 2H" in legal(state)
    last = LD.position(hands={0: ["2H"]}, variant=v)
    assert legal(last) == {"pickup"}


# -- Effects ------------------------------------------------------------------------
def test_ordinary_card_next_seat_plays():
    state = LD.position(hands={0: ["5H", "6H"]})
    state.apply("play 5H")
    assert state.to_act == 1


def test_two_next_seat_starts_afresh():
    state = LD.position(hands={0: ["2H", "6H"]}, pile=["KS"], requirement="MIN 13")
    state.apply("play 2H")
    assert state.to_act == 1 and str(state.requirement) == "ANY" and len(state.pile) == 2


def test_three_skips_to_the_partner_with_any():
    state = LD.position(hands={0: ["3H", "6H"]}, pile=["KS"], requirement="MIN 13")
    state.apply("play 3H")
    assert state.to_act == 2 and str(state.requirement) == "ANY"


def test_nine_caps_the_next_play():
    state = LD.position(hands={0: ["9H", "6H"]})
    state.apply("play 9H")
    assert str(state.requirement) == "MAX 9" and state.to_act == 1


def test_ten_pools_and_redeals_every_hand_from_its_player_then_min_10():
    state = LD.position(
        hands={0: ["TH", "6H", "7H"], 1: ["4C"], 2: ["5C", "8C"], 3: []}, shown={3: ["KD"]}
    )
    state.apply("play TH")
    counts = [len(h) for h in state.hands]
    assert counts == [2, 1, 1, 1]  # five cards dealt one at a time from seat 0
    assert {str(c) for h in state.hands for c in h} == {"6H", "7H", "4C", "5C", "8C"}
    assert str(state.requirement) == "MIN 10" and state.to_act == 1
    assert [str(c) for c in state.shown[3]] == ["KD"]


def test_ten_redistribution_is_reproduced_by_replay():
    state = LD.new_match(seed=8)
    rng = random.Random(8)
    tens = 0
    while not state.is_over and tens < 3:
        events = state.apply(rng.choice(state.legal_actions()))
        tens += any(e.kind == "redistributed" for e in events)
    again = LD.replay([str(a) for a in state.log], seed=8)
    assert again.hands == state.hands and tens > 0


def test_effect_applies_once_for_several_copies():
    state = LD.position(hands={0: ["3H", "3S", "6H"]})
    state.apply("play 3H 3S")
    assert state.to_act == 2


def test_pile_is_never_burned_by_default_and_burn_on_2_3_setting():
    state = LD.position(hands={0: ["2H", "6H"]}, pile=["KS", "4D"])
    state.apply("play 2H")
    assert len(state.pile) == 3
    burn = LD.position(
        hands={0: ["2H", "6H"]}, pile=["KS", "4D"], variant=LD.variant(burn_on_2_3=True)
    )
    burn.apply("play 2H")
    assert burn.pile == [] and len(burn.card_inventory()) == 52


# -- End --------------------------------------------------------------------------------
def test_first_player_out_of_cards_wins_for_the_team():
    state = LD.position(hands={1: ["KH"]}, to_act=1, shown={1: []}, hidden={1: 0})
    state.apply("play KH")
    assert state.is_over and state.scores == [0, 1]
    assert state.view(None).ranking == (2, 1)


def test_ten_leaving_players_empty_first_in_seat_order_after_its_player_wins():
    state = LD.position(
        hands={0: ["TH", "6H"], 1: [], 2: [], 3: []},
        shown={0: ["KD"]},
        hidden={0: 0, 1: 0, 2: 0, 3: 0},
    )
    # seats 1, 2 and 3 hold nothing at all before the T; only 6H is redealt (to seat 0)
    state.scores = [0, 0]
    state.apply("play TH")
    assert state.is_over and state.scores == [0, 1]  # seat 1 is first after seat 0


def test_max_turns_draw_then_a_new_game_and_a_drawn_match_after_the_cap():
    state = LD.new_match(seed=3, variant=LD.variant(max_turns=100))
    for game in (1, 2, 3):
        assert state.round_number == game
        state.turns = 99
        state.apply(state.legal_actions()[0])
        assert state.view(None).extra["results"] == (None,) * game
    # target_wins 1: at most 2 x 1 + 1 games; all drawn -> a drawn match
    assert state.is_over and state.scores == [0, 0] and state.view(None).ranking == (1, 1)


def test_match_to_target_wins_and_each_game_redeals():
    state = LD.new_match(seed=2, variant=LD.variant(target_wins=2))
    rng = random.Random(2)
    games = set()
    while not state.is_over:
        games.add(state.round_number)
        state.apply(rng.choice(state.legal_actions()))
    results = state.view(None).extra["results"]
    assert max(state.scores) == 2 or len(results) == 5
    assert len(games) == len(results) >= 2


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("first_player", 4),
        ("first_player", "left"),
        ("action_last_card", "x"),
        ("target_wins", 0),
        ("target_wins", 11),
        ("max_turns", 99),
        ("max_turns", 5001),
        ("burn_on_2_3", "sometimes"),
    ],
)
def test_settings_validated(key, value):
    with pytest.raises(InvalidVariant):
        LD.Variant.from_options({key: value})


def test_position_rejects_bad_facts():
    with pytest.raises(InvalidPosition):
        LD.position(hands={0: ["KH"], 1: ["KH"]})
    with pytest.raises(InvalidPosition):
        LD.position(requirement="MIN")


# -- Hidden information ----------------------------------------------------------------
def test_no_view_ever_reveals_a_hidden_card_before_it_is_played():
    for seed in range(3):
        state = LD.new_match(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            hidden = {c for h in state.hidden for c in h if c is not None}
            for seat in (None, 0, 1, 2, 3):
                view = state.view(seat)
                assert not view.visible_cards() & hidden
                assert all(a.verb != "hidden" or not a.cards for a in view.legal_actions)
            for seat in range(4):
                assert not state.view(seat).visible_cards() & {
                    c for s in range(4) if s != seat for c in state.hands[s]
                }
            state.apply(rng.choice(state.legal_actions()))


def test_long_random_games_always_end():
    for seed in range(20):
        state = LD.new_match(seed=seed, variant=LD.variant(target_wins=3, max_turns=100))
        rng = random.Random(seed)
        steps = 0
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        assert steps <= 7 * 100  # at most 2 x target + 1 games of max_turns each

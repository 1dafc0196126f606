"""Nothing lost at the edges: the engine facade refuses every malformed input
with an EngineError (never a raw TypeError/ValueError...), accepts nothing the
rule book forbids, and a refusal changes nothing.

Property tests run against every registered game (Backalley for several
player counts); the long statistical fuzz is ``bench/fuzz_engine.py``.
"""

from __future__ import annotations

import pickle
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    GAMES,
    Action,
    Card,
    EngineError,
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    InvalidVariant,
    MatchState,
    NotYourTurn,
    UnsupportedAction,
    get_game,
    parse_action,
)
from engine.core.actions import MAX_ACTION_TEXT, VERBS, check_action
from engine.core.cards import standard_deck
from tests.engine.conformance import snapshot

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

SETUPS: list[tuple[str, dict[str, Any]]] = []
for _name in GAMES:
    if _name == "backalley":
        SETUPS += [(_name, {"players": n, "max_cards": 3}) for n in (2, 3, 4, 6, 8)]
    else:
        SETUPS.append((_name, {}))
SETUP_IDS = [f"{name}{opts.get('players', '')}" for name, opts in SETUPS]

ASCII_WS = " \t\r\n"
UNICODE_DIGITS = "²³¹٣३３𝟓٠"
LOOKALIKES = {"s": "ſ", "k": "\u212a", "a": "ａ", "i": "ı"}


# -- helpers -----------------------------------------------------------------------------
def stable_pickle(state: MatchState) -> bytes:
    """``pickle.dumps`` after one round trip: the bytes of one state object,
    before and after a refusal, compare exactly (a live state's first dump may
    record object sharing differently from a copy's, so both sides of a
    comparison go through this)."""
    return pickle.dumps(pickle.loads(pickle.dumps(state)))


@cache
def sample_states(index: int) -> tuple[bytes, ...]:
    """Pickled states along a random playout of setup ``index`` (every phase)."""
    name, opts = SETUPS[index]
    game = get_game(name)
    state = game.new_match(seed=index, variant=game.variant(**opts))
    rng = random.Random(index)
    blobs = []
    for step in range(300):
        if state.is_over:
            break
        if step % 9 == 0:
            blobs.append(stable_pickle(state))
        state.apply(rng.choice(state.legal_actions()))
    return tuple(blobs)


def acceptable_spelling(text: str, action: Action) -> bool:
    """The canonical text up to case, surrounding ASCII whitespace, runs of
    spaces/tabs, a ten written 10 and the order of a multi-card play."""
    if len(text) > MAX_ACTION_TEXT:
        return False
    body = text.strip(ASCII_WS)
    if not body.isascii() or any(not (c.isalnum() or c in " \t") for c in body):
        return False
    words = body.upper().replace("\t", " ").split()
    canon = str(action).upper().split()
    if len(words) != len(canon) or words[0] != canon[0]:
        return False
    if action.verb == "play":
        cards = ["T" + w[2:] if len(w) == 3 and w.startswith("10") else w for w in words[1:]]
        return sorted(cards) == sorted(canon[1:])
    return words == canon


def views(state: MatchState) -> list[Any]:
    return [state.view(s) for s in (None, *range(state.num_seats))] + [list(state.scores)]


def check_input(state: MatchState, x: Any) -> None:
    """The contract for one input at one state: parse and apply either accept
    correctly or raise an EngineError that leaves the state as it was."""
    game = state.game
    legal = state.legal_actions()
    try:
        parsed = game.parse_action(x)
    except EngineError as exc:
        assert str(exc)
        assert len(str(exc)) < 400, "the message quotes the input clipped"
    else:
        assert isinstance(x, str) and type(parsed) is Action
        assert acceptable_spelling(x, parsed), f"{x!r} read as {parsed}"
        assert game.parse_action(str(parsed)) == parsed
        assert str(game.parse_action(str(parsed))) == str(parsed)
    before = stable_pickle(state)
    log_length = len(state.log)
    try:
        state.apply(x)
    except EngineError:
        assert stable_pickle(state) == before, f"refusing {x!r} changed the state"
    else:
        applied = state.log[log_length]
        assert applied in legal, f"{x!r} was accepted but is not legal"
        assert type(applied) is Action and game.parse_action(str(applied)) == applied
        if isinstance(x, str):
            assert acceptable_spelling(x, applied)
        else:
            assert type(x) is Action and str(x) == str(applied)


# -- strategies ----------------------------------------------------------------------------
def mutations(text: str) -> st.SearchStrategy[str]:
    words = text.split(" ")
    return st.one_of(
        st.just(text),
        st.just(text.lower()),
        st.just(text.swapcase()),
        st.sampled_from([" ", "\t", "\n", "\u00a0", "\u3000", "\x00"]).map(
            lambda ws: ws + text + ws
        ),
        st.just(text.replace(" ", "  \t ")),
        st.just(text.replace(" ", "\n")),
        st.just(text.replace(" ", ",")),
        st.sampled_from(UNICODE_DIGITS).map(
            lambda d: "".join(d if c.isdigit() else c for c in text)
        ),
        st.just("".join(LOOKALIKES.get(c, c) for c in text.lower())),
        st.sampled_from(["H", "NT", "capot", "AS", "1", "pass", "x"]).map(lambda w: text + " " + w),
        st.just(" ".join(words[:-1])),
        st.integers(0, len(text)).map(lambda n: text[:n]),
        st.just(" ".join(words[1:])),
        st.just(" ".join([words[0], *reversed(words[1:])])),
        st.just(text.replace(" ", " 0", 1)),
        st.just(text.replace("T", "10")),
        st.just(" ".join(w[1:] + w[0] if len(w) == 2 else w for w in words)),
        st.sampled_from([5, 60, 5000]).map(lambda n: words[0] + " " + "5" * n),
        st.just(" " * 100 + text),
    )


NON_STRINGS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.binary(max_size=8),
    st.lists(st.text(max_size=4), max_size=3),
    st.tuples(st.integers(), st.sampled_from("SHDC")),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.builds(object),
    st.just(Card(14, "S")),
)


@st.composite
def lookalike_actions(draw: st.DrawFn, legal: list[Action]) -> Any:
    """Objects equal (or nearly) to a legal action that are not one."""
    a = draw(st.sampled_from(legal))
    options: list[Any] = [
        Action(a.verb.upper(), a.cards, a.number, a.word, a.capot),
        Action(a.verb, list(a.cards), a.number, a.word, a.capot),  # type: ignore[arg-type]
        Action(a.verb, tuple(tuple(c) for c in a.cards), a.number, a.word, a.capot),
        Action(a.verb, a.cards + a.cards, a.number, a.word, a.capot),
        Action(a.verb, a.cards, a.number, a.word, 1),  # type: ignore[arg-type]
        Action(a.verb, tuple(reversed(a.cards)), a.number, a.word, a.capot),  # legal
        a,
    ]
    if a.number is not None:
        options += [
            Action(a.verb, a.cards, bool(a.number), a.word, a.capot),
            Action(a.verb, a.cards, float(a.number), a.word, a.capot),  # type: ignore[arg-type]
            Action(a.verb, a.cards, str(a.number), a.word, a.capot),  # type: ignore[arg-type]
        ]
    return draw(st.sampled_from(options))


@st.composite
def inputs_for(draw: st.DrawFn, state: MatchState) -> Any:
    legal = state.legal_actions()
    kind = draw(st.sampled_from(["mutation", "mutation", "text", "vocabulary", "object", "alike"]))
    if kind == "mutation":
        return draw(mutations(str(draw(st.sampled_from(legal)))))
    if kind == "text":
        return draw(st.text(max_size=24) | st.text(alphabet="playbidpasSHDCNT0123456789 ²٣"))
    if kind == "vocabulary":
        return draw(
            st.sampled_from(
                ["pass", "contra", "recontra", "pickup", "bid backalley", "play RJ", "hidden 0"]
            )
            | st.integers(0, 30).map(lambda n: f"bid {n}")
            | st.tuples(st.integers(7, 30), st.sampled_from(["S", "NT", "H capot"])).map(
                lambda t: f"bid {t[0]} {t[1]}"
            )
        )
    if kind == "object":
        return draw(NON_STRINGS)
    return draw(lookalike_actions(legal))


# -- (a) one input at a time -------------------------------------------------------------
@pytest.mark.parametrize("index", range(len(SETUPS)), ids=SETUP_IDS)
@FUZZ
@given(data=st.data())
def test_any_input_is_a_legal_action_or_an_engine_error(index, data):
    blobs = sample_states(index)
    state: MatchState = pickle.loads(data.draw(st.sampled_from(blobs)))
    for _ in range(4):
        check_input(state, data.draw(inputs_for(state)))
        if state.is_over:
            break


# -- (b) sequences: refusals change nothing, the log replays ------------------------------
@pytest.mark.parametrize("index", range(len(SETUPS)), ids=SETUP_IDS)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(-(2**70), 2**70), data=st.data())
def test_random_sequences_of_legal_and_illegal_input_replay_exactly(index, seed, data):
    name, opts = SETUPS[index]
    game = get_game(name)
    state = game.new_match(seed=seed, variant=game.variant(**opts))
    steps = data.draw(st.lists(st.integers(0, 9), min_size=20, max_size=120))
    for step in steps:
        if state.is_over:
            break
        legal = state.legal_actions()
        if step < 7:
            state.apply(legal[step % len(legal)])
        else:
            check_input(state, data.draw(inputs_for(state)))
    again = game.replay(
        list(state.log), seed=state.seed, variant=state.variant, deal=state.initial_deal
    )
    assert views(again) == views(state)
    record = pickle.loads(pickle.dumps(state.record()))
    from_text = game.replay(
        record["actions"], seed=record["seed"], variant=record["variant"], deal=record["deal"]
    )
    assert views(from_text) == views(state)
    assert snapshot(from_text) == snapshot(again) == snapshot(state)


# -- parse_action, case by case -----------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play AS", "play AS"),
        ("  PLAY as\t", "play AS"),
        ("play 10h", "play TH"),
        ("bid 9 nt", "bid 9 NT"),
        ("Bid 25 s Capot", "bid 25 S capot"),
        ("bid  BACKALLEY", "bid backalley"),
        ("trump h\n", "trump H"),
        ("hidden 2", "hidden 2"),
        ("play 7D 7H", "play 7H 7D"),
        ("bid 0", "bid 0"),
        ("bid 999", "bid 999"),
        ("play " + "  " * 25 + "AS", "play AS"),
    ],
)
def test_accepted_spellings_read_as_the_canonical_action(text, canonical):
    action = parse_action(text)
    assert str(action) == canonical
    assert parse_action(canonical) == action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "AS",  # a bare card is not an action (front ends resolve shorthand)
        "5",  # nor a bare number
        "bid ²",
        "bid ٣",
        "bid ３",
        "hidden ٣",
        "bid 09",
        "bid +9",
        "bid -1",
        "bid 1_0",
        "bid 1000",
        "5" * 5000,
        "bid " + "9" * 5000,
        "pass pass",
        "pass\npass",
        "play AS, KS",
        "play AS AS",
        "play S10",
        "play A S",
        "play",
        "play 1S",
        "play Aſ",
        "pic\u212aup",
        "bid 9 H capot x",
        "bid 25 capot",
        "bid 9 X",
        "trump NT",
        "trump",
        "hidden",
        "hidden 1 2",
        "dance",
        "pass\x00",
        "play AS\u200b",
        "x" * (MAX_ACTION_TEXT + 1),
    ],
)
def test_malformed_text_is_invalid_action_quoting_the_input(text):
    with pytest.raises(InvalidAction) as info:
        parse_action(text)
    message = str(info.value)
    assert len(message) < 300
    if text.strip():
        assert repr(text.strip(" \t\r\n")[:10])[1:-1] in message or "too long" in message


def test_over_long_input_says_so_and_is_clipped():
    with pytest.raises(InvalidAction) as info:
        parse_action("5" * 5000)
    assert f"at most {MAX_ACTION_TEXT} characters" in str(info.value)
    assert "5000 characters" in str(info.value) and len(str(info.value)) < 200
    assert info.value.reason == "too_long"


@pytest.mark.parametrize("value", [None, 5, 1.5, True, b"pass", ["play", "AS"], Card(14, "S")])
def test_parse_action_takes_only_text(value):
    for game in GAMES.values():
        with pytest.raises(InvalidAction):
            game.parse_action(value)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("callbreak", "pass"),
        ("callbreak", "bid 9 H"),
        ("callbreak", "bid backalley"),
        ("callbreak", "play AS KS"),
        ("batak", "bid 9 NT"),
        ("batak", "contra"),
        ("blot", "bid 9"),
        ("blot", "trump H"),
        ("backalley", "bid 3 S"),
        ("backalley", "pass"),
        ("ladder", "bid 3"),
        ("ladder", "play 7S 7H 7D 7C 8S"),
    ],
)
def test_a_verb_or_shape_a_game_never_uses_is_unsupported(name, text):
    game = get_game(name)
    with pytest.raises(UnsupportedAction) as info:
        game.parse_action(text)
    assert get_game(name).title in str(info.value)
    state = game.new_match(seed=1)
    with pytest.raises(IllegalAction):  # UnsupportedAction is both invalid and illegal
        state.apply(text)


def test_play_of_several_cards_has_one_canonical_order():
    """rules/ladder.md "What may be played": a play is a set of equal cards."""
    a = Action("play", (Card(7, "D"), Card(7, "H"), Card(7, "S")))
    b = Action("play", (Card(7, "S"), Card(7, "D"), Card(7, "H")))
    assert a == b and hash(a) == hash(b) and str(a) == "play 7S 7H 7D"
    ladder = get_game("ladder")
    assert ladder.parse_action("play 7d 7s 7h") == a
    state = ladder.position(hands={0: ["7D", "7H", "KS"]}, to_act=0)
    legal = state.legal_actions()
    assert ladder.parse_action("play 7D 7H") in legal
    state.apply(Action("play", (Card(7, "D"), Card(7, "H"))))
    assert str(state.log[-1]) == "play 7H 7D"


ANY_CARDS = st.lists(st.sampled_from(standard_deck(jokers=True)), max_size=5).map(tuple)
ANY_ACTIONS = st.builds(
    Action,
    verb=st.sampled_from([*sorted(VERBS), "PLAY", "dance", ""]),
    cards=ANY_CARDS,
    number=st.none() | st.integers(-2, 1002) | st.booleans(),
    word=st.none() | st.sampled_from(["S", "H", "D", "C", "NT", "backalley", "h", "x", "J"]),
    capot=st.booleans(),
)


@FUZZ
@given(action=ANY_ACTIONS)
def test_an_action_object_is_well_formed_exactly_when_its_text_reads_back(action):
    """``apply`` checks objects with ``check_action``; text goes through
    ``parse_action``: both must agree on what an action is."""
    try:
        again = parse_action(str(action))
        reads_back = again == action and str(again) == str(action)
    except InvalidAction:
        reads_back = False
    try:
        check_action(action)
    except InvalidAction:
        assert not reads_back, f"{action!r} reads back but is refused"
    else:
        assert reads_back, f"{action!r} is accepted but does not read back"


# -- apply, case by case -------------------------------------------------------------------
@pytest.mark.parametrize("name", list(GAMES))
def test_apply_refuses_objects_that_are_not_actions_and_changes_nothing(name):
    game = get_game(name)
    state = game.new_match(seed=4)
    legal = state.legal_actions()[0]
    before = stable_pickle(state)

    class EqualsAnything:
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    garbage: list[Any] = [
        None,
        0,
        1,
        True,
        1.5,
        b"pass",
        [legal],
        (str(legal),),
        {"verb": legal.verb},
        Card(14, "S"),
        EqualsAnything(),
        Action(legal.verb.upper(), legal.cards, legal.number, legal.word),
        Action(legal.verb, list(legal.cards), legal.number, legal.word),  # type: ignore[arg-type]
        Action(legal.verb, legal.cards, legal.number, legal.word, 0),  # type: ignore[arg-type]
    ]
    if legal.cards:
        garbage.append(
            Action(legal.verb, tuple(tuple(c) for c in legal.cards), legal.number, legal.word)
        )
    if legal.number is not None:
        garbage += [
            Action(legal.verb, legal.cards, bool(legal.number), legal.word),
            Action(legal.verb, legal.cards, float(legal.number), legal.word),  # type: ignore[arg-type]
        ]
    for x in garbage:
        with pytest.raises(InvalidAction):
            state.apply(x)
        assert stable_pickle(state) == before, f"{x!r} changed the state"
    state.apply(legal)
    assert state.log == [legal]


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, "0", "1", -1, 10**30, [0]])
def test_a_seat_that_is_not_the_deciding_int_is_refused(seat):
    state = get_game("callbreak").new_match(seed=1)
    before = stable_pickle(state)
    with pytest.raises(NotYourTurn):
        state.apply(state.legal_actions()[0], seat=seat)
    assert stable_pickle(state) == before
    state.apply(state.legal_actions()[0], seat=state.decider)


@pytest.mark.parametrize("seat", [-1, 4, 99, True, False, "0", 1.0, [0]])
def test_a_view_of_a_seat_that_does_not_exist_is_refused(seat):
    for game in GAMES.values():
        state = game.new_match(seed=1)
        with pytest.raises(EngineError):
            state.view(seat)
        assert state.view(None).seat is None and state.view(3).seat == 3


# -- settings -------------------------------------------------------------------------------
SETTING_GARBAGE: list[Any] = [
    True,
    False,
    1.0,
    float("nan"),
    None,
    b"5",
    [5],
    {"a": 1},
    "٣",
    "²",
    "５",
    "5" * 5000,
    "+5",
    "-3",
    "1_0",
    "08",
    "0x10",
    "1e3",
    "",
    "true\u00a0",
    10**30,
    -1,
]


@pytest.mark.parametrize("name", list(GAMES))
def test_bad_setting_values_are_invalid_variant(name):
    game = get_game(name)
    for spec in game.Variant.settings():
        for value in SETTING_GARBAGE:
            if isinstance(spec.default, bool) and isinstance(value, bool):
                continue  # the one case where a bool is the right type
            for build in (
                lambda k=spec.name, v=value: game.variant(**{k: v}),
                lambda k=spec.name, v=value: game.Variant.from_options({k: v}),
                lambda k=spec.name, v=value: game.Variant.parse_value(k, v),
            ):
                with pytest.raises(InvalidVariant) as info:
                    build()
                assert spec.name in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize("name", list(GAMES))
def test_unknown_settings_and_non_mappings_are_invalid_variant(name):
    game = get_game(name)
    for key in ["", "foo", "ROUNDS", "game_name", "__class__"]:
        with pytest.raises(InvalidVariant) as info:
            game.variant(**{key: 1})
        assert info.value.reason == "unknown_setting"
    for options in ([], "abc", 5, [("x", 1)], {1: 2}, {None: 1}):
        with pytest.raises(InvalidVariant):
            game.Variant.from_options(options)


def test_plain_text_settings_still_read():
    cb = get_game("callbreak")
    assert cb.Variant.from_options({"rounds": " 3 ", "max_bid": "13"}) == cb.variant(
        rounds=3, max_bid=13
    )
    blot = get_game("blot")
    assert blot.Variant.parse_value("nt_doubling_multipliers", "4, 6") == (4, 6)
    assert blot.Variant.parse_value("nt_doubling_multipliers", [4, 6]) == (4, 6)
    assert blot.Variant.parse_value("partner_exemption", "No") is False
    ladder = get_game("ladder")
    assert ladder.Variant.parse_value("first_player", "RANDOM") == "random"
    assert ladder.Variant.parse_value("first_player", "2") == 2


SETTING_VALUES = st.one_of(
    st.integers(-5, 600),
    st.booleans(),
    st.floats(),
    st.none(),
    st.text(max_size=6),
    st.sampled_from(["random", "broken", "no_trump", "ruff_only", "3,5", "yes", "0"]),
    st.lists(st.integers(0, 25), max_size=3),
)


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_any_settings_give_a_valid_variant_or_invalid_variant(name, data):
    game = get_game(name)
    specs = {s.name: s for s in game.Variant.settings()}
    keys = st.sampled_from(sorted(specs)) | st.text(max_size=5)
    options = data.draw(st.dictionaries(keys, SETTING_VALUES, max_size=3))
    try:
        variant = game.Variant.from_options(options)
    except InvalidVariant as exc:
        assert str(exc)
        return
    for key, value in options.items():
        got = getattr(variant, key)
        default = specs[key].default
        if isinstance(value, str):
            assert value.strip().isascii()
        elif isinstance(default, tuple):
            assert type(got) is tuple and all(type(v) is int for v in got)
        else:
            assert type(value) is type(got) and value == got


# -- seeds and matches ---------------------------------------------------------------------
@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", [9223372036854775808, -1, -(2**63), 2**64 + 5, 10**100, 0])
def test_any_int_seed_is_deterministic(name, seed):
    game = get_game(name)
    a, b = game.new_match(seed=seed), game.new_match(seed=seed)
    assert a.seed == seed and views(a) == views(b)
    a.apply(a.legal_actions()[0])
    again = game.replay(a.record()["actions"], seed=seed)
    assert views(again) == views(a)


@pytest.mark.parametrize("seed", [True, False, 1.5, 7.0, float("nan"), float("inf"), "7", b"1", []])
def test_a_seed_that_is_not_an_int_is_invalid_variant(seed):
    for game in GAMES.values():
        with pytest.raises(InvalidVariant) as info:
            game.new_match(seed=seed)
        assert info.value.reason == "bad_seed"


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_with_garbage_raises_engine_errors(name):
    game = get_game(name)
    other = get_game("ladder" if name != "ladder" else "callbreak")
    good = game.new_match(seed=3)
    first = str(good.legal_actions()[0])
    cases: list[dict[str, Any]] = [
        {"actions": None},
        {"actions": 5},
        {"actions": "pass"},
        {"actions": b"pass"},
        {"actions": [None]},
        {"actions": [5]},
        {"actions": [[first]]},
        {"actions": ["5" * 5000]},
        {"seed": None},
        {"seed": "3"},
        {"seed": 3.0},
        {"seed": True},
        {"variant": "rounds=3"},
        {"variant": 5},
        {"variant": []},
        {"variant": {"foo": 1}},
        {"variant": other.Variant()},
        {"deal": 5},
        {"deal": "x"},
        {"deal": {}},
        {"deal": {"hands": 5}},
        {"deal": [[1, 2]]},
        {"deal": [None] * good.num_seats},
        {"deal": {"hands": [], "dealer": "x"}},
        {"deal": {"hands": [], "nonsense": 1}},
    ]
    for case in cases:
        kwargs: dict[str, Any] = {"actions": [first], "seed": 3, "variant": None, "deal": None}
        kwargs.update(case)
        actions = kwargs.pop("actions")
        with pytest.raises(EngineError):
            game.replay(actions, **kwargs)


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        ("callbreak", {"dealer": 4}),
        ("callbreak", {"dealer": True}),
        ("callbreak", {"dealer": "1"}),
        ("callbreak", {"first_bidder": 0}),
        ("batak", {"first_bidder": -1}),
        ("batak", {"dealer": 0}),
        ("blot", {"dealer": 1.0}),
        ("backalley", {"dealer": None}),
        ("backalley", {"stock": "9D"}),
        ("backalley", {"stock": ["ZZ"]}),
    ],
)
def test_explicit_deal_entries_are_checked(name, extra):
    game = get_game(name)
    deal = game.new_match(seed=2)
    hands = [[str(c) for c in h] for h in deal.hands]  # type: ignore[attr-defined]
    with pytest.raises(InvalidPosition):
        game.new_match(seed=2, deal={"hands": hands, **extra})


def test_a_joker_is_not_dealt_in_a_52_card_game():
    cb = get_game("callbreak")
    hands = [[str(c) for c in h] for h in cb.new_match(seed=1).hands]  # type: ignore[attr-defined]
    hands[0][0] = "RJ"
    with pytest.raises(InvalidPosition) as info:
        cb.new_match(seed=1, deal=hands)
    assert "RJ is not in this game's deck" in str(info.value)


def test_refusals_are_engine_errors_of_the_documented_kinds():
    state = get_game("batak").new_match(seed=1)
    with pytest.raises(InvalidAction):
        state.apply("bid ٩")
    with pytest.raises(UnsupportedAction):
        state.apply("bid 9 H")
    with pytest.raises(IllegalAction):
        state.apply("bid 14")
    assert state.log == []

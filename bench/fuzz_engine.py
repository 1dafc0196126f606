"""Statistical fuzz of the engine facade (issue "Nothing lost at the edges").

    python bench/fuzz_engine.py [--seeds 3] [--every 5] [--texts 60] [--examples 3]
    python bench/fuzz_engine.py --ends 50     # only: random matches all end (issue 23)

Every registered game (Backalley for 2, 3, 4, 5 and 8 players) is played out
at random; at every ``--every``-th decision a battery of inputs is thrown at
``game.parse_action`` and ``state.apply``: the legal actions, mutations of
their text (case, whitespace, unicode digits and look-alike letters, extra or
missing tokens, truncation, huge numbers...), random text, well-formed
actions of every verb, and non-string objects (None, numbers, bytes, lists,
look-alike Actions, objects that equal everything); ``apply(seat=)`` and
``view(seat)`` get seats that are not seats.  Then settings
(``game.variant``, ``Variant.from_options``, ``Variant.parse_value``), seeds
(``new_match``) and ``game.replay`` get garbage of their own.

Counted per area and in total:

- tried: inputs thrown;
- raw: a Python error that is not an ``EngineError`` (TypeError, ValueError...);
- wrong: an accept the contract forbids: an applied action that was not in
  ``legal_actions()``; a non-``str`` (or a look-alike ``Action``) accepted; text
  accepted that is not the canonical notation up to case, ASCII whitespace,
  the ``10`` spelling of a ten and the order of a multi-card play; text of
  more than 64 characters; ``str(action)`` that does not round-trip; a setting
  value that is not the setting's own type or plain ASCII text of it; a seed
  that is not an ``int``; replay input of the wrong shape;
- dirty: a refusal that changed the state (``pickle.dumps`` before/after);
- replay: a finished or cut playout whose ``game.replay`` (from the log and
  from ``state.record()``) does not give the same views and scores;
- strict: the other way round, an acceptable spelling of a legal action (or
  the legal Action itself) refused.

``--ends N`` plays instead N random matches of every game and variant (the
defaults and the conformance variants) to their end, each within its stated
bound of actions (``tests/engine/match_bounds.py``; the suite plays two).

Deterministic: the same arguments give the same counts.  A few examples of
each kind are printed so that a count can be traced to its cause.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import GAMES, Action, Card, EngineError, MatchState, get_game
from engine.core.cards import standard_deck

MAX_LEN = 64
ASCII_WS = " \t\r\n\f\v"
UNICODE_DIGITS = {
    "0": "٠०０𝟎",
    "1": "¹١१１",
    "2": "²٢२２",
    "3": "³٣३３",
    "5": "٥५５𝟓",
    "7": "٧७７",
    "8": "٨८８",
    "9": "٩९９",
}
LOOKALIKES = {"s": "ſ", "k": "\u212a", "i": "ı", "a": "ａ", "p": "ｐ", "A": "Ａ", "S": "Ｓ"}
EXTRA_TOKENS = ["H", "NT", "capot", "AS", "1", "x", "pass", "play", "0", "10", "S"]
ODD_WHITESPACE = [" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", "\r\n", "\x00", "\u200b"]
ALPHABET = (
    "playbidpasstrumhiddenpickupcontraSHDCNTAKQJT0123456789     "
    "²³٣३３¹\t\n\u00a0\u3000\x1c\u200b,.;:-+_ſ\u212aıİßﬁé🂡\x00"
)
VOCABULARY = (
    ["pass", "contra", "recontra", "pickup", "bid backalley"]
    + [f"bid {n}" for n in range(0, 20)]
    + [f"bid {n} {s}" for n in (8, 9, 16, 25, 80, 81) for s in ("S", "H", "D", "C", "NT")]
    + ["bid 25 S capot", "bid 30 NT capot", "bid 9 capot", "bid 9 S capot"]
    + [f"trump {s}" for s in ("S", "H", "D", "C", "NT", "J")]
    + [f"hidden {i}" for i in range(0, 5)]
    + [f"play {c}" for c in standard_deck(jokers=True)]
)


def configs() -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for name in GAMES:
        if name == "backalley":
            out += [(name, {"players": n, "max_cards": 3}) for n in (2, 3, 4, 5, 8)]
        elif name == "callbreak":
            out.append((name, {"rounds": 2}))
        elif name == "batak":
            out.append((name, {"target_score": 10}))
        elif name == "blot":
            out.append((name, {"target_score": 51}))
        else:
            out.append((name, {}))
    return out


# -- oracles ---------------------------------------------------------------------------
def spelling_problem(text: str, action: Action) -> str | None:
    """Why accepting ``text`` as ``action`` is wrong, or None when it is the
    canonical notation up to case, ASCII spaces/tabs, a ten written ``10`` and
    the order of a multi-card play, in at most MAX_LEN characters."""
    if len(text) > MAX_LEN:
        return f"over {MAX_LEN} characters"
    body = text.strip(ASCII_WS)
    if not body.isascii():
        return "non-ASCII (unicode digit or look-alike letter)"
    if any(ch in body for ch in "\r\n\f\v") or not body.replace("\t", " ").isprintable():
        return "control character or line break inside"
    tokens = [t for t in body.upper().replace("\t", " ").split(" ") if t]
    canon = str(action).upper().split(" ")
    if len(tokens) != len(canon):
        return "extra, missing or merged tokens (bare card/number, commas)"
    if tokens[0] != canon[0]:
        return "another verb"
    if action.verb == "play":
        cards = ["T" + t[2:] if len(t) == 3 and t.startswith("10") else t for t in tokens[1:]]
        return None if sorted(cards) == sorted(canon[1:]) else "card spelling"
    if tokens == canon:
        return None
    if [t.lstrip("0") or "0" for t in tokens] == canon:
        return "leading zero"
    return "other spelling"


def acceptable_spelling(text: str, action: Action) -> bool:
    return spelling_problem(text, action) is None


def exact_action(x: Any, legal: list[Action]) -> bool:
    """``x`` is a real Action, equal to a legal one and printed the same."""
    if type(x) is not Action:
        return False
    try:
        match = [a for a in legal if a == x]
    except Exception:
        return False
    return bool(match) and str(match[0]) == str(x) and pickle.dumps(match[0]) == pickle.dumps(x)


def round_trips(game: Any, action: Action) -> bool:
    try:
        again = game.parse_action(str(action))
    except Exception:
        return False
    return again == action and str(again) == str(action)


# -- input generators ------------------------------------------------------------------
def mutate(rng: random.Random, text: str) -> str:
    kind = rng.randrange(22)
    if kind == 0:
        return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text)
    if kind == 1:
        return rng.choice(ODD_WHITESPACE) + text + rng.choice(ODD_WHITESPACE)
    if kind == 2:
        return text.replace(" ", rng.choice(ODD_WHITESPACE), 1)
    if kind == 3:
        return "".join(rng.choice(UNICODE_DIGITS[c]) if c in UNICODE_DIGITS else c for c in text)
    if kind == 4:
        return "".join(LOOKALIKES[c] if c in LOOKALIKES and rng.random() < 0.7 else c for c in text)
    if kind == 5:
        return text + " " + rng.choice(EXTRA_TOKENS)
    if kind == 6:
        return " ".join(text.split(" ")[:-1])
    if kind == 7:
        return text[: rng.randrange(len(text) + 1)]
    if kind == 8:
        words = text.split(" ")
        return " ".join([words[0], *reversed(words[1:])])
    if kind == 9:
        return text.replace("T", "10") if "play" in text else text.replace(" ", " 0", 1)
    if kind == 10:
        words = text.split(" ")
        return " ".join(w[1:] + w[0] if len(w) == 2 else w for w in words)  # suit first
    if kind == 11:
        return text.replace(" ", ",")
    if kind == 12:
        return " ".join(text.split(" ")[1:])  # the verb left out
    if kind == 13:
        return text.split(" ")[0] + " " + "5" * rng.choice((5, 30, 5000))
    if kind == 14:
        return text.replace(" ", " -", 1) if rng.random() < 0.5 else text.replace(" ", " +", 1)
    if kind == 15:
        return " " * rng.choice((61, 100, 10_000)) + text
    if kind == 16:
        return text + rng.choice(("\x00", "\u200b", "\u0301", "!", ".", ";"))
    if kind == 17:
        words = text.split(" ")
        return " ".join([*words, *words[1:]])  # a token repeated
    if kind == 18:
        return text.replace(" ", "")
    if kind == 19:
        return text + "\n" + text
    if kind == 20:
        return text.replace("1", "1_").replace("_ ", " ")
    return text.upper().replace("S", "ſ").replace("K", "\u212a")


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 24)))


class EqualsAnything:
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class Stringy:
    """Not a string, but prints like one."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def lookalike_actions(action: Action) -> list[Any]:
    """Objects equal (or nearly) to a legal action that are not one."""
    out: list[Any] = [
        Action(action.verb.upper(), action.cards, action.number, action.word, action.capot),
        Action(action.verb, list(action.cards), action.number, action.word, action.capot),  # type: ignore[arg-type]
        Action(action.verb, tuple(tuple(c) for c in action.cards), action.number, action.word),  # type: ignore[misc]
        Action(action.verb, tuple(str(c) for c in action.cards), action.number, action.word),  # type: ignore[arg-type]
        Action(
            action.verb, tuple(reversed(action.cards)), action.number, action.word, action.capot
        ),
        Action(action.verb, action.cards * 2, action.number, action.word, action.capot),
    ]
    if action.number is not None:
        out += [
            Action(action.verb, action.cards, bool(action.number), action.word, action.capot),
            Action(action.verb, action.cards, float(action.number), action.word, action.capot),  # type: ignore[arg-type]
            Action(action.verb, action.cards, str(action.number), action.word, action.capot),  # type: ignore[arg-type]
        ]
    if action.word is not None:
        out.append(Action(action.verb, action.cards, action.number, action.word.lower()))
    out.append(Action(action.verb, action.cards, action.number, action.word, 1))  # type: ignore[arg-type]
    return out


def non_strings(rng: random.Random, legal: list[Action]) -> list[Any]:
    pick = rng.choice(legal)
    return [
        None,
        0,
        1,
        -1,
        2**70,
        1.5,
        float("nan"),
        True,
        False,
        b"pass",
        bytearray(str(pick).encode()),
        str(pick).split(),
        (str(pick),),
        {"verb": pick.verb},
        set(),
        object(),
        Card(14, "S"),
        (14, "S"),
        EqualsAnything(),
        Stringy(str(pick)),
        [pick],
        *lookalike_actions(pick),
    ]


def text_inputs(rng: random.Random, legal: list[Action], n_random: int) -> list[str]:
    texts = [str(a) for a in rng.sample(legal, min(8, len(legal)))]
    texts += [mutate(rng, str(rng.choice(legal))) for _ in range(n_random)]
    texts += [random_text(rng) for _ in range(n_random // 2)]
    texts += rng.sample(VOCABULARY, 12)
    texts += ["", " ", "5" * 5000, "bid " + "9" * 5000, "hidden " + "7" * 4301, "play"]
    return texts


# -- the tally ---------------------------------------------------------------------------
class Tally:
    """Counts per area and kind; per (area, kind, category) a count and the
    first example, so that every count can be traced to a cause."""

    def __init__(self, examples: int) -> None:
        self.counts: dict[str, Counter[str]] = defaultdict(Counter)
        self.categories: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.examples: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        self.limit = examples

    def add(self, area: str, kind: str, note: str = "", category: str = "") -> None:
        self.counts[area][kind] += 1
        if kind == "tried":
            return
        self.categories[area, kind][category] += 1
        if len(self.examples[area, kind, category]) < self.limit:
            self.examples[area, kind, category].append(note[:160])

    def run(self, area: str, fn: Callable[[], Any]) -> tuple[str, Any]:
        """Call ``fn``: ("ok", result), ("engine", error) or ("raw", error)."""
        self.add(area, "tried")
        try:
            return "ok", fn()
        except EngineError as exc:
            return "engine", exc
        except Exception as exc:
            return "raw", exc


def raw_category(x: Any, exc: Exception) -> str:
    return f"{type(x).__name__} input -> {type(exc).__name__}"


def short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 70 else text[:60] + f"...({len(text)} chars)"


# -- the facade: parse_action and apply ---------------------------------------------------
def stable_pickle(state: MatchState) -> bytes:
    """``pickle.dumps`` after one round trip: the first dump of a live state
    may share objects differently from its copy, later dumps are stable."""
    return pickle.dumps(pickle.loads(pickle.dumps(state)))


def parse_problem(game: Any, x: Any, action: Any) -> str | None:
    if not isinstance(x, str):
        return f"non-str {type(x).__name__} accepted"
    if not isinstance(action, Action):
        return "result is not an Action"
    return spelling_problem(x, action) or (None if round_trips(game, action) else "no round trip")


def action_problem(x: Any, legal: list[Action]) -> str | None:
    """Why an accepted non-text ``x`` should have been refused."""
    if type(x) is not Action:
        return f"non-Action {type(x).__name__} accepted"
    if not any(a == x for a in legal):
        return "Action not in legal_actions()"
    if not exact_action(x, legal):
        return "look-alike Action (equal to a legal one, not the same)"
    return None


def probe_state(tally: Tally, state: MatchState, rng: random.Random, n_random: int) -> None:
    game = state.game
    legal = state.legal_actions()
    blob = stable_pickle(state)
    inputs: list[Any] = [*text_inputs(rng, legal, n_random), *non_strings(rng, legal)]
    for x in inputs:
        outcome, result = tally.run("parse_action", lambda x=x: game.parse_action(x))
        fits = fitting_legal(x, legal)
        if outcome == "raw":
            note = f"{game.name}: {short(x)} -> {result!r}"
            tally.add("parse_action", "raw", note, raw_category(x, result))
        elif outcome == "ok":
            why = parse_problem(game, x, result)
            if why:
                tally.add("parse_action", "wrong", f"{game.name}: {short(x)} -> {result!s}", why)
        elif fits is not None and isinstance(x, str):
            note = f"{game.name}: {short(x)} (for {fits}) refused: {result}"
            tally.add("parse_action", "strict", note, "acceptable spelling refused")
        probe_apply(tally, state, blob, legal, x, fits)
    # the seat argument
    pick = rng.choice(legal)
    decider = state.decider
    seats: list[Any] = [
        None,
        decider,
        -1,
        99,
        10**30,
        str(decider),
        True,
        False,
        float(decider or 0),
    ]
    for seat in seats:
        live: MatchState = pickle.loads(blob)
        outcome, result = tally.run("apply(seat=)", lambda s=seat, st=live: st.apply(pick, seat=s))
        fine_seat = seat is None or (type(seat) is int and seat == decider)
        note = f"{game.name}: seat={short(seat)} (decider {decider})"
        if outcome == "raw":
            tally.add("apply(seat=)", "raw", f"{note} -> {result!r}", raw_category(seat, result))
        elif outcome == "ok" and not fine_seat:
            tally.add("apply(seat=)", "wrong", f"{note} accepted", f"seat {type(seat).__name__}")
        elif outcome == "engine" and fine_seat:
            tally.add("apply(seat=)", "strict", f"{note} refused: {result}", "right seat refused")
    # the view's seat
    n = state.num_seats
    for seat in [None, 0, n - 1, -1, n, 99, True, False, "0", 1.0, [0]]:
        outcome, result = tally.run("view(seat)", lambda s=seat: state.view(s))
        fine_seat = seat is None or (type(seat) is int and 0 <= seat < n)
        note = f"{game.name}: view({short(seat)}) with {n} seats"
        if outcome == "raw":
            tally.add("view(seat)", "raw", f"{note} -> {result!r}", raw_category(seat, result))
        elif outcome == "ok" and not fine_seat:
            tally.add("view(seat)", "wrong", f"{note} accepted", f"seat {short(seat)}")
        elif outcome == "engine" and fine_seat:
            tally.add("view(seat)", "strict", f"{note} refused: {result}", "right seat refused")


def fitting_legal(x: Any, legal: list[Action]) -> Action | None:
    """The legal action ``x`` spells acceptably (it must then be accepted)."""
    if isinstance(x, str):
        return next((a for a in legal if spelling_problem(x, a) is None), None)
    return next((a for a in legal if exact_action(x, [a])), None)


def probe_apply(
    tally: Tally,
    state: MatchState,
    blob: bytes,
    legal: list[Action],
    x: Any,
    fits: Action | None,
) -> None:
    game = state.game
    live: MatchState = pickle.loads(blob)
    outcome, result = tally.run("apply", lambda: live.apply(x))
    if outcome == "raw":
        note = f"{game.name}: {short(x)} -> {result!r}"
        tally.add("apply", "raw", note, raw_category(x, result))
        return
    if outcome == "engine":
        if pickle.dumps(live) != blob:
            note = f"{game.name}: {short(x)} refused ({result}) but changed"
            tally.add("apply", "dirty", note, type(result).__name__)
        if fits is not None:
            note = f"{game.name}: {short(x)} (for {fits}) refused: {result}"
            tally.add("apply", "strict", note, "a legal action refused")
        return
    logged = live.log[-1] if live.log else None
    if isinstance(x, str):
        why = (
            "not in legal_actions()"
            if logged not in legal
            else spelling_problem(x, cast(Action, logged))
        )
    else:
        why = action_problem(x, legal)
    if why is None and not (exact_action(logged, legal) and round_trips(game, logged)):
        why = "the log holds a non-canonical action"
    if why:
        tally.add("apply", "wrong", f"{game.name}: {short(x)} accepted, logged {logged!s}", why)


# -- replay --------------------------------------------------------------------------------
def views(state: MatchState) -> list[Any]:
    seats = [None, *range(state.num_seats)]
    return [state.view(s) for s in seats] + [list(state.scores), state.is_over]


def check_replay(tally: Tally, state: MatchState) -> None:
    game = state.game
    rec = state.record()
    attempts = {
        "log": lambda: game.replay(
            list(state.log), seed=state.seed, variant=state.variant, deal=state.initial_deal
        ),
        "record": lambda: game.replay(
            rec["actions"], seed=rec["seed"], variant=rec["variant"], deal=rec["deal"]
        ),
    }
    for how, fn in attempts.items():
        outcome, result = tally.run("replay(own log)", fn)
        if outcome != "ok":
            tally.add("replay(own log)", "raw", f"{game.name} from {how}: {result!r}", how)
        elif views(result) != views(state):
            tally.add("replay(own log)", "replay", f"{game.name} from {how}: views differ", how)


def garbage_replay(tally: Tally, name: str, rng: random.Random) -> None:
    game = get_game(name)
    other = get_game("ladder" if name != "ladder" else "callbreak")
    good = game.new_match(seed=3)
    moves = [str(good.legal_actions()[0])]
    cases: list[tuple[str, dict[str, Any], bool]] = [
        ("actions=None", {"actions": None}, False),
        ("actions=5", {"actions": 5}, False),
        ("actions='pass'", {"actions": "pass"}, False),
        ("actions=b'x'", {"actions": b"x"}, False),
        ("actions=[None]", {"actions": [None]}, False),
        ("actions=[5]", {"actions": [5]}, False),
        ("actions=[b'pass']", {"actions": [b"pass"]}, False),
        ("actions={'a': 1}", {"actions": {"a": 1}}, False),
        ("actions=[[...]]", {"actions": [moves]}, False),
        ("seed=None", {"seed": None, "actions": []}, False),
        ("seed='7'", {"seed": "7"}, False),
        ("seed='abc'", {"seed": "abc"}, False),
        ("seed=1.5", {"seed": 1.5}, False),
        ("seed=True", {"seed": True}, False),
        ("seed=[]", {"seed": []}, False),
        ("seed=nan", {"seed": float("nan")}, False),
        ("variant='x'", {"variant": "rounds=3"}, False),
        ("variant=5", {"variant": 5}, False),
        ("variant=[]", {"variant": []}, False),
        ("variant={'foo': 1}", {"variant": {"foo": 1}}, False),
        ("variant={1: 2}", {"variant": {1: 2}}, False),
        ("variant=other game's", {"variant": other.Variant()}, False),
        ("variant=dict", {"variant": game.Variant().to_dict()}, True),
        ("variant=own", {"variant": game.Variant()}, True),
        ("deal=5", {"deal": 5}, False),
        ("deal='x'", {"deal": "x"}, False),
        ("deal={}", {"deal": {}}, False),
        ("deal={'hands': 5}", {"deal": {"hands": 5}}, False),
        ("deal=[[1, 2]]", {"deal": [[1, 2]]}, False),
        ("deal=[None]*n", {"deal": [None] * good.num_seats}, False),
        ("deal dealer='x'", {"deal": {**(good.initial_deal or {}), "dealer": "x"}}, False),
        ("deal=own", {"deal": good.initial_deal}, True),
    ]
    if isinstance(good.initial_deal, dict):
        hands = good.initial_deal.get("hands")
        cases.append(("deal hands=[5]*n", {"deal": {**good.initial_deal, "hands": [5] * 4}}, False))
        if hands:
            bad = [list(h) for h in hands]
            bad[0][0] = "ZZ"
            cases.append(("deal card 'ZZ'", {"deal": {**good.initial_deal, "hands": bad}}, False))
    real = game.new_match(seed=3)
    real_deal = {"hands": [[str(c) for c in h] for h in getattr(real, "hands", [])]}
    if name in ("callbreak", "batak", "backalley") and real_deal["hands"]:
        cases.append(("deal=real hands", {"deal": real_deal}, True))
        cases.append(("deal dealer=None", {"deal": {**real_deal, "dealer": None}}, False))
        cases.append(("deal dealer=1.5", {"deal": {**real_deal, "dealer": 1.5}}, False))
        cases.append(("deal first_bidder='x'", {"deal": {**real_deal, "first_bidder": "x"}}, False))
    for label, override, may_accept in cases:
        kwargs: dict[str, Any] = {"actions": moves, "seed": 3, "variant": None, "deal": None}
        if name == "ladder" and "deal" not in override:
            kwargs["deal"] = None
        kwargs.update(override)
        actions = kwargs.pop("actions")
        outcome, result = tally.run(
            "replay(garbage)", lambda a=actions, k=kwargs: game.replay(a, **k)
        )
        if outcome == "raw":
            tally.add("replay(garbage)", "raw", f"{name}: {result!r}", label)
        elif outcome == "ok" and not may_accept:
            tally.add("replay(garbage)", "wrong", f"{name}: accepted", label)


# -- seeds ---------------------------------------------------------------------------------
def probe_seeds(tally: Tally, name: str) -> None:
    game = get_game(name)
    good = [0, 1, -1, 7, 2**31, 2**63, 9223372036854775808, -(2**63), 2**64 + 5, 10**100]
    bad: list[Any] = [True, False, 1.5, 7.0, float("inf"), float("nan"), "7", "abc", b"1", [], {}]
    for seed in good:
        outcome, result = tally.run("new_match(seed=)", lambda s=seed: game.new_match(seed=s))
        if outcome != "ok":
            note = f"{name} seed={short(seed)}: {result!r}"
            tally.add("new_match(seed=)", "raw", note, "int seed refused")
            continue
        again = game.new_match(seed=seed)
        if views(again) != views(result) or result.seed != seed:
            note = f"{name} seed={short(seed)}: not deterministic"
            tally.add("new_match(seed=)", "wrong", note, "int seed not deterministic")
    for seed in bad:
        outcome, result = tally.run("new_match(seed=)", lambda s=seed: game.new_match(seed=s))
        if outcome == "raw":
            note = f"{name} seed={short(seed)}: {result!r}"
            tally.add("new_match(seed=)", "raw", note, raw_category(seed, result))
        elif outcome == "ok":
            note = f"{name} seed={short(seed)}: accepted"
            tally.add("new_match(seed=)", "wrong", note, f"{type(seed).__name__} seed")
    for variant in ("x", 5, get_game("ladder" if name != "ladder" else "batak").Variant()):
        outcome, result = tally.run(
            "new_match(seed=)", lambda v=variant: game.new_match(seed=1, variant=v)
        )
        if outcome == "raw":
            note = f"{name} variant={short(variant)}: {result!r}"
            tally.add("new_match(seed=)", "raw", note, "bad variant")
        elif outcome == "ok":
            note = f"{name} variant={short(variant)}: accepted"
            tally.add("new_match(seed=)", "wrong", note, "bad variant")


# -- settings --------------------------------------------------------------------------------
SETTING_TEXTS = [
    "5", " 5 ", "٣", "²", "５", "5" * 5000, "-0", "+5", "0x10", "1_0", "1e3", "5.0", "",
    "true", "TRUE", "yes", "1", "0", "random", "RANDOM", "3,5", "3, 5", "٣,٥", "3,5,7", "3 5",
    "none", "only_trumps", "BROKEN", "no_trump", "forbid_final_only", "1" * 30, "-3", "08",
    "\x00", "5\n", "true\u00a0", "ｔｒｕｅ",
]  # fmt: skip
SETTING_VALUES: list[Any] = [
    5, 0, -1, 10**30, True, False, 5.0, float("nan"), None, [3, 5], (3, 5), [3, 5, 7], (True, 5),
    ("3", "5"), {"a": 1}, b"5", object(), "random", 2, 51, 1001, 13, 8,
]  # fmt: skip


def setting_problem(spec: Any, value: Any, result: Any) -> str | None:
    """Text: only the plain ASCII spelling; other values: the setting's own type."""
    default = spec.default
    if isinstance(value, str):
        body = value.strip(ASCII_WS)
        if len(value) > MAX_LEN:
            return f"text over {MAX_LEN} characters"
        if not body.isascii() or not body.isprintable():
            return "non-ASCII or control text (unicode digits)"
        if isinstance(default, bool):
            words = {"true", "yes", "on", "1", "y", "false", "no", "off", "0", "n"}
            return None if body.lower() in words else "odd yes/no text"
        if spec.choices and any(str(c).lower() == body.lower() for c in spec.choices):
            return None
        if isinstance(default, tuple):
            parts = body.replace(",", " ").split()
            return None if all(p.isdigit() for p in parts) else "odd number list"
        if not body.isdigit():
            return "odd number text (sign, _, leading zero...)"
        return None if body == "0" or not body.startswith("0") else "leading zero"
    if isinstance(default, bool):
        return None if type(value) is bool else f"{type(value).__name__} for a yes/no setting"
    if isinstance(default, tuple):
        ok = isinstance(value, tuple | list) and all(type(v) is int for v in value)
        return None if ok else f"{type(value).__name__} for a pair of numbers"
    if spec.choices and value in spec.choices and type(value) is type(result):
        return None
    return None if type(value) is int else f"{type(value).__name__} for a number"


def probe_settings(tally: Tally, name: str, rng: random.Random) -> None:
    game = get_game(name)
    cls = game.Variant
    specs = cls.settings()
    keys: list[Any] = [s.name for s in specs]
    odd_keys: list[Any] = ["", "foo", keys[0].upper(), keys[0] + " ", "__class__", "game_name"]
    for key in keys + odd_keys:
        spec = next((s for s in specs if s.name == key), None)
        for value in SETTING_TEXTS + SETTING_VALUES:
            calls: dict[str, Callable[[], Any]] = {
                "variant": lambda k=key, v=value: game.variant(**{k: v}),
                "from_options": lambda k=key, v=value: cls.from_options({k: v}),
                "parse_value": lambda k=key, v=value: cls.parse_value(k, v),
            }
            for how, fn in calls.items():
                area = f"{how}()"
                outcome, result = tally.run(area, fn)
                if outcome == "raw":
                    note = f"{name} {key}={short(value)}: {result!r}"
                    tally.add(area, "raw", note, raw_category(value, result))
                    continue
                if outcome != "ok":
                    continue
                got = result if how == "parse_value" else getattr(result, key, None)
                why = "unknown key" if spec is None else setting_problem(spec, value, got)
                if why:
                    note = f"{name} {key}={short(value)} -> {short(got)}"
                    tally.add(area, "wrong", note, why)
    for options in (None, {}, [], "abc", 5, [("x", 1)], {1: 2}, {None: 1}, [["a", "b"]]):
        outcome, result = tally.run("from_options()", lambda o=options: cls.from_options(o))
        if outcome == "raw":
            note = f"{name} {short(options)}: {result!r}"
            tally.add("from_options()", "raw", note, raw_category(options, result))
        elif outcome == "ok" and options not in (None, {}):
            note = f"{name} {short(options)}: accepted"
            tally.add("from_options()", "wrong", note, "not a mapping")


# -- every match ends ------------------------------------------------------------------------
def match_ends(matches: int) -> int:
    """Random matches of every game and variant, each to its end within its
    stated bound of actions; prints a line per game, returns the failures."""
    from tests.engine.match_bounds import action_bound

    failures = 0
    for name in GAMES:
        game = get_game(name)
        played, longest = 0, 0.0
        for variant in [game.Variant(), *game.conformance_variants()]:
            for seed in range(matches):
                state = game.new_match(seed=seed, variant=variant)
                rng, bound, taken = random.Random(seed), action_bound(state), 0
                while not state.is_over and taken <= bound:
                    state.apply(rng.choice(state.legal_actions()))
                    taken += 1
                played += 1
                longest = max(longest, taken / bound)
                if not state.is_over or taken > bound:
                    failures += 1
                    print(f"  {name} {variant} seed {seed}: not over after {taken} actions")
        print(f"{name:<10} {played:>5} random matches ended, longest {longest:.0%} of the bound")
    return failures


# -- driving ---------------------------------------------------------------------------------
def playouts(name: str, options: dict[str, Any], seeds: int) -> Iterator[tuple[int, MatchState]]:
    game = get_game(name)
    for seed in range(seeds):
        yield seed, game.new_match(seed=seed, variant=game.variant(**options))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3, help="playouts per game setup")
    parser.add_argument("--every", type=int, default=5, help="probe every n-th decision")
    parser.add_argument("--texts", type=int, default=40, help="mutations per probed state")
    parser.add_argument("--max-steps", type=int, default=400, help="cut a playout after this")
    parser.add_argument("--examples", type=int, default=3, help="examples printed per kind")
    parser.add_argument("--ends", type=int, default=0, help="only: N random matches must end")
    args = parser.parse_args()
    if args.ends:
        sys.exit(1 if match_ends(args.ends) else 0)
    tally = Tally(args.examples)
    start = time.perf_counter()
    for name, options in configs():
        for seed, state in playouts(name, options, args.seeds):
            rng = random.Random(f"{name}{options}{seed}")
            step = 0
            while not state.is_over and step < args.max_steps:
                if step % args.every == 0:
                    probe_state(tally, state, rng, args.texts)
                state.apply(rng.choice(state.legal_actions()))
                step += 1
            check_replay(tally, state)
    for name in GAMES:
        rng = random.Random(name)
        probe_settings(tally, name, rng)
        probe_seeds(tally, name)
        garbage_replay(tally, name, rng)
    elapsed = time.perf_counter() - start
    kinds = ("tried", "raw", "wrong", "dirty", "replay", "strict")
    print(f"{'area':<18}" + "".join(f"{k:>9}" for k in kinds))
    total: Counter[str] = Counter()
    for area, counts in tally.counts.items():
        total.update(counts)
        print(f"{area:<18}" + "".join(f"{counts[k]:>9}" for k in kinds))
    print(f"{'TOTAL':<18}" + "".join(f"{total[k]:>9}" for k in kinds))
    print(
        f"inputs tried {total['tried']}, raw errors {total['raw']}, wrong accepts "
        f"{total['wrong']}, dirty refusals {total['dirty']}, replay mismatches "
        f"{total['replay']}, over-strict refusals {total['strict']} ({elapsed:.1f} s)"
    )
    for (area, kind), cats in tally.categories.items():
        for category, count in cats.most_common():
            print(f"  {area} {kind} x{count}: {category or '-'}")
            for note in tally.examples[area, kind, category]:
                print(f"      e.g. {note}")


if __name__ == "__main__":
    main()

"""Behaviour fingerprints: seeded random games of every game, reduced to digests.

The engine's rules are its contract, so a speed-up must change nothing a
caller can observe.  This module plays seeded random games through the
public API only and writes, step by step, everything observable: the phase,
whose turn and decision it is, the legal actions in order, every seat's
view and the spectator's, the events ``apply`` returns, the refusal
(class, reason, message) of a sample of illegal actions, a clone's view and
a ``shuffled_unseen`` world; at the end the match record.  Each game's lines
are hashed into one digest per (game, variant, seed).

``tests/engine/data/fingerprints.json`` holds digests recorded with the
engine of commit 5147928, before its hot paths were rewritten (issue 14);
``test_fingerprints.py`` checks the engine still produces them.  To record
with an older engine, export it and put this module beside it:
``git archive <commit> engine | tar -x -C /tmp/old``, copy ``tests/__init__.py``
and ``tests/engine/{__init__,fingerprint}.py`` under ``/tmp/old/tests/``, then
``PYTHONPATH=/tmp/old python -m tests.engine.fingerprint --write`` from
``/tmp/old``.  When a rule change is *meant* to change behaviour, record
again with the new engine and say so in the commit:

    python -m tests.engine.fingerprint --write
    python -m tests.engine.fingerprint --dump 0 3 > /tmp/now.txt   # case 0, seed 3: its lines
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import EngineError, MatchState, get_game, parse_action
from engine.core.cards import standard_deck

DATA = Path(__file__).parent / "data" / "fingerprints.json"

#: (game, variant settings): quick variants that still reach every rule branch
CASES: list[tuple[str, dict[str, Any]]] = [
    ("callbreak", {"rounds": 2}),
    ("callbreak", {"rounds": 1, "max_bid": 13}),
    ("backalley", {"players": 4, "max_cards": 4}),
    ("backalley", {"players": 2, "max_cards": 3}),
    ("backalley", {"players": 7, "max_cards": 3}),
    (
        "backalley",
        {
            "players": 3,
            "max_cards": 5,
            "trump_lead": "broken",
            "joker_turned": "no_trump",
            "hook_rule": True,
        },
    ),
    ("batak", {"target_score": 10}),
    (
        "batak",
        {"target_score": 10, "min_bid": 7, "trump_unlock": "ruff_only", "defender_min_tricks": 0},
    ),
    ("blot", {"target_score": 51}),
    (
        "blot",
        {
            "target_score": 51,
            "partner_exemption": False,
            "must_undertrump": True,
            "declarations_count_for_contract": False,
            "nt_doubling_multipliers": (4, 8),
        },
    ),
    ("ladder", {}),
    (
        "ladder",
        {
            "first_player": "random",
            "action_last_card": "forbid_final_only",
            "burn_on_2_3": True,
            "target_wins": 2,
            "max_turns": 300,
        },
    ),
]
SEEDS = range(6)
#: a game is cut after this many actions (random Batak bidding can wander)
MAX_ACTIONS = {"batak": 450, "ladder": 700}
DEFAULT_MAX_ACTIONS = 1000

_VOCABULARY = [
    "pass",
    "contra",
    "recontra",
    "pickup",
    "bid backalley",
    *(f"bid {n}" for n in range(0, 16)),
    *(f"bid {n} {s}" for n in (8, 9, 16, 25) for s in ("S", "H", "D", "C", "NT")),
    "bid 25 S capot",
    *(f"trump {s}" for s in "SHDC"),
    *(f"hidden {i}" for i in range(0, 5)),
    *(f"play {c}" for c in standard_deck(jokers=True)),
    "play 7H 7D",
    "play 2S 2C",
]
VOCABULARY = [parse_action(text) for text in _VOCABULARY]


def _refusal(state: MatchState, action: Any, seat: int | None = None) -> str:
    try:
        state.apply(action, seat=seat)
    except EngineError as exc:
        return f"{type(exc).__name__}|{exc.reason}|{exc}"
    raise AssertionError(f"{action} was accepted")  # pragma: no cover


def lines(name: str, options: dict[str, Any], seed: int) -> Iterator[str]:
    """Everything observable in one seeded random game, one line per fact."""
    game = get_game(name)
    state = game.new_match(seed=seed, variant=game.variant(**options))
    rng = random.Random(seed * 7919 + 1)
    seats = [*range(state.num_seats), None]
    step, cap = 0, MAX_ACTIONS.get(name, DEFAULT_MAX_ACTIONS)
    while not state.is_over and step < cap:
        legal = state.legal_actions()
        yield (
            f"{step} {state.phase.value} r{state.round_number} to_act={state.to_act} "
            f"decider={state.decider} scores={state.scores} legal={[str(a) for a in legal]}"
        )
        # the deciding seat and the spectator every step, every seat every other step
        for seat in seats if step % 2 == 0 else (state.decider, None):
            yield f"view {seat} {state.view(seat)!r}"
        texts = {str(a) for a in legal}
        for action in rng.sample(VOCABULARY, 4):
            if str(action) not in texts:
                yield f"refuse {action}: {_refusal(state, action)}"
        if step % 5 == 0:
            wrong = (state.decider or 0) + 1
            yield f"wrong seat: {_refusal(state, legal[0], seat=wrong % state.num_seats)}"
            yield f"text refusal: {_refusal(state, 'play ZZ')}"
        if step % 13 == 0:
            twin = state.clone()
            yield f"clone {twin.view(None)!r} {[str(a) for a in twin.legal_actions()]}"
            seat = step % state.num_seats
            world = state.shuffled_unseen(seat, random.Random(step))
            yield f"world {seat} {[list(map(str, h)) for h in _hands(world)]}"
        action = rng.choice(legal)
        # every other step goes through the text notation, as front ends do
        events = state.apply(str(action) if step % 2 else action)
        yield f"apply {action} -> {events!r} log={state.log[-1]!s}"
        step += 1
    yield f"end over={state.is_over} {state.view(None)!r} {state.legal_actions()!r}"
    yield f"record {json.dumps(state.record(), sort_keys=True)}"
    for seat in seats:
        yield f"final view {seat} {state.view(seat)!r}"


def _hands(state: MatchState) -> list[list[Any]]:
    return list(getattr(state, "hands", []))


def digest(name: str, options: dict[str, Any], seed: int) -> str:
    h = hashlib.sha256()
    for line in lines(name, options, seed):
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()[:20]


def key(index: int, seed: int) -> str:
    name, _ = CASES[index]
    return f"{name}/v{index}/s{seed}"


def all_digests() -> dict[str, str]:
    return {
        key(index, seed): digest(name, options, seed)
        for index, (name, options) in enumerate(CASES)
        for seed in SEEDS
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"record into {DATA}")
    parser.add_argument(
        "--dump", nargs=2, type=int, metavar=("CASE", "SEED"), help="print one game's lines"
    )
    args = parser.parse_args(argv)
    if args.dump:
        index, seed = args.dump
        for line in lines(CASES[index][0], CASES[index][1], seed):
            print(line)
        return
    digests = all_digests()
    if args.write:
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(digests)} digests to {DATA}")
    else:
        json.dump(digests, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

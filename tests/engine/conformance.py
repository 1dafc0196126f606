"""Helpers for the conformance suite: snapshots and the action vocabulary."""

from __future__ import annotations

import copy
import random
from itertools import pairwise
from typing import Any

from engine import Action, Card, MatchState, parse_action
from engine.core.cards import standard_deck


def snapshot(state: MatchState) -> dict[str, Any]:
    """Everything a state holds, comparable with ==; the RNG by its state."""
    data = {}
    for key, value in state.__dict__.items():
        if isinstance(value, random.Random):
            data[key] = value.getstate()
        elif key in ("game", "variant"):
            data[key] = value
        else:
            data[key] = copy.deepcopy(value)
    return data


ALL_CARDS: list[Card] = standard_deck(jokers=True)


def vocabulary(rng: random.Random, state: MatchState, k: int = 40) -> list[Action]:
    """A sample of well-formed actions of every verb, most of them illegal."""
    texts = ["pass", "contra", "recontra", "pickup", "bid backalley"]
    texts += [f"bid {n}" for n in range(0, 30)]
    texts += [f"bid {n} {s}" for n in (7, 8, 9, 10, 16, 25) for s in ("S", "H", "D", "C", "NT")]
    texts += ["bid 25 S capot", "bid 30 NT capot"]
    texts += [f"trump {s}" for s in "SHDC"]
    texts += [f"hidden {i}" for i in range(0, 5)]
    texts += [f"play {c}" for c in ALL_CARDS]
    hand = state.view(state.decider).hand if state.decider is not None else ()
    if len(hand) >= 2:
        texts += [f"play {a} {b}" for a, b in pairwise(hand)]
    actions = [parse_action(t) for t in texts]
    return rng.sample(actions, min(k, len(actions)))

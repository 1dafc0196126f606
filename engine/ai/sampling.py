"""Deal the cards a seat cannot see, consistently with what it has observed
(OpenSpiel's ``ResampleFromInfostate``): the basis of the search agent.

Constraints are hand sizes and suits a player is known to lack.  A random
assignment that respects them is found by shuffling and filling the most
constrained cards first, retrying a few times; if the constraints cannot be
met (they always can for a true view, but a heuristic inference may be too
strong) the suit constraints are dropped rather than failing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from engine.core.cards import Card


def deal_unseen(
    unseen: Sequence[Card],
    counts: Mapping[int, int],
    rng: random.Random,
    *,
    forbidden: Mapping[int, set[str]] | None = None,
    suit_of: Callable[[Card], str] = lambda c: c.suit,
    tries: int = 20,
) -> dict[int, list[Card]]:
    """Give each seat in ``counts`` that many cards from ``unseen`` at random,
    never a card whose suit is in ``forbidden[seat]``."""
    forbidden = forbidden or {}
    cards = list(unseen)
    need = sum(counts.values())
    if need > len(cards):
        raise ValueError(f"{need} cards wanted but only {len(cards)} unseen")
    for _ in range(tries):
        rng.shuffle(cards)
        allowed = {
            c: [s for s in counts if suit_of(c) not in forbidden.get(s, set())] for c in cards
        }
        order = sorted(cards, key=lambda c: len(allowed[c]))
        room = dict(counts)
        hands: dict[int, list[Card]] = {s: [] for s in counts}
        spare: list[Card] = []
        ok = True
        for card in order:
            seats = [s for s in allowed[card] if room[s] > 0]
            if not seats:
                spare.append(card)
                continue
            seat = max(seats, key=lambda s: room[s] + rng.random())
            hands[seat].append(card)
            room[seat] -= 1
        if any(room.values()):
            ok = False
        if ok:
            return hands
    # constraints too strong: deal ignoring suits
    rng.shuffle(cards)
    hands, start = {}, 0
    for seat, n in counts.items():
        hands[seat] = cards[start : start + n]
        start += n
    return hands

"""Deal the cards a seat cannot see, consistently with what it has observed
(OpenSpiel's ``ResampleFromInfostate``): the basis of the search agent.

Constraints are hand sizes, suits a player is known to lack, single cards
a player cannot hold (a lower card played where a higher one was due) and
cards a player is known to hold (shown declarations).  A random
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
    required: Mapping[int, set[Card]] | None = None,
    forbidden_cards: Mapping[int, set[Card]] | None = None,
) -> dict[int, list[Card]]:
    """Give each seat in ``counts`` that many cards from ``unseen`` at random:
    first the ``required`` ones it is known to hold, then never a card whose
    suit is in ``forbidden[seat]`` nor a card in ``forbidden_cards[seat]``."""
    forbidden = forbidden or {}
    banned = forbidden_cards or {}
    pool = set(unseen)
    given = {
        s: sorted((c for c in (required or {}).get(s, ()) if c in pool), key=lambda c: c[::-1])
        for s in counts
    }
    placed = {c for held in given.values() for c in held}
    cards = [c for c in unseen if c not in placed]
    counts = {s: n - len(given[s]) for s, n in counts.items()}
    if any(n < 0 for n in counts.values()):
        raise ValueError("a seat is known to hold more cards than it has")
    need = sum(counts.values())
    if need > len(cards):
        raise ValueError(f"{need} cards wanted but only {len(cards)} unseen")
    for _ in range(tries):
        rng.shuffle(cards)
        allowed = {
            c: [
                s
                for s in counts
                if suit_of(c) not in forbidden.get(s, set()) and c not in banned.get(s, set())
            ]
            for c in cards
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
            return {s: given[s] + hands[s] for s in counts}
    # constraints too strong: deal ignoring suits
    rng.shuffle(cards)
    hands, start = {}, 0
    for seat, n in counts.items():
        hands[seat] = given[seat] + cards[start : start + n]
        start += n
    return hands

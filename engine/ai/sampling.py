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
    suit is in ``forbidden[seat]`` nor a card in ``forbidden_cards[seat]``
    (one deal of ``UnseenDealer``)."""
    return UnseenDealer(
        unseen,
        counts,
        forbidden=forbidden,
        suit_of=suit_of,
        tries=tries,
        required=required,
        forbidden_cards=forbidden_cards,
    )(rng)


class UnseenDealer:
    """``deal_unseen`` for many worlds of one decision: which seats may
    take each card is worked out once; without constraints a deal is a
    shuffle and a slice (every deal equally likely)."""

    def __init__(
        self,
        unseen: Sequence[Card],
        counts: Mapping[int, int],
        *,
        forbidden: Mapping[int, set[str]] | None = None,
        suit_of: Callable[[Card], str] = lambda c: c.suit,
        tries: int = 20,
        required: Mapping[int, set[Card]] | None = None,
        forbidden_cards: Mapping[int, set[Card]] | None = None,
    ) -> None:
        forbidden = forbidden or {}
        banned = forbidden_cards or {}
        pool = set(unseen)
        self.given = {
            s: sorted((c for c in (required or {}).get(s, ()) if c in pool), key=lambda c: c[::-1])
            for s in counts
        }
        placed = {c for held in self.given.values() for c in held}
        self.cards = [c for c in unseen if c not in placed]
        self.counts = {s: n - len(self.given[s]) for s, n in counts.items()}
        if any(n < 0 for n in self.counts.values()):
            raise ValueError("a seat is known to hold more cards than it has")
        need = sum(self.counts.values())
        if need > len(self.cards):
            raise ValueError(f"{need} cards wanted but only {len(self.cards)} unseen")
        self.tries = tries
        self.allowed = {
            c: [
                s
                for s in self.counts
                if suit_of(c) not in forbidden.get(s, ()) and c not in banned.get(s, ())
            ]
            for c in self.cards
        }
        seats = len(self.counts)
        self.free = all(len(a) == seats for a in self.allowed.values())

    def __call__(self, rng: random.Random) -> dict[int, list[Card]]:
        cards = self.cards[:]
        if not self.free:
            dealt = self._constrained(cards, rng)
            if dealt is not None:
                return dealt
        # no constraints, or too strong ones: deal ignoring suits
        rng.shuffle(cards)
        hands, start = {}, 0
        for seat, n in self.counts.items():
            hands[seat] = self.given[seat] + cards[start : start + n]
            start += n
        return hands

    def _constrained(self, cards: list[Card], rng: random.Random) -> dict[int, list[Card]] | None:
        """Most constrained cards first, each to an allowed seat with room
        (the roomiest, ties at random); None after ``tries`` failures."""
        allowed = self.allowed
        for _ in range(self.tries):
            rng.shuffle(cards)
            order = sorted(cards, key=lambda c: len(allowed[c]))
            room = dict(self.counts)
            hands: dict[int, list[Card]] = {s: [] for s in self.counts}
            for card in order:
                seats = [s for s in allowed[card] if room[s] > 0]
                if not seats:
                    continue
                seat = max(seats, key=lambda s: room[s] + rng.random())
                hands[seat].append(card)
                room[seat] -= 1
            if not any(room.values()):
                return {s: self.given[s] + hands[s] for s in self.counts}
        return None

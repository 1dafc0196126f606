"""Hands that explain a Bazar Blot bazar (rules/blot.md "Auction").

Bidding by simulation deals the unseen cards many times and prefers deals
whose hands explain the bids made so far.  Two things here make that work
for bids far above an ordinary hand:

- ``quick_values``: the heuristic's hand value (``heuristics.blot.
  hand_value``: trumps, aces and tens, declarations, belote) for every
  contract type at once from per-suit tables, a few microseconds a hand
  (the original takes a millisecond); a card may count in two
  combinations here, which only matters for the rare hand with a four of
  a kind inside a run;
- ``explained_hand``: a hand dealt around an *explanation* of a bid -- the
  top trumps of its suit, a four of a kind, or a run -- then filled at
  random.  A bid of 20 usually stands on a big declaration (four jacks
  are worth 200 points towards the contract); random deals almost never
  hold one, and worlds that do not explain the bid would have the bidder
  fail and tempt a ruinous contra.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.core.cards import Card
from engine.games.blot.declarations import NT_QUADS, SUIT_QUADS, run_value
from engine.games.blot.masks import INDEX, RANK_ORDER, SUIT_ORDER

STRAINS = ("C", "D", "H", "S", "NT")
#: bit of each rank in a suit byte (card index order: 7 8 9 T J Q K A)
BIT = {rank: i for i, rank in enumerate(RANK_ORDER)}
TRUMP_WEIGHT = {11: 26, 14: 14, 10: 11}
#: a plain K, Q or J: 0.3 of its points
PLAIN_WEIGHT = {13: 1.2, 12: 0.9, 11: 0.6}


def _has(byte: int, rank: int) -> bool:
    return bool(byte >> BIT[rank] & 1)


def _trump_value(byte: int) -> float:
    """A suit as trump: J 26, 9 18 (10 without the J in a short suit), A 14,
    T 11, others 6; 8 a card beyond three; -25 for one trump or none;
    belote 20."""
    ranks = [r for r in BIT if _has(byte, r)]
    n = len(ranks)
    value = 0.0
    for rank in ranks:
        if rank == 9:
            value += 18 if _has(byte, 11) or n >= 3 else 10
        else:
            value += TRUMP_WEIGHT.get(rank, 6)
    value += max(0, n - 3) * 8
    if n <= 1:
        value -= 25
    if _has(byte, 12) and _has(byte, 13):
        value += 20
    return value


def _plain_value(byte: int, nt: bool) -> float:
    value = 0.0
    for rank in BIT:
        if not _has(byte, rank):
            continue
        if rank == 14:
            value += 24 if nt else 14
        elif rank == 10:
            value += (12 if _has(byte, 14) else 4) + (6 if nt else 0)
        else:
            value += PLAIN_WEIGHT.get(rank, 0.0)
    return value


def _runs_value(byte: int) -> int:
    total, run = 0, 0
    for bit in range(9):
        if bit < 8 and byte >> bit & 1:
            run += 1
            continue
        if run >= 3:
            total += run_value(run)
        run = 0
    return total


TRUMP = tuple(_trump_value(b) for b in range(256))
PLAIN = tuple(_plain_value(b, False) for b in range(256))
PLAIN_NT = tuple(_plain_value(b, True) for b in range(256))
RUNS = tuple(_runs_value(b) for b in range(256))
#: a byte of the ranks held in all four suits -> four-of-a-kind points (suit, NT)
QUADS = tuple(
    (
        sum(v for r, v in SUIT_QUADS.items() if b >> BIT[r] & 1),
        sum(v for r, v in NT_QUADS.items() if b >> BIT[r] & 1),
    )
    for b in range(256)
)


def hand_mask(hand: Sequence[Card]) -> int:
    m = 0
    for c in hand:
        m |= 1 << INDEX[c]
    return m


def quick_values(hand: Sequence[Card]) -> dict[str, float]:
    """The heuristic's hand value for every contract type (module docstring)."""
    return mask_values(hand_mask(hand))


def mask_values(m: int) -> dict[str, float]:
    """``quick_values`` of the hand whose mask (``masks.INDEX``) is ``m``."""
    b = [(m >> (8 * k)) & 0xFF for k in range(4)]
    runs = RUNS[b[0]] + RUNS[b[1]] + RUNS[b[2]] + RUNS[b[3]]
    suit_quads, nt_quads = QUADS[b[0] & b[1] & b[2] & b[3]]
    plain = [PLAIN[x] for x in b]
    plain_sum = plain[0] + plain[1] + plain[2] + plain[3]
    values = {
        suit: runs + suit_quads + TRUMP[b[k]] + plain_sum - plain[k]
        for k, suit in enumerate(SUIT_ORDER)
    }
    nt = PLAIN_NT[b[0]] + PLAIN_NT[b[1]] + PLAIN_NT[b[2]] + PLAIN_NT[b[3]]
    values["NT"] = runs + nt_quads + nt
    return values


def _combo(cards: list[Card]) -> tuple[int, tuple[Card, ...]]:
    return hand_mask(cards), tuple(cards)


#: per run length, every run (as a mask and its cards)
RUN_COMBOS = {
    length: [
        _combo([Card(r, suit) for r in range(start, start + length)])
        for suit in SUIT_ORDER
        for start in range(7, 16 - length)
    ]
    for length in (3, 4, 5)
}
#: per contract kind (NT or not), every valued four of a kind
QUAD_COMBOS = {
    nt: [_combo([Card(r, s) for s in SUIT_ORDER]) for r in (NT_QUADS if nt else SUIT_QUADS)]
    for nt in (False, True)
}
#: per suit, its top trumps (J 9 A T)
TOP_TRUMPS = {suit: [Card(r, suit) for r in (11, 9, 14, 10)] for suit in SUIT_ORDER}


def explanation(strain: str, pool: Sequence[Card], rng: random.Random) -> list[Card]:
    """Cards a hand might hold to bid ``strain`` high, all from ``pool``
    (module docstring): a kind of explanation at random among those the
    pool allows -- the top trumps (aces and tens in NT), a four of a kind,
    a run (its length at random, then where) -- then one of that kind at
    random; [] when none fits."""
    have = hand_mask(pool)
    kinds: list[list[tuple[Card, ...]]] = []
    if strain == "NT":
        top = [c for c in pool if c.rank in (14, 10)]
        if len(top) >= 3:
            kinds.append([tuple(rng.sample(top, min(len(top), 4)))])
    else:
        held = [c for c in TOP_TRUMPS[strain] if have >> INDEX[c] & 1]
        if len(held) >= 2:
            kinds.append([tuple(held)])
    fours = [cards for mask, cards in QUAD_COMBOS[strain == "NT"] if mask & have == mask]
    if fours:
        kinds.append(fours)
    by_length = [
        runs
        for runs in (
            [cards for mask, cards in RUN_COMBOS[n] if mask & have == mask] for n in (3, 4, 5)
        )
        if runs
    ]
    if by_length:
        kinds.append(rng.choice(by_length))
    if not kinds:
        return []
    return list(rng.choice(rng.choice(kinds)))
